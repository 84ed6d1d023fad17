"""compute(scene): the one call the page makes. A scene in, every stage of every head out, as plain data.

The result is JSON-ready: lists of Python floats at full precision, with None wherever a number is
not finite (a masked score, -inf, or a nan from the overflow trap). The page renders it as it comes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .attention import AttentionStages, concatenate_heads, fully_masked_rows, multi_head_stages
from .positions import position_rows
from .scene import Head, Scene, parse_scene


def json_matrix(array: np.ndarray) -> list[list[float | None]]:
    """A 2-D array as a list of rows of Python floats, with None for every inf or nan.

    tolist() converts the whole array in C; only the few non-finite cells are patched in Python.
    """
    rows = array.tolist()
    not_finite = ~np.isfinite(array)  # (n_rows, n_columns)
    if not_finite.any():
        bad_rows, bad_columns = np.nonzero(not_finite)
        for i, j in zip(bad_rows.tolist(), bad_columns.tolist(), strict=True):
            rows[i][j] = None
    return rows


def compute(scene: Mapping[str, Any]) -> dict[str, Any]:
    """Check `scene`, run every head, and return the result described in the README.

    Raises `SceneError` (with field, row and column labels) if the scene has a mistake.
    Besides the README's keys, the result has `warnings`: plain sentences about anything the
    learner should know, such as nan from the overflow trap or rows that may read nothing.
    It also echoes `positions` and gives the inputs every head read, so each number of the stages can
    be worked by hand: `X` (the scene's X plus the positions, if any) and, per head, `Wq`, `Wk`, `Wv`
    (`Wv` is None for one-hot position markers).
    """
    parsed = parse_scene(scene)
    X = parsed.X + position_rows(parsed.positions, *parsed.X.shape)  # (n_tokens, n_features)
    per_head = multi_head_stages(
        X, [(head.Wq, head.Wk, head.Wv) for head in parsed.heads],
        scale=parsed.scale, mask=parsed.mask, shift=parsed.shift,
    )
    output = concatenate_heads(per_head)  # (n_tokens, sum of d_v)
    blocked_rows = fully_masked_rows(parsed.mask)
    return {
        "title": parsed.title,
        "tokens": list(parsed.tokens),
        "features": list(parsed.features),
        "scale": parsed.scale,
        "shift": parsed.shift,
        "mask": parsed.mask.tolist(),
        "fully_masked_rows": blocked_rows,
        "heads": [_head_result(head, stages) for head, stages in zip(parsed.heads, per_head, strict=True)],
        "output": json_matrix(output),
        "output_dims": [f"{head.name}/{dim}" for head in parsed.heads for dim in head.value_dims],
        "warnings": _warnings(parsed, per_head, blocked_rows),
        "positions": parsed.positions,
        "X": json_matrix(X),
    }


def _head_result(head: Head, stages: AttentionStages) -> dict[str, Any]:
    as_lists = AttentionStages(*map(json_matrix, stages))
    return {
        "name": head.name,
        "dims": list(head.dims),
        "value_dims": list(head.value_dims),
        "d_k": len(head.dims),
        "stages": as_lists._asdict(),
        "weights": as_lists.weights,
        "Wq": json_matrix(head.Wq),
        "Wk": json_matrix(head.Wk),
        "Wv": None if head.Wv is None else json_matrix(head.Wv),
    }


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
