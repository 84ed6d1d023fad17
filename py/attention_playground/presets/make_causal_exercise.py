"""Regenerate causal-exercise.json from its random numbers.

The exercise draws X (6 tokens × 32 features) and then Wq, Wk and Wv (32 × 32 each), in that order,
from `np.random.default_rng(0).normal`. The file stores every number at full precision (Python's
repr of a float reads back to the identical float), so the page shows exactly those draws.

    python3 py/attention_playground/presets/make_causal_exercise.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

PRESET_PATH = Path(__file__).with_name("causal-exercise.json")
SEED = 0
N_TOKENS = 6
SIZE = 32  # features, query/key dims and value dims alike


def draw_matrices(seed: int = SEED) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """X (N_TOKENS, SIZE), then Wq, Wk, Wv (SIZE, SIZE), drawn in that order from one generator."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(N_TOKENS, SIZE))  # (6, 32)
    Wq, Wk, Wv = (rng.normal(size=(SIZE, SIZE)) for _ in range(3))  # (32, 32) each
    return X, Wq, Wk, Wv


def causal_exercise_scene() -> dict[str, Any]:
    """The causal-exercise preset as a scene dict."""
    X, Wq, Wk, Wv = draw_matrices()
    return {
        "id": "causal-exercise",
        "title": "causal mask on random numbers",
        "description": (
            "Six tokens with random features and random 32 × 32 projections, under a causal mask. "
            "Every row of the weights adds up to 1, and everything above the diagonal is exactly 0: "
            "no token reads a token that comes after it."
        ),
        "tokens": [f"t{i}" for i in range(N_TOKENS)],
        "features": [f"f{i}" for i in range(SIZE)],
        "X": X.tolist(),
        "heads": [
            {"name": "head 1", "dims": [f"d{i}" for i in range(SIZE)],
             "Wq": Wq.tolist(), "Wk": Wk.tolist(), "Wv": Wv.tolist()},
        ],
        "mask": "causal",
        "scale": True,
    }


def scene_json(value: Any, depth: int = 0) -> str:
    """JSON text with one matrix row per line, so a preset file reads like the table it holds."""
    pad = "  " * depth
    if isinstance(value, dict) and value:
        items = [f"{pad}  {json.dumps(key)}: {scene_json(item, depth + 1)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list) and value and all(isinstance(item, (list, dict)) for item in value):
        items = [f"{pad}  {scene_json(item, depth + 1)}" for item in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return json.dumps(value, ensure_ascii=False)  # a number, text, or a flat list on one line


def main() -> None:
    PRESET_PATH.write_text(scene_json(causal_exercise_scene()) + "\n", encoding="utf-8")
    print(f"wrote {PRESET_PATH}")


if __name__ == "__main__":
    main()
