"""The shipped model as one JSON file that Python and JavaScript read the same way.

`checkpoint.json`, beside this file, is one JSON object:

    {"format": "attention-playground-model", "version": 1, "significant_digits": 6,
     "config": {...TrainConfig fields...}, "vocabulary": ["<bos>", "the", ...], "steps": 1500,
     "loss_curve": [...training loss at every step, 4 significant digits...],
     "summary": {...describe(model): metrics, head scores and roles, knock-outs...},
     "params": {"W_E": {"shape": [161, 32], "data": [...]}, ...}}

Each parameter's `data` is its entries in row-major (C) order, each a decimal rounded to
`significant_digits` significant digits. The model *is* those decimals: read as float64 (Python's
`float()`, JavaScript's `Number()` give the same double for the same text), they are exactly the
parameters the summary, docs/model.md and the tests describe. Parameter shapes are in `param_shapes`.

The file is read with importlib.resources, so it loads from a folder, a zip or Pyodide's file system.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from .config import TrainConfig
from .transformer import Model, param_shapes

FORMAT = "attention-playground-model"
VERSION = 1
SIGNIFICANT_DIGITS = 6
LOSS_DIGITS = 4
CHECKPOINT_NAME = "checkpoint.json"


class CheckpointError(ValueError):
    """A checkpoint file that is not in this format."""


def round_significant(values: np.ndarray, digits: int) -> np.ndarray:
    """Every entry rounded to `digits` significant digits, as the float64 its decimal text reads back as."""
    return np.array([float(f"{x:.{digits}g}") for x in np.asarray(values, dtype=np.float64).ravel().tolist()],
                    dtype=np.float64).reshape(np.shape(values))


def rounded(model: Model, digits: int = SIGNIFICANT_DIGITS) -> Model:
    """The model with every parameter rounded as the checkpoint stores it: what a save and a load give."""
    params = {name: round_significant(value, digits) for name, value in model.params.items()}
    return Model(model.config, params, model.vocabulary, model.steps, model.loss_curve)


def checkpoint_dict(model: Model, summary: dict[str, Any]) -> dict[str, Any]:
    """The model (already `rounded`) and its summary as the checkpoint's JSON object."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "significant_digits": SIGNIFICANT_DIGITS,
        "config": model.config.to_dict(),
        "vocabulary": list(model.vocabulary),
        "steps": model.steps,
        "loss_curve": [float(f"{loss:.{LOSS_DIGITS}g}") for loss in model.loss_curve],
        "summary": summary,
        "params": {
            name: {"shape": list(model.params[name].shape),
                   "data": [float(f"{x:.{SIGNIFICANT_DIGITS}g}") for x in model.params[name].ravel().tolist()]}
            for name in param_shapes(model.config, len(model.vocabulary))
        },
    }


def checkpoint_text(data: dict[str, Any]) -> str:
    """The JSON text: one top-level key per line, each parameter on a line of its own."""
    lines = []
    for key, value in data.items():
        if key == "params":
            params = [f'    {json.dumps(name)}: {json.dumps(entry, separators=(",", ":"))}'
                      for name, entry in value.items()]
            lines.append('  "params": {\n' + ",\n".join(params) + "\n  }")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, separators=(',', ':'))}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def model_from_dict(data: dict[str, Any]) -> Model:
    """A Model from a checkpoint's JSON object."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise CheckpointError(f"not a {FORMAT} checkpoint of version {VERSION}")
    params = {}
    config = TrainConfig.from_dict(data["config"])
    for name in param_shapes(config, len(data["vocabulary"])):
        entry = data["params"][name]
        params[name] = np.array(entry["data"], dtype=np.float64).reshape(entry["shape"])
    return Model(config, params, tuple(data["vocabulary"]), int(data["steps"]),
                 tuple(data["loss_curve"]))


@cache
def shipped_text() -> str:
    return (files(__package__) / CHECKPOINT_NAME).read_text(encoding="utf-8")


def shipped_checkpoint() -> dict[str, Any]:
    """The shipped checkpoint's JSON object (a fresh copy)."""
    return json.loads(shipped_text())


def load_model() -> Model:
    """The shipped, trained model."""
    return model_from_dict(shipped_checkpoint())


def save_model(model: Model, summary: dict[str, Any], path: str | Path) -> int:
    """Write the model (already `rounded`) and its summary to `path`; returns the file's size in bytes."""
    text = checkpoint_text(checkpoint_dict(model, summary))
    Path(path).write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))
