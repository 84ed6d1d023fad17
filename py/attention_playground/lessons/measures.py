"""What a lesson can measure on a scene: every expected answer is one of these, computed when it is asked for.

A measure is a small table, `{of = "change", row = "it", column = "cat", variant = {Wq = "times 2"}}`; `measure(spec,
at)` computes it on the scene at hand and gives its value with a sentence made from the numbers. Its value is a
number, a word (its 0-based row), a shape, or one of a few outcomes, which is what a multiple choice's options
name (`OUTCOMES`).

| of | keys (required first) | value |
|---|---|---|
| cell | row, column (not for total); stage, head, variant | the number in that cell of the stage |
| shape | stage; head | [rows, columns] of the stage ([rows] for total) |
| change | row, column, variant; stage, head | how the cell moves in the variant: rises, falls or stays |
| row-state | row; head, variant | what the row's weights are: numbers, nan or zeros |
| blocked | head | the weights on the cells the mask blocks: zero, positive, or none (it blocks nothing) |
| sums | head | which add up to 1 in the weights: rows, columns, both or neither |
| output-moves | word, variant (with order) | the word's output after the reorder: same (only moved) or different |
| top | row; head, variant | the word the row puts the most weight on |
| effect | row; variant | the word whose knock-out (no word may read it) moves the row's output the most |
| reads-most | column; head | how many rows with a choice read `column` most: none, some, most or all |
| scaling | d, scaled | the Part 7 experiment's average top weight at d (the page's "Why ÷√d" panel) |
| scaling-trend | scaled | how that average moves from the smallest d to the largest: rises, falls or stays |
| claim | claim, quantity | the model trained without the claim's choice against the one with it: lower, higher or same |

`stage` is one of misconceptions.LESSON_STAGES (default "weights"); `head` the head's number counted from 0 or its
name (default 0); `variant` a variants.py table. A claim is measured from the claim's test as the page ran it
(`evidence`: the two models' losses and metrics), since training takes the page seconds, not an answer's
milliseconds. The thresholds that decide "stays" and "same" are named below.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, NamedTuple

import numpy as np

from ..scene_stages import ComputedScene, compute_scene
from ..experiments import knock_out_word, scaling_experiment
from ..scene import SceneError
from .misconceptions import LESSON_STAGES, WORD_COLUMN_STAGES, stages_as
from .mistakes import LessonInputError
from .variants import apply_variant, find_head, plain, read_order
from .words import describe_value, find_label, find_word, name_word, number, percent, quote, whole_number

#: A cell "stays" when it moves by less than this: under 0.05 percentage points of a weight, less than the page's
#: one decimal of a percentage can show.
STAYS_WITHIN = 0.0005
#: Two weights this close are tied: the row reads both equally (a question about "the" top word refuses a tie).
TIED_WITHIN = 1e-9
#: A row or column adds up to 1 when it is within this of 1.
SUMS_WITHIN = 1e-9
#: A word's output is "the same" after a reorder when it moved by less than this: adding the same numbers in
#: another order, not the scene (experiments.ROUNDING).
SAME_OUTPUT_WITHIN = 1e-12
#: The Part 7 average "stays" from the smallest d to the largest when it moves by less than this.
SCALING_STAYS_WITHIN = 0.05
#: A claim's two training losses (nats) are "the same" when they differ by less than this; the two accuracies when
#: they differ by less than SAME_ACCURACY_WITHIN.
SAME_LOSS_WITHIN = 0.1
SAME_ACCURACY_WITHIN = 0.1
#: A training loss is read as the mean of its last steps: a tenth of them, at least this many.
LAST_STEPS = 10

#: The outcomes of each categorical measure: a multiple choice's options must name values among these.
OUTCOMES: dict[str, tuple[str, ...]] = {
    "change": ("rises", "falls", "stays"),
    "row-state": ("numbers", "nan", "zeros"),
    "blocked": ("zero", "positive", "none"),
    "sums": ("rows", "columns", "both", "neither"),
    "output-moves": ("same", "different"),
    "reads-most": ("none", "some", "most", "all"),
    "scaling-trend": ("rises", "falls", "stays"),
    "claim": ("lower", "higher", "same"),
}
#: What the value of each measure is: "number", "word" (a row), "shape" or "outcome" (one of OUTCOMES).
VALUE_KINDS: dict[str, str] = {
    "cell": "number", "shape": "shape", "top": "word", "effect": "word", "scaling": "number",
    **{name: "outcome" for name in OUTCOMES},
}
#: The claims' quantities: the training loss (the mean of the last steps) or the claim's measured accuracy.
CLAIM_QUANTITIES = ("training-loss", "accuracy")


class Measured(NamedTuple):
    """A measure's value and the sentence that says it, from the numbers."""

    value: Any  # a float, a word's 0-based row, [rows, columns], or an outcome
    sentence: str
    details: dict[str, Any] = {}  # numbers the page may show beside the sentence (plain data)


class SceneAtHand:
    """A scene, checked and computed once, with its variants and stages computed when first asked for."""

    def __init__(self, scene: Mapping[str, Any]):
        self.plain = plain(scene)
        self.computed: ComputedScene = compute_scene(self.plain)  # SceneError for a scene the module refuses
        self._stages: dict[tuple[int, str], dict[str, np.ndarray]] = {}

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.computed.scene.tokens

    def head(self, ref: Any, field: str = "head") -> int:
        return find_head(0 if ref is None else ref, self.plain, field)

    def stages(self, head: int, misconception: str = "right") -> dict[str, np.ndarray]:
        key = (head, misconception)
        if key not in self._stages:
            self._stages[key] = stages_as(self.computed, head, misconception)
        return self._stages[key]

    def variant(self, variant: Any, field: str = "variant") -> SceneAtHand:
        """The scene with `variant` applied, computed; a variant that makes a scene the module refuses is the
        question's mistake."""
        changed = apply_variant(self.plain, variant, field)
        try:
            return SceneAtHand(changed)
        except SceneError as error:
            raise LessonInputError(f"the variant makes a scene the module refuses: {error.message}", field) from None

    def row(self, ref: Any, field: str = "row") -> int:
        return find_word(ref, self.tokens, field)


def keys(spec: Mapping[str, Any], required: tuple[str, ...], optional: tuple[str, ...], what: str) -> None:
    """Refuse a table with a key it may not have, or without one it needs."""
    for key in spec:
        if key not in required + optional:
            raise LessonInputError(f"{what} has no key {quote(str(key))}; it takes {', '.join(required + optional)}",
                                   str(key))
    for key in required:
        if key not in spec:
            raise LessonInputError(f"{what} needs {quote(key)}", key)


def stage_name(value: Any, field: str = "stage") -> str:
    if value not in LESSON_STAGES:
        raise LessonInputError(f"stage is one of {', '.join(LESSON_STAGES)}; got {describe_value(value)}", field)
    return value


def column_index(at: SceneAtHand, stage: str, head: int, ref: Any, field: str = "column") -> int:
    """The 0-based column of a stage that `ref` names: a word, a dim or a value dim, as the stage's columns are."""
    if stage in WORD_COLUMN_STAGES:
        return find_word(ref, at.tokens, field)
    parsed = at.computed.heads[head].head
    if stage in ("Q", "K"):
        return find_label(ref, parsed.dims, field, "dim")
    return find_label(ref, parsed.value_dims, field, "value dim")


#: How a sentence names each stage's cell.
STAGE_WORDS = {
    "Q": "query", "K": "key", "V": "value", "scores": "score", "scaled": "scaled score", "masked": "masked score",
    "exp": "exponential", "total": "total of the exponentials", "weights": "weight",
    "output": "output",
}


def column_name(at: SceneAtHand, stage: str, head: int, column: int) -> str:
    if stage in WORD_COLUMN_STAGES:
        return name_word(at.tokens, column)
    parsed = at.computed.heads[head].head
    return quote((parsed.dims if stage in ("Q", "K") else parsed.value_dims)[column])


def cell_phrase(at: SceneAtHand, stage: str, head: int, row: int, column: int | None) -> str:
    """“man” on “dog”: the cell a sentence is about, in words."""
    if column is None:
        return f"the {STAGE_WORDS[stage]} of {name_word(at.tokens, row)}"
    if stage == "weights":
        return f"the weight {name_word(at.tokens, row)} puts on {column_name(at, stage, head, column)}"
    if stage in WORD_COLUMN_STAGES:
        return (f"the {STAGE_WORDS[stage]} of {name_word(at.tokens, row)} asking and "
                f"{column_name(at, stage, head, column)} answering")
    return f"the {STAGE_WORDS[stage]} of {name_word(at.tokens, row)} in {column_name(at, stage, head, column)}"


def upper_first(text: str) -> str:
    """A sentence's first letter in capitals, the rest as written (names keep their case: Wq, ÷√d)."""
    return text[:1].upper() + text[1:]


def show_value(stage: str, value: float) -> str:
    """A stage's number as a sentence shows it: a weight with its percentage."""
    if stage == "weights" and math.isfinite(value):
        return f"{number(value)} ({percent(value)})"
    return number(value)


def describe_variant(variant: Mapping[str, Any]) -> str:
    """“with Wq times 2”: what a variant changes, in words."""
    parts = []
    for name in ("Wq", "Wk", "Wv"):
        if name in variant:
            value = str(variant[name])
            parts.append(f"{name} {value}" if value.startswith("times") else f"{name} a copy of {value}")
    for switch, words in (("scale", "÷√d"), ("shift", "the shift"), ("positions", "positions")):
        if switch in variant:
            setting = variant[switch]
            parts.append(f"{words} {setting}" if switch == "positions" else f"{words} {'on' if setting else 'off'}")
    if "mask" in variant:
        parts.append("the mask flipped" if variant["mask"] == "transposed" else f"the mask {variant['mask']}")
    if "order" in variant:
        parts.append("the words in the order " + " ".join(str(word).split("#")[0] for word in variant["order"]))
    if variant.get("edits"):
        count = len(variant["edits"])
        parts.append(f"{count} cell{'s' if count > 1 else ''} changed")
    return "with " + (", ".join(parts) if parts else "one thing changed")


def _at_variant(at: SceneAtHand, spec: Mapping[str, Any]) -> SceneAtHand:
    return at.variant(spec["variant"]) if "variant" in spec else at


# ------------------------------------------------------------------------------------------------------------
# The measures, one function each: (spec, scene at hand, evidence) -> Measured


def read_cell(spec: Mapping[str, Any], at: SceneAtHand) -> tuple[str, int, int, int | None, float]:
    """The cell a spec names: (stage, head, row, column, value); the value as the module computes it."""
    stage = stage_name(spec.get("stage", "weights"))
    head = at.head(spec.get("head"))
    row = at.row(spec.get("row"))
    if stage == "total":
        if "column" in spec:
            raise LessonInputError("a row's total is one number: it has no column", "column")
        return stage, head, row, None, float(at.stages(head)["total"][row])
    if "column" not in spec:
        raise LessonInputError(f"a cell of {stage} needs its column", "column")
    column = column_index(at, stage, head, spec["column"])
    return stage, head, row, column, float(at.stages(head)[stage][row, column])


def _cell(spec, at, evidence):
    keys(spec, ("row",), ("of", "stage", "column", "head", "variant"), "this measure")
    at = _at_variant(at, spec)
    stage, head, row, column, value = read_cell(spec, at)
    return Measured(value, upper_first(f"{cell_phrase(at, stage, head, row, column)} is {show_value(stage, value)}"),
                    {"stage": stage, "row": row, "column": column, "value": value})


def _shape(spec, at, evidence):
    keys(spec, ("stage",), ("of", "head"), "this measure")
    stage = stage_name(spec["stage"])
    head = at.head(spec.get("head"))
    shape = list(at.stages(head)[stage].shape)
    n = len(at.tokens)
    if stage in WORD_COLUMN_STAGES:
        why = f"one number for every pair of the {n} words: row asks, column answers"
    elif stage == "total":
        why = "one number for each word's row"
    else:
        why = f"one row for each of the {n} words"
    return Measured(shape, f"{stage} is {' × '.join(map(str, shape))}: {why}", {"shape": shape})


def _change(spec, at, evidence):
    keys(spec, ("row", "column", "variant"), ("of", "stage", "head"), "this measure")
    stage, head, row, column, before = read_cell(spec, at)
    changed = at.variant(spec["variant"])
    after = float(changed.stages(head)[stage][row, column]) if column is not None else \
        float(changed.stages(head)["total"][row])
    if not (math.isfinite(before) and math.isfinite(after)):
        raise LessonInputError(f"{cell_phrase(at, stage, head, row, column)} is not a number here or in the variant, "
                               "so it neither rises nor falls", "variant")
    outcome = "stays" if abs(after - before) < STAYS_WITHIN else ("rises" if after > before else "falls")
    shown_before, shown_after = show_value(stage, before), show_value(stage, after)
    # The same to the digits shown (a move under STAYS_WITHIN): said once, never "0.5035 instead of 0.5035".
    value = f"still {shown_after}" if shown_after == shown_before else f"{shown_after} instead of {shown_before}"
    sentence = (f"{upper_first(describe_variant(spec['variant']))}, {cell_phrase(at, stage, head, row, column)} is "
                f"{value}: it {outcome}")
    return Measured(outcome, sentence, {"before": before, "after": after})


def _row_state(spec, at, evidence):
    keys(spec, ("row",), ("of", "head", "variant"), "this measure")
    at = _at_variant(at, spec)
    head, row = at.head(spec.get("head")), at.row(spec["row"])
    weights = at.stages(head)["weights"][row]  # (n,)
    words = name_word(at.tokens, row)
    if np.isnan(weights).any():
        return Measured("nan", f"The weights of {words} come out as nan, not a number", {})
    if not weights.any():
        return Measured("zeros", f"The weights of {words} are all 0: the mask lets it read nothing", {})
    shown = ", ".join(percent(float(w)) for w in weights[:8]) + (", …" if len(weights) > 8 else "")
    return Measured("numbers", f"The weights of {words} are numbers: {shown}", {"weights": weights.tolist()})


def _blocked(spec, at, evidence):
    keys(spec, (), ("of", "head"), "this measure")
    head = at.head(spec.get("head"))
    blocked = at.computed.scene.mask  # (n, n)
    if not blocked.any():
        return Measured("none", "The mask blocks nothing here: every word may read every word", {})
    largest = float(at.stages(head)["weights"][blocked].max())
    count = int(blocked.sum())
    if largest == 0:
        return Measured("zero", f"All {count} weights the mask blocks are exactly 0: e^−∞ is 0", {"largest": 0.0})
    return Measured("positive", f"The largest weight on a blocked cell is {number(largest)}", {"largest": largest})


def _sums(spec, at, evidence):
    keys(spec, (), ("of", "head"), "this measure")
    head = at.head(spec.get("head"))
    weights = at.stages(head)["weights"]  # (n, n)
    reading = ~np.all(at.computed.scene.mask, axis=1)  # rows that may read something
    row_sums, column_sums = weights.sum(axis=1)[reading], weights.sum(axis=0)  # (rows reading,), (n,)
    rows = bool(np.all(np.abs(row_sums - 1) < SUMS_WITHIN))
    columns = bool(np.all(np.abs(column_sums - 1) < SUMS_WITHIN))
    outcome = {(True, True): "both", (True, False): "rows", (False, True): "columns", (False, False): "neither"}[
        (rows, columns)]
    sentence = (f"Each row of the weights adds up to {'1' if rows else 'something else than 1'}; the columns add up "
                f"to {number(float(column_sums.min()))} to {number(float(column_sums.max()))}")
    return Measured(outcome, sentence, {"row_sums": row_sums.tolist(), "column_sums": column_sums.tolist()})


def _output_moves(spec, at, evidence):
    keys(spec, ("word", "variant"), ("of",), "this measure")
    variant = spec["variant"]
    if not isinstance(variant, Mapping) or "order" not in variant:
        raise LessonInputError("output-moves compares a word's output before and after the words are reordered: its "
                               "variant needs an order", "variant")
    word = find_word(spec["word"], at.tokens, "word")
    places = read_order(variant["order"], at.tokens, "variant.order")
    moved = at.variant(variant)
    new_row = places.index(word)
    expected = at.computed.output[word].copy()  # (sum of d_v,): the word's output before, to be found at new_row
    start = 0
    for computed_head in at.computed.heads:  # one-hot values hand over places: those columns move too
        width = len(computed_head.head.value_dims)
        if computed_head.head.Wv is None:
            expected[start:start + width] = computed_head.stages.output[word][places]
        start += width
    difference = float(np.abs(moved.computed.output[new_row] - expected).max())
    outcome = "same" if difference < SAME_OUTPUT_WITHIN else "different"
    where = f"now in row {new_row + 1} instead of row {word + 1}" if new_row != word else f"still in row {word + 1}"
    if outcome == "same":
        sentence = f"{upper_first(describe_variant(variant))}, {quote(at.tokens[word])} has the same output, {where}"
    else:
        sentence = (f"{upper_first(describe_variant(variant))}, the output of {quote(at.tokens[word])} ({where}) "
                    f"changes by up to {number(difference)}")
    return Measured(outcome, sentence, {"difference": difference, "row": new_row})


def ranked(values: np.ndarray) -> list[int]:
    """Indices from the largest value down (nan last); ties keep their order."""
    safe = np.where(np.isnan(values), -np.inf, values)
    return [int(i) for i in np.argsort(-safe, kind="stable")]


def tied_with_top(values: np.ndarray) -> list[int]:
    """Every index whose value is within TIED_WITHIN of the largest."""
    safe = np.where(np.isnan(values), -np.inf, values)
    return [int(i) for i in np.flatnonzero(safe >= safe.max() - TIED_WITHIN)]


def _top(spec, at, evidence):
    keys(spec, ("row",), ("of", "head", "variant", "besides"), "this measure")
    at = _at_variant(at, spec)
    head, row = at.head(spec.get("head")), at.row(spec["row"])
    weights = at.stages(head)["weights"][row]  # (n,)
    if np.isnan(weights).any() or not weights.any():
        raise LessonInputError(f"{name_word(at.tokens, row)} reads no word (its weights are nan or all 0)", "row")
    # A word left out of the running (`besides`) is ranked below every other: its weight stays what it is.
    besides = find_word(spec["besides"], at.tokens, "besides") if "besides" in spec else None
    running = weights.copy()
    if besides is not None:
        running[besides] = -np.inf
    order = [column for column in ranked(running) if column != besides]
    top, runner_up = order[0], order[1] if len(order) > 1 else None
    aside = f", {name_word(at.tokens, besides)} aside" if besides is not None else ""
    sentence = (f"{name_word(at.tokens, row)} reads {name_word(at.tokens, top)} most{aside}, "
                f"{percent(float(weights[top]))}")
    if runner_up is not None:
        sentence += f" (next: {name_word(at.tokens, runner_up)}, {percent(float(weights[runner_up]))})"
    return Measured(top, sentence, {"values": weights.tolist(), "tied": tied_with_top(running), "row": row,
                                    "besides": besides})


def _effect(spec, at, evidence):
    keys(spec, ("row",), ("of", "variant"), "this measure")
    at = _at_variant(at, spec)
    row = at.row(spec["row"])
    # Each word knocked out in turn (no word may read it): how far the row's output moves, all heads together.
    changes = np.array([knock_out_word(at.plain, column).changes[row] for column in range(len(at.tokens))])  # (n,)
    if not np.isfinite(changes).all():
        raise LessonInputError(f"the output of {name_word(at.tokens, row)} is not a number here", "row")
    order = ranked(changes)
    top, runner_up = order[0], order[1] if len(order) > 1 else None
    sentence = (f"Knocking out {name_word(at.tokens, top)} moves the output of {name_word(at.tokens, row)} the most, "
                f"by {number(float(changes[top]))}")
    if runner_up is not None:
        sentence += f" (next: {name_word(at.tokens, runner_up)}, by {number(float(changes[runner_up]))})"
    return Measured(top, sentence, {"values": changes.tolist(), "tied": tied_with_top(changes), "row": row})


def _reads_most(spec, at, evidence):
    keys(spec, ("column",), ("of", "head"), "this measure")
    head = at.head(spec.get("head"))
    column = find_word(spec["column"], at.tokens, "column")
    weights = at.stages(head)["weights"]  # (n, n)
    with_choice = np.flatnonzero((~at.computed.scene.mask).sum(axis=1) >= 2)  # rows that may read 2 words or more
    reading = [int(row) for row in with_choice if ranked(weights[row])[0] == column]
    count, of = len(reading), len(with_choice)
    outcome = ("none" if count == 0 else "all" if count == of else "most" if count > of / 2 else "some")
    sentence = (f"{count} of the {of} rows that may read more than one word put their largest weight on "
                f"{name_word(at.tokens, column)}")
    return Measured(outcome, sentence, {"count": count, "of": of, "rows": reading})


@cache
def scaling_table() -> dict[int, dict[str, float]]:
    """The Part 7 experiment as the page's panel first runs it (the module's defaults): {d: {unscaled, scaled}}."""
    return {row["d"]: row for row in scaling_experiment()["rows"]}


def _scaled_flag(spec) -> bool:
    if not isinstance(spec.get("scaled"), bool):
        raise LessonInputError(f"scaled is true (with ÷√d) or false; got {describe_value(spec.get('scaled'))}",
                               "scaled")
    return spec["scaled"]


def _scaling(spec, at, evidence):
    keys(spec, ("d", "scaled"), ("of",), "this measure")
    scaled = _scaled_flag(spec)
    table = scaling_table()
    if not whole_number(spec["d"]) or spec["d"] not in table:
        raise LessonInputError(f"d is one of the experiment's lengths, {', '.join(map(str, table))}; got "
                               f"{describe_value(spec['d'])}", "d")
    value = table[spec["d"]]["scaled" if scaled else "unscaled"]
    how = "with" if scaled else "without"
    return Measured(value, f"Over the experiment's random trials at d = {spec['d']}, the largest weight averages "
                           f"{value:.3f} {how} ÷√d", {"value": value})


def _scaling_trend(spec, at, evidence):
    keys(spec, ("scaled",), ("of",), "this measure")
    scaled = _scaled_flag(spec)
    table = scaling_table()
    low, high = min(table), max(table)
    key = "scaled" if scaled else "unscaled"
    first, last = table[low][key], table[high][key]
    outcome = ("stays" if abs(last - first) < SCALING_STAYS_WITHIN else "rises" if last > first else "falls")
    return Measured(outcome, f"{'With' if scaled else 'Without'} ÷√d the average top weight goes from {first:.3f} at "
                             f"d = {low} to {last:.3f} at d = {high}: it {outcome}", {"from": first, "to": last})


# ------------------------------------------------------------------------------------------------------------
# A claim, measured from its test as the page ran it


def _numbers(value: Any, field: str, most: int = 100_000) -> list[float]:
    if not isinstance(value, list) or not value or len(value) > most or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in value):
        raise LessonInputError(f"{field} must be a list of 1 to {most} finite numbers", field)
    return [float(x) for x in value]


def claim_evidence(evidence: Any, claim: str) -> dict[str, Any]:
    """The parts of a claim's test result (the page's `model.compare` result) this measure reads, checked:
    {losses: {with, without}, accuracy: {with, without}}."""
    if not isinstance(evidence, Mapping):
        raise LessonInputError("this question is answered by the claim's test: run it (Train both) and send its "
                               "result as the evidence", "evidence")
    named = evidence.get("claim")
    named = named.get("id") if isinstance(named, Mapping) else named
    if named is not None and named != claim:
        raise LessonInputError(f"the evidence is the test of {describe_value(named)}; this question asks about "
                               f"{quote(claim)}", "evidence.claim")
    losses, metrics = evidence.get("losses"), evidence.get("metrics")
    if not isinstance(losses, Mapping) or not isinstance(metrics, Mapping):
        raise LessonInputError("the evidence needs the test's losses and metrics, each {with, without}", "evidence")
    read = {"losses": {}, "accuracy": {}}
    for side in ("with", "without"):
        read["losses"][side] = _numbers(losses.get(side), f"evidence.losses.{side}")
        measured = metrics.get(side)
        accuracy = measured.get("repeat_accuracy") if isinstance(measured, Mapping) else None
        if isinstance(accuracy, bool) or not isinstance(accuracy, (int, float)) or not 0 <= accuracy <= 1:
            raise LessonInputError(f"evidence.metrics.{side}.repeat_accuracy must be a number from 0 to 1",
                                   f"evidence.metrics.{side}")
        read["accuracy"][side] = float(accuracy)
    return read


def final_loss(losses: list[float]) -> float:
    """A training run's loss at its end: the mean over its last tenth of steps (at least LAST_STEPS)."""
    last = max(LAST_STEPS, len(losses) // 10)
    return float(np.mean(losses[-last:]))


def _claim(spec, at, evidence):
    keys(spec, ("claim", "quantity"), ("of",), "this measure")
    claim = spec["claim"]
    if not isinstance(claim, str) or not claim or len(claim) > 64:
        raise LessonInputError(f"claim is a claim's id; got {describe_value(claim)}", "claim")
    if spec["quantity"] not in CLAIM_QUANTITIES:
        raise LessonInputError(f"quantity is one of {', '.join(CLAIM_QUANTITIES)}; got "
                               f"{describe_value(spec['quantity'])}", "quantity")
    read = claim_evidence(evidence, claim)
    if spec["quantity"] == "training-loss":
        with_value, without_value = (final_loss(read["losses"][side]) for side in ("with", "without"))
        same_within, what = SAME_LOSS_WITHIN, "training loss ended at"
        shown = [f"{value:.2f}" for value in (without_value, with_value)]
    else:
        with_value, without_value = read["accuracy"]["with"], read["accuracy"]["without"]
        same_within, what = SAME_ACCURACY_WITHIN, "model predicts"
        shown = [f"{value * 100:.0f}% of the repeated part" for value in (without_value, with_value)]
    gap = without_value - with_value
    outcome = "same" if abs(gap) < same_within else ("higher" if gap > 0 else "lower")
    sentence = f"Trained without the design choice, the {what} {shown[0]}; with it, {shown[1]}: {outcome}"
    return Measured(outcome, sentence, {"with": with_value, "without": without_value})


MEASURES: dict[str, Callable[[Mapping[str, Any], Any, Any], Measured]] = {
    "cell": _cell, "shape": _shape, "change": _change, "row-state": _row_state, "blocked": _blocked, "sums": _sums,
    "output-moves": _output_moves, "top": _top, "effect": _effect, "reads-most": _reads_most, "scaling": _scaling,
    "scaling-trend": _scaling_trend, "claim": _claim,
}
#: Measures that read no scene, and the one that reads the claim's test instead.
WITHOUT_SCENE = ("scaling", "scaling-trend", "claim")
NEEDS_EVIDENCE = ("claim",)


def measure_kind(spec: Any, field: str = "measure") -> str:
    """The `of` of a measure table, checked."""
    if not isinstance(spec, Mapping):
        raise LessonInputError(f"a measure is a table such as {{of = \"top\", row = \"it\"}}; got "
                               f"{describe_value(spec)}", field)
    of = spec.get("of")
    if not isinstance(of, str) or of not in MEASURES:
        raise LessonInputError(f"a measure's of is one of {', '.join(MEASURES)}; got {describe_value(of)}",
                               f"{field}.of")
    return of


def measure(spec: Any, at: SceneAtHand | None, evidence: Any = None, field: str = "measure") -> Measured:
    """Compute a measure table on the scene at hand (see the module docstring). Mistakes name their key below
    `field`."""
    of = measure_kind(spec, field)
    if at is None and of not in WITHOUT_SCENE:
        raise LessonInputError(f"the measure {quote(of)} needs a scene", field)
    try:
        return MEASURES[of](spec, at, evidence)
    except LessonInputError as error:
        raise (error if error.field and error.field.startswith("evidence") else error.within(field)) from None
