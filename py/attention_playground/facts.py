"""What the page's JavaScript must agree with the module about, gathered in one place, at the top.

The module decides these; the build writes them into generated/module-facts.js, which the page imports, so
the two sides cannot drift apart: the size limits, the example the page opens with, the names of the stages,
the request kinds the entry point answers (each with its one line of documentation), how deep a request may
nest, how unnamed value columns are named, which zips the module ships in (parts.py), and the token the trained
model reads before the first word (model/corpus.py: BOS; the page counts words from the one after it).

Nothing in the package imports this module: it reads the others, and only the build and the tests read it.
"""

from __future__ import annotations

from typing import Any

from .attention_maths import STAGES
from .kinds import KINDS
from .model.corpus import BOS
from .parts import facts as part_facts
from .presets import DEFAULT_PRESET_ID, PRESET_IDS
from .scene import LIMITS, VALUE_DIM_PREFIX, default_value_dims
from .wire import MAX_NESTING, TOO_DEEP_MESSAGE


def request_kinds() -> dict[str, dict[str, Any]]:
    """The kinds as the page names them: {"COMPUTE": {"name": "compute", "doc": ...}, ...}."""
    return {kind.name.upper(): {"name": kind.name, "doc": kind.doc} for kind in KINDS.values()}


def module_facts() -> dict[str, Any]:
    """The facts as plain data (see the module docstring)."""
    return {
        "limits": LIMITS._asdict(),
        "defaultPresetId": DEFAULT_PRESET_ID,
        "presetIds": list(PRESET_IDS),
        "stages": list(STAGES),
        "requestKinds": request_kinds(),
        "maxNesting": MAX_NESTING,
        "tooDeepMessage": TOO_DEEP_MESSAGE,
        "valueDimNames": {"prefix": VALUE_DIM_PREFIX, "first": 0, "example": list(default_value_dims(3))},
        "moduleParts": part_facts(),
        "startToken": BOS,
    }
