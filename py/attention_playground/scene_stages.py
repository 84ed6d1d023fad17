"""The stages of a scene: `compute_scene(scene)` checks the scene and runs every head, arrays in, arrays out.

Inside Python everything stays an array: `compute_scene(scene)` returns a `ComputedScene`, whose stages
are NumPy arrays, and the exercises and the learner's drawing read those. Turning them into plain data
happens once, at the boundary (`wire.py`): `compute(scene)` there is `compute_scene` written as the
JSON-ready dict docs/reference.md describes, and the page's worker gets the same arrays packed as raw float64.
(So `attention_playground.compute` is that function; this module is named for what it gives.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from .attention_maths import AttentionStages, concatenate_heads, fully_masked_rows, multi_head_stages
from .positions import position_rows
from .scene import Head, Scene, parse_scene


class ComputedHead(NamedTuple):
    """One head of a computed scene: the head as the module read it, and every stage it computed."""

    head: Head
    stages: AttentionStages  # Q, K, V, scores, scaled, masked, weights, output: arrays


class ComputedScene(NamedTuple):
    """A scene and everything computed from it, as arrays (see `wire.result_json` for the form docs/reference.md describes)."""

    scene: Scene
    X: np.ndarray  # (n_tokens, n_features): the input as the heads read it, positions included
    heads: tuple[ComputedHead, ...]
    output: np.ndarray  # (n_tokens, sum of d_v): the heads' outputs side by side
    fully_masked_rows: list[int]  # rows that may read no token at all
    warnings: list[str]  # plain sentences about anything a learner should notice


def compute_scene(scene: Mapping[str, Any]) -> ComputedScene:
    """Check `scene` and run every head; raises `SceneError` (with field, row and column) for a mistake."""
    parsed = parse_scene(scene)
    X = parsed.X  # (n_tokens, n_features)
    if parsed.positions != "none":
        X = X + position_rows(parsed.positions, *X.shape)  # (n_tokens, n_features)
    per_head = multi_head_stages(
        X, [(head.Wq, head.Wk, head.Wv) for head in parsed.heads],
        scale=parsed.scale, mask=parsed.mask, shift=parsed.shift,
    )
    blocked_rows = fully_masked_rows(parsed.mask)
    return ComputedScene(
        scene=parsed,
        X=X,
        heads=tuple(ComputedHead(head, stages) for head, stages in zip(parsed.heads, per_head, strict=True)),
        output=concatenate_heads(per_head),  # (n_tokens, sum of d_v)
        fully_masked_rows=blocked_rows,
        warnings=_warnings(parsed, per_head, blocked_rows),
    )


def _token_list(tokens: Sequence[str], rows: Sequence[int]) -> str:
    return ", ".join(f'"{tokens[i]}" (row {i + 1})' for i in rows)


def _warnings(scene: Scene, per_head: Sequence[AttentionStages], blocked_rows: list[int]) -> list[str]:
    """Plain-English notes on results that would otherwise surprise: empty rows, nan, overflow."""
    notes = []
    if blocked_rows:
        notes.append(
            f"The mask lets {_token_list(scene.tokens, blocked_rows)} read no token at all, so "
            f"{'its weights are' if len(blocked_rows) == 1 else 'their weights are'} all 0 and "
            f"{'its output is' if len(blocked_rows) == 1 else 'their outputs are'} 0."
        )
    for head, stages in zip(scene.heads, per_head, strict=True):
        label = f' in head "{head.name}"' if len(scene.heads) > 1 else ""
        inputs_finite = all(np.isfinite(stage).all() for stage in (stages.Q, stages.K, stages.V, stages.scaled))
        nan_rows = np.flatnonzero(np.isnan(stages.weights).any(axis=1)).tolist()
        if not inputs_finite:
            notes.append(
                f"Some numbers{label} grew larger than a float can hold (about 1.8e308), so parts of the "
                f"result are not numbers and show as empty. Use smaller numbers."
            )
        elif nan_rows:  # only possible without the shift: with it, finite scores always give finite weights
            notes.append(
                f"Without the shift, exp() of the scores overflowed or underflowed{label}, so the weights of "
                f"{_token_list(scene.tokens, nan_rows)} are nan (shown as empty). Turn the shift back on: "
                f"subtracting each row's largest score first gives the same weights without the overflow."
            )
    return notes
