"""The scene format: everything the page shows, as plain data, checked and turned into arrays.

A scene is a dict (parsed from JSON) such as

    {"title": "dog bites man", "tokens": ["dog", "bites", "man"], "features": ["f0", "f1"],
     "X": [[1, 0], [0, 1], [1, 1]],
     "heads": [{"name": "head 1", "dims": ["d0", "d1"],
                "Wq": [[1, 0], [0, 1]], "Wk": [[1, 0], [0, 1]], "Wv": [[1, 0], [0, 1]]}],
     "mask": "none", "scale": true}

Scenes are typed by hand, so every mistake gets a message that names the field, the row and the
column by their labels (token, feature or dim names) and says what was expected. Sizes are checked
before any array is built, so an oversized scene is refused at once instead of hanging.
"""

from __future__ import annotations

import json
import math
import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from .attention_maths import MASK_NAMES, mask_matrix
from .positions import POSITION_ENCODINGS


class Limits(NamedTuple):
    """The largest scene the page accepts; big enough for every example, small enough to stay instant."""

    tokens: int = 64
    features: int = 64
    dims: int = 64  # query/key size d_k of one head
    value_dims: int = 64  # value size d_v of one head
    heads: int = 8


LIMITS = Limits()

#: How unnamed value columns are named: v0, v1, … (the page names a column it adds the same way: facts.py).
VALUE_DIM_PREFIX = "v"


def default_value_dims(width: int) -> tuple[str, ...]:
    """The names of Wv's columns when a scene does not name them: v0, v1, …"""
    return tuple(f"{VALUE_DIM_PREFIX}{j}" for j in range(width))

#: Keys a scene must have, each with what it should hold (quoted in messages).
SCENE_KEYS: dict[str, str] = {
    "title": "text shown above the heatmap",
    "tokens": "a list of words, one per row of X",
    "features": "a list of unique names, one per column of X",
    "X": "a list of rows, one per token, each with one number per feature",
    "heads": "a list of one or more heads",
    "mask": '"none", "causal", or a tokens × tokens matrix of true/false',
    "scale": "true or false",
}
#: Keys a scene may have.
OPTIONAL_SCENE_KEYS: dict[str, str] = {
    "shift": "true or false",
    "id": "text naming the scene",
    "description": "text saying what to look at",
    "positions": '"none" or "sinusoidal" (added to X so that word order matters)',
}
#: Keys a head must have.
HEAD_KEYS: dict[str, str] = {
    "name": "text",
    "dims": "a list of unique names for the columns of Wq and Wk",
    "Wq": "a list of rows, one per feature, each with one number per dim",
    "Wk": "a list of rows, one per feature, each with one number per dim",
    "Wv": "a list of rows, one per feature, or null for one-hot position markers",
}
#: Keys a head may have.
OPTIONAL_HEAD_KEYS: dict[str, str] = {
    "value_dims": "a list of unique names for the columns of Wv",
}


class SceneError(ValueError):
    """A mistake in a scene, with where it is, for the page to highlight.

    `field` is the key path ("X", "tokens", "heads[0].Wq", "mask"). `row` and `column` are labels
    (token, feature or dim names); because labels can repeat ("the" is two tokens), `row_index` and
    `column_index` give the 0-based positions too. Each is None where it does not apply.
    """

    def __init__(
        self,
        message: str,
        field: str | None = None,
        row: str | None = None,
        column: str | None = None,
        *,
        row_index: int | None = None,
        column_index: int | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.field = field
        self.row = row
        self.column = column
        self.row_index = row_index
        self.column_index = column_index

    def to_dict(self) -> dict[str, Any]:
        """The error as plain data, the way it crosses to the page."""
        return {
            "type": "SceneError",
            "message": self.message,
            "field": self.field,
            "row": self.row,
            "column": self.column,
            "row_index": self.row_index,
            "column_index": self.column_index,
        }


class Head(NamedTuple):
    """One attention head, checked: names and float64 arrays."""

    name: str
    dims: tuple[str, ...]  # names of the columns of Wq and Wk (d_k of them)
    value_dims: tuple[str, ...]  # names of the columns of Wv (d_v of them)
    Wq: np.ndarray  # (n_features, d_k)
    Wk: np.ndarray  # (n_features, d_k)
    Wv: np.ndarray | None  # (n_features, d_v), or None: one-hot position markers (d_v = n_tokens)


class Scene(NamedTuple):
    """A checked scene, ready for the maths."""

    title: str
    tokens: tuple[str, ...]
    features: tuple[str, ...]
    X: np.ndarray  # (n_tokens, n_features)
    heads: tuple[Head, ...]
    mask: np.ndarray  # (n_tokens, n_tokens) bool, True = may not read
    scale: bool
    shift: bool
    positions: str = "none"  # one of POSITION_ENCODINGS: what is added to X before the heads read it


# ---------------------------------------------------------------------------------------------
# Describing values and labels in messages


def _show(value: Any) -> str:
    """A value as the learner typed it (JSON spelling), short enough for a message."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        return text if len(text) <= 32 else text[:30] + "…\""
    if isinstance(value, numbers.Real):
        if isinstance(value, float) and math.isnan(value):
            return "NaN"
        if isinstance(value, float) and math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        text = repr(value)
        return text if len(text) <= 32 else text[:30] + "…"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return f"a {type(value).__name__}"


def _quote(label: str) -> str:
    """A label in double quotes, shortened if it is long."""
    return _show(label)


def _names(labels: Sequence[str], shown: int = 6) -> str:
    """The first few labels, comma-separated, ending in … if there are more."""
    listed = ", ".join(labels[:shown])
    return listed + ", …" if len(labels) > shown else listed


def _count(n: int, singular: str, plural: str | None = None) -> str:
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def _there_are(labels: Sequence[str], noun: str) -> str:
    """`there are 3 tokens (dog, bites, man)`: what a matrix's size should match."""
    return f"there are {_count(len(labels), noun)} ({_names(labels)})"


def _ref(labels: Sequence[str], index: int, noun: str) -> str:
    """`"cat"`, or `"the" (token 5)` when the label appears more than once."""
    label = labels[index]
    if labels.count(label) > 1:
        return f"{_quote(label)} ({noun} {index + 1})"
    return _quote(label)


# ---------------------------------------------------------------------------------------------
# Checking single cells


#: A number written with a decimal comma ("0,5", "-1,25", ",5"), which float() does not read.
_DECIMAL_COMMA = re.compile(r"\s*[+\-]?\d*,\d+\s*")


def _number_problem(value: Any) -> str | None:
    """What is wrong with `value` as a matrix entry, or None if it is a finite number."""
    if isinstance(value, (bool, np.bool_)):
        return f"{_show(value)} is not a number; write 1 or 0"
    if isinstance(value, numbers.Real):
        try:
            number = float(value)
        except OverflowError:
            return f"{_show(value)} is too large to be a number here"
        if not math.isfinite(number):
            return f"{_show(value)} is not a finite number; every entry must be an ordinary number"
        return None
    if isinstance(value, str):
        if not value.strip():
            return "the entry is empty; expected a number"
        try:
            number = float(value)
        except ValueError:
            if _DECIMAL_COMMA.fullmatch(value):
                # "0,5": a decimal comma, as many languages write it.
                return f"{_show(value)} is not a number; did you mean {value.strip().replace(',', '.')}? Write decimals with a point"
            return f"{_show(value)} is not a number"
        if not math.isfinite(number):
            return f"{_show(value)} is not a finite number; every entry must be an ordinary number"
        return f"{_show(value)} is text, not a number; write it without quotes"
    return f"{_show(value)} is not a number"


def _flag_problem(value: Any) -> str | None:
    """What is wrong with `value` as a mask entry, or None if it is true or false."""
    if isinstance(value, (bool, np.bool_)):
        return None
    return f"{_show(value)} is not true or false"


class _CellKind(NamedTuple):
    fast_types: frozenset  # exact Python types that need no further look in the fast path
    dtype: type
    problem: Callable[[Any], str | None]
    noun: str  # "number" or "entry"
    plural: str


_NUMBER = _CellKind(frozenset({int, float}), np.float64, _number_problem, "number", "numbers")
_FLAG = _CellKind(frozenset({bool}), np.bool_, _flag_problem, "entry", "entries")


# ---------------------------------------------------------------------------------------------
# Checking lists and matrices


class _Checker:
    """Checks one scene; knows which head it is in, so every message can say where."""

    def __init__(self) -> None:
        self.path = ""  # key path of the head being checked, "heads[2].", so fields read "heads[2].Wq"
        self.where = ""  # message prefix naming the head when there are several

    def error(self, message: str, field: str | None, **labels: Any) -> SceneError:
        return SceneError(self.where + message, None if field is None else self.path + field, **labels)

    def keys(self, data: Mapping, required: Mapping[str, str], optional: Mapping[str, str], subject: str) -> None:
        """Refuse unknown keys (naming each) and missing keys (saying what belongs there)."""
        allowed = list(required) + list(optional)
        for key in data:
            if key not in allowed:
                close = [k for k in allowed if isinstance(key, str) and k.lower() == key.lower()]
                if not close:
                    # Imported here, the one place it is needed: in the page, importing difflib with the module
                    # added some 20 ms to every boot for a message most learners never see.
                    import difflib

                    close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
                hint = f" (did you mean {_quote(close[0])}?)" if close else ""
                raise self.error(
                    f"{subject} has an unknown key {_show(str(key))}{hint}; "
                    f"the keys it may have are {', '.join(allowed)}",
                    str(key),
                )
        for key, expected in required.items():
            if key not in data:
                raise self.error(f"{subject} has no {_quote(key)}; expected {expected}", key)

    def labels(self, value: Any, field: str, *, noun: str, limit: int, unique: bool, axis: str) -> tuple[str, ...]:
        """A non-empty list of non-empty names (tokens, features, dims), within `limit`."""
        position = "row_index" if axis == "row" else "column_index"
        label_key = "row" if axis == "row" else "column"
        if not isinstance(value, list):
            raise self.error(f"{field} must be a list of {noun}s; got {_show(value)}", field)
        if not value:
            raise self.error(f"{field} is empty; expected at least one {noun}", field)
        if len(value) > limit:
            raise self.error(f"{field} has {len(value)} entries; the limit is {limit} {noun}s", field)
        first_seen: dict[str, int] = {}
        for i, label in enumerate(value):
            if not isinstance(label, str) or not label.strip():
                raise self.error(
                    f"{field}, entry {i + 1}: {_show(label)} is not a name; expected a {noun} as non-empty text",
                    field, **{position: i},
                )
            if unique and label in first_seen:
                raise self.error(
                    f"{field} has {_quote(label)} twice (entries {first_seen[label] + 1} and {i + 1}); "
                    f"every {noun} needs its own name",
                    field, **{label_key: label, position: i},
                )
            first_seen.setdefault(label, i)
        return tuple(value)

    def matrix(self, value: Any, field: str, *, rows: Sequence[str], row_noun: str, rows_expected: str,
               columns: Sequence[str], column_noun: str, columns_expected: str,
               kind: _CellKind = _NUMBER) -> np.ndarray:
        """A len(rows) × len(columns) matrix, checked cell by cell only when the quick check fails.

        The quick check looks at each row's type, length and the set of its cells' types: one pass
        in C for every row, so even a scene at the limits is checked in about a millisecond. Lengths
        are compared before anything is built, so an oversized matrix is refused at once.
        """
        n_rows, n_columns = len(rows), len(columns)
        if isinstance(value, np.ndarray):
            # A packed request's matrix (entry.handle_packed): numbers already. One of the wrong shape (or, which
            # the page never sends, with a value that is not finite) is checked as the list it stands for.
            if kind is _NUMBER and value.shape == (n_rows, n_columns) and np.isfinite(value).all():
                return value.astype(np.float64)  # a copy: the request's buffer is not kept
            value = value.tolist()
        if (
            type(value) is list
            and len(value) == n_rows
            and all(type(row) is list and len(row) == n_columns and set(map(type, row)) <= kind.fast_types
                    for row in value)
        ):
            try:
                array = np.array(value, dtype=kind.dtype).reshape(n_rows, n_columns)  # (n_rows, n_columns)
            except OverflowError:  # a whole number beyond float64: the walk below names it
                array = None
            if array is not None and (kind is _FLAG or np.isfinite(array).all()):
                return array
        self._find_matrix_problem(value, field, rows, row_noun, rows_expected, columns, column_noun,
                                  columns_expected, kind)
        # No problem found: the quick check was only too strict about types (a list subclass, NumPy scalars).
        return np.array(value, dtype=kind.dtype).reshape(n_rows, n_columns)  # (n_rows, n_columns)

    def _find_matrix_problem(self, value, field, rows, row_noun, rows_expected, columns, column_noun,
                             columns_expected, kind: _CellKind) -> None:
        """Walk the matrix in reading order and raise the first problem found."""
        if not isinstance(value, list):
            raise self.error(f"{field} must be a list of rows, one per {row_noun}; got {_show(value)}", field)
        if len(value) != len(rows):
            raise self.error(f"{field} has {_count(len(value), 'row')}, but {rows_expected}", field)
        for i, row in enumerate(value):
            row_ref = _ref(rows, i, row_noun)
            at_row = {"row": rows[i], "row_index": i}
            if not isinstance(row, list):
                raise self.error(
                    f"{field}, row {row_ref}: expected a list of {kind.plural}, one per {column_noun}; "
                    f"got {_show(row)}",
                    field, **at_row,
                )
            if len(row) != len(columns):
                raise self.error(
                    f"{field}, row {row_ref} has {_count(len(row), kind.noun, kind.plural)}, but {columns_expected}",
                    field, **at_row,
                )
            for j, cell in enumerate(row):
                problem = kind.problem(cell)
                if problem:
                    raise self.error(
                        f"{field}, row {row_ref}, column {_ref(columns, j, column_noun)}: {problem}",
                        field, column=columns[j], column_index=j, **at_row,
                    )

    def flag(self, value: Any, field: str) -> bool:
        if not isinstance(value, bool):
            raise self.error(f"{field} must be true or false; got {_show(value)}", field)
        return value

    def text(self, value: Any, field: str) -> str:
        if not isinstance(value, str):
            raise self.error(f"{field} must be text; got {_show(value)}", field)
        return value


# ---------------------------------------------------------------------------------------------
# The scene


def parse_scene(data: Any) -> Scene:
    """Check a scene dict and return it as a `Scene` with float64 arrays; raise `SceneError` if anything is wrong."""
    check = _Checker()
    if not isinstance(data, Mapping):
        raise SceneError(
            f"a scene must be an object with the keys {', '.join(SCENE_KEYS)}; got {_show(data)}", None
        )
    check.keys(data, SCENE_KEYS, OPTIONAL_SCENE_KEYS, "the scene")
    title = check.text(data["title"], "title")
    for key in ("id", "description"):
        if key in data:
            check.text(data[key], key)
    tokens = check.labels(data["tokens"], "tokens", noun="token", limit=LIMITS.tokens, unique=False, axis="row")
    features = check.labels(data["features"], "features", noun="feature", limit=LIMITS.features, unique=True,
                            axis="column")
    X = check.matrix(
        data["X"], "X",
        rows=tokens, row_noun="token", rows_expected=_there_are(tokens, "token"),
        columns=features, column_noun="feature",
        columns_expected=_there_are(features, "feature"),
    )  # (n_tokens, n_features)
    heads = _parse_heads(check, data["heads"], tokens, features)
    mask = _parse_mask(check, data["mask"], tokens)
    scale = check.flag(data["scale"], "scale")
    shift = check.flag(data.get("shift", True), "shift")
    positions = data.get("positions", "none")
    if not isinstance(positions, str) or positions not in POSITION_ENCODINGS:
        raise check.error(f"positions must be {OPTIONAL_SCENE_KEYS['positions']}; got {_show(positions)}", "positions")
    return Scene(title, tokens, features, X, heads, mask, scale, shift, positions)


def _parse_mask(check: _Checker, value: Any, tokens: tuple[str, ...]) -> np.ndarray:
    expected = SCENE_KEYS["mask"]
    if isinstance(value, str):
        if value not in MASK_NAMES:
            raise check.error(f"mask {_show(value)} is not known; expected {expected}", "mask")
        return mask_matrix(value, len(tokens))  # (n_tokens, n_tokens)
    if not isinstance(value, list):
        raise check.error(f"mask must be {expected}; got {_show(value)}", "mask")
    return check.matrix(
        value, "mask",
        rows=tokens, row_noun="token", rows_expected=_there_are(tokens, "token"),
        columns=tokens, column_noun="token",
        columns_expected=_there_are(tokens, "token"),
        kind=_FLAG,
    )  # (n_tokens, n_tokens)


def _parse_heads(check: _Checker, value: Any, tokens: tuple[str, ...], features: tuple[str, ...]) -> tuple[Head, ...]:
    if not isinstance(value, list):
        raise check.error(f"heads must be a list of heads; got {_show(value)}", "heads")
    if not value:
        raise check.error("heads is empty; a scene needs at least one head", "heads")
    if len(value) > LIMITS.heads:
        raise check.error(f"heads has {len(value)} heads; the limit is {LIMITS.heads}", "heads")
    heads = []
    first_seen: dict[str, int] = {}
    for i, head_data in enumerate(value):
        several = len(value) > 1
        subject = f"head {i + 1}" if several else "the head"
        if not isinstance(head_data, Mapping):
            raise check.error(
                f"{subject} must be an object with {', '.join(HEAD_KEYS)}; got {_show(head_data)}", f"heads[{i}]"
            )
        check.path, check.where = f"heads[{i}].", ""
        check.keys(head_data, HEAD_KEYS, OPTIONAL_HEAD_KEYS, subject)
        # Until the head's name is known to be good, messages name the head by its position.
        check.where = f"{subject}: " if several else ""
        name = check.text(head_data["name"], "name")
        if not name.strip():
            raise check.error("name is empty; give the head a name", "name")
        if name in first_seen:
            raise check.error(
                f"two heads are called {_quote(name)} (heads {first_seen[name] + 1} and {i + 1}); "
                f"every head needs its own name", "name"
            )
        first_seen[name] = i
        if several:
            check.where = f"head {_quote(name)}: "
        heads.append(_parse_head(check, head_data, name, tokens, features))
    check.path, check.where = "", ""
    return tuple(heads)


def _parse_head(check: _Checker, data: Mapping, name: str, tokens: tuple[str, ...],
                features: tuple[str, ...]) -> Head:
    dims = check.labels(data["dims"], "dims", noun="dim", limit=LIMITS.dims, unique=True, axis="column")
    per_token = f"each token has {_count(len(features), 'feature')} ({_names(features)})"
    projection = dict(
        rows=features, row_noun="feature", rows_expected=per_token,
        columns=dims, column_noun="dim",
        columns_expected=f"the head has {_count(len(dims), 'dim')} ({_names(dims)})",
    )
    Wq = check.matrix(data["Wq"], "Wq", **projection)  # (n_features, d_k)
    Wk = check.matrix(data["Wk"], "Wk", **projection)  # (n_features, d_k)

    value_dims = None
    if "value_dims" in data:
        value_dims = check.labels(data["value_dims"], "value_dims", noun="value dim", limit=LIMITS.value_dims,
                                  unique=True, axis="column")
    raw_Wv = data["Wv"]
    if raw_Wv is None:
        # One-hot position markers: token i's value has a 1 in column i, so columns are the tokens.
        if value_dims is not None and len(value_dims) != len(tokens):
            raise check.error(
                f"value_dims names {_count(len(value_dims), 'column')}, but Wv is null, so each value is a "
                f"one-hot marker with one column per token ({_count(len(tokens), 'token')})", "value_dims"
            )
        return Head(name, dims, value_dims or tokens, Wq, Wk, None)

    if value_dims is not None:
        columns_expected = f"value_dims names {_count(len(value_dims), 'column')} ({_names(value_dims)})"
    else:
        width = _value_width(check, raw_Wv, features)
        value_dims = default_value_dims(width)
        columns_expected = f"row {_quote(features[0])} has {width}; every row of Wv needs the same length"
    Wv = check.matrix(
        raw_Wv, "Wv", rows=features, row_noun="feature", rows_expected=per_token,
        columns=value_dims, column_noun="value dim", columns_expected=columns_expected,
    )  # (n_features, d_v)
    return Head(name, dims, value_dims, Wq, Wk, Wv)


def _value_width(check: _Checker, raw_Wv: Any, features: tuple[str, ...]) -> int:
    """The number of columns of Wv when value_dims does not name them: the first row's length."""
    if isinstance(raw_Wv, np.ndarray) and raw_Wv.ndim == 2 and len(raw_Wv):  # packed (entry.handle_packed)
        raw_Wv = [raw_Wv[0]]
    if not (isinstance(raw_Wv, list) and raw_Wv and isinstance(raw_Wv[0], (list, np.ndarray))):
        return 1  # the matrix check that follows reports what is wrong with the shape
    width = len(raw_Wv[0])
    at_first = {"row": features[0], "row_index": 0}
    if width == 0:
        raise check.error(f"Wv, row {_quote(features[0])} is empty; expected at least one number", "Wv", **at_first)
    if width > LIMITS.value_dims:
        raise check.error(
            f"Wv, row {_quote(features[0])} has {width} numbers; the limit is {LIMITS.value_dims} value dims",
            "Wv", **at_first,
        )
    return width
