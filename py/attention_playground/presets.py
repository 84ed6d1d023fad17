"""Ready-made scenes: one for every worked example, stored as JSON files in presets/.

Each file is an ordinary scene with two extra keys, "id" and "description". Files are read with
importlib.resources, so the presets load the same from a folder, a zip or a browser's file system.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

#: Every preset, in the order the page offers them. The id is the file name without ".json".
PRESET_IDS: tuple[str, ...] = (
    "it-animal-noun",
    "it-no-noun-match",
    "it-strength-1",
    "it-strength-5",
    "it-strength-8",
    "dog-bites-man",
    "repeated-noun",
    "causal-exercise",
    "two-animals",
    "softmax-trap",
    "two-heads",
    "trained-repeated-noun",
    "english-repeated-name",
)

#: The scene the page opens with.
DEFAULT_PRESET_ID = "it-animal-noun"


class UnknownPresetError(LookupError):
    """Asked for a preset id that does not exist."""


@cache
def _preset_text(preset_id: str) -> str:
    return (files(__package__) / "presets" / f"{preset_id}.json").read_text(encoding="utf-8")


def load_preset(preset_id: str) -> dict[str, Any]:
    """The scene dict of one preset; a fresh copy every call, so callers may change it freely."""
    if preset_id not in PRESET_IDS:
        raise UnknownPresetError(f"there is no preset {preset_id!r}; the presets are {', '.join(PRESET_IDS)}")
    return json.loads(_preset_text(preset_id))


def list_presets() -> list[dict[str, str]]:
    """Id, title and description of every preset, in PRESET_IDS order."""
    summaries = []
    for preset_id in PRESET_IDS:
        scene = load_preset(preset_id)
        summaries.append({"id": preset_id, "title": scene["title"], "description": scene["description"]})
    return summaries


def random_scene(
    n_tokens: int, *, seed: int = 0, spread: float = 1.0, digits: int | None = None, mask: str = "none"
) -> dict[str, Any]:
    """A square scene of seeded random numbers: n_tokens tokens, features, query/key dims and value dims.

    For trying the size limits, benchmarks and tests. Every number is uniform in [-spread, spread], rounded
    to `digits` decimals if given (shorter JSON, like numbers a person would type). The same seed gives the
    same scene on every Python, since it uses the standard library's generator, not NumPy's.
    """
    import random

    rng = random.Random(seed)

    def matrix(rows: int, columns: int) -> list[list[float]]:
        draw = (rng.uniform(-spread, spread) for _ in range(rows * columns))
        values = [round(value, digits) if digits is not None else value for value in draw]
        return [values[row * columns:(row + 1) * columns] for row in range(rows)]

    size = n_tokens
    return {
        "title": f"{size} tokens",
        "tokens": [f"t{i}" for i in range(size)],
        "features": [f"f{i}" for i in range(size)],
        "X": matrix(size, size),
        "heads": [{"name": "head 1", "dims": [f"d{i}" for i in range(size)],
                   "Wq": matrix(size, size), "Wk": matrix(size, size), "Wv": matrix(size, size)}],
        "mask": mask,
        "scale": True,
    }
