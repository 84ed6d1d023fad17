"""What each head does, measured: attention scores per head, roles, and knock-outs.

Every score is an average of attention weights over the evaluation set's repeated runs (evaluation.py),
so each is a number between 0 and 1. In a run of length L, the token at position t > L is a repeat: it
occurred before at t - L (and at t - 2L, ... if the run has been round more than once).

- **previous-token score**: the mean, over every position t ≥ 1, of the weight on position t - 1.
- **induction score**: the mean, over every repeated position t > L, of the total weight on the tokens
  that came right after the earlier occurrences of the same token (positions t - kL + 1, k ≥ 1). An
  induction head looks there because that token is the best guess for what comes next.
- **duplicate-token score**: the same, but the weight on the earlier occurrences themselves (t - kL).
- **first-token score** (the "sink"): the mean, over the first run's positions 1 ≤ t ≤ L, where there is
  nothing to copy yet, of the weight on position 0 (`<bos>`). A head with nothing to find parks its
  weight there, because the weights of a row must add up to 1 somewhere.

Two scores are measured on sentences instead, each on a fixed set of its own (evaluation.py), every
sentence read alone after `<bos>` as a learner would type it:

- **pronoun score**: the mean weight at "it" on the animal it refers to, over the pronoun sentences of
  every word order; `PronounScores` also has the weight on the other nouns (the place, the person), the
  mean per word order, and what knocking a head out does to the probability of the animal's word after "it".
- **duplicate-token score on sentences**: at the second mention of a noun ("the fox came . the owl came .
  the fox left ."), the weight on its first mention; `SecondMentionScores` also has the weight on the word
  after the first mention (where an induction head reads) and on `<bos>`.

A **knock-out** zeroes a head's output (its z @ W_O is replaced by 0 before it is added to the residual
stream); the head is still run, but nothing it computed reaches the prediction. The change in loss and
accuracy then says whether the head mattered, which its weights alone cannot say.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..attention_maths import softmax
from ..wire import plain
from .corpus import ANIMALS, PEOPLE, WORD_INDEX
from .errors import check_knocked_out
from .evaluation import (
    Metrics,
    evaluate,
    model_evaluation_set,
    pronoun_evaluation_set,
    second_mention_set,
)
from .gradients import batched_logits, forward_batch
from .transformer import Model, forward, run

#: Head roles, tested in this order; a head gets the first whose score reaches its threshold.
#: For comparison: weight spread evenly over the tokens a row may read gives a previous-token score of
#: about 0.1 (the mean of 1 / (t + 1) over the positions), so 0.4 is four times that.
ROLE_THRESHOLDS: dict[str, tuple[str, float]] = {
    "previous-token": ("previous_token", 0.4),
    "induction": ("induction", 0.5),
    "pronoun": ("pronoun", 0.5),
    "duplicate-token": ("duplicate_token_sentences", 0.5),
    "first-token": ("first_token", 0.5),
}
#: The role of a head that reaches none of the thresholds: its weight is spread out.
DIFFUSE = "diffuse"
RUN_SCORE_NAMES = ("previous_token", "induction", "duplicate_token", "first_token")
SCORE_NAMES = (*RUN_SCORE_NAMES, "pronoun", "duplicate_token_sentences")


@dataclass(frozen=True)
class HeadScores:
    """Each score for every head, as an (n_layers, n_heads) array (see the module docstring)."""

    previous_token: np.ndarray
    induction: np.ndarray
    duplicate_token: np.ndarray
    first_token: np.ndarray
    pronoun: np.ndarray  # on the pronoun sentences (PronounScores.animal)
    duplicate_token_sentences: np.ndarray  # on the second-mention stories (SecondMentionScores.first_mention)

    def of(self, layer: int, head: int) -> dict[str, float]:
        return {name: float(getattr(self, name)[layer, head]) for name in SCORE_NAMES}


def head_scores(model: Model) -> HeadScores:
    """Measure every head's scores: on the evaluation set's repeated runs, and on its sentences."""
    L, H = model.config.n_layers, model.config.n_heads
    sums = {name: np.zeros((L, H)) for name in RUN_SCORE_NAMES}
    counts = dict.fromkeys(RUN_SCORE_NAMES, 0)
    for sequence in model_evaluation_set(model):
        if not sequence.is_repeated:
            continue
        inputs = np.array(sequence.ids[:-1])  # (n,)
        n, period = len(inputs), sequence.run_length
        weights = np.array(forward(model, inputs).weights)  # (L, H, n, n)
        t = np.arange(1, n)  # (n - 1,)
        sums["previous_token"] += weights[:, :, t, t - 1].sum(axis=-1)  # (L, H)
        counts["previous_token"] += len(t)
        for repeat in range(period + 1, n):
            earlier = np.arange(repeat - period, 0, -period)  # earlier occurrences of this token
            sums["induction"] += weights[:, :, repeat, earlier + 1].sum(axis=-1)  # (L, H)
            sums["duplicate_token"] += weights[:, :, repeat, earlier].sum(axis=-1)  # (L, H)
        counts["induction"] += n - period - 1
        counts["duplicate_token"] += n - period - 1
        first_run = np.arange(1, period + 1)  # positions with nothing to copy yet
        sums["first_token"] += weights[:, :, first_run, 0].sum(axis=-1)  # (L, H)
        counts["first_token"] += period
    return HeadScores(**{name: sums[name] / counts[name] for name in RUN_SCORE_NAMES},
                      pronoun=pronoun_scores(model).animal,
                      duplicate_token_sentences=second_mention_scores(model).first_mention)


@dataclass(frozen=True)
class PronounScores:
    """Where "it" reads, per head, over the pronoun evaluation set; each array is (n_layers, n_heads).

    - `animal`: mean weight on the animal "it" refers to (the pronoun score)
    - `other`: mean weight on the other nouns together (the place, and the person where there is one)
    - `by_order[order]`: `animal`, over the sentences of one word order
    - `other_by_order[order]`: `other`, over the sentences of one word order
    """

    animal: np.ndarray
    other: np.ndarray
    by_order: dict[str, np.ndarray]
    other_by_order: dict[str, np.ndarray]

    def best_head(self) -> tuple[int, int]:
        """The head that puts the most weight on the animal: the pronoun head, if one formed."""
        layer, head = np.unravel_index(int(np.argmax(self.animal)), self.animal.shape)
        return int(layer), int(head)


def by_length(sentences) -> dict[int, list]:
    """Sentences grouped by their length, so that each group is one batched forward pass with no padding."""
    groups: dict[int, list] = {}
    for sentence in sentences:
        groups.setdefault(len(sentence.words), []).append(sentence)
    return groups


def in_order_of_appearance() -> dict[str, list]:
    """An empty list per word order, in the order the evaluation set has them (docs/model.md's tables follow it)."""
    return {sentence.order: [] for sentence in pronoun_evaluation_set()}


def batch_ids(sentences) -> np.ndarray:
    """`<bos>` and the words of sentences of one length, as token indices (B, n)."""
    return np.array([[0] + [WORD_INDEX[word] for word in sentence.words] for sentence in sentences])


def pronoun_scores(model: Model) -> PronounScores:
    """Measure every head at "it" on the pronoun evaluation set (see `PronounScores`). The sentences run in
    batches of one length (gradients.forward_batch, held equal to `run`'s forward pass by a test)."""
    animal, other, by_order, other_by_order = [], [], in_order_of_appearance(), in_order_of_appearance()
    for group in by_length(pronoun_evaluation_set()).values():
        _, layers, _ = forward_batch(model.params, batch_ids(group), model.config)
        patterns = np.stack([layer.pattern for layer in layers], axis=1)  # (B, L, H, n, n)
        for sentence, weights in zip(group, patterns, strict=True):
            rows = weights[:, :, sentence.pronoun]  # (L, H, n)
            animal.append(rows[:, :, sentence.animal])  # (L, H)
            other.append(rows[:, :, list(sentence.others)].sum(axis=-1))  # (L, H)
            by_order[sentence.order].append(animal[-1])
            other_by_order[sentence.order].append(other[-1])
    mean_by_order = lambda table: {order: np.mean(values, axis=0) for order, values in table.items()}  # noqa: E731
    return PronounScores(np.mean(animal, axis=0), np.mean(other, axis=0), mean_by_order(by_order),
                         mean_by_order(other_by_order))


@dataclass(frozen=True)
class SoundProbability:
    """The probability of the animal's word after "it" (cat → purred), mean over the pronoun evaluation set,
    intact and with `knocked_out` knocked out, overall and per word order."""

    knocked_out: tuple[tuple[int, int], ...]
    intact: float
    knocked: float
    intact_by_order: dict[str, float]
    knocked_by_order: dict[str, float]

    @property
    def drop(self) -> float:
        return self.intact - self.knocked


def sound_probability(model: Model, knocked_out: Sequence[tuple[int, int]]) -> SoundProbability:
    """How knocking out `knocked_out` changes the probability of the animal's word after "it"."""
    pairs = check_knocked_out(list(knocked_out), model.config.n_layers, model.config.n_heads)
    intact, knocked = in_order_of_appearance(), in_order_of_appearance()
    for group in by_length(pronoun_evaluation_set()).values():
        ids = batch_ids(group)  # (B, n)
        for table, heads in ((intact, frozenset()), (knocked, frozenset(pairs))):
            probabilities = softmax(batched_logits(model.params, ids, model.config, heads))  # (B, n, V)
            for sentence, row in zip(group, probabilities, strict=True):
                table[sentence.order].append(row[sentence.pronoun, WORD_INDEX[sentence.sound]])
    everything = lambda table: float(np.mean([p for values in table.values() for p in values]))  # noqa: E731
    return SoundProbability(tuple(sorted(pairs)), everything(intact), everything(knocked),
                            {order: float(np.mean(values)) for order, values in intact.items()},
                            {order: float(np.mean(values)) for order, values in knocked.items()})


@dataclass(frozen=True)
class SecondMentionScores:
    """At the second mention of a noun, over the second-mention stories; arrays are (n_layers, n_heads).

    - `first_mention`: mean weight on the noun's first mention (the duplicate-token score on sentences)
    - `following`: mean weight on the word after the first mention (what an induction head reads)
    - `bos`: mean weight on `<bos>`
    - `accuracy`: how often the model's likeliest next word is the right one ("left"); `p_next` its mean
      probability
    """

    first_mention: np.ndarray
    following: np.ndarray
    bos: np.ndarray
    accuracy: float
    p_next: float


def second_mention_scores(model: Model) -> SecondMentionScores:
    """Measure every head at the second mention of a noun (see `SecondMentionScores`)."""
    first, following, bos, correct, p_next = [], [], [], [], []
    for story in second_mention_set():
        result = run(model, story.words)
        rows = np.array(result.weights)[:, :, story.second]  # (L, H, n)
        first.append(rows[:, :, story.first])
        following.append(rows[:, :, story.following])
        bos.append(rows[:, :, 0])
        target = WORD_INDEX[story.next_word]
        correct.append(int(np.argmax(result.probabilities[story.second])) == target)
        p_next.append(result.probabilities[story.second, target])
    return SecondMentionScores(np.mean(first, axis=0), np.mean(following, axis=0), np.mean(bos, axis=0),
                               float(np.mean(correct)), float(np.mean(p_next)))


def roles_reached(scores: dict[str, float]) -> list[str]:
    """Every role of ROLE_THRESHOLDS whose score a head reaches, in that order (a head may do two jobs: the
    shipped model's pronoun head is an induction head too); empty for a diffuse head."""
    return [name for name, (score, threshold) in ROLE_THRESHOLDS.items() if scores[score] >= threshold]


def role(scores: dict[str, float]) -> str:
    """A head's role from its scores: the first of ROLE_THRESHOLDS it reaches, else "diffuse"."""
    reached = roles_reached(scores)
    return reached[0] if reached else DIFFUSE


def head_roles(model: Model, scores: HeadScores | None = None) -> dict[tuple[int, int], str]:
    """Every head's role, by (layer, head)."""
    scores = head_scores(model) if scores is None else scores
    return {(layer, head): role(scores.of(layer, head)) for layer, head in model.heads}


def heads_with_role(roles: dict[tuple[int, int], str], name: str) -> list[tuple[int, int]]:
    return [pair for pair, head_role in roles.items() if head_role == name]


@dataclass(frozen=True)
class KnockOut:
    """The evaluation metrics with some heads knocked out, and their change from the intact model."""

    label: str  # "L0H1", or a group such as "all induction heads"
    heads: tuple[tuple[int, int], ...]
    metrics: Metrics
    change: Metrics  # knocked-out minus intact, field by field


def knock_out(model: Model, heads: Sequence[tuple[int, int]], label: str | None = None,
              baseline: Metrics | None = None) -> KnockOut:
    """Evaluate the model with `heads` knocked out (each head's output zeroed)."""
    pairs = check_knocked_out(list(heads), model.config.n_layers, model.config.n_heads)
    baseline = evaluate(model) if baseline is None else baseline
    metrics = evaluate(model, pairs)
    change = Metrics(**{key: value - getattr(baseline, key) for key, value in metrics.to_dict().items()})
    label = label or ", ".join(head_label(layer, head) for layer, head in sorted(pairs))
    return KnockOut(label, tuple(sorted(pairs)), metrics, change)


def head_label(layer: int, head: int) -> str:
    """A head's short name: layer 1, head 0 is "L1H0"."""
    return f"L{layer}H{head}"


def knock_out_table(model: Model, roles: dict[tuple[int, int], str] | None = None) -> list[KnockOut]:
    """Each head knocked out alone, then every induction head together."""
    roles = head_roles(model) if roles is None else roles
    baseline = evaluate(model)
    table = [knock_out(model, [pair], baseline=baseline) for pair in model.heads]
    induction = heads_with_role(roles, "induction")
    if len(induction) > 1:
        table.append(knock_out(model, induction, "all induction heads", baseline))
    return table


@dataclass(frozen=True)
class NextWordChange:
    """For one sentence: the probability of each actual next word, intact and with heads knocked out.

    Position i of each array is about the word after token i (`tokens[i + 1]`), so each has n - 1 entries.
    """

    tokens: list[str]
    knocked_out: tuple[tuple[int, int], ...]
    intact: np.ndarray  # (n - 1,)
    knocked: np.ndarray  # (n - 1,)

    @property
    def change(self) -> np.ndarray:
        return self.knocked - self.intact  # (n - 1,)


def next_word_change(model: Model, words, knocked_out: Sequence[tuple[int, int]]) -> NextWordChange:
    """How knocking out `knocked_out` changes the probability the model gives each next word of `words`."""
    intact, knocked = run(model, words), run(model, words, knocked_out)
    positions = np.arange(len(intact.tokens) - 1)  # (n - 1,)
    following = intact.ids[1:]  # (n - 1,)
    return NextWordChange(
        tokens=intact.tokens,
        knocked_out=tuple(sorted(knocked.knocked_out)),
        intact=intact.probabilities[positions, following],
        knocked=knocked.probabilities[positions, following],
    )


def top_predictions(model: Model, words, position: int, k: int = 3, knocked_out=()) -> list[tuple[str, float]]:
    """The k words the model finds likeliest after the token at `position` (0 is `<bos>`), with probabilities."""
    probabilities = run(model, words, knocked_out).probabilities[position]  # (d_vocab,)
    best = np.argsort(-probabilities, kind="stable")[:k]
    return [(model.vocabulary[i], float(probabilities[i])) for i in best]


def head_summary(model: Model) -> dict:
    """What a card per head shows of the model: config, vocabulary, training steps, the role thresholds and every
    head's scores and role. (A third of `summary`'s time in Pyodide: the knock-outs and the sentences are the rest.)"""
    scores = head_scores(model)
    roles = head_roles(model, scores)
    return {
        "config": model.config.to_dict(),
        "vocabulary": list(model.vocabulary),
        "steps": model.steps,
        "role_thresholds": {name: {"score": score, "at_least": threshold}
                            for name, (score, threshold) in ROLE_THRESHOLDS.items()},
        "heads": [
            {"layer": layer, "head": head, "label": head_label(layer, head), "role": roles[(layer, head)],
             "scores": scores.of(layer, head)}
            for layer, head in model.heads
        ],
    }


def summary(model: Model) -> dict:
    """What the page says of the model, as measured: `head_summary`, and the metrics, every head's knock-out
    effect and the facts measured on sentences (`_sentence_summary`). Scores come as they are measured,
    (n_layers, n_heads) arrays and NumPy numbers; `describe` writes them out as plain data."""
    heads = head_summary(model)
    roles = {(entry["layer"], entry["head"]): entry["role"] for entry in heads["heads"]}
    knock_outs = knock_out_table(model, roles)
    # Key by key, in the order the shipped checkpoint's summary was written in (a retrained one then reads the same).
    return {
        **_sentence_summary(model),
        "config": heads["config"],
        "vocabulary": heads["vocabulary"],
        "steps": heads["steps"],
        "metrics": evaluate(model).to_dict(),
        "role_thresholds": heads["role_thresholds"],
        "heads": heads["heads"],
        "knock_outs": [
            {"label": entry.label, "heads": entry.heads, "metrics": entry.metrics.to_dict(),
             "change": entry.change.to_dict()}
            for entry in knock_outs
        ],
    }


def describe(model: Model, heads_only: bool = False) -> dict:
    """A JSON-ready summary for the page (the checkpoint stores it too): `summary(model)` (or, with
    `heads_only`, `head_summary(model)`) written out by the module's one boundary, wire.plain (arrays as lists,
    NumPy numbers as Python ones)."""
    return plain(head_summary(model) if heads_only else summary(model))


#: The tutorial's sentence: "it" should find "cat", not "mat".
TUTORIAL_SENTENCE = "the cat sat on the mat because it was tired"


#: A head "reads the animal" when its pronoun score reaches this (whatever its role).
READS_ANIMAL = 0.5


def heads_reading_the_animal(model: Model, pronoun: PronounScores | None = None) -> list[tuple[int, int]]:
    """Every head whose pronoun score is at least READS_ANIMAL: the pronoun head, and others that share its read."""
    pronoun = pronoun_scores(model) if pronoun is None else pronoun
    return [pair for pair in model.heads if pronoun.animal[pair] >= READS_ANIMAL]


def pronoun_head(model: Model, pronoun: PronounScores | None = None) -> tuple[int, int]:
    """The pronoun head: of the heads that read the animal, the one whose knock-out lowers the probability of
    the animal's word after "it" the most (a head is shown by where it reads *and* by what removing it changes;
    several heads may read the animal, and the one that reads it most need not be the one the prediction
    rests on). Its role may still be another (an induction head can read the animal at "it" too)."""
    pronoun = pronoun_scores(model) if pronoun is None else pronoun
    readers = heads_reading_the_animal(model, pronoun) or [pronoun.best_head()]
    return max(readers, key=lambda pair: sound_probability(model, [pair]).drop)


def pronoun_knock_outs(model: Model) -> list[tuple[str, SoundProbability]]:
    """The animal's word after "it" with the pronoun head knocked out, then with every head that reads the
    animal knocked out together, if there are several."""
    pronoun = pronoun_scores(model)
    best = pronoun_head(model, pronoun)
    table = [(head_label(*best), sound_probability(model, [best]))]
    readers = heads_reading_the_animal(model, pronoun)
    if len(readers) > 1:
        labels = ", ".join(head_label(*pair) for pair in readers)
        table.append((f"every head that reads the animal ({labels})", sound_probability(model, readers)))
    return table


def tutorial_reads(model: Model, layer: int, head: int, words: str = TUTORIAL_SENTENCE) -> dict[str, float]:
    """The head's weights at "it" on the tutorial's sentence, keyed by the words read (cat, mat, ...)."""
    result = run(model, words)
    row = result.weights[layer][head][result.tokens.index("it")]  # (n,)
    reads: dict[str, float] = {}
    for token, weight in zip(result.tokens, row, strict=True):
        reads[token] = reads.get(token, 0.0) + weight
    return reads


#: The nouns a second mention can name: the story world's animals and people (corpus.py).
MENTIONABLE = frozenset((*ANIMALS, *PEOPLE))


def second_mention(tokens: Sequence[str]) -> int | None:
    """The position of the first noun (an animal or a person) named a second time in `tokens`, or None."""
    seen: set[str] = set()
    for position, token in enumerate(tokens):
        if token in MENTIONABLE and token in seen:
            return position
        seen.add(token)
    return None


def _sentence_summary(model: Model) -> dict:
    """summary()'s facts measured on sentences: the pronoun head and the second mention."""
    pronoun = pronoun_scores(model)
    layer, head = pronoun_head(model, pronoun)
    reads = tutorial_reads(model, layer, head)
    mention = second_mention_scores(model)
    return {
        "pronoun": {
            "head": [layer, head],
            "label": head_label(layer, head),
            "by_order_of_head": {order: values[layer, head] for order, values in pronoun.by_order.items()},
            "animal": pronoun.animal,  # (n_layers, n_heads)
            "other": pronoun.other,  # (n_layers, n_heads)
            "by_order": pronoun.by_order,  # {order: (n_layers, n_heads)}
            "tutorial": {"words": TUTORIAL_SENTENCE, "cat": reads["cat"], "mat": reads["mat"]},
            "knock_outs": [
                {"label": label, "heads": entry.knocked_out, "intact": entry.intact,
                 "knocked": entry.knocked, "drop": entry.drop, "intact_by_order": entry.intact_by_order,
                 "knocked_by_order": entry.knocked_by_order}
                for label, entry in pronoun_knock_outs(model)
            ],
        },
        "second_mention": {
            "first_mention": mention.first_mention,  # (n_layers, n_heads)
            "following": mention.following,  # (n_layers, n_heads)
            "bos": mention.bos,  # (n_layers, n_heads)
            "accuracy": mention.accuracy,
            "p_next": mention.p_next,
        },
    }


#: The Part 6 head built by hand: the preset whose hand-set Wq and Wk make "it" look for an animal noun.
DESIGNED_PRESET = "it-animal-noun"


def designed_reads() -> dict[str, float]:
    """The hand-set Part 6 head (preset DESIGNED_PRESET) at "it": its weight on each word, keyed by the word."""
    from ..scene_stages import compute_scene
    from ..presets import load_preset

    scene = load_preset(DESIGNED_PRESET)
    weights = compute_scene(scene).heads[0].stages.weights  # (n, n)
    tokens = list(scene["tokens"])
    reads: dict[str, float] = {}
    for token, weight in zip(tokens, weights[tokens.index("it")], strict=True):
        reads[token] = reads.get(token, 0.0) + weight
    return reads
