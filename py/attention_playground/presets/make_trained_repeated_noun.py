"""Regenerate trained-repeated-noun.json from the shipped trained model.

The preset is layer 1 of the trained model (attention_playground.model) reading the tutorial's sentence
with a repeated noun, "the fox met a crow and the fox smiled", made by `layer_scene`: X is what layer 1
read, Wq, Wk and Wv are its two heads' trained matrices. Every number in its description (weights,
guesses, knock-outs) is measured here on that sentence and that checkpoint.

    python3 py/attention_playground/presets/make_trained_repeated_noun.py
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np

PRESET_ID = "trained-repeated-noun"
PRESET_PATH = Path(__file__).with_name(f"{PRESET_ID}.json")
LAYER = 1

if __package__ in (None, ""):  # run as a script: make the package importable from py/
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from attention_playground.model import head_roles, layer_scene, load_model, run  # noqa: E402
from attention_playground.model.analysis import head_label  # noqa: E402
from attention_playground.model.repeated_noun import SENTENCE, sentence_sentences  # noqa: E402


def _scene_json():
    """The causal-exercise script's JSON layout (one matrix row per line), loaded from its file."""
    spec = importlib.util.spec_from_file_location("make_causal_exercise",
                                                  Path(__file__).with_name("make_causal_exercise.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.scene_json


def sink_share(weights: np.ndarray) -> tuple[int, int]:
    """(rows after <bos> whose largest weight is on <bos>, rows after <bos>)."""
    rows = weights[1:]  # (n - 1, n)
    return int((rows.argmax(axis=1) == 0).sum()), len(rows)


def trained_repeated_noun_scene() -> dict[str, Any]:
    """The preset as a scene dict, description included."""
    model = load_model()
    roles = head_roles(model)
    scene = layer_scene(model, SENTENCE, LAYER)
    weights = run(model, SENTENCE).weights[LAYER]
    labels = [head_label(LAYER, head) for head in range(model.config.n_heads)]
    heads = " and ".join(f"{label} ({roles[(LAYER, head)]})" for head, label in enumerate(labels))
    sinks = "; ".join(f"{label}: {sink_share(weights[head])[0]} of {sink_share(weights[head])[1]} rows"
                      for head, label in enumerate(labels))
    description = " ".join([
        f"The trained model's layer {LAYER}, {heads}, reading the sentence: X is what the layer read, the weights "
        "are what it computed.",
        *sentence_sentences(model, SENTENCE),
        f"Rows whose largest weight is on <bos>: {sinks}.",
        "The weights show where each head read from, not what it did with it: only the knock-outs show what "
        "mattered.",
    ])
    return {
        "id": PRESET_ID,
        "title": "trained model: a repeated noun, layer 1",
        "description": description.replace("`", ""),
        **{key: value for key, value in scene.items() if key not in ("title", "description")},
    }


def main() -> None:
    PRESET_PATH.write_text(_scene_json()(trained_repeated_noun_scene()) + "\n", encoding="utf-8")
    print(f"wrote {PRESET_PATH}")


if __name__ == "__main__":
    main()
