"""What the shipped model learned, measured by code against documented thresholds, and the scores'
definitions checked against a plain re-computation."""

import json
from dataclasses import replace

import numpy as np
import pytest

from attention_playground.model import (
    ROLE_THRESHOLDS,
    TrainConfig,
    Trainer,
    describe,
    evaluate,
    head_roles,
    head_scores,
    knock_out,
    next_word_change,
    role,
    run,
)
from attention_playground.model.analysis import (
    TUTORIAL_SENTENCE,
    pronoun_head,
    pronoun_knock_outs,
    pronoun_scores,
    second_mention_scores,
    sound_probability,
    tutorial_reads,
)
from attention_playground.model.checkpoint import shipped_checkpoint
from attention_playground.model.corpus import ANIMAL_SOUNDS, PEOPLE, PLACES, PRONOUN_ORDERS, VOCABULARY
from attention_playground.model.evaluation import model_evaluation_set, pronoun_evaluation_set, second_mention_set
from training_cost import seeds_to_train

#: Thresholds of the facts below (the roles' own thresholds are ROLE_THRESHOLDS in analysis.py).
REPEAT_ACCURACY = 0.9  # the model copies repeated runs
CHANCE = 1 / (len(VOCABULARY) - 1)
FIRST_RUN_AT_MOST = 3 * CHANCE  # "near chance": nothing can be copied in the first run
SINK = 0.5  # an induction head parks at least half its weight on <bos> where there is nothing to copy
KNOCKED_OUT_ACCURACY = 0.15  # without the previous-token head or the induction heads, copying breaks
DIFFUSE_REPEAT_LOSS = 0.2  # knocking out the other layer-0 head barely changes copying
ON_CAT, ON_MAT = 0.8, 0.1  # the pronoun head on the tutorial's sentence: at least 0.8 on "cat", at most 0.1 on "mat"
ON_ANIMAL = 0.8  # its mean weight on the animal, in every word order
SOUND_DROP = 0.5  # knocking it out lowers the probability of the animal's word after "it" by at least this


@pytest.fixture(scope="module")
def roles(shipped_model):
    return head_roles(shipped_model)


def heads_named(roles, name, layer=None):
    return [pair for pair, head_role in roles.items() if head_role == name and layer in (None, pair[0])]


def test_layer_0_has_a_previous_token_head(roles):
    assert len(heads_named(roles, "previous-token", layer=0)) == 1


def test_induction_heads_form_in_layer_1(roles):
    induction = heads_named(roles, "induction")
    assert induction and all(layer == 1 for layer, _ in induction)


def test_induction_heads_park_on_bos_where_there_is_nothing_to_copy(roles, shipped_model):
    scores = head_scores(shipped_model)
    for layer, head in heads_named(roles, "induction"):
        assert scores.first_token[layer, head] >= SINK


def test_the_model_copies_repeats_and_guesses_at_chance_in_the_first_run(shipped_model):
    metrics = evaluate(shipped_model)
    assert metrics.repeat_accuracy >= REPEAT_ACCURACY
    assert metrics.first_run_accuracy <= FIRST_RUN_AT_MOST


def test_knocking_out_the_previous_token_head_or_the_induction_heads_breaks_copying(roles, shipped_model):
    baseline = evaluate(shipped_model)
    for heads in (heads_named(roles, "previous-token"), heads_named(roles, "induction")):
        assert knock_out(shipped_model, heads, baseline=baseline).metrics.repeat_accuracy < KNOCKED_OUT_ACCURACY


def test_knocking_out_the_other_layer_0_heads_leaves_copying_but_hurts_sentences(roles, shipped_model):
    (previous,) = heads_named(roles, "previous-token")
    others = [(0, head) for head in range(shipped_model.config.n_heads) if (0, head) != previous]
    baseline = evaluate(shipped_model)
    for other in others:
        result = knock_out(shipped_model, [other], baseline=baseline)
        assert abs(result.change.repeat_loss) < DIFFUSE_REPEAT_LOSS
        assert result.change.sentence_loss > 0


def test_no_head_is_a_duplicate_token_head_the_induction_route_finds_the_repeat(shipped_model):
    # Not grown in this model (nor in the earlier tries): documented in docs/model.md with what it does instead.
    threshold = ROLE_THRESHOLDS["duplicate-token"][1]
    assert head_scores(shipped_model).duplicate_token.max() < threshold
    mention = second_mention_scores(shipped_model)
    assert mention.first_mention.max() < threshold
    # Instead a layer-1 head reads the word after the first mention, and the model predicts "left" from it.
    assert mention.following[1].max() >= threshold and mention.accuracy >= 0.5


def test_scores_match_a_plain_recomputation_of_their_definitions(shipped_model):
    previous, induction, duplicate, first = [], [], [], []
    for sequence in model_evaluation_set(shipped_model):
        if not sequence.is_repeated:
            continue
        ids = list(sequence.ids[:-1])
        L = sequence.run_length
        weights = run(shipped_model, [VOCABULARY[i] for i in ids[1:]]).weights[1][0]
        n = len(ids)
        for t in range(1, n):
            previous.append(weights[t, t - 1])
            earlier = [s for s in range(1, t) if ids[s] == ids[t]]  # found by comparing tokens, not positions
            if earlier:
                induction.append(sum(weights[t, s + 1] for s in earlier))
                duplicate.append(sum(weights[t, s] for s in earlier))
            elif t <= L:
                first.append(weights[t, 0])
    scores = head_scores(shipped_model)
    assert scores.previous_token[1, 0] == pytest.approx(np.mean(previous), abs=1e-12)
    assert scores.induction[1, 0] == pytest.approx(np.mean(induction), abs=1e-12)
    assert scores.duplicate_token[1, 0] == pytest.approx(np.mean(duplicate), abs=1e-12)
    assert scores.first_token[1, 0] == pytest.approx(np.mean(first), abs=1e-12)


@pytest.mark.parametrize(("scores", "expected"), [
    ({"previous_token": 0.45, "induction": 0.9, "pronoun": 0.9, "first_token": 0.9}, "previous-token"),
    ({"previous_token": 0.1, "induction": 0.5, "pronoun": 0.9, "first_token": 0.9}, "induction"),
    ({"previous_token": 0.1, "induction": 0.1, "pronoun": 0.5, "duplicate_token_sentences": 0.9}, "pronoun"),
    ({"previous_token": 0.1, "induction": 0.1, "duplicate_token_sentences": 0.6, "first_token": 0.9},
     "duplicate-token"),
    ({"previous_token": 0.1, "induction": 0.1, "duplicate_token": 0.9, "first_token": 0.6}, "first-token"),
    ({"previous_token": 0.3, "induction": 0.3, "pronoun": 0.3, "first_token": 0.3}, "diffuse"),
])
def test_roles_follow_the_documented_thresholds(scores, expected):
    scores = {"previous_token": 0, "induction": 0, "duplicate_token": 0, "first_token": 0, "pronoun": 0,
              "duplicate_token_sentences": 0, **scores}
    assert role(scores) == expected


def test_next_word_change_compares_each_next_words_probability(shipped_model):
    words = "the fox met a crow and the fox smiled"
    change = next_word_change(shipped_model, words, [(1, 0), (1, 1)])
    intact, knocked = run(shipped_model, words), run(shipped_model, words, [(1, 0), (1, 1)])
    for i, following in enumerate(intact.ids[1:]):
        assert change.intact[i] == intact.probabilities[i, following]
        assert change.knocked[i] == knocked.probabilities[i, following]
    assert change.change.shape == (len(words.split()),)


def test_describe_is_json_ready_and_is_the_checkpoints_summary(shipped_model):
    summary = describe(shipped_model)
    json.dumps(summary, allow_nan=False)
    stored = shipped_checkpoint()["summary"]
    assert summary.keys() == stored.keys()
    assert [head["role"] for head in summary["heads"]] == [head["role"] for head in stored["heads"]]
    assert _close(summary, stored)


def _close(a, b, tolerance=1e-9):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_close(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return abs(a - b) <= tolerance
    return a == b


@pytest.fixture(scope="module")
def pronoun(shipped_model):
    return pronoun_scores(shipped_model)


@pytest.fixture(scope="module")
def chosen(shipped_model, pronoun):
    """The pronoun head, as analysis.py chooses it."""
    return pronoun_head(shipped_model, pronoun)


def test_the_pronoun_head_is_the_reader_of_the_animal_whose_knock_out_matters_most(shipped_model, pronoun, chosen):
    readers = [pair for pair in shipped_model.heads if pronoun.animal[pair] >= 0.5]
    assert chosen in readers
    drops = {pair: sound_probability(shipped_model, [pair]).drop for pair in readers}
    assert drops[chosen] == max(drops.values())


def test_a_learned_head_reads_the_cat_not_the_mat_on_the_tutorials_sentence(shipped_model, chosen):
    layer, head = chosen
    reads = tutorial_reads(shipped_model, layer, head)
    assert reads["cat"] >= ON_CAT and reads["mat"] <= ON_MAT
    # Read as a learner types it, capitals and full stop included, the sentence is the same.
    typed = run(shipped_model, "The Cat sat on the mat because it was tired.")
    assert typed.tokens[:-1] == run(shipped_model, TUTORIAL_SENTENCE).tokens and typed.tokens[-1] == "."


def test_the_pronoun_head_reads_the_animal_in_every_word_order(pronoun, chosen):
    layer, head = chosen
    assert set(pronoun.by_order) == set(PRONOUN_ORDERS)
    for order, animal in pronoun.by_order.items():
        assert animal[layer, head] >= ON_ANIMAL, order
    assert pronoun.other[layer, head] < 1 - ON_ANIMAL


def test_knocking_the_pronoun_head_out_takes_away_the_animals_word(shipped_model, chosen):
    (_, alone), *together = pronoun_knock_outs(shipped_model)
    assert alone.knocked_out == (chosen,) and alone.drop >= SOUND_DROP
    assert alone.drop == pytest.approx(alone.intact - alone.knocked)
    for _, entry in together:  # with the other heads that read the animal, if any, it falls further
        assert entry.drop >= alone.drop


def test_sentence_scores_match_a_plain_recomputation(shipped_model, pronoun, chosen):
    layer, head = chosen
    on_animal, on_others, sound, others_by_order = [], [], [], {}
    for sentence in pronoun_evaluation_set():
        result = run(shipped_model, " ".join(sentence.words))
        tokens = result.tokens
        it = tokens.index("it")  # found by reading the words, not from the set's positions
        animals = [i for i in range(it) if tokens[i] in ANIMAL_SOUNDS]
        others = [i for i in range(it) if tokens[i] in PLACES or tokens[i] in PEOPLE]
        on_animal.append(result.weights[layer][head][it, animals[-1]])
        on_others.append(sum(result.weights[layer][head][it, i] for i in others))
        others_by_order.setdefault(sentence.order, []).append(on_others[-1])
        sound.append(result.probabilities[it, VOCABULARY.index(ANIMAL_SOUNDS[tokens[animals[-1]]])])
    assert pronoun.animal[layer, head] == pytest.approx(np.mean(on_animal), abs=1e-12)
    assert pronoun.other[layer, head] == pytest.approx(np.mean(on_others), abs=1e-12)
    assert list(pronoun.other_by_order) == list(others_by_order)
    for order, values in others_by_order.items():
        assert pronoun.other_by_order[order][layer, head] == pytest.approx(np.mean(values), abs=1e-12)
    assert sound_probability(shipped_model, []).intact == pytest.approx(np.mean(sound), abs=1e-12)

    mention = second_mention_scores(shipped_model)
    first, after = [], []
    for story in second_mention_set():
        tokens = ["<bos>", *story.words]
        nouns = [i for i, token in enumerate(tokens) if tokens[i - 1] == "the"]
        second = next(i for i in nouns if tokens[i] in {tokens[j] for j in nouns if j < i})
        earlier = next(j for j in nouns if tokens[j] == tokens[second])
        weights = run(shipped_model, list(story.words)).weights[layer][head]
        first.append(weights[second, earlier])
        after.append(weights[second, earlier + 1])
    assert mention.first_mention[layer, head] == pytest.approx(np.mean(first), abs=1e-12)
    assert mention.following[layer, head] == pytest.approx(np.mean(after), abs=1e-12)


#: The across-seeds test of the pronoun head: the cheapest training that shows it forming (sentences only,
#: 16 words, stopped as soon as a head puts ON_ANIMAL on the animal, measured every PRONOUN_CHECK_EVERY steps).
#: Measured when written: all 5 seeds formed it, after 150-250 steps, 24 s of CPU time for the five natively
#: (batches of 8 took more steps and saved nothing).
PRONOUN_SEEDS = seeds_to_train((1, 2, 3, 4, 5))
#: How many of them must grow the head: four of five natively; the one trained inside Pyodide must.
PRONOUN_MUST_GROW = len(PRONOUN_SEEDS) - 1 if len(PRONOUN_SEEDS) > 1 else 1
PRONOUN_MOST_STEPS = 400
PRONOUN_CHECK_EVERY = 25
PRONOUN_CONFIG = TrainConfig(repeat_fraction=0.0, max_words=16, steps=PRONOUN_MOST_STEPS)


def grows_a_pronoun_head(seed: int) -> bool:
    trainer = Trainer(replace(PRONOUN_CONFIG, seed=seed))
    while not trainer.done:
        trainer.step()
        if trainer.steps % PRONOUN_CHECK_EVERY == 0 and pronoun_scores(trainer.model).animal.max() >= ON_ANIMAL:
            return True
    return False


def test_at_least_four_of_five_seeds_grow_the_pronoun_head():
    grown = [seed for seed in PRONOUN_SEEDS if grows_a_pronoun_head(seed)]
    assert len(grown) >= PRONOUN_MUST_GROW, f"only seeds {grown} grew a head that reads the animal"
