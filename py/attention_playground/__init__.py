"""Attention Playground: self-attention in plain NumPy, one stage at a time.

- `attention`: the maths (softmax, attention, self-attention, multi-head, every stage)
- `scene`: the scene format and its checks (`SceneError`, `LIMITS`)
- `compute`: `compute_scene(scene)`, every stage as arrays
- `wire`: arrays to JSON or packed bytes and back; `compute(scene)`, the computed scene as plain data
- `kinds`, `handlers`, `entry`: the request kinds declared once, what each runs, and `handle(request_json)`,
  what the page's worker calls
- `parts`, `facts`: how the package ships in zips, and what the page's JavaScript shares with it
- `presets`, `experiments`: the worked examples and the experiments that are not one scene
- `model` (a subpackage, imported on its own: `attention_playground.model`): a tiny transformer trained
  to copy, with heads to look at as scenes, and trained with NumPy alone
"""

from .attention import (
    STAGES,
    AttentionStages,
    attention,
    attention_stages,
    multi_head_attention,
    multi_head_stages,
    self_attention,
    softmax,
)
from .entry import handle
from .experiments import scaling_experiment, shuffle_check
from .presets import DEFAULT_PRESET_ID, PRESET_IDS, list_presets, load_preset
from .scene import LIMITS, Scene, SceneError, parse_scene
from .wire import compute

__all__ = [
    "STAGES",
    "AttentionStages",
    "attention",
    "attention_stages",
    "multi_head_attention",
    "multi_head_stages",
    "self_attention",
    "softmax",
    "compute",
    "handle",
    "scaling_experiment",
    "shuffle_check",
    "DEFAULT_PRESET_ID",
    "PRESET_IDS",
    "list_presets",
    "load_preset",
    "LIMITS",
    "Scene",
    "SceneError",
    "parse_scene",
]
