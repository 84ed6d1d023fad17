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
