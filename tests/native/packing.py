"""A "compute" request packed as the page packs it (js/runtime/protocol.js packScene), written here on its own
from the format's rules, so that tests can send the entry point what the browser sends."""

import json
import math
import struct


def is_finite_number(value):
    """What JavaScript holds as a finite number (a whole number too large for a float64 is Infinity there)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def is_number_matrix(value):
    """Rows of finite numbers (not booleans), at least one row, all as long as the first, which is not empty."""
    if not (isinstance(value, list) and value and isinstance(value[0], list) and value[0]):
        return False
    return all(isinstance(row, list) and len(row) == len(value[0]) and all(map(is_finite_number, row))
               for row in value)


def packed_compute_request(scene):
    """(request_json, numbers): X and every head's Wq, Wk, Wv that are number matrices moved into `numbers`
    (little-endian float64) and replaced by {"$matrix": [offset, rows, cols]}; None for numbers when nothing
    could be packed."""
    numbers = []
    copy = json.loads(json.dumps(scene, allow_nan=True))

    def moved(matrix):
        descriptor = {"$matrix": [len(numbers), len(matrix), len(matrix[0])]}
        for row in matrix:
            numbers.extend(float(x) for x in row)
        return descriptor

    if isinstance(copy, dict):
        if is_number_matrix(copy.get("X")):
            copy["X"] = moved(copy["X"])
        for head in copy.get("heads") if isinstance(copy.get("heads"), list) else []:
            if isinstance(head, dict):
                for key in ("Wq", "Wk", "Wv"):
                    if is_number_matrix(head.get(key)):
                        head[key] = moved(head[key])
    request = json.dumps({"kind": "compute", "payload": {"scene": copy}}, allow_nan=True)
    return request, (struct.pack(f"<{len(numbers)}d", *numbers) if numbers else None)
