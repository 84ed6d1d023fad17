"""Small helpers the browser tests share: selectors by test id, the shipped presets, the module's messages."""

import json
from pathlib import Path

import pytest

from attention_playground import compute
from attention_playground.scene import SceneError

ROOT = Path(__file__).resolve().parents[2]
PRESETS = ROOT / "generated" / "presets"


def sel(test_id, **data):
    """A CSS selector for a data-testid, narrowed by data-* attributes (row=1 → [data-row="1"])."""
    extra = "".join(f'[data-{key.replace("_", "-")}="{value}"]' for key, value in data.items())
    return f'[data-testid="{test_id}"]{extra}'


def preset_scene(preset_id):
    """A preset's scene exactly as the page fetches it."""
    return json.loads((PRESETS / f"{preset_id}.json").read_text())


def module_error(scene):
    """The message the native module gives for `scene` (which must be invalid)."""
    with pytest.raises(SceneError) as raised:
        compute(scene)
    return str(raised.value)
