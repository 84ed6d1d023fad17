"""Hostile input through the entry point the page calls: whatever arrives, `handle` answers.

A scene can come from anywhere: a link someone shared, a course author's hand-written JSON, a page that
embeds the playground. Generated here: valid scenes bent out of shape (wrong types, wrong sizes, over the
limits, NaN/Infinity/1e308, names with markup, control and unusual unicode characters), JSON text cut off
or corrupted, and nesting thousands of levels deep. For each, `handle` must return a response: a result, or
a SceneError / RequestError with a message. Never an InternalError (a bug), never an exception, never a hang
(every case is small or refused before any work proportional to its size).

Each test runs a fixed number of cases (see BUDGET), so a run always does the same amount of work.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_playground.entry import handle, handle_packed
from packing import assert_identical, packed_compute_request, unpack, with_inputs_put_back
from attention_playground.scene import LIMITS

#: Cases per generated test; the three generated tests together run 300 cases.
BUDGET = 100

CLEAN_ERRORS = {"SceneError", "RequestError"}

HOSTILE_NAMES = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    "\u0000",
    "\u202etxet",  # right-to-left override
    "a\u0301",  # combining accent
    "\U0001F600",  # an emoji (a surrogate pair in JSON and in JavaScript, one character in Python)
    "\t\n\r",
    "x" * 5000,
    "",
    " ",
    "\"quotes\" and \\backslashes\\",
    "\u200b",  # zero-width space
    "null",
    "__proto__",
    "constructor",
]

HOSTILE_NUMBERS = [
    0, 1, -1, 1e308, -1e308, 1e-308, 5e-324, 2**53 + 1, 10**400, float("nan"), float("inf"), float("-inf"),
    True, False, None, "1", "", "1e309", [], {}, [[1]],
]


def base_scene():
    return {
        "title": "dog bites man",
        "tokens": ["dog", "bites", "man"],
        "features": ["f0", "f1"],
        "X": [[1, 0], [0, 1], [1, 1]],
        "heads": [{"name": "head 1", "dims": ["d0", "d1"],
                   "Wq": [[1, 0], [0, 1]], "Wk": [[1, 0], [0, 1]], "Wv": [[1, 0], [0, 1]]}],
        "mask": "none",
        "scale": True,
    }


def respond(request_text):
    """`handle`'s response, checked for shape; the same request through `handle_packed` must agree."""
    response = json.loads(handle(request_text))
    assert isinstance(response, dict) and response.get("ok") in (True, False), response
    if not response["ok"]:
        error = response["error"]
        assert error["type"] in CLEAN_ERRORS, error
        assert isinstance(error["message"], str) and error["message"], error
    header, data = handle_packed(request_text)
    assert json.loads(header)["ok"] == response["ok"]
    if not response["ok"]:
        assert json.loads(header)["error"] == response["error"]
    # And packed, as the page sends a scene: exactly the same reply, once the inputs it sent are put back as the
    # page's client puts them back. Only a request the entry point could read is read here: one nested thousands
    # deep overflows the WebAssembly stack in Pyodide (which is why it is refused).
    if not response["ok"] and response["error"]["type"] != "SceneError":
        return response
    request = json.loads(request_text)
    if isinstance(request, dict) and request.get("kind") == "compute" and isinstance(request.get("payload"), dict):
        packed_text, numbers = packed_compute_request(request["payload"].get("scene"))
        if numbers is not None:
            as_sent = with_inputs_put_back(unpack(*handle_packed(packed_text, numbers)), request["payload"]["scene"])
            assert_identical(as_sent, unpack(header, data))
    return response


def compute_request(scene):
    # allow_nan: JSON.stringify never writes NaN, but a hand-written file or another client might.
    return json.dumps({"kind": "compute", "payload": {"scene": scene}}, allow_nan=True)


# --- strategies ----------------------------------------------------------------------------------------


json_leaves = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(HOSTILE_NUMBERS[:12]),
    st.text(max_size=12), st.sampled_from(HOSTILE_NAMES),
)
any_json = st.recursive(
    json_leaves,
    lambda children: st.one_of(st.lists(children, max_size=5), st.dictionaries(st.text(max_size=8), children, max_size=5)),
    max_leaves=20,
)
names = st.one_of(st.sampled_from(HOSTILE_NAMES), st.text(max_size=20))
SCENE_KEYS = ["title", "tokens", "features", "X", "heads", "mask", "scale", "shift"]
HEAD_KEYS = ["name", "dims", "Wq", "Wk", "Wv", "value_dims"]


@st.composite
def bent_scenes(draw):
    """A valid scene with a few things bent: a key replaced, dropped or added; a cell or a name made hostile;
    a list grown over its limit."""
    scene = base_scene()
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        action = draw(st.sampled_from(["replace", "drop", "extra", "cell", "name", "head", "grow", "mask"]))
        if action == "replace":
            scene[draw(st.sampled_from(SCENE_KEYS))] = draw(any_json)
        elif action == "drop" and scene:
            scene.pop(draw(st.sampled_from(sorted(scene))), None)
        elif action == "extra":
            scene[draw(st.text(max_size=10))] = draw(any_json)
        elif action == "cell" and isinstance(scene.get("X"), list) and scene["X"] and isinstance(scene["X"][0], list) and scene["X"][0]:
            scene["X"][draw(st.integers(0, len(scene["X"]) - 1)) % len(scene["X"])] = [draw(st.sampled_from(HOSTILE_NUMBERS)), 0]
        elif action == "name":
            key = draw(st.sampled_from(["tokens", "features"]))
            if isinstance(scene.get(key), list) and scene[key]:
                scene[key][0] = draw(names)
            else:
                scene["title"] = draw(names)
        elif action == "head" and isinstance(scene.get("heads"), list) and scene["heads"] and isinstance(scene["heads"][0], dict):
            scene["heads"][0][draw(st.sampled_from(HEAD_KEYS))] = draw(st.one_of(any_json, names))
        elif action == "grow":
            key, limit = draw(st.sampled_from([("tokens", LIMITS.tokens), ("features", LIMITS.features), ("heads", LIMITS.heads)]))
            count = limit + draw(st.integers(1, 3))
            if key == "heads":
                scene["heads"] = [dict(base_scene()["heads"][0], name=f"h{k}") for k in range(count)]
            elif key == "tokens":
                scene["tokens"] = [f"t{k}" for k in range(count)]
                scene["X"] = [[1, 0] for _ in range(count)]
            else:
                scene["features"] = [f"f{k}" for k in range(count)]
                scene["X"] = [[1] * count for _ in range(3)]
        elif action == "mask":
            scene["mask"] = draw(st.one_of(any_json, st.lists(st.lists(st.booleans(), min_size=3, max_size=3), min_size=3, max_size=3)))
    return scene


@st.composite
def broken_texts(draw):
    """The JSON of a request, cut short or with a few characters replaced."""
    text = compute_request(draw(bent_scenes()))
    if draw(st.booleans()):
        return text[: draw(st.integers(min_value=0, max_value=len(text) - 1))]
    chars = list(text)
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        chars[draw(st.integers(0, len(chars) - 1))] = draw(st.sampled_from(list('{}[]",:0\\\x00\u2028') + ["NaN", "Infinity"]))
    return "".join(chars)


FUZZ = settings(max_examples=BUDGET, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(bent_scenes())
def test_bent_scenes_get_a_result_or_a_clear_error(scene):
    respond(compute_request(scene))


@FUZZ
@given(broken_texts())
def test_truncated_or_corrupted_json_gets_a_clear_error(text):
    respond(text)


@FUZZ
@given(any_json)
def test_any_json_as_a_scene_gets_a_clear_error(value):
    response = respond(compute_request(value))
    assert not response["ok"]


# --- the hand-picked extremes ----------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [100, 1_000, 10_000, 100_000])
@pytest.mark.parametrize("where", ["request", "scene", "cell", "title"])
def test_deep_nesting_is_refused_plainly(depth, where):
    nested = "[" * depth + "]" * depth
    scene = json.dumps(base_scene())
    texts = {
        "request": nested,
        "scene": '{"kind": "compute", "payload": {"scene": ' + nested + "}}",
        "cell": compute_request(base_scene()).replace("[[1, 0], [0, 1], [1, 1]]", f"[[{nested}, 0], [0, 1], [1, 1]]", 1),
        "title": '{"kind": "compute", "payload": {"scene": ' + scene.replace('"dog bites man"', nested, 1) + "}}",
    }
    response = respond(texts[where])
    assert not response["ok"]


def test_huge_numbers_compute_or_are_named():
    scene = base_scene()
    scene["X"] = [[1e308, 1e308], [0, 1], [1, 1]]
    response = respond(compute_request(scene))
    # 1e308 is finite and allowed; what overflows shows as null in the result, not as a crash.
    assert response["ok"], response


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), 10**400])
def test_not_finite_numbers_are_named_in_the_message(value):
    scene = base_scene()
    scene["X"][1][0] = value
    response = respond(compute_request(scene))
    assert response["error"]["type"] == "SceneError"
    assert response["error"]["field"] == "X" and response["error"]["row_index"] == 1


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_names_are_kept_as_text(name):
    scene = base_scene()
    scene["tokens"][0] = name
    response = respond(compute_request(scene))
    if name.strip():
        assert response["ok"], response
        assert response["result"]["tokens"][0] == name
    else:  # a blank name is refused, and the message points at it
        assert response["error"]["field"] == "tokens" and response["error"]["row_index"] == 0


def test_a_lone_surrogate_in_a_name_gets_an_answer():
    # JSON can spell half an emoji ("\\ud83d"); JavaScript strings can hold one. Python must not choke on it.
    text = compute_request(base_scene()).replace('"dog"', '"\\ud83d"', 1)
    respond(text)


def test_a_huge_scene_is_refused_by_its_size():
    count = LIMITS.tokens * 50
    scene = base_scene()
    scene["tokens"] = ["w"] * count
    scene["X"] = [[1, 0]] * count
    response = respond(compute_request(scene))
    assert response["error"]["type"] == "SceneError" and response["error"]["field"] == "tokens"


def test_brackets_inside_names_do_not_count_as_nesting():
    scene = base_scene()
    scene["title"] = "[" * 5000 + "{\"" * 100
    scene["tokens"][0] = "]" * 5000 + "\\\""
    response = respond(compute_request(scene))
    assert response["ok"], response
    assert response["result"]["title"] == scene["title"]


def test_nesting_at_the_limit_is_read_and_one_deeper_is_refused():
    from attention_playground.entry import MAX_NESTING

    def nested(depth):
        return "[" * depth + "]" * depth

    # The payload and the scene are two levels; the title's lists make up the rest.
    at_limit = '{"kind": "compute", "payload": {"scene": {"title": ' + nested(MAX_NESTING - 2) + "}}}"
    too_deep = '{"kind": "compute", "payload": {"scene": {"title": ' + nested(MAX_NESTING - 1) + "}}}"
    assert "nested too deeply" not in respond(at_limit)["error"]["message"]
    assert "nested too deeply" in respond(too_deep)["error"]["message"]
