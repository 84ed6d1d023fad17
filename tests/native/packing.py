"""A "compute" request packed as the page packs it, and its reply read back as the page's client reads it
(js/runtime/client.js packScene, unpackMatrices, withInputsSent), written here on their own from the format's
rules (js/runtime/protocol.js, "Packed matrices"), so that tests can send the entry point what the browser sends
and read what the browser gets."""

import json
import math
import struct

def strict_json(text):
    """Parse like the browser's JSON.parse: NaN and Infinity are not JSON."""
    def refuse(constant):
        raise AssertionError(f"{constant} is not valid JSON")
    return json.loads(text, parse_constant=refuse)


#: A computed head's keys, in the order Python writes them.
HEAD_KEYS = ("name", "dims", "value_dims", "d_k", "stages", "weights", "Wq", "Wk", "Wv")


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


def unpack(header_json, data):
    """Read handle_packed's reply as the page's client does, written here on its own from the format's rules:
    each {"$matrix": [offset, rows, cols]} becomes rows of the float64 values from `offset` on, with None for
    every value that is not finite."""
    values = struct.unpack(f"<{len(data) // 8}d", data)
    assert len(data) % 8 == 0

    def revive(value):
        if isinstance(value, dict) and list(value) == ["$matrix"]:
            offset, rows, cols = value["$matrix"]
            assert offset >= 0 and rows >= 0 and cols >= 0 and offset + rows * cols <= len(values)
            cells = [x if math.isfinite(x) else None for x in values[offset:offset + rows * cols]]
            return [cells[i * cols:(i + 1) * cols] for i in range(rows)]
        if isinstance(value, dict):
            return {key: revive(item) for key, item in value.items()}
        if isinstance(value, list):
            return [revive(item) for item in value]
        return value

    return revive(strict_json(header_json))


def assert_identical(actual, expected, path="reply"):
    """Equal structure, equal types, and every float the same to the bit (so -0.0 is not 0.0)."""
    assert type(actual) is type(expected), f"{path}: {actual!r} is not a {type(expected).__name__}"
    if isinstance(expected, dict):
        assert list(actual) == list(expected), f"{path}: keys differ"
        for key in expected:
            assert_identical(actual[key], expected[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert len(actual) == len(expected), f"{path}: lengths differ"
        for index, (a, e) in enumerate(zip(actual, expected)):
            assert_identical(a, e, f"{path}[{index}]")
    elif isinstance(expected, float):
        assert struct.pack("<d", actual) == struct.pack("<d", expected), f"{path}: {actual!r} != {expected!r}"
    else:
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"


def with_inputs_put_back(reply, scene):
    """A packed compute reply (unpacked) with the input matrices it left out put back from the scene sent, as the
    page's client does: X, when the reply has none, and each head's Wq, Wk, Wv, the head's keys in Python's order."""
    result = reply.get("result")
    if not reply.get("ok") or not isinstance(result, dict) or "heads" not in result:
        return reply
    as_floats = lambda matrix: [[float(x) for x in row] for row in matrix]  # noqa: E731
    if "X" not in result:
        result["X"] = as_floats(scene["X"])
    heads = []
    for head, sent in zip(result["heads"], scene["heads"], strict=True):
        whole = {**head, **{key: as_floats(sent[key]) for key in ("Wq", "Wk", "Wv") if key not in head}}
        heads.append({key: whole[key] for key in (*HEAD_KEYS, *whole) if key in whole})
    result["heads"] = heads
    return reply
