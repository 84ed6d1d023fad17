"""What the page's JavaScript must agree with the module about, gathered in one place.

The module decides these; the build writes them into generated/module-facts.js, which the page imports, so
the two sides cannot drift apart: the size limits, the example the page opens with, the names of the stages,
the request kinds the entry point answers, how deep a request may nest, how unnamed value
columns are named, and which zips the module ships in (parts.py).
"""

from __future__ import annotations

from typing import Any


def default_value_dims(width: int) -> tuple[str, ...]:
    """The names of Wv's columns when a scene does not name them: v0, v1, …"""
    return tuple(f"v{j}" for j in range(width))


def module_facts() -> dict[str, Any]:
    """The facts as plain data (see the module docstring)."""
    from .attention import STAGES
    from .entry import KINDS, MAX_NESTING
    from .parts import facts as part_facts
    from .presets import DEFAULT_PRESET_ID, PRESET_IDS
    from .scene import LIMITS

    return {
        "limits": LIMITS._asdict(),
        "defaultPresetId": DEFAULT_PRESET_ID,
        "presetIds": list(PRESET_IDS),
        "stages": list(STAGES),
        "requestKinds": list(KINDS),
        "maxNesting": MAX_NESTING,
        "valueDimNames": {"prefix": "v", "first": 0, "example": list(default_value_dims(3))},
        "moduleParts": part_facts(),
    }
