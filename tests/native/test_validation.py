"""Every way a scene can be wrong gets a SceneError that names the field, row and column by label."""

import copy
import json

import pytest

from attention_playground import LIMITS, SceneError, compute, load_preset, parse_scene


def small_scene():
    """A valid three-token scene with named features and dims."""
    return {
        "title": "dog bites man",
        "tokens": ["dog", "bites", "man"],
        "features": ["animal", "action"],
        "X": [[1, 0], [0, 1], [1, 1]],
        "heads": [{"name": "head 1", "dims": ["d0", "d1"],
                   "Wq": [[1, 0], [0, 1]], "Wk": [[1, 0], [0, 1]], "Wv": [[1, 0], [0, 1]]}],
        "mask": "none",
        "scale": True,
    }


def it_scene():
    """The Part 6 scene: ten tokens ("the" twice), six features, Wv null."""
    return load_preset("it-animal-noun")


def two_head_scene():
    scene = small_scene()
    second = copy.deepcopy(scene["heads"][0])
    second["name"] = "syntax"
    scene["heads"].append(second)
    return scene


def scene_error(scene) -> SceneError:
    """The error compute() raises for `scene`; it must also survive JSON as the page receives it."""
    with pytest.raises(SceneError) as caught:
        compute(scene)
    error = caught.value
    assert isinstance(error, ValueError)
    assert json.loads(json.dumps(error.to_dict())) == error.to_dict()
    return error


def edited(base, edit):
    scene = base()
    edit(scene)
    return scene


def set_in(path, value):
    """An edit that sets scene[path[0]][path[1]]... = value."""
    def edit(scene):
        target = scene
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return edit


def delete(path):
    def edit(scene):
        target = scene
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return edit


# Each case: (base scene, edit, field, row, column, fragments the message must contain).
CASES = {
    # --- the scene as a whole
    "missing tokens": (small_scene, delete(["tokens"]), "tokens", None, None, ['no "tokens"', "list of words"]),
    "missing title": (small_scene, delete(["title"]), "title", None, None, ['no "title"']),
    "missing mask": (small_scene, delete(["mask"]), "mask", None, None, ['no "mask"', '"causal"']),
    "missing scale": (small_scene, delete(["scale"]), "scale", None, None, ['no "scale"', "true or false"]),
    "unknown key": (small_scene, set_in(["colour"], "red"), "colour", None, None, ['unknown key "colour"']),
    "unknown key close to a real one": (small_scene, set_in(["Scale"], True), "Scale", None, None,
                                        ['unknown key "Scale"', 'did you mean "scale"']),
    "unknown key a typo away from a real one": (small_scene, set_in(["scael"], True), "scael", None, None,
                                                ['unknown key "scael"', 'did you mean "scale"']),
    "title not text": (small_scene, set_in(["title"], 5), "title", None, None, ["title must be text", "got 5"]),
    "id not text": (small_scene, set_in(["id"], 7), "id", None, None, ["id must be text"]),
    "description not text": (small_scene, set_in(["description"], ["x"]), "description", None, None,
                             ["description must be text", "got a list"]),
    "scale not a flag": (small_scene, set_in(["scale"], "yes"), "scale", None, None,
                         ['scale must be true or false; got "yes"']),
    "scale as a number": (small_scene, set_in(["scale"], 1), "scale", None, None, ["scale must be true or false"]),
    "shift not a flag": (small_scene, set_in(["shift"], None), "shift", None, None,
                         ["shift must be true or false; got null"]),
    # --- tokens and features
    "tokens not a list": (small_scene, set_in(["tokens"], "dog bites man"), "tokens", None, None,
                          ["tokens must be a list"]),
    "empty token list": (small_scene, set_in(["tokens"], []), "tokens", None, None, ["tokens is empty"]),
    "token not text": (small_scene, set_in(["tokens", 1], 3), "tokens", None, None, ["entry 2", "3 is not a name"]),
    "empty token": (small_scene, set_in(["tokens", 2], "  "), "tokens", None, None, ["entry 3"]),
    "too many tokens": (small_scene, set_in(["tokens"], ["w"] * (LIMITS.tokens + 1)), "tokens", None, None,
                        [f"{LIMITS.tokens + 1} entries", f"limit is {LIMITS.tokens} tokens"]),
    "empty features": (small_scene, set_in(["features"], []), "features", None, None, ["features is empty"]),
    "duplicate feature names": (small_scene, set_in(["features", 1], "animal"), "features", None, "animal",
                                ['"animal" twice', "entries 1 and 2"]),
    "too many features": (small_scene, set_in(["features"], [f"f{i}" for i in range(LIMITS.features + 1)]),
                          "features", None, None, [f"limit is {LIMITS.features} features"]),
    # --- X
    "X not a list": (small_scene, set_in(["X"], {"dog": [1, 0]}), "X", None, None,
                     ["X must be a list of rows, one per token", "got an object"]),
    "X missing a row": (small_scene, set_in(["X"], [[1, 0], [0, 1]]), "X", None, None,
                        ["X has 2 rows", "there are 3 tokens (dog, bites, man)"]),
    "X row not a list": (small_scene, set_in(["X", 1], 5), "X", "bites", None,
                         ['X, row "bites": expected a list of numbers, one per feature; got 5']),
    "ragged X row": (small_scene, set_in(["X", 2], [1, 1, 1]), "X", "man", None,
                     ['X, row "man" has 3 numbers', "there are 2 features (animal, action)"]),
    "empty X row": (small_scene, set_in(["X", 0], []), "X", "dog", None, ['X, row "dog" has 0 numbers']),
    "text in X": (it_scene, set_in(["X", 1, 1], "abc"), "X", "cat", "animal",
                  ['X, row "cat", column "animal": "abc" is not a number']),
    "decimal comma in X": (small_scene, set_in(["X", 0, 1], "0,5"), "X", "dog", "action",
                           ['X, row "dog", column "action": "0,5" is not a number; did you mean 0.5? Write decimals with a point']),
    "negative decimal comma in Wq": (small_scene, set_in(["heads", 0, "Wq", 0, 0], "-1,25"), "heads[0].Wq", "animal", "d0",
                                     ['"-1,25" is not a number; did you mean -1.25?']),
    "number as text in X": (small_scene, set_in(["X", 0, 1], "1.5"), "X", "dog", "action",
                            ['"1.5" is text, not a number']),
    "empty cell in X": (small_scene, set_in(["X", 1, 1], " "), "X", "bites", "action",
                        ['X, row "bites", column "action": the entry is empty; expected a number']),
    "bool in X": (small_scene, set_in(["X", 1, 0], True), "X", "bites", "animal",
                  ['X, row "bites", column "animal": true is not a number']),
    "null in X": (small_scene, set_in(["X", 1, 0], None), "X", "bites", "animal", ["null is not a number"]),
    "list in X": (small_scene, set_in(["X", 1, 0], [1]), "X", "bites", "animal", ["a list is not a number"]),
    "NaN in X": (small_scene, set_in(["X", 2, 1], float("nan")), "X", "man", "action",
                 ["NaN is not a finite number"]),
    "infinity in X": (small_scene, set_in(["X", 2, 1], float("-inf")), "X", "man", "action",
                      ["-Infinity is not a finite number"]),
    "NaN as text in X": (small_scene, set_in(["X", 2, 0], "NaN"), "X", "man", "animal",
                         ['"NaN" is not a finite number']),
    "Infinity as text in X": (small_scene, set_in(["X", 2, 0], "Infinity"), "X", "man", "animal",
                              ['"Infinity" is not a finite number']),
    "whole number too large for a float": (small_scene, set_in(["X", 0, 0], 10**400), "X", "dog", "animal",
                                           ["too large"]),
    "repeated token named by position": (it_scene, set_in(["X", 4, 2], "x"), "X", "the", "pronoun",
                                         ['row "the" (token 5), column "pronoun"']),
    # --- heads
    "heads not a list": (small_scene, set_in(["heads"], {"name": "h"}), "heads", None, None,
                         ["heads must be a list"]),
    "empty heads": (small_scene, set_in(["heads"], []), "heads", None, None, ["heads is empty"]),
    "too many heads": (small_scene, lambda s: s.update(heads=[dict(s["heads"][0], name=f"h{i}")
                                                              for i in range(LIMITS.heads + 1)]),
                       "heads", None, None, [f"limit is {LIMITS.heads}"]),
    "head not an object": (small_scene, set_in(["heads", 0], [1, 2]), "heads[0]", None, None,
                           ["the head must be an object", "got a list"]),
    "head missing Wq": (small_scene, delete(["heads", 0, "Wq"]), "heads[0].Wq", None, None, ['the head has no "Wq"']),
    "head missing Wv": (small_scene, delete(["heads", 0, "Wv"]), "heads[0].Wv", None, None, ['no "Wv"', "null"]),
    "head unknown key": (small_scene, set_in(["heads", 0, "Wo"], []), "heads[0].Wo", None, None,
                         ['unknown key "Wo"']),
    "head name not text": (small_scene, set_in(["heads", 0, "name"], 1), "heads[0].name", None, None,
                           ["name must be text"]),
    "head name empty": (small_scene, set_in(["heads", 0, "name"], ""), "heads[0].name", None, None, ["name is empty"]),
    "duplicate head names": (two_head_scene, set_in(["heads", 1, "name"], "head 1"), "heads[1].name", None, None,
                             ['two heads are called "head 1"']),
    "empty dims": (small_scene, set_in(["heads", 0, "dims"], []), "heads[0].dims", None, None, ["dims is empty"]),
    "duplicate dim names": (small_scene, set_in(["heads", 0, "dims"], ["d0", "d0"]), "heads[0].dims", None, "d0",
                            ['"d0" twice']),
    "too many dims": (small_scene, set_in(["heads", 0, "dims"], [f"d{i}" for i in range(LIMITS.dims + 1)]),
                      "heads[0].dims", None, None, [f"limit is {LIMITS.dims} dims"]),
    "Wq one row short": (it_scene, lambda s: s["heads"][0]["Wq"].pop(), "heads[0].Wq", None, None,
                         ["Wq has 5 rows, but each token has 6 features (noun, animal, "]),
    "Wq row too short": (small_scene, set_in(["heads", 0, "Wq", 1], [1]), "heads[0].Wq", "action", None,
                         ['Wq, row "action" has 1 number', "the head has 2 dims (d0, d1)"]),
    "Wk cell not a number": (small_scene, set_in(["heads", 0, "Wk", 0, 1], "one"), "heads[0].Wk", "animal", "d1",
                             ['Wk, row "animal", column "d1": "one" is not a number']),
    "Wv rows wrong": (small_scene, set_in(["heads", 0, "Wv"], [[1, 0]]), "heads[0].Wv", None, None,
                      ["Wv has 1 row, but each token has 2 features"]),
    "ragged Wv": (small_scene, set_in(["heads", 0, "Wv"], [[1, 0, 0], [0, 1]]), "heads[0].Wv", "action", None,
                  ['Wv, row "action" has 2 numbers, but row "animal" has 3']),
    "Wv first row empty": (small_scene, set_in(["heads", 0, "Wv"], [[], []]), "heads[0].Wv", "animal", None,
                           ['Wv, row "animal" is empty']),
    "Wv too wide": (small_scene, set_in(["heads", 0, "Wv"], [[0] * (LIMITS.value_dims + 1)] * 2), "heads[0].Wv",
                    "animal", None, [f"limit is {LIMITS.value_dims} value dims"]),
    "Wv cell infinite": (small_scene, set_in(["heads", 0, "Wv", 1, 0], float("inf")), "heads[0].Wv", "action", "v0",
                         ["Infinity is not a finite number"]),
    "Wv not a list": (small_scene, set_in(["heads", 0, "Wv"], "identity"), "heads[0].Wv", None, None,
                      ["Wv must be a list of rows, one per feature"]),
    "value_dims disagree with Wv": (small_scene, set_in(["heads", 0, "value_dims"], ["a", "b", "c"]), "heads[0].Wv",
                                    "animal", None, ["has 2 numbers", "value_dims names 3 columns (a, b, c)"]),
    "value_dims with null Wv": (it_scene, set_in(["heads", 0, "value_dims"], ["a"]), "heads[0].value_dims", None, None,
                                ["one column per token (10 tokens)"]),
    "duplicate value_dims": (small_scene, set_in(["heads", 0, "value_dims"], ["a", "a"]), "heads[0].value_dims",
                             None, "a", ['"a" twice']),
    # --- mask
    "unknown mask": (small_scene, set_in(["mask"], "diagonal"), "mask", None, None,
                     ['mask "diagonal" is not known', '"none", "causal"']),
    "mask of the wrong type": (small_scene, set_in(["mask"], True), "mask", None, None,
                               ["mask must be", "got true"]),
    "mask with too few rows": (small_scene, set_in(["mask"], [[False] * 3] * 2), "mask", None, None,
                               ["mask has 2 rows, but there are 3 tokens"]),
    "ragged mask row": (small_scene, set_in(["mask"], [[False] * 3, [False] * 2, [False] * 3]), "mask", "bites",
                        None, ['mask, row "bites" has 2 entries']),
    "number in mask": (small_scene, set_in(["mask"], [[False] * 3, [False, 1, False], [False] * 3]), "mask",
                       "bites", "bites", ['mask, row "bites", column "bites": 1 is not true or false']),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_each_mistake_names_its_field_row_and_column(case):
    base, edit, field, row, column, fragments = case
    error = scene_error(edited(base, edit))
    assert (error.field, error.row, error.column) == (field, row, column)
    for fragment in fragments:
        assert fragment in error.message
    assert error.to_dict()["message"] == error.message == str(error)


def test_the_scene_must_be_an_object():
    for value in (None, [], "scene", 3):
        error = scene_error(value)
        assert error.field is None and "a scene must be an object" in error.message


@pytest.mark.parametrize(("path", "head"), [(["heads", 1, "Wq", 0, 0], 1), (["heads", 0, "Wk", 1, 1], 0)])
def test_with_several_heads_the_message_names_the_head(path, head):
    error = scene_error(edited(two_head_scene, set_in(path, "x")))
    name = ["head 1", "syntax"][head]
    assert error.message.startswith(f'head "{name}": ')
    assert error.field == f"heads[{head}].{path[2]}"


def test_with_several_heads_a_missing_key_names_the_head_by_position():
    error = scene_error(edited(two_head_scene, delete(["heads", 1, "dims"])))
    assert error.message.startswith('head 2 has no "dims"') and error.field == "heads[1].dims"


def test_positions_come_with_the_labels():
    error = scene_error(edited(it_scene, set_in(["X", 4, 2], "x")))
    assert (error.row_index, error.column_index) == (4, 2)
    error = scene_error(edited(small_scene, set_in(["features", 1], "animal")))
    assert error.column_index == 1


def test_error_dict_has_the_documented_keys():
    as_dict = scene_error(edited(small_scene, set_in(["X", 0, 0], "abc"))).to_dict()
    assert set(as_dict) == {"type", "message", "field", "row", "column", "row_index", "column_index"}
    assert as_dict["type"] == "SceneError"


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (set_in(["tokens"], ["w"] * 1_000_000), "tokens"),
        (set_in(["X"], [[0, 0]] * 1_000_000), "X"),
        (set_in(["heads", 0, "Wv"], [[0.0] * 1_000_000] * 2), "heads[0].Wv"),
        (set_in(["heads", 0, "dims"], ["d"] * 1_000_000), "heads[0].dims"),
        (set_in(["heads"], [{}] * 1_000_000), "heads"),
        (set_in(["mask"], [[False] * 1_000_000] * 3), "mask"),
    ],
)
def test_huge_inputs_are_refused_by_size_not_by_running_out_of_memory(edit, field):
    # A million entries are refused from their count alone; nothing the size of the input is built.
    error = scene_error(edited(small_scene, edit))
    assert error.field == field


def test_optional_keys_are_accepted():
    scene = small_scene()
    scene.update(id="my-scene", description="what to look at", shift=False)
    scene["heads"][0]["value_dims"] = ["who", "what"]
    parsed = parse_scene(scene)
    assert parsed.shift is False and parsed.heads[0].value_dims == ("who", "what")


def test_a_valid_scene_with_a_mask_matrix_parses():
    scene = small_scene()
    scene["mask"] = [[False, True, True], [False, False, True], [False, False, False]]
    parsed = parse_scene(scene)
    assert parsed.mask.tolist() == scene["mask"]
