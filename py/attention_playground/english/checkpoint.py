"""The English model as shipped: its weights in float16 (weights.json) and its settings and summary (model.json).

    model = load_english()        # a model/transformer.Model, float64 in memory; its vocabulary is the tokenizer's

weights.json is text the project writes and reads itself, as the story-world model's checkpoint.json is: for each
parameter (names and shapes as model/transformer.param_shapes gives them for the config) its shape and its float16
values, little-endian, in base64 (a third more than the bytes, which the page's zip of the part takes back). The
model is those float16 numbers: the training script rounds the weights to them before it measures anything, so every
figure is the shipped model's. model.json holds the
training settings (TrainConfig), the steps taken, the loss every 50 steps and the summary the analysis wrote (heads,
held-out loss, bigram baseline).
Both are read with importlib.resources, so they load from a folder, a zip or Pyodide's file system.
"""

from __future__ import annotations

import base64
import json
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from ..model.config import TrainConfig
from ..model.transformer import Model, param_shapes
from .tokenizer import load_tokenizer

WEIGHTS_NAME = "weights.json"
SETTINGS_NAME = "model.json"
FORMAT = "attention-playground-english-model"
VERSION = 1
#: The training loss is kept every this many steps.
LOSS_EVERY = 50


def in_float16(model: Model) -> Model:
    """The model with every parameter rounded to float16 and back: what a save and a load give."""
    params = {name: value.astype(np.float16).astype(np.float64) for name, value in model.params.items()}
    return Model(model.config, params, model.vocabulary, model.steps, model.loss_curve)


def weights_text(model: Model) -> str:
    """weights.json's text: each parameter's shape and its float16 values, little-endian, in base64."""
    params = {name: {"shape": list(value.shape), "float16": base64.b64encode(value.astype("<f2").tobytes()).decode("ascii")}
              for name, value in model.params.items()}
    return json.dumps({"format": f"{FORMAT}-weights", "version": VERSION, "params": params}, indent=1) + "\n"


def save_english(model: Model, summary: dict[str, Any], folder: Path) -> tuple[int, int]:
    """Write weights.json and model.json into `folder`; returns their sizes in bytes."""
    weights = weights_text(model)
    settings = {"format": FORMAT, "version": VERSION, "config": model.config.to_dict(), "steps": model.steps,
                "loss_every": LOSS_EVERY, "loss_curve": [round(loss, 4) for loss in model.loss_curve[::LOSS_EVERY]],
                "summary": summary}
    text = json.dumps(settings, indent=1, ensure_ascii=False) + "\n"
    (folder / WEIGHTS_NAME).write_text(weights, encoding="ascii")
    (folder / SETTINGS_NAME).write_text(text, encoding="utf-8")
    return len(weights), len(text.encode())


def float16_weights(weights_json: str) -> dict[str, np.ndarray]:
    """weights.json's parameters as float16 arrays, by name."""
    stored = json.loads(weights_json)
    if stored.get("format") != f"{FORMAT}-weights" or stored.get("version") != VERSION:
        raise ValueError(f"not a {FORMAT}-weights file of version {VERSION}")
    return {name: np.frombuffer(base64.b64decode(entry["float16"]), dtype="<f2").reshape(entry["shape"])
            for name, entry in stored["params"].items()}


def model_from_files(weights_json: str, settings: dict[str, Any]) -> Model:
    if settings.get("format") != FORMAT or settings.get("version") != VERSION:
        raise ValueError(f"not a {FORMAT} of version {VERSION}")
    config = TrainConfig.from_dict(settings["config"])
    vocabulary = load_tokenizer().vocabulary
    stored = float16_weights(weights_json)
    params = {name: stored[name].astype(np.float64) for name in param_shapes(config, len(vocabulary))}
    return Model(config, params, vocabulary, int(settings["steps"]), tuple(settings["loss_curve"]))


@cache
def shipped_settings() -> dict[str, Any]:
    return json.loads((files(__package__) / SETTINGS_NAME).read_text(encoding="utf-8"))


def load_english() -> Model:
    """The shipped English model."""
    return model_from_files((files(__package__) / WEIGHTS_NAME).read_text(encoding="ascii"), shipped_settings())
