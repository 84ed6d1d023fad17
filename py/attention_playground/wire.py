"""The boundary between the module's arrays and the page: a computed scene as plain data, or packed.

`compute_scene` (compute.py) keeps every stage as a NumPy array. Here, and only here, those arrays become what
crosses to the page:

- `result_json(computed)`: the JSON-ready dict the README describes ("What compute(scene) returns"): lists of
  Python floats at full precision, with None wherever a number is not finite (a masked score, -inf, a nan from
  the overflow trap);
- `packed_result(computed)`: the same dict with every float matrix replaced by a descriptor
  {"$matrix": [offset, rows, cols]}, and the matrices themselves as one little-endian float64 buffer. For 64
  tokens, writing tens of thousands of floats as decimal text costs Python several times more than computing
  them; copying them as bytes costs almost nothing. The format is entry.py's `handle_packed`.

Both are made by one function (`_result`), so the two forms cannot drift apart: they differ only in what a
matrix becomes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # only for the annotations: compute.py imports this module
    from .compute import ComputedScene

#: The key of the descriptor that stands in a packed result for a matrix shipped as bytes.
MATRIX_KEY = "$matrix"


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


def _result(computed: ComputedScene, matrix: Callable[[np.ndarray], Any]) -> dict[str, Any]:
    """The README's result dict, each float matrix written by `matrix`."""
    scene = computed.scene
    heads = []
    for computed_head in computed.heads:
        head, stages = computed_head.head, computed_head.stages
        written = {name: matrix(array) for name, array in stages._asdict().items()}
        heads.append({
            "name": head.name,
            "dims": list(head.dims),
            "value_dims": list(head.value_dims),
            "d_k": len(head.dims),
            "stages": written,
            "weights": written["weights"],  # the same matrix as stages.weights, for readers who want only it
            "Wq": matrix(head.Wq),
            "Wk": matrix(head.Wk),
            "Wv": None if head.Wv is None else matrix(head.Wv),
        })
    return {
        "title": scene.title,
        "tokens": list(scene.tokens),
        "features": list(scene.features),
        "scale": scene.scale,
        "shift": scene.shift,
        "mask": scene.mask.tolist(),
        "fully_masked_rows": list(computed.fully_masked_rows),
        "heads": heads,
        "output": matrix(computed.output),
        "output_dims": [f"{head.name}/{dim}" for head in scene.heads for dim in head.value_dims],
        "warnings": list(computed.warnings),
        "positions": scene.positions,
        "X": matrix(computed.X),
    }


def result_json(computed: ComputedScene) -> dict[str, Any]:
    """The computed scene as plain data: the result described in the README."""
    return _result(computed, json_matrix)


class _MatrixPacker:
    """Collects float matrices into one float64 buffer and hands out a descriptor for each."""

    def __init__(self) -> None:
        self.blocks: list[np.ndarray] = []
        self.size = 0

    def pack(self, array: np.ndarray) -> dict[str, list[int]]:
        """The descriptor of a 2-D array; its values are appended to the buffer."""
        values = np.asarray(array, dtype=np.float64)  # (rows, cols)
        if values.ndim != 2:
            raise ValueError(f"a matrix to pack must be 2-D, got shape {values.shape}")
        rows, cols = values.shape
        descriptor = {MATRIX_KEY: [self.size, rows, cols]}
        self.blocks.append(values.ravel())  # (rows * cols,)
        self.size += rows * cols
        return descriptor

    def data(self) -> bytes:
        """Every matrix packed so far, one after another, as little-endian float64."""
        if not self.blocks:
            return b""
        return np.concatenate(self.blocks).astype("<f8", copy=False).tobytes()  # (size,) as bytes


def packed_result(computed: ComputedScene) -> tuple[dict[str, Any], bytes]:
    """The result dict with its float matrices replaced by descriptors, and the buffer that holds them.

    Where the plain result has None (a value that is not finite), the buffer holds that value (nan, ±inf);
    the reader turns every such value back into None, and so gets exactly `result_json`'s dict.
    """
    packer = _MatrixPacker()
    return _result(computed, packer.pack), packer.data()
