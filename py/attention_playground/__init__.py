"""Attention Playground: self-attention in plain NumPy, one stage at a time.

- `attention_maths`: the maths (softmax, attention, self-attention, multi-head, every stage)
- `positions`: the sinusoidal position rows a scene may add to X
- `scene`: the scene format and its checks (`SceneError`, `LIMITS`)
- `scene_stages`: `compute_scene(scene)`, every stage of every head as arrays
- `wire`: arrays to JSON or packed bytes and back; `compute(scene)`, the computed scene as plain data
- `kinds`, `handlers`, `entry`: the request kinds declared once with the function each runs, the glue the
  kinds that need it have, and `handle(request_json)`, what the page's worker calls
- `parts`, `facts`: how the package ships in zips, and what the page's JavaScript shares with it
- `presets`, `experiments`: the worked examples and the experiments that are not one scene (imported when first
  used: `scaling_experiment` and `shuffle_check` are exported all the same)
- `model` (a subpackage, imported on its own: `attention_playground.model`): a tiny transformer trained
  to copy, with heads to look at as scenes, and trained with NumPy alone
- `english` (a subpackage, imported on its own): the same transformer trained on the Brown corpus, with a byte-pair
  tokenizer that reads any text; its training script and its analysis
- `exercises` (a subpackage): the exercises, their checks and their runner; `learner_program`,
  `learner_drawing` (shipped with them): the learner's code run and its mistakes told in their lines, and the
  heatmap drawn with the learner's own function
- `widget` (needs anywidget): the playground in a notebook

No module shares its name with a function the package exports (`compute` is wire.py's function, `attention`
attention_maths.py's), so `import attention_playground.<module>` always gives the module.
"""

from .attention_maths import (
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
from .presets import DEFAULT_PRESET_ID, PRESET_IDS, list_presets, load_preset
from .scene import LIMITS, Scene, SceneError, parse_scene
from .wire import compute

#: Exported, but imported when first asked for: the experiments ship in a part of their own (parts.py), which the
#: page fetches with the first request that runs one, not at boot.
_FROM_EXPERIMENTS = ("scaling_experiment", "shuffle_check")


def __getattr__(name: str):
    if name in _FROM_EXPERIMENTS:
        from . import experiments  # noqa: PLC0415

        return getattr(experiments, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

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
