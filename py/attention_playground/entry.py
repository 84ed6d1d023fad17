"""The entry point the page calls: `handle(request_json) -> response_json`, strings both ways, and its
faster twin `handle_packed` (below), which the page's worker uses.

A request is {"kind": ..., "payload": {...}}:

| kind                 | payload                                   | result                              |
|----------------------|-------------------------------------------|-------------------------------------|
| "compute"            | {"scene": {...}}                          | compute(scene), see compute.py      |
| "presets"            | {} (or no payload)                        | [{"id", "title", "description"}]    |
| "preset"             | {"id": "dog-bites-man"}                   | that preset's scene                 |
| "scaling_experiment" | keyword arguments of scaling_experiment   | its result dict                     |
| "shuffle_check"      | keyword arguments of shuffle_check        | its result dict                     |
| "exercises"          | {} (or no payload)                        | list_exercises(), see exercises.py  |
| "run_exercise"       | {"exercise_id", "code", "scene"?}         | run_exercise(...): the checks       |
| "learner_compute"    | {"exercise_id", "code", "scene"}          | {"result", "error"}, see            |
|                      |                                           | learner_compute.py                  |
| "model_info"         | {"model"?}                                | the trained model described         |
| "model_run"          | {"words", "knocked_out"?, "edited_head"?, | weights, predictions, effects and   |
|                      |  "metrics"?, "model"?}                    | metrics (model/requests.py)         |
| "model_head_scene"   | {"words", "layer", "head", "knocked_out"?,| {"scene", "source"}: one head as a  |
|                      |  "model"?}                                | scene                               |
| "model_train_start"  | {"config"?: {seed, steps, n_heads,        | {"config"}: a run started (needs    |
|                      |  repeat_fraction}}                        | autograd)                           |
| "model_train_steps"  | {"steps", "words"?, "max_seconds"?}       | the steps taken, their losses, the  |
|                      |                                           | heads now                           |
| "model_claims"       | {} (or no payload)                        | the claims a pair can test          |
| "model_claim_start"  | {"claim", "seed"?, "steps"?}              | {"claim", "configs"}: a claim's two |
|                      |                                           | runs started (needs autograd)       |
| "model_claim_steps"  | {"steps", "max_seconds"?}                 | both runs' losses; once done, their |
|                      |                                           | metrics and the verdict             |

"model" is "shipped" (the default), "trained" (the run this interpreter is training), or "claim-with" /
"claim-without" (the two runs of the claim's test in this interpreter).

The response is {"ok": true, "result": ...} or {"ok": false, "error": {"type", "message", "field",
"row", "column"}}. "type" is "SceneError" for a mistake in a scene (which adds "row_index" and
"column_index"), "RequestError" for a malformed request, and "InternalError" for anything
unexpected. `handle` never raises: whatever happens comes back as a response.

`handle_packed(request_json, numbers=None) -> (header_json, data)` serves the same requests with the same responses, but
ships the numbers of a "compute" result as raw float64 bytes instead of decimal text: for 64 tokens,
writing its tens of thousands of floats as JSON text takes several times longer than computing them, while
copying them as bytes costs almost nothing. "compute" is served as arrays (compute.ComputedScene), and
wire.py turns them into the JSON form or the packed form, once, on the way out. In the header (the response
as `handle` would give it), every float matrix of the result is replaced by a small descriptor

    {"$matrix": [offset, rows, cols]}

meaning: `rows * cols` float64 values of `data`, starting at value number `offset` (not byte), one row
after another (C order). `data` is little-endian float64, one buffer for all the matrices. Where `handle`
writes None (null) for a value that is not finite (a masked score, a nan from the overflow trap), `data`
holds a value that is not finite (nan, or ±inf); the reader puts None in place of every such value, and
so gets exactly `handle`'s response. For any other kind of request, and for every error, `data` is empty
and the header is exactly `handle`'s response.

The page packs a "compute" request the same way (reading 16,000 numbers from JSON text was most of what a
64-token request cost in the browser): a matrix of its scene may be a descriptor into `numbers`, float64
bytes. Such a request is served exactly as the one with the matrix written out; a matrix of the wrong shape
gets the same message as the same matrix in JSON.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from .compute import ComputedScene, compute_scene
from .experiments import scaling_experiment, shuffle_check
from .presets import UnknownPresetError, list_presets, load_preset
from .scene import SceneError
from .wire import MATRIX_KEY, packed_result, result_json


class RequestError(ValueError):
    """A request the entry point cannot serve: bad JSON, unknown kind, missing or unknown payload keys."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field

    def to_dict(self) -> dict[str, Any]:
        return {"type": "RequestError", "message": self.message, "field": self.field, "row": None, "column": None}


def _payload_keys(kind: str, payload: dict, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    known = required + optional
    for key in payload:
        if key not in known:
            options = ", ".join(known) if known else "nothing"
            raise RequestError(f'"{kind}" has no option "{key}"; it takes {options}', key)
    for key in required:
        if key not in payload:
            raise RequestError(f'"{kind}" needs "{key}" in its payload', key)


def _compute(payload: dict) -> ComputedScene:
    _payload_keys("compute", payload, ("scene",))
    return compute_scene(payload["scene"])  # arrays: written out by wire.py on the way out


def _presets(payload: dict) -> Any:
    _payload_keys("presets", payload, ())
    return list_presets()


def _preset(payload: dict) -> Any:
    _payload_keys("preset", payload, ("id",))
    try:
        return load_preset(payload["id"])
    except UnknownPresetError as error:
        raise RequestError(str(error), "id") from None


def _experiment(function: Callable[..., Any]) -> Callable[[dict], Any]:
    """Serve an experiment whose payload is its keyword arguments."""
    options = tuple(inspect.signature(function).parameters)

    def run(payload: dict) -> Any:
        _payload_keys(function.__name__, payload, (), options)
        try:
            return function(**payload)
        except ValueError as error:  # the experiments refuse bad arguments with ValueError
            raise RequestError(str(error)) from None

    return run


def _exercises(payload: dict) -> Any:
    _payload_keys("exercises", payload, ())
    from .exercises import list_exercises  # noqa: PLC0415  (see _learner_request)

    return list_exercises()


def _learner_request(kind: str, module: str, function: str, required: tuple[str, ...],
                     optional: tuple[str, ...] = ()) -> Callable[[dict], Any]:
    """Serve a request that runs the learner's code: `function` of `module`, imported on the first such
    request (only the learner's worker makes them; the page's never imports the exercises, and the page
    ships them in a part of their own: parts.py). An unknown exercise id is the request's mistake."""

    def run(payload: dict) -> Any:
        _payload_keys(kind, payload, required, optional)
        if not isinstance(payload["code"], str):
            raise RequestError(f'"{kind}" needs "code" as text', "code")
        from .exercises import UnknownExerciseError  # noqa: PLC0415

        target = getattr(importlib.import_module(f".{module}", __package__), function)
        try:
            return target(**payload)
        except UnknownExerciseError as error:
            raise RequestError(str(error), "exercise_id") from None

    return run


def _model_request(kind: str, function: str, required: tuple[str, ...] = (),
                   optional: tuple[str, ...] = ()) -> Callable[[dict], Any]:
    """Serve one of the trained model's requests: `function` of model/requests.py, imported on the first
    such request (a page that never opens the model does not import it). Its mistakes are ModelInputErrors."""

    def run(payload: dict) -> Any:
        _payload_keys(kind, payload, required, ("model", *optional))
        from .model import requests  # noqa: PLC0415

        return getattr(requests, function)(payload)

    return run


#: What each request kind runs.
KINDS: dict[str, Callable[[dict], Any]] = {
    "compute": _compute,
    "presets": _presets,
    "preset": _preset,
    "scaling_experiment": _experiment(scaling_experiment),
    "shuffle_check": _experiment(shuffle_check),
    "exercises": _exercises,
    "run_exercise": _learner_request("run_exercise", "exercises", "run_exercise", ("exercise_id", "code"), ("scene",)),
    "learner_compute": _learner_request("learner_compute", "learner_compute", "compute_with_learner",
                                        ("exercise_id", "code", "scene")),
    "model_info": _model_request("model_info", "model_info"),
    "model_run": _model_request("model_run", "model_run", ("words",),
                                ("knocked_out", "edited_head", "metrics")),
    "model_head_scene": _model_request("model_head_scene", "model_head_scene",
                                       ("words", "layer", "head"), ("knocked_out",)),
    "model_train_start": _model_request("model_train_start", "train_start", (), ("config",)),
    "model_train_steps": _model_request("model_train_steps", "train_steps", ("steps",),
                                        ("words", "max_seconds")),
    "model_claims": _model_request("model_claims", "claims_list"),
    "model_claim_start": _model_request("model_claim_start", "claim_start", ("claim",), ("seed", "steps")),
    "model_claim_steps": _model_request("model_claim_steps", "claim_steps", ("steps",), ("max_seconds",)),
}


#: How many levels of lists and objects a request's payload may nest, itself included. A compute payload nests six
#: (payload, scene, heads, a head, Wq, a row); the page's client and worker refuse deeper payloads too, with the
#: same limit (js/runtime/nesting.js).
MAX_NESTING = 64

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


def _read_request(request_json: Any) -> tuple[str, dict]:
    if not isinstance(request_json, (str, bytes, bytearray)):
        raise RequestError(f"a request must be a JSON string; got {type(request_json).__name__}")
    if _nesting_depth(request_json) > MAX_NESTING + 1:  # the request object is one level above its payload
        raise RequestError(f"the request is nested too deeply: lists inside lists more than {MAX_NESTING} levels "
                           "deep; a scene nests six levels at most")
    try:
        request = json.loads(request_json)
    except ValueError as error:
        raise RequestError(f"the request is not valid JSON: {error}") from None
    if not isinstance(request, dict):
        raise RequestError('a request must be an object {"kind": ..., "payload": {...}}')
    for key in request:
        if key not in ("kind", "payload"):
            raise RequestError(f'a request has only "kind" and "payload", not "{key}"', key)
    kind = request.get("kind")
    if kind not in KINDS:
        raise RequestError(f"unknown kind {json.dumps(kind)}; the kinds are {', '.join(KINDS)}", "kind")
    payload = request.get("payload", {})
    if payload is None:
        payload = {}
    if not isinstance(payload, dict):
        raise RequestError("the payload must be an object", "payload")
    return kind, payload


def _error_response(error: dict[str, Any]) -> str:
    return json.dumps({"ok": False, "error": error})


def _failure(error: BaseException) -> str:
    """The error response for anything `handle` or `handle_packed` caught."""
    if isinstance(error, (SceneError, RequestError)):
        return _error_response(error.to_dict())
    return _error_response({
        "type": "InternalError",
        "message": f"{type(error).__name__}: {error}",
        "field": None,
        "row": None,
        "column": None,
    })


def _success(result: Any) -> str:
    if isinstance(result, ComputedScene):
        result = result_json(result)
    # allow_nan=False: a stray nan or inf would be invalid JSON for the page; fail loudly here instead.
    return json.dumps({"ok": True, "result": result}, allow_nan=False)


def handle(request_json: str) -> str:
    """Serve one request (a JSON string) and return the response as a JSON string. Never raises."""
    try:
        kind, payload = _read_request(request_json)
        return _success(KINDS[kind](payload))
    except (Exception, KeyboardInterrupt) as error:  # an interrupt from the page comes back as a result too
        return _failure(error)


__all__ = ["KINDS", "MATRIX_KEY", "MAX_NESTING", "RequestError", "handle", "handle_packed"]


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


def handle_packed(request_json: str, numbers: Any = None) -> tuple[str, bytes]:
    """Serve one request like `handle`, with a "compute" result's matrices as float64 bytes.

    A request may come packed the same way: its matrices replaced by descriptors, their values in `numbers`
    (little-endian float64 bytes). It is served exactly as the request with those matrices written out.
    Returns `(header_json, data)`; see the module's docstring for the format. Never raises.
    """
    try:
        kind, payload = _read_request(request_json)
        if numbers is not None:
            payload = _unpacked(payload, _request_numbers(numbers))
        result = KINDS[kind](payload)
        data = b""
        if isinstance(result, ComputedScene):
            result, data = packed_result(result)
        return _success(result), data
    except (Exception, KeyboardInterrupt) as error:
        return _failure(error), b""
