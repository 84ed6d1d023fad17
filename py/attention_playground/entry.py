"""The entry point the page calls: `handle(request_json) -> response_json`, strings both ways, and its
faster twin `handle_packed` (below), which the page's worker uses.

A request is {"kind": ..., "payload": {...}}. The kinds, each with the payload it takes, the handler that
serves it and what it gives back, are declared once, in kinds.py (`KINDS`); wire.py reads the request's text
and writes the response's.

"model" is "shipped" (the default) or "trained" (the run this interpreter is training).

The response is {"ok": true, "result": ...} or {"ok": false, "error": {"type", "message", "field",
"row", "column"}}. "type" is "SceneError" for a mistake in a scene (which adds "row_index" and
"column_index"), "RequestError" for a malformed request, and "InternalError" for anything
unexpected. `handle` never raises: whatever happens comes back as a response.

`handle_packed(request_json, numbers=None) -> (header_json, data)` serves the same requests with the same responses, but
ships the float matrices of a result (a "compute" result's, a model's heads) as raw float64 bytes instead of decimal
text, and takes a request's matrices the same way: the packed format, and the inputs a packed compute reply leaves
out (the page keeps what it sent), are described once, in js/runtime/protocol.js ("Packed matrices"). For a result
with no float matrix, and for every error, `data` is empty and the header is exactly `handle`'s response.
"""

from __future__ import annotations

import json
from typing import Any

from .kinds import KINDS, RequestKind
from .wire import MATRIX_KEY, MAX_NESTING, RequestError, failure, packed_success, read_request, sent_packed, success


def kind_of(name: Any) -> RequestKind:
    """The declared kind called `name` (kinds.py); RequestError for any other."""
    if not isinstance(name, str) or name not in KINDS:
        raise RequestError(f"unknown kind {json.dumps(name)}; the kinds are {', '.join(KINDS)}", "kind")
    return KINDS[name]


def check_payload(kind: RequestKind, payload: dict) -> None:
    """Refuse a payload with a key the kind does not take, or without one it needs."""
    known = kind.required + kind.optional
    for key in payload:
        if key not in known:
            options = ", ".join(known) if known else "nothing"
            raise RequestError(f'"{kind.name}" has no option "{key}"; it takes {options}', key)
    for key in kind.required:
        if key not in payload:
            raise RequestError(f'"{kind.name}" needs "{key}" in its payload', key)


def _served(name: Any, payload: dict) -> Any:
    """The handler's value for one request read by wire.py: checked against its kind (kinds.py), run."""
    kind = kind_of(name)
    check_payload(kind, payload)
    return kind.handler(**payload)


def handle(request_json: str) -> str:
    """Serve one request (a JSON string) and return the response as a JSON string. Never raises."""
    try:
        return success(_served(*read_request(request_json)))
    except (Exception, KeyboardInterrupt) as error:  # an interrupt from the page comes back as a result too
        return failure(error)


def handle_packed(request_json: str, numbers: Any = None) -> tuple[str, bytes]:
    """Serve one request like `handle`, with its result's float matrices as float64 bytes.

    A request may come packed the same way: its matrices replaced by descriptors, their values in `numbers`
    (little-endian float64 bytes). It is served exactly as the request with those matrices written out, except
    that a computed scene's reply leaves out the input matrices the request sent packed and the module did not
    change (the sender has them). Returns `(header_json, data)`. Never raises.
    """
    try:
        name, payload = read_request(request_json, numbers)
        return packed_success(_served(name, payload), sent=sent_packed(payload))
    except (Exception, KeyboardInterrupt) as error:
        return failure(error), b""


__all__ = ["KINDS", "MATRIX_KEY", "MAX_NESTING", "RequestError", "check_payload", "handle", "handle_packed", "kind_of"]
