"""The boundary between the module's values and the page: JSON text or packed bytes in, plain data or packed
bytes out. This is the one module that turns arrays into lists, and requests into what the handlers read.

Out (what a handler returned, to the page):

- `plain(value)`: any value a handler returns (a `ComputedScene`, a NamedTuple, arrays, NumPy numbers, in
  dicts and lists) as plain JSON-ready data; a computed scene becomes `result_json(computed)`, the dict the
  docs/reference.md describes ("What compute(scene) returns"): lists of Python floats at full precision, with None
  wherever a number is not finite (a masked score, -inf, a nan from the overflow trap);
- `packed_result(computed, sent)`: the same dict with every float matrix replaced by a descriptor
  {"$matrix": [offset, rows, cols]}, and the matrices themselves as one little-endian float64 buffer, less the
  input matrices the request sent packed (`sent`, from `sent_packed`). For 64 tokens, writing tens of thousands
  of floats as decimal text costs Python several times more than computing them; copying them as bytes costs
  almost nothing. The format is described once, in js/runtime/protocol.js ("Packed matrices");
- `plain(value, pack)`: any other result, with every float array of two dimensions or more packed the same way
  (one of three dimensions is a list of matrices): the English model's heads, say, are thousands of weights;
- `success(result)` and `failure(error)`: the response text.

In (a request from the page):

- `read_request(text, numbers)`: the request's kind and payload, its envelope checked (JSON, nesting, only
  "kind" and "payload") and every packed matrix of the payload put back as an array. Whether the kind exists
  and what its payload may hold is the kinds' table's business (kinds.py).

`result_json` and `packed_result` are made by one function (`_result`), so the two forms cannot drift apart:
they differ only in what a matrix becomes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .scene_stages import ComputedScene, compute_scene
from .scene import SceneError


class RequestError(ValueError):
    """A request the entry point cannot serve: bad JSON, unknown kind, missing or unknown payload keys."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field

    def to_dict(self) -> dict[str, Any]:
        return {"type": "RequestError", "message": self.message, "field": self.field, "row": None, "column": None}


#: The key of the descriptor that stands in a packed result for a matrix shipped as bytes.
MATRIX_KEY = "$matrix"


def json_matrix(array: np.ndarray) -> list[list[float | None]]:
    """A 2-D array as a list of rows of Python floats, with None for every inf or nan.

    tolist() converts the whole array in C; only the few non-finite cells are patched in Python.
    """
    rows = array.tolist()
    not_finite = ~np.isfinite(array)  # (n_rows, n_columns)
    if not_finite.any():
        bad_rows, bad_columns = np.nonzero(not_finite)
        for i, j in zip(bad_rows.tolist(), bad_columns.tolist(), strict=True):
            rows[i][j] = None
    return rows


def plain(value: Any, pack: Callable[[np.ndarray], dict[str, list[int]]] | None = None) -> Any:
    """`value` as JSON-ready data: a computed scene as `result_json`, a NamedTuple as a dict, an array as lists
    (None for every inf or nan), a NumPy number as a Python one; dicts, lists and tuples walked through.

    Given `pack` (`_MatrixPacker.pack`), each float array of two or more dimensions goes to it instead, a matrix's
    descriptor in its place (an array of more dimensions as a list of what its parts become): unpacked, the same."""
    if isinstance(value, ComputedScene):
        return result_json(value)
    if isinstance(value, np.ndarray):
        if pack is not None and value.dtype.kind == "f" and value.ndim >= 2:
            return pack(value) if value.ndim == 2 else [plain(part, pack) for part in value]
        return json_matrix(value) if value.ndim == 2 else _json_array(value)
    if isinstance(value, np.generic):
        return _json_array(np.asarray(value))
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return plain(value._asdict(), pack)
    if isinstance(value, Mapping):
        return {key: plain(item, pack) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item, pack) for item in value]
    return value


def _json_array(array: np.ndarray) -> Any:
    """An array of any shape as nested lists (a 0-d one as its number), None for every inf or nan."""
    if array.dtype.kind != "f" or np.isfinite(array).all():
        return array.tolist()
    return np.where(np.isfinite(array), array, None).tolist()


#: What a request sent packed that its reply need not send back: nothing (every reply but a packed one).
_NOTHING_SENT: dict[str, Any] = {"X": False, "heads": []}


def _inputs(head: Any, sent: dict[str, bool], matrix: Callable[[np.ndarray], Any]) -> dict[str, Any]:
    """A head's Wq, Wk and Wv as the module read them, less those the request sent packed."""
    written = {"Wq": head.Wq, "Wk": head.Wk, "Wv": head.Wv}
    return {name: None if value is None else matrix(value) for name, value in written.items() if not sent.get(name)}


def _result(computed: ComputedScene, matrix: Callable[[np.ndarray], Any], sent: dict[str, Any] = _NOTHING_SENT) -> dict[str, Any]:
    """The result dict of docs/reference.md, each float matrix written by `matrix`, less the inputs `sent`."""
    scene = computed.scene
    heads = []
    for index, computed_head in enumerate(computed.heads):
        head, stages = computed_head.head, computed_head.stages
        written = {name: matrix(array) for name, array in stages._asdict().items()}
        heads.append({
            "name": head.name,
            "dims": list(head.dims),
            "value_dims": list(head.value_dims),
            "d_k": len(head.dims),
            "stages": written,
            "weights": written["weights"],  # the same matrix as stages.weights, for readers who want only it
            **_inputs(head, sent["heads"][index] if index < len(sent["heads"]) else {}, matrix),
        })
    # X as the heads read it: the sender's own unless positions were added to it.
    x_sent = sent["X"] and scene.positions == "none"
    return {
        "title": scene.title,
        "tokens": list(scene.tokens),
        "features": list(scene.features),
        "scale": scene.scale,
        "shift": scene.shift,
        "mask": scene.mask.tolist(),
        "fully_masked_rows": list(computed.fully_masked_rows),
        "heads": heads,
        "output": matrix(computed.output),
        "output_dims": [f"{head.name}/{dim}" for head in scene.heads for dim in head.value_dims],
        "warnings": list(computed.warnings),
        "positions": scene.positions,
        **({} if x_sent else {"X": matrix(computed.X)}),
    }


def result_json(computed: ComputedScene) -> dict[str, Any]:
    """The computed scene as plain data: the result docs/reference.md describes."""
    return _result(computed, json_matrix)


def compute(scene: Mapping[str, Any]) -> dict[str, Any]:
    """Check `scene`, run every head, and return the result docs/reference.md describes, as plain data.

    `compute_scene` (scene_stages.py) written out: the one call a notebook or the page needs. Raises
    `SceneError` (with field, row and column labels) if the scene has a mistake. Lists of Python floats at full
    precision, with None wherever a number is not finite (a masked score, a nan from the overflow trap). Besides
    the keys described there, the result has `warnings`: plain sentences about anything the learner should know. It
    also echoes `positions` and gives the inputs every head read, so each number of the stages can be worked by
    hand: `X` (the scene's X plus the positions, if any) and, per head, `Wq`, `Wk`, `Wv` (`Wv` is None for
    one-hot position markers).
    """
    return result_json(compute_scene(scene))


class _MatrixPacker:
    """Collects float matrices into one float64 buffer and hands out a descriptor for each."""

    def __init__(self) -> None:
        self.blocks: list[np.ndarray] = []
        self.size = 0

    def pack(self, array: np.ndarray) -> dict[str, list[int]]:
        """The descriptor of a 2-D array; its values are appended to the buffer."""
        values = np.asarray(array, dtype=np.float64)  # (rows, cols)
        if values.ndim != 2:
            raise ValueError(f"a matrix to pack must be 2-D, got shape {values.shape}")
        rows, cols = values.shape
        descriptor = {MATRIX_KEY: [self.size, rows, cols]}
        self.blocks.append(values.ravel())  # (rows * cols,)
        self.size += rows * cols
        return descriptor

    def data(self) -> bytes:
        """Every matrix packed so far, one after another, as little-endian float64."""
        if not self.blocks:
            return b""
        return np.concatenate(self.blocks).astype("<f8", copy=False).tobytes()  # (size,) as bytes


def sent_packed(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Which input matrices of a request's scene came packed (read as arrays: JSON never gives one):
    {"X": bool, "heads": [{"Wq": bool, "Wk": bool, "Wv": bool}, ...]}."""
    scene = payload.get("scene")
    if not isinstance(scene, Mapping):
        return _NOTHING_SENT
    heads = scene.get("heads") if isinstance(scene.get("heads"), list) else []
    return {
        "X": isinstance(scene.get("X"), np.ndarray),
        "heads": [{name: isinstance(head, Mapping) and isinstance(head.get(name), np.ndarray) for name in ("Wq", "Wk", "Wv")}
                  for head in heads],
    }


def packed_result(computed: ComputedScene, sent: dict[str, Any] = _NOTHING_SENT) -> tuple[dict[str, Any], bytes]:
    """The result dict with its float matrices replaced by descriptors, and the buffer that holds them, less the
    input matrices the request `sent` packed (the sender keeps them: js/runtime/protocol.js).

    Where the plain result has None (a value that is not finite), the buffer holds that value (nan, ±inf);
    the reader turns every such value back into None, and so gets exactly `result_json`'s dict.
    """
    packer = _MatrixPacker()
    return _result(computed, packer.pack, sent), packer.data()


# ------------------------------------------------------------------------------------------------------------
# The response: text, and for `handle_packed` the bytes beside it


def success(result: Any) -> str:
    """The response to a request served: {"ok": true, "result": ...}, `result` made plain first."""
    return _response(plain(result))


def packed_success(result: Any, sent: dict[str, Any] = _NOTHING_SENT) -> tuple[str, bytes]:
    """`success` with a computed scene's matrices as float64 bytes (`packed_result`, less the inputs `sent`
    packed), and any other result's float arrays too (`plain` given the packer)."""
    if isinstance(result, ComputedScene):
        header, data = packed_result(result, sent)
        return _response(header), data  # plain already: walking it again would cost more than computing it
    packer = _MatrixPacker()
    header = plain(result, packer.pack)
    return _response(header), packer.data()


def _response(plain_result: Any) -> str:
    # allow_nan=False: a stray nan or inf would be invalid JSON for the page; fail loudly here instead.
    return json.dumps({"ok": True, "result": plain_result}, allow_nan=False)


def failure(error: BaseException) -> str:
    """The error response for anything `handle` or `handle_packed` caught."""
    if isinstance(error, (SceneError, RequestError)):
        details = error.to_dict()
    else:
        details = {"type": "InternalError", "message": f"{type(error).__name__}: {error}",
                   "field": None, "row": None, "column": None}
    return json.dumps({"ok": False, "error": details})


# ------------------------------------------------------------------------------------------------------------
# The request: JSON text, and the numbers of its packed matrices

#: How many levels of lists and objects a request's payload may nest, itself included. A compute payload nests
#: six (payload, scene, heads, a head, Wq, a row). The page refuses deeper payloads with this limit and message
#: (js/runtime/nesting.js reads both from the build's facts) where they could reach it another way: its client,
#: before posting one (cloning thousands of levels fails), and its worker, which any page sharing it may send to.
MAX_NESTING = 64
TOO_DEEP_MESSAGE = (f"the scene is nested too deeply (lists inside lists more than {MAX_NESTING} levels deep); "
                    "a scene nests six levels at most")

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_JSON_BRACKETS = re.compile(r"[\[\]{}]")


def _nesting_depth(text: str | bytes | bytearray) -> int:
    """The deepest nesting of [ ] and { } in JSON text, brackets inside strings not counted.

    Checked before parsing: thousands of nested brackets make Python's JSON reader recurse until, natively, it
    raises RecursionError, and in the browser (Pyodide) it overflows the WebAssembly stack and kills Python.
    """
    if not isinstance(text, str):
        text = bytes(text).decode("utf-8", errors="replace")
    depth = deepest = 0
    for bracket in _JSON_BRACKETS.findall(_JSON_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def read_request(request_json: Any, numbers: Any = None) -> tuple[Any, dict]:
    """The kind (as sent: not yet checked) and payload of a request, every packed matrix put back as an array.

    Raises RequestError for anything that is not {"kind": ..., "payload": {...}} as JSON text, nested too deeply,
    or with a packed matrix outside `numbers`.
    """
    if not isinstance(request_json, (str, bytes, bytearray)):
        raise RequestError(f"a request must be a JSON string; got {type(request_json).__name__}")
    if _nesting_depth(request_json) > MAX_NESTING + 1:  # the request object is one level above its payload
        raise RequestError(TOO_DEEP_MESSAGE)
    try:
        request = json.loads(request_json)
    except ValueError as error:
        raise RequestError(f"the request is not valid JSON: {error}") from None
    if not isinstance(request, dict):
        raise RequestError('a request must be an object {"kind": ..., "payload": {...}}')
    for key in request:
        if key not in ("kind", "payload"):
            raise RequestError(f'a request has only "kind" and "payload", not "{key}"', key)
    payload = request.get("payload", {})
    if payload is None:
        payload = {}
    if not isinstance(payload, dict):
        raise RequestError("the payload must be an object", "payload")
    if numbers is not None:
        payload = _unpacked(payload, _request_numbers(numbers))
    return request.get("kind"), payload


def _unpacked(value: Any, numbers: np.ndarray) -> Any:
    """`value` with every {"$matrix": [offset, rows, cols]} in it replaced by that matrix of `numbers`."""
    if isinstance(value, list):
        return [_unpacked(item, numbers) for item in value]
    if not isinstance(value, dict):
        return value
    if set(value) == {MATRIX_KEY}:
        where = value[MATRIX_KEY]
        if not (isinstance(where, list) and len(where) == 3
                and all(type(n) is int and n >= 0 for n in where) and where[0] + where[1] * where[2] <= len(numbers)):
            raise RequestError(f"a packed matrix {json.dumps(where)} does not lie within the request's "
                               f"{len(numbers)} numbers")
        offset, rows, cols = where
        return numbers[offset:offset + rows * cols].reshape(rows, cols)  # (rows, cols)
    return {key: _unpacked(item, numbers) for key, item in value.items()}


def _request_numbers(data: Any) -> np.ndarray:
    """A packed request's numbers: little-endian float64 bytes (from the browser, a JavaScript Uint8Array)."""
    if hasattr(data, "to_bytes"):  # a JavaScript buffer, as Pyodide hands it over
        data = data.to_bytes()
    data = bytes(data)
    if len(data) % 8:
        raise RequestError(f"a request's numbers are float64 values, 8 bytes each, but {len(data)} bytes came")
    return np.frombuffer(data, dtype="<f8")
