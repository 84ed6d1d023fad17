"""Shared set-up for the native tests: the module in py/ on the path, the preset script, hypothesis settings."""

import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import settings

PY_DIR = Path(__file__).resolve().parents[2] / "py"
if str(PY_DIR) not in sys.path:
    sys.path.insert(0, str(PY_DIR))

PRESETS_DIR = PY_DIR / "attention_playground" / "presets"


@pytest.fixture(scope="session")
def make_causal_exercise():
    """The script that regenerates causal-exercise.json, imported from its file (it is not a package module)."""
    spec = importlib.util.spec_from_file_location("make_causal_exercise", PRESETS_DIR / "make_causal_exercise.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# No timing limits (the machine is shared and noisy) and no example database left in the work tree;
# a failing example is printed in full, so it can be replayed with @reproduce_failure.
settings.register_profile("native", deadline=None, database=None, print_blob=True)
settings.load_profile("native")


# --- The trained model (tests/native/test_model_*.py) ----------------------------------------------------------


@pytest.fixture(scope="session")
def shipped_model():
    """The shipped checkpoint, loaded once (tests treat it as read-only)."""
    from attention_playground.model import load_model

    return load_model()


@pytest.fixture(scope="session")
def retrained_model():
    """A model trained from scratch with the shipped checkpoint's config, once per session (about 12 s natively;
    inside Pyodide only its first steps, training_cost.steps_to_retrain)."""
    from dataclasses import replace

    from attention_playground.model import train
    from attention_playground.model.checkpoint import rounded
    from training_cost import steps_to_retrain

    config = load_shipped_config()
    return rounded(train(replace(config, steps=steps_to_retrain(config.steps))))


def load_shipped_config():
    from attention_playground.model import TrainConfig
    from attention_playground.model.checkpoint import shipped_checkpoint

    return TrainConfig.from_dict(shipped_checkpoint()["config"])


@pytest.fixture(scope="session")
def make_trained_repeated_noun():
    """The script that regenerates trained-repeated-noun.json, imported from its file."""
    spec = importlib.util.spec_from_file_location("make_trained_repeated_noun",
                                                  PRESETS_DIR / "make_trained_repeated_noun.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
