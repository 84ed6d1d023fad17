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
ships the numbers of a "compute" result as raw float64 bytes instead of decimal text: for 64 tokens,
writing its tens of thousands of floats as JSON text takes several times longer than computing them, while
copying them as bytes costs almost nothing. "compute" is served as arrays (scene_stages.ComputedScene), and
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

from typing import Any

from .kinds import KINDS, check_payload, kind_of
from .wire import MATRIX_KEY, MAX_NESTING, RequestError, failure, packed_success, read_request, success


def _served(request_json: Any, numbers: Any = None) -> Any:
    """The handler's value for one request: read (wire.py), checked against its kind (kinds.py), run."""
    name, payload = read_request(request_json, numbers)
    kind = kind_of(name)
    check_payload(kind, payload)
    return kind.handler(**payload)


def handle(request_json: str) -> str:
    """Serve one request (a JSON string) and return the response as a JSON string. Never raises."""
    try:
        return success(_served(request_json))
    except (Exception, KeyboardInterrupt) as error:  # an interrupt from the page comes back as a result too
        return failure(error)


def handle_packed(request_json: str, numbers: Any = None) -> tuple[str, bytes]:
    """Serve one request like `handle`, with a "compute" result's matrices as float64 bytes.

    A request may come packed the same way: its matrices replaced by descriptors, their values in `numbers`
    (little-endian float64 bytes). It is served exactly as the request with those matrices written out.
    Returns `(header_json, data)`; see the module's docstring for the format. Never raises.
    """
    try:
        return packed_success(_served(request_json, numbers))
    except (Exception, KeyboardInterrupt) as error:
        return failure(error), b""


__all__ = ["KINDS", "MATRIX_KEY", "MAX_NESTING", "RequestError", "handle", "handle_packed"]
