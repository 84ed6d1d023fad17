"""One head of the English model on a text, as an ordinary scene: the page's heatmap, bars and lessons can show it.

The English model's stream is 128 wide and a scene holds at most 64 features (scene.LIMITS), so the scene's
features are not the stream's own dimensions but the 64 directions the head's queries and keys read of it: an
orthonormal basis U of the columns of [W_Q W_K] (128 × 64). X is what the head read, seen along them (X U), and
Wq, Wk are Uᵀ W_Q, Uᵀ W_K. Since X U Uᵀ W_Q = X W_Q, the scene's scores and weights are exactly the model's. Its
values (Uᵀ W_V) see the stream only along those directions, so the scene's output is not the head's: what a
lesson asks of this scene is where the head reads, never what it writes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model.analysis import head_label
from ..model.errors import check_head
from ..model.transformer import Model, forward
from ..wire import json_matrix
from .requests import encode_text, shown


def head_scene(model: Model, text: str, layer: int, head: int) -> dict[str, Any]:
    """Head (layer, head) of the English model on `text` as a scene whose weights are the model's."""
    layer, head = check_head(layer, head, model.config.n_layers, model.config.n_heads)
    pieces, ids = encode_text(text, model.config.max_words)
    result = forward(model, ids)
    p = model.params
    W_Q, W_K, W_V = p["W_Q"][layer, head], p["W_K"][layer, head], p["W_V"][layer, head]  # (d_model, d_head) each
    basis, _ = np.linalg.qr(np.concatenate([W_Q, W_K], axis=1))  # (d_model, 2 d_head): orthonormal columns
    d_head = model.config.d_head
    label = head_label(layer, head)
    return {
        "title": f"English model, {label}: {text}",
        "description": (
            f"The English model's head {label} reading “{text}”. Its features are the {basis.shape[1]} directions "
            f"its queries and keys read of the model's {model.config.d_model}-wide stream: the scores and weights "
            f"are exactly the model's; the outputs see the stream along those directions only."
        ),
        "tokens": [shown(piece) for piece in pieces],
        "features": [f"u{i}" for i in range(basis.shape[1])],
        "X": json_matrix(result.head_input[layer] @ basis),
        "heads": [{
            "name": label,
            "dims": [f"q{i}" for i in range(d_head)],
            "value_dims": [f"v{i}" for i in range(d_head)],
            "Wq": json_matrix(basis.T @ W_Q),
            "Wk": json_matrix(basis.T @ W_K),
            "Wv": json_matrix(basis.T @ W_V),
        }],
        "mask": "causal",
        "scale": True,
    }
