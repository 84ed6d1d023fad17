"""Scenes made from scenes: a variant (one thing changed, to ask "what happens if…?"), an edit (one cell), and how
many cells a learner's scene differs from the scene a step started from.

A variant is a small table; everything in it is applied to a copy of the scene, in this order:

    edits = [{field = "Wq", row = "pronoun", column = "noun", value = 0}]    cells set, one by one (`apply_edit`)
    Wq = "times 2"        every number of Wq multiplied ("times 0.5", "times -1"); also Wk and Wv
    Wk = "Wq"             Wk made a copy of Wq (one matrix for both jobs); any projection from another
    head = 0              which head the projections' changes apply to (its 0-based number or its name); every
                          head if left out
    scale = false         ÷√d off (or on); `shift` and `positions` the same way
    mask = "causal"       "none", "causal", or "transposed" (the scene's own mask, flipped: the past blocked)
    order = ["man", "bites", "dog"]    the words in a new order, each named as a lesson names a word

An edit is {field, row, column, value, head}: `field` is X, Wq, Wk, Wv or mask (a cell: row and column named as
the scene names them, the head by number or name, 0 if left out), or scale, shift or positions (a switch: only
`value`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..positions import POSITION_ENCODINGS
from ..scene import Scene, parse_scene
from .mistakes import LessonInputError
from .words import describe_value, find_label, find_word, quote, real_number, whole_number

#: The projections of a head, the fields a variant may scale or copy.
PROJECTIONS = ("Wq", "Wk", "Wv")
#: The switches of a scene: each one edit when changed.
SWITCHES = ("scale", "shift", "positions")
#: Every field an edit may change, in the order a scene lists them.
EDIT_FIELDS = ("X", *PROJECTIONS, "mask", *SWITCHES)
#: What a variant's mask may be.
MASK_VARIANTS = ("none", "causal", "transposed")
#: The keys a variant may have.
VARIANT_KEYS = ("edits", *PROJECTIONS, "head", *SWITCHES, "mask", "order")
#: The most edits a variant or a solution may list (a mask of 64 tokens is 4096 cells; no lesson needs that many).
MAX_EDITS = 4096

_TIMES = re.compile(r"^times\s+(?P<factor>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)$")


class Edit(NamedTuple):
    """One change to a scene, its places resolved: `row` and `column` are 0-based (None for a switch)."""

    field: str
    head: int | None
    row: int | None
    column: int | None
    value: Any


def plain(value: Any) -> Any:
    """A scene (or any part of one) as plain nested lists and dicts: arrays from a packed request become lists."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def find_head(ref: Any, scene: Mapping[str, Any], field: str) -> int:
    """The 0-based head `ref` names: its number counted from 0, or its name."""
    heads = scene["heads"]
    if whole_number(ref):
        if not 0 <= ref < len(heads):
            raise LessonInputError(f"head {ref} does not exist: the scene's heads are numbered 0 to {len(heads) - 1}",
                                   field)
        return int(ref)
    names = [head["name"] for head in heads]
    if isinstance(ref, str) and ref in names:
        return names.index(ref)
    raise LessonInputError(f"there is no head {describe_value(ref)}; a head is named by its number counted from 0 "
                           f"or by its name ({', '.join(quote(name) for name in names)})", field)


def _table(value: Any, field: str, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise LessonInputError(f"{what} must be a table; got {describe_value(value)}", field)
    return value


def _known_keys(table: Mapping[str, Any], keys: Sequence[str], field: str, what: str) -> None:
    for key in table:
        if key not in keys:
            raise LessonInputError(f"{what} has no key {quote(str(key))}; it may have {', '.join(keys)}",
                                   f"{field}.{key}" if field else str(key))


def _columns_of(scene: Mapping[str, Any], field: str, head: int) -> tuple[list[str], str]:
    """The names of the columns of `field` in the scene, and what a column is called there."""
    if field == "X":
        return list(scene["features"]), "feature"
    if field == "mask":
        return list(scene["tokens"]), "word"
    head_data = scene["heads"][head]
    if field == "Wv":
        if head_data["Wv"] is None:
            raise LessonInputError("Wv is null in this scene (one-hot values): it has no cells to edit", "field")
        width = len(head_data["Wv"][0])
        return list(head_data.get("value_dims") or [f"v{j}" for j in range(width)]), "value dim"
    return list(head_data["dims"]), "dim"


def read_edit(edit: Any, scene: Mapping[str, Any], field: str = "edit") -> Edit:
    """An edit checked against `scene` (a plain scene dict), its row, column and head found."""
    edit = _table(edit, field, "an edit")
    _known_keys(edit, ("field", "row", "column", "value", "head"), field, "an edit")
    name = edit.get("field")
    if name not in EDIT_FIELDS:
        raise LessonInputError(f"an edit's field is one of {', '.join(EDIT_FIELDS)}; got {describe_value(name)}",
                               f"{field}.field")
    if "value" not in edit:
        raise LessonInputError("an edit needs the value it sets", f"{field}.value")
    value = edit["value"]
    if name in SWITCHES:
        for key in ("row", "column", "head"):
            if key in edit:
                raise LessonInputError(f"{name} is a switch: its edit has only a value, no {key}", f"{field}.{key}")
        expected_ok = value in POSITION_ENCODINGS if name == "positions" else isinstance(value, bool)
        if not expected_ok:
            allowed = ", ".join(POSITION_ENCODINGS) if name == "positions" else "true or false"
            raise LessonInputError(f"{name} is set to {allowed}; got {describe_value(value)}", f"{field}.value")
        return Edit(name, None, None, None, value)
    for key in ("row", "column"):
        if key not in edit:
            raise LessonInputError(f"an edit of {name} needs the {key} of its cell", f"{field}.{key}")
    head = None
    if name in PROJECTIONS:
        head = find_head(edit.get("head", 0), scene, f"{field}.head")
    elif "head" in edit:
        raise LessonInputError(f"{name} belongs to the scene, not to a head: its edit has no head", f"{field}.head")
    if name == "mask":
        if not isinstance(value, bool):
            raise LessonInputError(f"a mask cell is true (may not read) or false; got {describe_value(value)}",
                                   f"{field}.value")
    elif not real_number(value):
        raise LessonInputError(f"a cell of {name} is set to a number; got {describe_value(value)}", f"{field}.value")
    if name in ("X", "mask"):
        row = find_word(edit["row"], scene["tokens"], f"{field}.row")
    else:
        row = find_label(edit["row"], scene["features"], f"{field}.row", "feature")
    try:
        columns, noun = _columns_of(scene, name, head or 0)
    except LessonInputError as error:
        raise error.within(field) from None
    column = find_label(edit["column"], columns, f"{field}.column", noun)
    return Edit(name, head, row, column, value if isinstance(value, bool) else float(value))


def _mask_matrix(scene: Mapping[str, Any]) -> list[list[bool]]:
    """The scene's mask as a matrix of booleans, whatever form it is written in."""
    mask = scene["mask"]
    n = len(scene["tokens"])
    if mask == "causal":
        return np.triu(np.ones((n, n), dtype=bool), k=1).tolist()
    if mask == "none":
        return [[False] * n for _ in range(n)]
    return [list(row) for row in mask]


def apply_edit(scene: dict[str, Any], edit: Edit) -> None:
    """Set one cell (or switch) of a plain scene dict, in place."""
    if edit.field in SWITCHES:
        scene[edit.field] = edit.value
    elif edit.field == "mask":
        if isinstance(scene["mask"], str):  # "none" or "causal": written out once, then edited in place
            scene["mask"] = _mask_matrix(scene)
        scene["mask"][edit.row][edit.column] = edit.value
    elif edit.field == "X":
        scene["X"][edit.row][edit.column] = edit.value
    else:
        scene["heads"][edit.head][edit.field][edit.row][edit.column] = edit.value


def apply_edits(scene: Mapping[str, Any], edits: Any, field: str = "edits") -> dict[str, Any]:
    """A copy of `scene` with every edit of the list applied in turn."""
    if not isinstance(edits, list):
        raise LessonInputError(f"edits is a list of edits; got {describe_value(edits)}", field)
    if len(edits) > MAX_EDITS:
        raise LessonInputError(f"{len(edits)} edits are more than {MAX_EDITS}", field)
    changed = copy.deepcopy(plain(scene))
    for i, edit in enumerate(edits):
        apply_edit(changed, read_edit(edit, changed, f"{field}[{i}]"))
    return changed


def _projection_change(value: Any, field: str) -> tuple[str, Any]:
    """("times", factor) or ("copy", projection) for a variant's Wq/Wk/Wv."""
    if isinstance(value, str):
        times = _TIMES.match(value.strip())
        if times:
            return "times", float(times["factor"])
        if value in PROJECTIONS:
            return "copy", value
    raise LessonInputError(f"a projection in a variant is \"times N\" (every number multiplied by N) or the name of "
                           f"another projection to copy ({', '.join(PROJECTIONS)}); got {describe_value(value)}", field)


def apply_variant(scene: Mapping[str, Any], variant: Any, field: str = "variant") -> dict[str, Any]:
    """A copy of `scene` (a plain scene dict, checked) with `variant` applied (see the module docstring).

    Raises LessonInputError for a variant that does not fit the scene; the scene it makes is checked by the
    caller, who computes it."""
    variant = _table(variant, field, "a variant")
    _known_keys(variant, VARIANT_KEYS, field, "a variant")
    if not variant:
        raise LessonInputError("a variant changes at least one thing", field)
    changed = apply_edits(scene, variant.get("edits", []), f"{field}.edits")
    heads = range(len(changed["heads"]))
    if "head" in variant:
        heads = [find_head(variant["head"], changed, f"{field}.head")]
    for projection in PROJECTIONS:
        if projection not in variant:
            continue
        how, argument = _projection_change(variant[projection], f"{field}.{projection}")
        for h in heads:
            head = changed["heads"][h]
            if how == "copy":
                head[projection] = copy.deepcopy(head[argument])
            elif head[projection] is None:
                raise LessonInputError(f"{projection} is null in this scene (one-hot values): there is nothing to "
                                       "multiply", f"{field}.{projection}")
            else:
                head[projection] = (np.asarray(head[projection], dtype=float) * argument).tolist()
    for switch in SWITCHES:
        if switch in variant:
            apply_edit(changed, read_edit({"field": switch, "value": variant[switch]}, changed, f"{field}.{switch}"))
    if "mask" in variant:
        mask = variant["mask"]
        if mask not in MASK_VARIANTS:
            raise LessonInputError(f"a variant's mask is one of {', '.join(MASK_VARIANTS)}; got {describe_value(mask)}",
                                   f"{field}.mask")
        changed["mask"] = np.asarray(_mask_matrix(changed)).T.tolist() if mask == "transposed" else mask
    if "order" in variant:
        changed = reordered(changed, variant["order"], f"{field}.order")
    return changed


def read_order(order: Any, tokens: Sequence[str], field: str = "order") -> list[int]:
    """The 0-based places, old, of the words in the new order `order` names: each word once."""
    if not isinstance(order, list) or len(order) != len(tokens):
        raise LessonInputError(f"order lists the scene's {len(tokens)} words in their new order; got "
                               f"{describe_value(order)}", field)
    places = [find_word(ref, tokens, f"{field}[{i}]") for i, ref in enumerate(order)]
    if sorted(places) != list(range(len(tokens))):
        twice = next(place for place in places if places.count(place) > 1)
        raise LessonInputError(f"order names {quote(tokens[twice])} (row {twice + 1}) twice; name each word once "
                               "(a repeated word as \"the#2\")", field)
    return places


def reordered(scene: Mapping[str, Any], order: Any, field: str = "order") -> dict[str, Any]:
    """A copy of the scene with its words in a new order: each keeps its row of X and of a drawn mask; a named
    mask ("causal") stays what it says."""
    places = read_order(order, scene["tokens"], field)
    moved = copy.deepcopy(dict(scene))
    moved["tokens"] = [scene["tokens"][i] for i in places]
    moved["X"] = [list(scene["X"][i]) for i in places]
    if not isinstance(scene["mask"], str):
        moved["mask"] = [[scene["mask"][row][column] for column in places] for row in places]
    return moved


def changed_cells(start: Scene, now: Scene) -> dict[str, int]:
    """How many cells (and switches) of each field differ between two checked scenes with the same words,
    features and heads: {"Wq": 1, "mask": 3, ...}, fields that did not change left out.

    Raises LessonInputError when the two do not have the same words, features, heads and dims: a target is met by
    changing numbers, not by rewriting the sentence."""
    shape = ("tokens", "features")
    for name in shape:
        if getattr(start, name) != getattr(now, name):
            raise LessonInputError(f"the {name} changed: this target keeps the step's {name} and asks for numbers "
                                   "to change", name)
    if [(head.dims, head.Wv is None) for head in start.heads] != [(head.dims, head.Wv is None) for head in now.heads] \
            or [head.Wv.shape for head in start.heads if head.Wv is not None] != [
                head.Wv.shape for head in now.heads if head.Wv is not None]:
        raise LessonInputError("the heads changed: this target keeps the step's heads and their sizes", "heads")
    counts = {
        "X": int(np.count_nonzero(start.X != now.X)),
        "mask": int(np.count_nonzero(start.mask != now.mask)),
        **{switch: int(getattr(start, switch) != getattr(now, switch)) for switch in SWITCHES},
    }
    for projection in PROJECTIONS:
        counts[projection] = sum(
            int(np.count_nonzero(getattr(a, projection) != getattr(b, projection)))
            for a, b in zip(start.heads, now.heads, strict=True) if getattr(a, projection) is not None)
    return {field: counts[field] for field in EDIT_FIELDS if counts[field]}


def checked(scene: Mapping[str, Any]) -> Scene:
    """The scene parsed by the module's own validation (raises SceneError)."""
    return parse_scene(scene)
