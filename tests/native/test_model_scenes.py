"""A trained head as a scene: valid, and compute() gives exactly the model's weights. The preset made from it."""

import json

import numpy as np
import pytest

from attention_playground import compute, load_preset, parse_scene
from attention_playground.model import head_scene, layer_scene, run
from attention_playground.presets import PRESET_IDS
from close import differences

SENTENCE = "the fox met a crow and the fox smiled"
PRESET_ID = "trained-repeated-noun"


@pytest.mark.parametrize(("layer", "head"), [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_a_head_scene_computes_the_models_weights(shipped_model, layer, head):
    scene = head_scene(shipped_model, SENTENCE, layer, head)
    parsed = parse_scene(scene)
    assert parsed.tokens == ("<bos>", *SENTENCE.split())
    assert parsed.features == tuple(f"r{i}" for i in range(shipped_model.config.d_model))
    assert scene["mask"] == "causal" and scene["scale"] is True
    assert isinstance(scene["title"], str) and isinstance(scene["description"], str)
    result = run(shipped_model, SENTENCE)
    assert np.array_equal(parsed.X, result.resid_pre[layer])
    assert np.array_equal(parsed.heads[0].Wq, shipped_model.params["W_Q"][layer, head])
    computed = compute(scene)
    assert computed["warnings"] == []
    (computed_head,) = computed["heads"]
    assert np.allclose(np.array(computed_head["weights"]), result.weights[layer][head], rtol=0, atol=1e-12)
    assert np.allclose(np.array(computed_head["stages"]["output"]), result.stages[layer][head].output,
                       rtol=0, atol=1e-12)


def test_a_scene_at_the_longest_sentence_fits_the_limits(shipped_model):
    words = ["the", "cat"] * (shipped_model.config.max_words // 2)
    scene = head_scene(shipped_model, words, 1, 1)
    assert len(parse_scene(scene).tokens) == shipped_model.config.max_words + 1
    json.dumps(scene, allow_nan=False)


def test_a_head_scene_can_knock_out_an_earlier_head(shipped_model):
    scene = head_scene(shipped_model, SENTENCE, 1, 0, knocked_out=[(0, 1)])
    weights = np.array(compute(scene)["heads"][0]["weights"])
    assert np.allclose(weights, run(shipped_model, SENTENCE, [(0, 1)]).weights[1][0], rtol=0, atol=1e-12)
    assert not np.allclose(weights, run(shipped_model, SENTENCE).weights[1][0])


def test_the_preset_is_listed_after_the_hand_made_ones_and_is_what_the_script_makes_now(make_trained_repeated_noun):
    assert PRESET_IDS[-2:] == (PRESET_ID, "english-repeated-name")  # the trained models' scenes, the English one last
    path = make_trained_repeated_noun.PRESET_PATH
    written = make_trained_repeated_noun._scene_json()(make_trained_repeated_noun.trained_repeated_noun_scene())
    # Exact natively; in Pyodide the floats may differ in their last bits (close.py says why).
    assert differences(json.loads(path.read_text(encoding="utf-8")), json.loads(written)) == []


def test_the_presets_weights_are_the_models(shipped_model):
    scene = load_preset(PRESET_ID)
    assert scene["tokens"] == ["<bos>", *SENTENCE.split()]
    made_now = {**layer_scene(shipped_model, SENTENCE, 1), "id": PRESET_ID, "title": scene["title"],
                "description": scene["description"]}
    assert differences(dict(sorted(scene.items())), dict(sorted(made_now.items()))) == []
    computed = compute(scene)
    result = run(shipped_model, SENTENCE)
    for head, computed_head in enumerate(computed["heads"]):
        assert np.allclose(np.array(computed_head["weights"]), result.weights[1][head], rtol=0, atol=1e-12)


def test_the_presets_description_quotes_the_measured_numbers(shipped_model):
    from attention_playground.model.repeated_noun import sentence_facts

    description = load_preset(PRESET_ID)["description"]
    from attention_playground.model.analysis import head_label

    facts = sentence_facts(shipped_model, SENTENCE)
    induction = " and ".join(head_label(*pair) for pair in facts["induction_heads"])
    assert induction, "the model has an induction head to knock out"
    for entry in facts["positions"]:
        for read in entry["reads"]:
            assert f"{read['head']} puts {read['weight']:.2f}" in description
        assert f"with {induction} knocked out, {entry['p_next_knocked']:.2f}" in description
    assert "not what it did with it" in description
