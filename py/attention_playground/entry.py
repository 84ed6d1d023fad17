"""The one entry point the page calls: `handle(request_json) -> response_json`, strings both ways.

A request is {"kind": ..., "payload": {...}}:

| kind                 | payload                                   | result                              |
|----------------------|-------------------------------------------|-------------------------------------|
| "compute"            | {"scene": {...}}                          | compute(scene), see compute.py      |
| "presets"            | {} (or no payload)                        | [{"id", "title", "description"}]    |
| "preset"             | {"id": "dog-bites-man"}                   | that preset's scene                 |
| "scaling_experiment" | keyword arguments of scaling_experiment   | its result dict                     |
| "shuffle_check"      | keyword arguments of shuffle_check        | its result dict                     |

The response is {"ok": true, "result": ...} or {"ok": false, "error": {"type", "message", "field",
"row", "column"}}. "type" is "SceneError" for a mistake in a scene (which adds "row_index" and
"column_index"), "RequestError" for a malformed request, and "InternalError" for anything
unexpected. `handle` never raises: whatever happens comes back as a response.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

from .compute import compute
from .experiments import scaling_experiment, shuffle_check
from .presets import UnknownPresetError, list_presets, load_preset
from .scene import SceneError


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


def _compute(payload: dict) -> Any:
    _payload_keys("compute", payload, ("scene",))
    return compute(payload["scene"])


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


#: What each request kind runs.
KINDS: dict[str, Callable[[dict], Any]] = {
    "compute": _compute,
    "presets": _presets,
    "preset": _preset,
    "scaling_experiment": _experiment(scaling_experiment),
    "shuffle_check": _experiment(shuffle_check),
}


def _read_request(request_json: Any) -> tuple[str, dict]:
    if not isinstance(request_json, (str, bytes, bytearray)):
        raise RequestError(f"a request must be a JSON string; got {type(request_json).__name__}")
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


def handle(request_json: str) -> str:
    """Serve one request (a JSON string) and return the response as a JSON string. Never raises."""
    try:
        kind, payload = _read_request(request_json)
        result = KINDS[kind](payload)
        # allow_nan=False: a stray nan or inf would be invalid JSON for the page; fail loudly here instead.
        return json.dumps({"ok": True, "result": result}, allow_nan=False)
    except (SceneError, RequestError) as error:
        return _error_response(error.to_dict())
    except (Exception, KeyboardInterrupt) as error:  # an interrupt from the page comes back as a result too
        return _error_response({
            "type": "InternalError",
            "message": f"{type(error).__name__}: {error}",
            "field": None,
            "row": None,
            "column": None,
        })
