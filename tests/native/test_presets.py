"""Every preset loads and computes, says what to look at, and shows what its description promises."""

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import attention_playground
from attention_playground import DEFAULT_PRESET_ID, PRESET_IDS, compute, list_presets, load_preset, parse_scene
from attention_playground.presets import UnknownPresetError

PACKAGE_DIR = Path(attention_playground.__file__).parent
PRESETS_DIR = PACKAGE_DIR / "presets"


def weights_of(preset_id):
    return np.array(compute(load_preset(preset_id))["heads"][0]["weights"])  # (n_tokens, n_tokens)


def test_every_preset_file_is_listed_under_its_own_id():
    on_disk = sorted(path.stem for path in PRESETS_DIR.glob("*.json"))
    assert on_disk == sorted(PRESET_IDS)
    for preset_id in PRESET_IDS:
        assert load_preset(preset_id)["id"] == preset_id


def test_the_stable_ids():
    assert set(PRESET_IDS) == {
        "dog-bites-man", "it-animal-noun", "it-no-noun-match", "it-strength-1", "it-strength-5",
        "it-strength-8", "causal-exercise", "two-animals", "repeated-noun", "softmax-trap", "two-heads", "trained-repeated-noun",
        "english-repeated-name",
    }
    assert DEFAULT_PRESET_ID == "it-animal-noun"


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_every_preset_loads_and_computes(preset_id):
    scene = load_preset(preset_id)
    assert isinstance(scene["description"], str) and len(scene["description"]) > 40
    result = compute(scene)
    assert result["title"] == scene["title"]
    json.dumps(result, allow_nan=False)  # strict JSON, as the page receives it
    if preset_id == "softmax-trap":
        assert result["warnings"]
    else:
        assert result["warnings"] == []
        assert np.allclose(np.array(result["heads"][0]["weights"]).sum(axis=1), 1.0)


def test_list_presets_gives_id_title_and_description_in_order():
    listed = list_presets()
    assert [entry["id"] for entry in listed] == list(PRESET_IDS)
    for entry in listed:
        scene = load_preset(entry["id"])
        assert entry == {"id": entry["id"], "title": scene["title"], "description": scene["description"]}


def test_load_preset_returns_a_fresh_copy():
    first = load_preset("dog-bites-man")
    first["X"][0][0] = 99
    assert load_preset("dog-bites-man")["X"][0][0] == 1


def test_an_unknown_preset_is_refused():
    with pytest.raises(UnknownPresetError, match="no preset 'cat-bites-dog'"):
        load_preset("cat-bites-dog")


def test_the_default_scene_is_the_part6_sentence():
    scene = parse_scene(load_preset(DEFAULT_PRESET_ID))
    assert scene.tokens == tuple("the cat sat on the mat because it was tired".split())
    assert scene.features == ("noun", "animal", "pronoun", "verb", "plural", "tired")
    (head,) = scene.heads
    assert head.dims == ("animal", "noun") and head.Wv is None
    Wq = np.zeros((6, 2))
    Wq[2] = [4, 4]  # a pronoun looks for an animal and a noun
    Wk = np.zeros((6, 2))
    Wk[1, 0] = Wk[0, 1] = 1  # an animal answers in "animal", a noun in "noun"
    assert (head.Wq == Wq).all() and (head.Wk == Wk).all()
    assert scene.X.tolist()[1] == [1, 1, 0, 0, 0, 0]  # cat: noun and animal


@pytest.mark.parametrize(
    ("preset_id", "pronoun_row"),
    [("it-no-noun-match", [4, 0]), ("it-strength-1", [1, 1]), ("it-strength-5", [5, 5]), ("it-strength-8", [8, 8])],
)
def test_the_part6_variations_change_only_the_pronoun_row_of_Wq(preset_id, pronoun_row):
    base, variation = load_preset(DEFAULT_PRESET_ID), load_preset(preset_id)
    assert variation["heads"][0]["Wq"][2] == pronoun_row
    variation["heads"][0]["Wq"][2] = base["heads"][0]["Wq"][2]
    for key in ("id", "title", "description"):
        del base[key], variation[key]
    assert variation == base


def test_causal_exercise_holds_default_rng_0_draws_exactly(make_causal_exercise):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 32))
    Wq, Wk, Wv = rng.normal(size=(32, 32)), rng.normal(size=(32, 32)), rng.normal(size=(32, 32))
    scene = load_preset("causal-exercise")
    (head,) = scene["heads"]
    assert np.array_equal(np.array(scene["X"]), X)
    assert np.array_equal(np.array(head["Wq"]), Wq)
    assert np.array_equal(np.array(head["Wk"]), Wk)
    assert np.array_equal(np.array(head["Wv"]), Wv)
    assert scene["mask"] == "causal" and scene["scale"] is True
    # The committed file is exactly what the script writes.
    written = make_causal_exercise.scene_json(make_causal_exercise.causal_exercise_scene()) + "\n"
    assert (PRESETS_DIR / "causal-exercise.json").read_text(encoding="utf-8") == written


def test_repeated_noun_looks_back_and_sinks():
    scene = load_preset("repeated-noun")
    tokens = scene["tokens"]
    assert scene["mask"] == "causal"
    first, second = [i for i, token in enumerate(tokens) if token == "fox"]
    weights = weights_of("repeated-noun")
    assert (np.triu(weights, k=1) == 0).all()
    # The second "fox" attends most to the first one, more than to itself.
    assert weights[second].argmax() == first
    assert weights[second, first] > 0.5 and weights[second, first] > weights[second, second]
    # Words that look for nothing in particular park most of their weight on the first token.
    sinking = [i for i in range(1, len(tokens)) if weights[i].argmax() == 0]
    assert len(sinking) >= len(tokens) // 2
    for i in sinking:
        assert weights[i, 0] > 0.4


def test_softmax_trap_shows_nan_until_the_shift_is_back():
    scene = load_preset("softmax-trap")
    assert scene["shift"] is False and "shift" in scene["description"]
    result = compute(scene)
    assert result["heads"][0]["stages"]["scores"][0] == [1000, 1001, 1002]
    assert result["output"] == [[None] * 3] * 3
    scene["shift"] = True
    assert compute(scene)["warnings"] == []


def test_dog_bites_man_uses_each_words_own_vector():
    scene = load_preset("dog-bites-man")
    (head,) = scene["heads"]
    identity = [[1, 0], [0, 1]]
    assert scene["tokens"] == ["dog", "bites", "man"] and scene["X"] == [[1, 0], [0, 1], [1, 1]]
    assert head["Wq"] == head["Wk"] == head["Wv"] == identity


def test_presets_load_from_a_zip(tmp_path):
    # The page may ship the module as an archive: presets must be read as package resources, not from disk paths.
    archive = tmp_path / "attention_playground.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in PACKAGE_DIR.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                zipped.write(path, path.relative_to(PACKAGE_DIR.parent).as_posix())
    script = (
        "import sys, json; sys.path.insert(0, sys.argv[1]);"
        "import attention_playground as ap;"
        "assert ap.__file__.startswith(sys.argv[1]), ap.__file__;"
        "print(json.dumps([ap.compute(ap.load_preset(p['id']))['title'] for p in ap.list_presets()]))"
    )
    completed = subprocess.run([sys.executable, "-I", "-c", script, str(archive)], capture_output=True, text=True,
                               check=False)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == [entry["title"] for entry in list_presets()]


def test_two_heads_read_the_antecedent_and_the_previous_word():
    scene = load_preset("two-heads")
    tokens = scene["tokens"]
    antecedent, previous = (np.array(head["weights"]) for head in compute(scene)["heads"])  # (n, n) each
    it, cat = tokens.index("it"), tokens.index("cat")
    # The pronoun head: "it" puts almost all its weight on "cat".
    assert antecedent[it].argmax() == cat and antecedent[it, cat] > 0.9
    # The previous-word head: every word but the first reads the word just before it.
    for i in range(1, len(tokens)):
        assert previous[i].argmax() == i - 1 and previous[i, i - 1] > 0.9
    # The first word has nothing before it and spreads evenly.
    assert np.allclose(previous[0], 1 / len(tokens))
    # The joined output puts the two heads' one-hot readings side by side.
    output = np.array(compute(scene)["output"])  # (n, 2n)
    assert np.allclose(output, np.concatenate([antecedent, previous], axis=1))


def test_two_animals_split_the_weight_of_it_and_knocking_one_out_barely_moves_it():
    """What its description promises: "it" gives each animal about half of its weight; knocking "cat" out moves the
    output of "it" least of all, though "it" gave "cat" the most weight (the experiment's one-click example)."""
    from attention_playground.experiments import knock_out_word

    scene = load_preset("two-animals")
    tokens = scene["tokens"]
    it, cat, dog = tokens.index("it"), tokens.index("cat"), tokens.index("dog")
    weights = weights_of("two-animals")
    assert weights[it, cat] == pytest.approx(weights[it, dog], abs=1e-12) and 0.4 < weights[it, cat] < 0.5
    values = np.array(compute(scene)["heads"][0]["stages"]["V"])  # (n, d_v)
    assert np.array_equal(values[cat], values[dog])  # the same value: what "it" loses, "dog" hands over
    knocked = knock_out_word(scene, cat)
    assert knocked.most_weighted == it and knocked.most_changed != it
    others = [i for i in range(len(tokens)) if i != it]
    assert all(knocked.weights[i] < knocked.weights[it] and knocked.changes[i] > 5 * knocked.changes[it] for i in others)
