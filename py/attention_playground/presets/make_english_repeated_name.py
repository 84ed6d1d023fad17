"""Regenerate english-repeated-name.json from the shipped English model.

The preset is the English model's induction head reading "Mary went to the store and then Mary went home", made
by english/scenes.py's `head_scene` (its 64 features are the directions the head's queries and keys read: the
weights are exactly the model's). The head is the one the English model's analysis names induction; every number in
the description is measured here on that sentence and that checkpoint.

    python3 py/attention_playground/presets/make_english_repeated_name.py
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np

PRESET_ID = "english-repeated-name"
PRESET_PATH = Path(__file__).with_name(f"{PRESET_ID}.json")
SENTENCE = "Mary went to the store and then Mary went home"

if __package__ in (None, ""):  # run as a script: make the package importable from py/
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from attention_playground.english import load_english  # noqa: E402
from attention_playground.english.checkpoint import shipped_settings  # noqa: E402
from attention_playground.english.requests import english_run, position_of  # noqa: E402
from attention_playground.english.scenes import head_scene  # noqa: E402


def _scene_json():
    """The causal-exercise script's JSON layout (one matrix row per line), loaded from its file."""
    spec = importlib.util.spec_from_file_location("make_causal_exercise",
                                                  Path(__file__).with_name("make_causal_exercise.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.scene_json


def induction_head() -> tuple[int, int]:
    """The English model's head with the highest induction score (model.json's summary, measured by the analysis)."""
    heads = shipped_settings()["summary"]["heads"]
    best = max(heads, key=lambda head: head["scores"]["induction"])
    return best["layer"], best["head"]


def english_repeated_name_scene() -> dict[str, Any]:
    """The preset as a scene dict, description included."""
    layer, head = induction_head()
    scene = head_scene(load_english(), SENTENCE, layer, head)
    run = english_run({"words": SENTENCE})
    second = position_of(run["pieces"], "mary", 2)
    row = np.array(run["weights"][layer][head][second])
    follower = position_of(run["pieces"], "mary", 1) + 1
    top = int(np.argmax(row[1:])) + 1  # the word it reads most, <bos> aside
    why = (f", the word that followed the first “mary”" if top == follower
           else f" (on “{run['tokens'][follower]}”, the word that followed the first “mary”: {row[follower]:.2f})")
    label = f"L{layer}H{head}"
    description = (
        f"The English model, trained on the Brown corpus, reading a sentence that names Mary twice: its head {label}, "
        f"the one its analysis names induction. The second “mary” puts {row[0]:.2f} of its weight on <bos> and, of "
        f"the words, the most on “{run['tokens'][top]}”: {row[top]:.2f}{why}. The features are the 64 directions the "
        "head's queries and keys read of the model's 128-wide stream, so the weights are exactly the model's and "
        "the outputs are not. The weights show where the head reads from, not what that changes: the English "
        "model's panel knocks the head out to test it."
    )
    return {
        "id": PRESET_ID,
        "title": "English model: a name said twice",
        "description": description,
        **{key: value for key, value in scene.items() if key not in ("title", "description")},
    }


def main() -> None:
    PRESET_PATH.write_text(_scene_json()(english_repeated_name_scene()) + "\n", encoding="utf-8")
    print(f"wrote {PRESET_PATH}")


if __name__ == "__main__":
    main()
