"""What the shipped model learned, measured by code against documented thresholds, and the scores'
definitions checked against a plain re-computation."""

import json

import numpy as np
import pytest

from attention_playground.model import (
    ROLE_THRESHOLDS,
    describe,
    evaluate,
    head_roles,
    head_scores,
    knock_out,
    next_word_change,
    role,
    run,
)
from attention_playground.model.checkpoint import shipped_checkpoint
from attention_playground.model.corpus import VOCABULARY
from attention_playground.model.evaluation import model_evaluation_set

#: Thresholds of the facts below (the roles' own thresholds are ROLE_THRESHOLDS in analysis.py).
REPEAT_ACCURACY = 0.9  # the model copies repeated runs
CHANCE = 1 / (len(VOCABULARY) - 1)
FIRST_RUN_AT_MOST = 3 * CHANCE  # "near chance": nothing can be copied in the first run
SINK = 0.5  # an induction head parks at least half its weight on <bos> where there is nothing to copy
KNOCKED_OUT_ACCURACY = 0.15  # without the previous-token head or the induction heads, copying breaks
DIFFUSE_REPEAT_LOSS = 0.2  # knocking out the other layer-0 head barely changes copying


@pytest.fixture(scope="module")
def roles(shipped_model):
    return head_roles(shipped_model)


def heads_named(roles, name, layer=None):
    return [pair for pair, head_role in roles.items() if head_role == name and layer in (None, pair[0])]


def test_layer_0_has_a_previous_token_head(roles):
    assert len(heads_named(roles, "previous-token", layer=0)) == 1


def test_layer_1_heads_are_induction_heads(roles, shipped_model):
    assert heads_named(roles, "induction") == [(1, head) for head in range(shipped_model.config.n_heads)]


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


def test_knocking_out_the_other_layer_0_head_leaves_copying_but_hurts_sentences(roles, shipped_model):
    (previous,) = heads_named(roles, "previous-token")
    (other,) = [(0, head) for head in range(shipped_model.config.n_heads) if (0, head) != previous]
    result = knock_out(shipped_model, [other])
    assert abs(result.change.repeat_loss) < DIFFUSE_REPEAT_LOSS
    assert result.change.sentence_loss > 0


def test_no_head_is_a_duplicate_token_head(shipped_model):
    # Not grown in this model (nor reliably in earlier runs): documented in the README, checked here.
    assert head_scores(shipped_model).duplicate_token.max() < ROLE_THRESHOLDS["duplicate-token"][1]


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
    ({"previous_token": 0.45, "induction": 0.9, "duplicate_token": 0, "first_token": 0.9}, "previous-token"),
    ({"previous_token": 0.1, "induction": 0.5, "duplicate_token": 0, "first_token": 0.9}, "induction"),
    ({"previous_token": 0.1, "induction": 0.1, "duplicate_token": 0.6, "first_token": 0.9}, "duplicate-token"),
    ({"previous_token": 0.1, "induction": 0.1, "duplicate_token": 0.1, "first_token": 0.6}, "first-token"),
    ({"previous_token": 0.3, "induction": 0.3, "duplicate_token": 0.3, "first_token": 0.3}, "diffuse"),
])
def test_roles_follow_the_documented_thresholds(scores, expected):
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
