"""handle(): the requests the page's worker sends, as the same JSON strings, and every way they can fail."""

import json
import math
import struct
import sys

import pytest

from attention_playground import PRESET_IDS, compute, entry, handle, list_presets, load_preset
from attention_playground.presets import random_scene
from packing import assert_identical, packed_compute_request, strict_json, unpack, with_inputs_put_back


def send(request):
    """Send a request dict as the worker does (a JSON string) and parse the reply."""
    reply = handle(json.dumps(request))
    assert isinstance(reply, str)
    return strict_json(reply)


def assert_error(response, error_type, field=None):
    assert response["ok"] is False
    error = response["error"]
    assert {"type", "message", "field", "row", "column"} <= set(error)
    assert error["type"] == error_type
    assert isinstance(error["message"], str) and error["message"]
    assert error["field"] == field
    return error


def test_compute_returns_what_compute_returns():
    scene = load_preset("it-animal-noun")
    response = send({"kind": "compute", "payload": {"scene": scene}})
    assert response["ok"] is True
    assert response["result"] == compute(scene)


def test_a_compute_request_passes_through_the_fewest_modules_each_with_one_job():
    """The keystroke's path: entry, which wire reads for and writes for, and whose "compute" handler (kinds.py, a
    table read, not called) is compute_scene itself (scene_stages); the scene's checks (scene) and the maths
    (attention_maths). handlers.py, the glue other kinds need, is not on it; nor are the positions, with none."""
    from attention_playground.kinds import KINDS
    from attention_playground.scene_stages import compute_scene

    assert KINDS["compute"].handler is compute_scene
    request = json.dumps({"kind": "compute", "payload": {"scene": load_preset("two-heads")}})
    passed = set()

    def note_the_module(frame, event, arg):
        if event == "call" and frame.f_globals.get("__name__", "").startswith("attention_playground"):
            passed.add(frame.f_globals["__name__"].removeprefix("attention_playground."))

    before = sys.getprofile()
    sys.setprofile(note_the_module)
    try:
        header_json, _ = entry.handle_packed(request)
    finally:
        sys.setprofile(before)
    assert strict_json(header_json)["ok"] is True
    assert passed == {"entry", "wire", "scene_stages", "scene", "attention_maths"}


def test_compute_result_has_the_documented_keys():
    result = send({"kind": "compute", "payload": {"scene": load_preset("dog-bites-man")}})["result"]
    assert {"title", "tokens", "features", "scale", "shift", "mask", "fully_masked_rows", "heads", "output",
            "output_dims", "warnings"} <= set(result)
    head = result["heads"][0]
    assert list(head["stages"]) == ["Q", "K", "V", "scores", "scaled", "masked", "weights", "output"]
    assert head["weights"] == head["stages"]["weights"]
    assert head["d_k"] == 2 and result["output_dims"] == ["head 1/v0", "head 1/v1"]


def test_masked_scores_and_nan_arrive_as_null():
    scene = load_preset("repeated-noun")
    masked = send({"kind": "compute", "payload": {"scene": scene}})["result"]["heads"][0]["stages"]["masked"]
    assert masked[0][1:] == [None] * 8 and masked[0][0] is not None
    trap = send({"kind": "compute", "payload": {"scene": load_preset("softmax-trap")}})["result"]
    assert trap["heads"][0]["weights"][0] == [None, None, None]


def test_a_fully_masked_row_is_listed_and_reads_nothing():
    scene = load_preset("dog-bites-man")
    scene["mask"] = [[False, True, True], [True, True, True], [False, False, False]]
    result = send({"kind": "compute", "payload": {"scene": scene}})["result"]
    assert result["fully_masked_rows"] == [1]
    assert result["heads"][0]["weights"][1] == [0.0, 0.0, 0.0]
    assert result["output"][1] == [0.0, 0.0]
    assert any('"bites"' in warning for warning in result["warnings"])


def test_a_scene_error_arrives_with_its_labels():
    scene = load_preset("it-animal-noun")
    scene["X"][1][1] = "abc"
    error = assert_error(send({"kind": "compute", "payload": {"scene": scene}}), "SceneError", "X")
    assert (error["row"], error["column"]) == ("cat", "animal")
    assert (error["row_index"], error["column_index"]) == (1, 1)
    assert error["message"] == 'X, row "cat", column "animal": "abc" is not a number'


def test_nan_sent_by_a_lenient_encoder_is_refused_as_a_scene_error():
    scene = load_preset("dog-bites-man")
    scene["X"][0][0] = float("nan")
    reply = handle(json.dumps({"kind": "compute", "payload": {"scene": scene}}))  # writes the NaN literal
    error = assert_error(strict_json(reply), "SceneError", "X")
    assert error["row"] == "dog" and "NaN" in error["message"]


def test_presets_lists_every_preset():
    assert send({"kind": "presets"})["result"] == list_presets()
    assert send({"kind": "presets", "payload": {}})["result"] == list_presets()


def test_preset_returns_the_scene():
    assert send({"kind": "preset", "payload": {"id": "softmax-trap"}})["result"] == load_preset("softmax-trap")


def test_an_unknown_preset_is_a_request_error():
    assert_error(send({"kind": "preset", "payload": {"id": "nope"}}), "RequestError", "id")


def test_scaling_experiment_with_defaults_and_with_options():
    result = send({"kind": "scaling_experiment", "payload": {}})["result"]
    assert [(row["d"], round(row["unscaled"], 3), round(row["scaled"], 3)) for row in result["rows"]] == [
        (4, 0.501, 0.307), (64, 0.855, 0.317), (512, 0.958, 0.318)]
    small = send({"kind": "scaling_experiment", "payload": {"ds": [8], "trials": 20, "seed": 1}})["result"]
    assert [row["d"] for row in small["rows"]] == [8] and small["trials"] == 20


def test_shuffle_check():
    result = send({"kind": "shuffle_check", "payload": {"order": [1, 0, 2]}})["result"]
    assert result["equal"] is True and result["order"] == [1, 0, 2]
    assert send({"kind": "shuffle_check"})["result"]["equal"] is True


@pytest.mark.parametrize(
    ("request_text", "field"),
    [
        ("{not json", None),
        ('"compute"', None),
        ("[]", None),
        (json.dumps({"payload": {}}), "kind"),
        (json.dumps({"kind": "draw"}), "kind"),
        (json.dumps({"kind": "compute", "payload": []}), "payload"),
        (json.dumps({"kind": "compute", "payload": {"id": 3}}), "id"),
        (json.dumps({"kind": "compute", "payload": {}}), "scene"),
        (json.dumps({"kind": "presets", "extra": 1}), "extra"),
        (json.dumps({"kind": "preset", "payload": {}}), "id"),
        (json.dumps({"kind": "scaling_experiment", "payload": {"dims": [4]}}), "dims"),
        (json.dumps({"kind": "scaling_experiment", "payload": {"trials": 0}}), None),
        (json.dumps({"kind": "scaling_experiment", "payload": {"ds": [4], "trials": 10**6}}), None),
        (json.dumps({"kind": "scaling_experiment", "payload": {"ds": "4"}}), None),
        (json.dumps({"kind": "shuffle_check", "payload": {"order": [0, 0, 1]}}), None),
        (json.dumps({"kind": "shuffle_check", "payload": {"seed": True}}), None),
    ],
)
def test_malformed_requests_are_request_errors(request_text, field):
    assert_error(strict_json(handle(request_text)), "RequestError", field)


def test_a_request_that_is_not_a_string_is_answered_too():
    assert_error(strict_json(handle(None)), "RequestError")


def test_an_unexpected_exception_becomes_an_internal_error(monkeypatch):
    def broken(**payload):
        raise RuntimeError("something broke")

    monkeypatch.setitem(entry.KINDS, "compute", entry.KINDS["compute"]._replace(handler=broken))
    error = assert_error(send({"kind": "compute", "payload": {"scene": {}}}), "InternalError")
    assert error["message"] == "RuntimeError: something broke"
    assert error["row"] is None and error["column"] is None


def test_an_interrupt_becomes_an_internal_error(monkeypatch):
    def interrupted(**payload):
        raise KeyboardInterrupt

    monkeypatch.setitem(entry.KINDS, "presets", entry.KINDS["presets"]._replace(handler=interrupted))
    assert assert_error(send({"kind": "presets"}), "InternalError")["message"].startswith("KeyboardInterrupt")


def test_a_result_that_is_not_strict_json_becomes_an_internal_error(monkeypatch):
    monkeypatch.setitem(entry.KINDS, "presets", entry.KINDS["presets"]._replace(handler=lambda: [float("nan")]))
    assert assert_error(send({"kind": "presets"}), "InternalError")["message"].startswith("ValueError")


# --- the packed path: handle_packed ------------------------------------------------------------------------


def overflowing_scene():
    """Numbers too large for a float: inf in Q and nan in the weights, which handle() writes as null."""
    scene = load_preset("dog-bites-man")
    scene["X"][2] = [1e200, -1e200]
    scene["heads"][0]["Wq"] = [[1e200, 0], [0, 1]]
    return scene


def two_head_scene():
    """Two heads of different sizes, one with one-hot markers as values, and a row that reads nothing."""
    scene = load_preset("it-animal-noun")
    first = scene["heads"][0]
    scene["heads"].append({"name": "markers", "dims": ["m0", "m1", "m2"],
                           "Wq": [[0.5, -1, 2]] * len(scene["features"]),
                           "Wk": [[1, 0.25, -3]] * len(scene["features"]), "Wv": None})
    first["name"] = "meaning"
    n = len(scene["tokens"])
    scene["mask"] = [[j > i or i == 1 for j in range(n)] for i in range(n)]
    return scene


PACKED_SCENES = {
    **{preset_id: (lambda preset_id=preset_id: load_preset(preset_id)) for preset_id in PRESET_IDS},
    "random 64": lambda: random_scene(64, seed=3, spread=2, mask="causal"),
    "random 7": lambda: random_scene(7, seed=4, spread=2, mask="causal"),
    "overflow": overflowing_scene,
    "two heads": two_head_scene,
}


def compute_request(scene):
    return json.dumps({"kind": "compute", "payload": {"scene": scene}})


@pytest.mark.parametrize("name", list(PACKED_SCENES), ids=list(PACKED_SCENES))
def test_packed_compute_unpacks_to_handles_reply_bit_for_bit(name):
    request_text = compute_request(PACKED_SCENES[name]())
    header_json, data = entry.handle_packed(request_text)
    assert isinstance(header_json, str) and isinstance(data, bytes) and data
    assert_identical(unpack(header_json, data), strict_json(handle(request_text)))


def is_float_matrix(value):
    """A list of rows of floats (None standing for what is not finite): what handle_packed ships as bytes."""
    return (isinstance(value, list) and value and all(isinstance(row, list) for row in value)
            and all(cell is None or type(cell) is float for row in value for cell in row))


def compare_layout(packed, plain, path, found):
    """Walk the packed header beside handle()'s reply: every float matrix must be a descriptor (none may
    travel as text), everything else must be as handle() wrote it. Collects the descriptors in `found`."""
    if is_float_matrix(plain):
        assert isinstance(packed, dict) and list(packed) == ["$matrix"], f"{path} travels as JSON text"
        offset, rows, cols = packed["$matrix"]
        assert (rows, cols) == (len(plain), len(plain[0])), f"{path}: wrong shape"
        found.add((offset, rows, cols))
    elif isinstance(plain, dict):
        assert isinstance(packed, dict) and list(packed) == list(plain), f"{path}: keys differ"
        for key in plain:
            compare_layout(packed[key], plain[key], f"{path}.{key}", found)
    elif isinstance(plain, list):
        assert isinstance(packed, list) and len(packed) == len(plain), f"{path}: lengths differ"
        for index, (p, e) in enumerate(zip(packed, plain)):
            compare_layout(p, e, f"{path}[{index}]", found)
    else:
        assert packed == plain and type(packed) is type(plain), f"{path}: {packed!r} != {plain!r}"
    return found


@pytest.mark.parametrize("name", list(PACKED_SCENES), ids=list(PACKED_SCENES))
def test_a_packed_request_is_served_exactly_as_its_json(name):
    """...less the input matrices it sent packed, which the reply leaves out (the page keeps what it sent): put
    back, the reply is exactly the JSON request's, key for key and bit for bit."""
    scene = PACKED_SCENES[name]()
    request_text, numbers = packed_compute_request(scene)
    assert numbers and "$matrix" in request_text  # the scene's matrices did travel as numbers
    packed = unpack(*entry.handle_packed(request_text, numbers))
    whole = strict_json(handle(compute_request(scene)))
    for head in packed["result"]["heads"]:
        assert not {"Wq", "Wk"} & set(head), "a head's Wq and Wk came back though they were sent"
    assert ("X" in packed["result"]) == (scene.get("positions", "none") != "none")
    assert_identical(with_inputs_put_back(packed, scene), whole)


def test_x_comes_back_when_positions_were_added_to_it():
    scene = {**load_preset("dog-bites-man"), "positions": "sinusoidal"}
    packed = unpack(*entry.handle_packed(*packed_compute_request(scene)))
    assert packed["result"]["X"] == strict_json(handle(compute_request(scene)))["result"]["X"]
    assert packed["result"]["X"] != [[float(x) for x in row] for row in scene["X"]]


def with_extra_row(matrix):
    return [*matrix, [1.0] * len(matrix[0])]


# What can be wrong with a matrix the page packs (all numbers, in rows of one length) is its shape against the
# scene. Each must get the message the same matrix gets in JSON.
WRONG_SHAPES = {
    "X misses a row": lambda scene: scene.update(X=scene["X"][:-1]),
    "X has an extra column": lambda scene: scene.update(X=[[*row, 0.5] for row in scene["X"]]),
    "Wq misses a dim": lambda scene: scene["heads"][0].update(Wq=[row[:-1] for row in scene["heads"][0]["Wq"]]),
    "Wk has an extra row": lambda scene: scene["heads"][0].update(Wk=with_extra_row(scene["heads"][0]["Wk"])),
    "Wv is wider than value_dims": lambda scene: scene["heads"][0].update(value_dims=["only"]),
}


@pytest.mark.parametrize("name", list(WRONG_SHAPES), ids=list(WRONG_SHAPES))
def test_a_packed_matrix_of_the_wrong_shape_gets_the_json_message(name):
    scene = load_preset("it-animal-noun")
    WRONG_SHAPES[name](scene)
    request_text, numbers = packed_compute_request(scene)
    assert numbers
    header, data = entry.handle_packed(request_text, numbers)
    assert data == b""
    assert strict_json(header)["error"]["type"] == "SceneError"
    assert strict_json(header) == strict_json(handle(compute_request(scene)))


def test_wv_without_value_dims_takes_its_width_from_the_packed_matrix():
    scene = load_preset("it-animal-noun")
    scene["heads"][0]["Wv"] = [[0.5, -1.0, 2.0]] * len(scene["features"])
    scene["heads"][0].pop("value_dims", None)
    request_text, numbers = packed_compute_request(scene)
    packed = unpack(*entry.handle_packed(request_text, numbers))["result"]["heads"][0]["value_dims"]
    assert packed == strict_json(handle(compute_request(scene)))["result"]["heads"][0]["value_dims"]
    assert len(packed) == 3


@pytest.mark.parametrize("descriptor", [[0, 4, 100], [-1, 1, 1], [0.5, 1, 1], [0, 1], "0,1,1", [10**9, 1, 1]])
def test_a_descriptor_outside_the_numbers_is_a_request_error(descriptor):
    request_text, numbers = packed_compute_request(load_preset("dog-bites-man"))
    request = json.loads(request_text)
    request["payload"]["scene"]["X"] = {"$matrix": descriptor}
    header, data = entry.handle_packed(json.dumps(request), numbers)
    assert data == b""
    assert_error(strict_json(header), "RequestError")


def test_numbers_that_are_not_whole_float64_values_are_a_request_error():
    request_text, numbers = packed_compute_request(load_preset("dog-bites-man"))
    header, _ = entry.handle_packed(request_text, numbers[:-3])
    assert_error(strict_json(header), "RequestError")
    assert "8 bytes" in strict_json(header)["error"]["message"]


@pytest.mark.parametrize("name", ["two heads", "random 7", "softmax-trap"])
def test_packed_layout_is_one_buffer_of_every_float_matrix(name):
    request_text = compute_request(PACKED_SCENES[name]())
    header_json, data = entry.handle_packed(request_text)
    header, plain = strict_json(header_json), strict_json(handle(request_text))
    blocks = sorted(compare_layout(header, plain, "reply", set()))
    for head in header["result"]["heads"]:
        assert head["weights"] == head["stages"]["weights"], "the head's weights are its stage's, stored once"
    # The blocks follow one another from the start with no gap and no overlap, and fill the buffer exactly.
    end = 0
    for offset, rows, cols in blocks:
        assert offset == end, f"a gap or an overlap at value {offset}"
        end = offset + rows * cols
    assert len(data) == 8 * end


@pytest.mark.parametrize(
    "request_text",
    [
        json.dumps({"kind": "presets"}),
        json.dumps({"kind": "preset", "payload": {"id": "softmax-trap"}}),
        "{not json",
        json.dumps({"kind": "draw"}),
        json.dumps({"kind": "compute", "payload": {}}),
        compute_request({**load_preset("dog-bites-man"), "X": [[1, 0], [0, "x"], [1, 1]]}),
    ],
    ids=["presets", "preset", "bad json", "unknown kind", "no scene", "scene error"],
)
def test_packed_replies_without_matrices_are_handles_reply(request_text):
    assert entry.handle_packed(request_text) == (handle(request_text), b"")


def test_the_experiments_kinds_take_their_functions_keyword_arguments():
    from attention_playground import experiments
    from attention_playground.handlers import keyword_names

    assert entry.KINDS["scaling_experiment"].optional == keyword_names(experiments.scaling_experiment)
    assert entry.KINDS["shuffle_check"].optional == keyword_names(experiments.shuffle_check)


@pytest.mark.parametrize(
    "request_body",
    [
        {"kind": "shuffle_check", "payload": {"order": [2, 0, 1]}},
        {"kind": "model_run", "payload": {"words": "the cat sat on the mat because it was tired", "knocked_out": [[0, 1]]}},
        {"kind": "english_run", "payload": {"words": "Mary went to the store and then Mary went home", "focus": 8}},
    ],
    ids=["shuffle_check", "model_run", "english_run"],
)
def test_packed_replies_of_other_kinds_ship_their_float_arrays_as_bytes_and_unpack_to_handles_reply(request_body):
    request_text = json.dumps(request_body)
    header_json, data = entry.handle_packed(request_text)
    assert data, "the reply's float arrays are shipped as bytes"
    assert len(header_json) < len(handle(request_text)) / 2
    assert_identical(unpack(header_json, data), strict_json(handle(request_text)))


def test_packed_an_unexpected_exception_or_interrupt_is_an_internal_error(monkeypatch):
    def broken(**payload):
        raise RuntimeError("something broke")

    def interrupted(**payload):
        raise KeyboardInterrupt

    monkeypatch.setitem(entry.KINDS, "compute", entry.KINDS["compute"]._replace(handler=broken))
    monkeypatch.setitem(entry.KINDS, "presets", entry.KINDS["presets"]._replace(handler=interrupted))
    header_json, data = entry.handle_packed(compute_request({}))
    assert data == b""
    assert assert_error(strict_json(header_json), "InternalError")["message"] == "RuntimeError: something broke"
    header_json, data = entry.handle_packed(json.dumps({"kind": "presets"}))
    assert data == b"" and assert_error(strict_json(header_json), "InternalError")["message"].startswith("KeyboardInterrupt")
