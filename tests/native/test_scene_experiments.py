"""The page's experiments on a learner's scene, measured in Python: shuffle its words, knock one word out."""

import json

import numpy as np
import pytest

import reference
from attention_playground import compute, handle, load_preset
from attention_playground.experiments import knock_out_word, shuffle_scene

REVERSED = list(range(9, -1, -1))  # the "it" example has 10 words


def it_scene(**changes):
    return {**load_preset("it-animal-noun"), **changes}


def test_a_shuffled_scene_keeps_each_words_row_and_its_outputs_move_with_it():
    scene = it_scene()
    order = [3, 0, 9, 1, 8, 2, 7, 4, 6, 5]
    shuffled = shuffle_scene(scene, order)
    assert shuffled.scene["tokens"] == [scene["tokens"][i] for i in order]
    assert shuffled.scene["X"] == [scene["X"][i] for i in order]
    assert shuffled.scene["heads"] == scene["heads"] and shuffled.scene["title"] == scene["title"]
    assert shuffled.reason == "none" and shuffled.largest_difference <= 1e-12
    # Measured against compute() of both scenes: each output row (and, with one-hot values, column) moved along.
    before, after = np.array(compute(scene)["output"]), np.array(compute(shuffled.scene)["output"])
    assert np.allclose(after, before[order][:, order])


def test_dog_bites_man_against_man_bites_dog_each_words_output_is_equal_and_moved():
    """Part 8 as the page shows it: both orders side by side, each word's output in each (the independent reference
    computes both sentences from the words' own vectors), equal, at its new place; the title names the order shown."""
    scene = load_preset("dog-bites-man")
    tokens = scene["tokens"]
    order = [2, 1, 0]  # "man bites dog"
    swapped = shuffle_scene(scene, order)
    assert swapped.scene["tokens"] == ["man", "bites", "dog"] and swapped.scene["title"] == "man bites dog"
    identity = [[1, 0], [0, 1]]
    before, _ = reference.self_attention(scene["X"], identity, identity, identity)
    after, _ = reference.self_attention([scene["X"][i] for i in order], identity, identity, identity)
    assert np.allclose(swapped.output_before, before) and np.allclose(swapped.output_after, after)
    for word in tokens:
        was, now = tokens.index(word), swapped.scene["tokens"].index(word)
        assert np.allclose(swapped.output_after[now], swapped.output_before[was], rtol=0, atol=1e-12)
        assert swapped.differences[was] <= 1e-12 and swapped.unchanged[was]
    assert tokens.index("dog") != swapped.scene["tokens"].index("dog")  # moved, not left in place


def test_with_positions_each_word_says_how_far_its_own_output_moved():
    scene = {**load_preset("dog-bites-man"), "positions": "sinusoidal"}
    order = [2, 1, 0]
    swapped = shuffle_scene(scene, order)
    before, after = np.array(compute(scene)["output"]), np.array(compute(swapped.scene)["output"])
    expected = np.abs(after - before[order]).max(axis=1)  # by new place
    assert np.allclose(swapped.differences[order], expected)
    assert swapped.reason == "positions" and swapped.largest_difference == pytest.approx(expected.max())
    assert not swapped.unchanged.any()  # every word of the three stands somewhere else, so each has other numbers


def test_a_title_that_is_not_the_sentence_stays():
    scene = it_scene()
    assert shuffle_scene(scene, REVERSED).scene["title"] == scene["title"]


@pytest.mark.parametrize(("changes", "reason"), [
    ({"positions": "sinusoidal"}, "positions"),
    ({"mask": "causal"}, "mask"),
])
def test_a_shuffle_says_what_made_the_outputs_change(changes, reason):
    shuffled = shuffle_scene(it_scene(**changes), REVERSED)
    assert shuffled.reason == reason
    assert shuffled.largest_difference > 0.1
    assert shuffled.scene.get("mask") == changes.get("mask", it_scene()["mask"])  # a named mask is not redrawn


def test_a_drawn_mask_moves_with_the_words():
    scene = it_scene()
    n = len(scene["tokens"])
    scene["mask"] = [[j == 0 and i > 0 for j in range(n)] for i in range(n)]  # nobody but word 1 reads word 1
    shuffled = shuffle_scene(scene, REVERSED)
    assert shuffled.scene["mask"][n - 1] == [False] * n  # the old first word, now last, still reads everything
    assert all(row[n - 1] for row in shuffled.scene["mask"][:-1])  # and the others still cannot read it
    assert shuffled.reason == "none"


def test_knocking_out_cat_moves_the_output_of_it_most_and_its_weight_is_the_largest():
    scene = it_scene()
    cat, it = scene["tokens"].index("cat"), scene["tokens"].index("it")
    knocked = knock_out_word(scene, cat)
    result = compute(scene)
    assert knocked.most_changed == it and knocked.most_weighted == it
    assert np.allclose(knocked.weights, np.array(result["heads"][0]["weights"])[:, cat])
    masked = {**scene, "mask": [[j == cat for j in range(len(scene["tokens"]))] for _ in scene["tokens"]]}
    expected = np.linalg.norm(np.array(result["output"]) - np.array(compute(masked)["output"]), axis=1)
    assert np.allclose(knocked.changes, expected)
    assert not knocked.masked.any()


def test_a_word_the_causal_mask_already_hides_is_reported_masked_for_the_rows_before_it():
    scene = it_scene(mask="causal")
    knocked = knock_out_word(scene, 3)
    assert knocked.masked.tolist() == [True, True, True] + [False] * 7
    assert np.allclose(knocked.changes[:3], 0)  # rows that could not read it never changed


def send(kind, payload):
    return json.loads(handle(json.dumps({"kind": kind, "payload": payload})))


def test_the_page_asks_for_both_and_gets_json():
    scene = it_scene()
    shuffled = send("shuffle_scene", {"scene": scene, "order": REVERSED})["result"]
    assert shuffled["scene"]["tokens"] == scene["tokens"][::-1] and shuffled["reason"] == "none"
    knocked = send("knock_out_word", {"scene": scene, "column": 2, "head": 0})["result"]
    assert len(knocked["changes"]) == len(scene["tokens"]) and knocked["column"] == 2


@pytest.mark.parametrize(("kind", "payload", "field", "says"), [
    ("shuffle_scene", {"order": [0, 1]}, "order", "the 10 places"),
    ("shuffle_scene", {"order": [0] * 10}, "order", "each place from 0 to 9 once"),
    ("knock_out_word", {"column": 10}, "column", "from 0 to 9"),
    ("knock_out_word", {"column": 1, "head": 1}, "head", "from 0 to 0"),
    ("knock_out_word", {"column": "cat"}, "column", "'cat'"),
])
def test_a_bad_choice_is_named_with_its_field(kind, payload, field, says):
    error = send(kind, {"scene": it_scene(), **payload})["error"]
    assert error["type"] == "RequestError" and error["field"] == field and says in error["message"]


def test_a_bad_scene_is_refused_with_its_field_row_and_column():
    scene = it_scene()
    scene["X"][2][1] = "four"
    error = send("knock_out_word", {"scene": scene, "column": 0})["error"]
    assert error["type"] == "SceneError" and error["field"] == "X" and error["row"] == scene["tokens"][2]
