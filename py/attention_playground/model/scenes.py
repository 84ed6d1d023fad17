"""One trained head, on one sentence, as an ordinary scene: the page can show it and a learner can edit it.

The scene holds exactly what the head read and used: X is the layer's input residual stream
(`resid_pre`, one row per token, `<bos>` first; a feature per residual dimension, r0 … r31), and
Wq, Wk, Wv are the head's trained matrices. With the causal mask and ÷√d_k the playground's `compute()`
then gives exactly the weights the model computed for that head. (The head's W_O, which turns its output
back into the residual stream, is not part of a scene: a scene stops at the head's output.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..wire import json_matrix
from .analysis import head_label
from .errors import check_head, check_knocked_out
from .transformer import Model, encode, forward


def residual_names(model: Model) -> list[str]:
    """The names of the residual stream's dimensions: r0, r1, …"""
    return [f"r{i}" for i in range(model.config.d_model)]


def _head_dict(model: Model, layer: int, head: int) -> dict[str, Any]:
    p, d_head = model.params, model.config.d_head
    return {
        "name": f"layer {layer} head {head}",
        "dims": [f"q{i}" for i in range(d_head)],
        "value_dims": [f"v{i}" for i in range(d_head)],
        "Wq": json_matrix(p["W_Q"][layer, head]),
        "Wk": json_matrix(p["W_K"][layer, head]),
        "Wv": json_matrix(p["W_V"][layer, head]),
    }


def layer_scene(model: Model, words, layer: int, heads: Sequence[int] | None = None,
                knocked_out: Sequence[tuple[int, int]] = ()) -> dict[str, Any]:
    """Several heads of one layer as one scene (they read the same X); every head of the layer by default.

    `knocked_out` applies to the layers before `layer` (it changes what this layer reads). The words are
    checked first, then the layer, then the heads, so the first message is about the first mistake.
    """
    ids = encode(model, words)
    layer, _ = check_head(layer, 0, model.config.n_layers, model.config.n_heads)
    heads = list(range(model.config.n_heads)) if heads is None else list(heads)
    for head in heads:
        check_head(layer, head, model.config.n_layers, model.config.n_heads)
    pairs = check_knocked_out(knocked_out, model.config.n_layers, model.config.n_heads)
    result = forward(model, ids, pairs)
    sentence = " ".join(result.tokens[1:])
    labels = ", ".join(head_label(layer, head) for head in heads)
    return {
        "title": f"trained model, layer {layer} ({labels}): {sentence}",
        "description": (
            f"The trained model reading \"{sentence}\". X is what layer {layer} reads (its residual stream: "
            f"{'the word and position embeddings' if layer == 0 else 'the embeddings plus what the layers before added'}"
            f"); Wq, Wk and Wv are the trained matrices of {labels}. The weights are the ones the model computed."
        ),
        "tokens": result.tokens,
        "features": residual_names(model),
        "X": json_matrix(result.head_input[layer]),
        "heads": [_head_dict(model, layer, head) for head in heads],
        "mask": "causal",
        "scale": True,
    }


def head_scene(model: Model, words, layer: int, head: int,
               knocked_out: Sequence[tuple[int, int]] = ()) -> dict[str, Any]:
    """Head (layer, head) of the model on `words` as a scene dict that `compute()` accepts.

    Its tokens are `<bos>` and the words; its features are the residual dimensions; X is the layer's
    input; Wq, Wk, Wv are the head's trained matrices; mask "causal", scale true. `compute(scene)` gives
    the same weights as `run(model, words).weights[layer][head]` (to 1e-12). Raises ModelInputError
    for unknown words, an empty or too long sentence, or a head that does not exist.
    """
    return layer_scene(model, words, layer, [head], knocked_out)
