"""handle(): the requests the page's worker sends, as the same JSON strings, and every way they can fail."""

import json

import pytest

from attention_playground import compute, entry, handle, list_presets, load_preset


def strict_json(text):
    """Parse like the browser's JSON.parse: NaN and Infinity are not JSON."""
    def refuse(constant):
        raise AssertionError(f"{constant} is not valid JSON")
    return json.loads(text, parse_constant=refuse)


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
    def broken(payload):
        raise RuntimeError("something broke")

    monkeypatch.setitem(entry.KINDS, "compute", broken)
    error = assert_error(send({"kind": "compute", "payload": {"scene": {}}}), "InternalError")
    assert error["message"] == "RuntimeError: something broke"
    assert error["row"] is None and error["column"] is None


def test_an_interrupt_becomes_an_internal_error(monkeypatch):
    def interrupted(payload):
        raise KeyboardInterrupt

    monkeypatch.setitem(entry.KINDS, "presets", interrupted)
    assert_error(send({"kind": "presets"}), "InternalError")


def test_a_result_that_is_not_strict_json_becomes_an_internal_error(monkeypatch):
    monkeypatch.setitem(entry.KINDS, "presets", lambda payload: [float("nan")])
    assert_error(send({"kind": "presets"}), "InternalError")
