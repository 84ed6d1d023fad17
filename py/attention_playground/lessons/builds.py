"""A target the learner's own scene must reach by editing it: its conditions, read and checked.

A condition is a table with one of these keys:

    {weight = {row = "it", column = "cat"}, at_least = 0.9}     a weight at least (and/or at most) a number
    {reads_most = {row = "it", column = "cat"}}                 the row puts more weight on that word than any other
    {every_row_reads = "previous"}                              each row reads most the word before it ("first":
                                                                the first word; "itself": its own word); the rows
                                                                that have no such other word are left out
    {mask = "blocks-future"}                                    the mask blocks exactly what the causal mask blocks

`weight`, `reads_most` and `every_row_reads` take `head` (its number from 0 or its name; 0 if left out).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from .measures import SceneAtHand, ranked, tied_with_top
from .mistakes import LessonInputError
from .words import describe_value, name_word, percent, quote, real_number

#: The keys a condition is named by, one per condition.
CONDITION_KINDS = ("weight", "reads_most", "every_row_reads", "mask")
#: What `every_row_reads` may ask each row to read most.
ROW_TARGETS = {"previous": "the word before it", "first": "the first word", "itself": "its own word"}
#: What `mask` may ask for.
MASK_TARGETS = {"blocks-future": "the mask blocks exactly the later words of every row, as the causal mask does"}
#: The most conditions one target may have.
MAX_CONDITIONS = 8


class Condition(NamedTuple):
    """One condition on a scene: met or not, and a sentence from the scene's numbers saying how far it is."""

    met: bool
    sentence: str
    value: float | None = None  # the number the condition reads (a weight, or how many rows read as asked)


def _cell_table(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise LessonInputError(f"{field} is a table {{row, column}} (and head); got {describe_value(value)}", field)
    for key in value:
        if key not in ("row", "column", "head"):
            raise LessonInputError(f"{field} has no key {quote(str(key))}; it takes row, column and head",
                                   f"{field}.{key}")
    for key in ("row", "column"):
        if key not in value:
            raise LessonInputError(f"{field} needs its {key}", f"{field}.{key}")
    return value


def read_condition(condition: Any, field: str) -> str:
    """Check a condition's form (not yet against a scene); its kind (CONDITION_KINDS)."""
    if not isinstance(condition, Mapping):
        raise LessonInputError(f"a condition is a table such as {{weight = {{row = \"it\", column = \"cat\"}}, "
                               f"at_least = 0.9}}; got {describe_value(condition)}", field)
    named = [kind for kind in CONDITION_KINDS if kind in condition]
    if len(named) != 1:
        raise LessonInputError(f"a condition has exactly one of {', '.join(CONDITION_KINDS)}", field)
    kind = named[0]
    allowed = {"weight": ("weight", "at_least", "at_most"), "reads_most": ("reads_most",),
               "every_row_reads": ("every_row_reads", "head"), "mask": ("mask",)}[kind]
    for key in condition:
        if key not in allowed:
            raise LessonInputError(f"a {kind} condition has no key {quote(str(key))}; it takes {', '.join(allowed)}",
                                   f"{field}.{key}")
    if kind in ("weight", "reads_most"):
        _cell_table(condition[kind], f"{field}.{kind}")
    if kind == "weight":
        bounds = [key for key in ("at_least", "at_most") if key in condition]
        if not bounds:
            raise LessonInputError("a weight condition needs at_least or at_most (or both)", field)
        for key in bounds:
            if not real_number(condition[key]) or not 0 <= condition[key] <= 1:
                raise LessonInputError(f"{key} is a weight from 0 to 1; got {describe_value(condition[key])}",
                                       f"{field}.{key}")
        if len(bounds) == 2 and condition["at_least"] > condition["at_most"]:
            raise LessonInputError("at_least is more than at_most: no weight meets both", field)
    if kind == "every_row_reads" and not (isinstance(condition[kind], str) and condition[kind] in ROW_TARGETS):
        raise LessonInputError(f"every_row_reads is one of {', '.join(ROW_TARGETS)}; got "
                               f"{describe_value(condition[kind])}", f"{field}.every_row_reads")
    if kind == "mask" and not (isinstance(condition[kind], str) and condition[kind] in MASK_TARGETS):
        raise LessonInputError(f"mask is one of {', '.join(MASK_TARGETS)}; got {describe_value(condition[kind])}",
                               f"{field}.mask")
    return kind


def _weight(condition: Mapping[str, Any], at: SceneAtHand, field: str) -> Condition:
    cell = condition["weight"]
    head = at.head(cell.get("head"), f"{field}.weight.head")
    row = at.row(cell["row"], f"{field}.weight.row")
    column = at.row(cell["column"], f"{field}.weight.column")
    weight = float(at.stages(head)["weights"][row, column])
    bounds = []
    if "at_least" in condition:
        bounds.append(f"at least {percent(condition['at_least'])}")
    if "at_most" in condition:
        bounds.append(f"at most {percent(condition['at_most'])}")
    met = bool(np.isfinite(weight)) and condition.get("at_least", 0) <= weight <= condition.get("at_most", 1)
    sentence = (f"{name_word(at.tokens, row)} puts {percent(weight)} on {name_word(at.tokens, column)} (the target: "
                f"{' and '.join(bounds)})")
    return Condition(met, sentence, weight)


def _reads_most(condition: Mapping[str, Any], at: SceneAtHand, field: str) -> Condition:
    cell = condition["reads_most"]
    head = at.head(cell.get("head"), f"{field}.reads_most.head")
    row = at.row(cell["row"], f"{field}.reads_most.row")
    column = at.row(cell["column"], f"{field}.reads_most.column")
    weights = at.stages(head)["weights"][row]  # (n,)
    top = ranked(weights)[0]
    met = tied_with_top(weights) == [column]
    if met:
        sentence = f"{name_word(at.tokens, row)} reads {name_word(at.tokens, column)} most, {percent(float(weights[column]))}"
    else:
        sentence = (f"{name_word(at.tokens, row)} reads {name_word(at.tokens, top)} most ({percent(float(weights[top]))}"
                    f"), not only {name_word(at.tokens, column)} ({percent(float(weights[column]))})")
    return Condition(met, sentence, float(weights[column]))


def _every_row_reads(condition: Mapping[str, Any], at: SceneAtHand, field: str) -> Condition:
    target = condition["every_row_reads"]
    head = at.head(condition.get("head"), f"{field}.head")
    weights = at.stages(head)["weights"]  # (n, n)
    n = len(at.tokens)
    wanted = {"previous": lambda row: row - 1, "first": lambda row: 0, "itself": lambda row: row}[target]
    rows = [row for row in range(n) if target == "itself" or row >= 1]
    missing = [row for row in rows if tied_with_top(weights[row]) != [wanted(row)]]
    met = not missing
    sentence = f"{len(rows) - len(missing)} of {len(rows)} rows read {ROW_TARGETS[target]} most"
    if missing:
        shown = ", ".join(f"{name_word(at.tokens, row)} reads {name_word(at.tokens, ranked(weights[row])[0])}"
                          for row in missing[:3])
        sentence += f"; the others: {shown}{', …' if len(missing) > 3 else ''}"
    return Condition(met, sentence, float(len(rows) - len(missing)))


def _mask(condition: Mapping[str, Any], at: SceneAtHand, field: str) -> Condition:
    blocked = at.computed.scene.mask  # (n, n), True = may not read
    causal = np.triu(np.ones_like(blocked), k=1)  # (n, n)
    open_future = int(np.count_nonzero(causal & ~blocked))
    closed_past = int(np.count_nonzero(~causal & blocked))
    if not open_future and not closed_past:
        return Condition(True, "The mask blocks exactly the later words of every row", 0.0)
    parts = []
    if open_future:
        parts.append(f"{open_future} cell{'s' if open_future > 1 else ''} where a word reads a later word "
                     f"{'are' if open_future > 1 else 'is'} still open")
    if closed_past:
        parts.append(f"{closed_past} cell{'s' if closed_past > 1 else ''} where a word reads itself or an earlier "
                     f"word {'are' if closed_past > 1 else 'is'} blocked")
    # Said after the feedback's "Not yet: ", so it does not say "yet" again.
    return Condition(False, "The mask is not the causal pattern: " + " and ".join(parts), float(open_future + closed_past))


_EVALUATE = {"weight": _weight, "reads_most": _reads_most, "every_row_reads": _every_row_reads, "mask": _mask}


def evaluate_condition(condition: Mapping[str, Any], at: SceneAtHand, field: str) -> Condition:
    """Whether the scene at hand meets a condition (its form checked by read_condition)."""
    return _EVALUATE[read_condition(condition, field)](condition, at, field)
