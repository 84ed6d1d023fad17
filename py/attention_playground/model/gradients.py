"""The training pass: the forward pass for a whole batch, its loss, and the loss's gradient, written out.

    loss, grads = loss_and_gradients(params, ids, targets, config)

The forward pass is transformer.forward's, batched (a test checks the two agree to 1e-10); the backward pass
walks it in reverse, stage by stage, with the same names. A test checks every gradient against finite
differences, with each design choice switched on and off.

Why by hand and not with an automatic-differentiation library: at this size a step is a few dozen small
array operations, and tracing them costs as much as doing them (docs/model.md, "The trained model in the page",
*Train it yourself*, has the figures); written out, training in the page needs nothing but NumPy.

Shapes: B sequences of n tokens; H heads of d_head; d_model; V words. Per-head matrices are stacked
(layer, head, ...) as in transformer.param_shapes.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np

from .config import TrainConfig
from .transformer import LN_EPS, key_weights, unembedding


class Normalised(NamedTuple):
    """What a LayerNorm keeps for the backward pass."""

    x_hat: np.ndarray  # (B n, d_model): each row at mean 0, variance 1, before the gain and bias
    std: np.ndarray  # (B n, 1): each row's standard deviation (with LN_EPS)


def layer_norm_rows(rows: np.ndarray, gain: np.ndarray, bias: np.ndarray) -> tuple[np.ndarray, Normalised]:
    """transformer.layer_norm on (B n, d_model) rows, and what its backward pass needs (the same arithmetic)."""
    centred = rows - rows.mean(axis=-1, keepdims=True)
    std = np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + LN_EPS)
    x_hat = centred / std
    return x_hat * gain + bias, Normalised(x_hat, std)


def layer_norm_backward(d_out: np.ndarray, kept: Normalised, gain: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(d_rows, d_gain, d_bias) from d_out (B n, d_model). A row's mean and spread depend on all its entries, so
    every entry's gradient loses its row's mean gradient and its share along x_hat."""
    d_x_hat = d_out * gain
    d_rows = (d_x_hat - d_x_hat.mean(axis=-1, keepdims=True)
              - kept.x_hat * (d_x_hat * kept.x_hat).mean(axis=-1, keepdims=True)) / kept.std
    return d_rows, (d_out * kept.x_hat).sum(axis=0), d_out.sum(axis=0)


class LayerRun(NamedTuple):
    """What one layer's forward pass keeps for the backward pass."""

    x: np.ndarray  # (B, n, d_model): what the heads read (the residual stream, LayerNorm-ed if the model has it)
    Q: np.ndarray  # (B, H, n, d_head)
    K: np.ndarray  # (B, H, n, d_head)
    V: np.ndarray  # (B, H, n, d_head)
    pattern: np.ndarray  # (B, H, n, n): the attention weights, rows sum to 1
    z: np.ndarray  # (B, H, n, d_head): each head's blend of values
    norm: Normalised | None  # the LayerNorm's, if the model has one


def score_factor(config: TrainConfig) -> float:
    """What every score is multiplied by before the softmax: 1/√d_head, or 1 without the scaling."""
    return 1 / np.sqrt(config.d_head) if config.scale else 1.0


def softmax_rows(scores: np.ndarray) -> np.ndarray:
    """Softmax over the last axis (the row max is subtracted first, so exp never overflows). One new array:
    the rest is done in place in it (a step makes three softmaxes of ~80,000 numbers)."""
    e = scores - scores.max(axis=-1, keepdims=True)
    np.exp(e, out=e)
    e /= e.sum(axis=-1, keepdims=True)
    return e


# Every token of every sequence through one matrix product per weight, not one per head: a head's (d_model,
# d_head) matrices side by side make one (d_model, H d_head) matrix, and B sequences of n tokens make B n rows.
# Fewer, larger products cost less, with BLAS and without it (in Pyodide); the per-head views are reshapes.


#: Pyodide's NumPy has no BLAS: its matmul is then a plain loop over each output cell, summing along the shared
#: axis. For the products that sum over every token (a weight's gradient, x.T @ g), the unembedding and the
#: gradients sent back through a weight (g @ W.T), that loop walks its operands across rows; einsum's loops run
#: along them, and take 40-90% of matmul's time there (docs/model.md, "The trained model in the page", gives a
#: step's time both ways). With BLAS, natively, matmul is far faster than einsum. `without_blas` below chooses the way (default: this NumPy's).
WITHOUT_BLAS = sys.platform == "emscripten"


def _einsum_here(without_blas: bool | None) -> bool:
    return WITHOUT_BLAS if without_blas is None else without_blas


def token_sum_product(a: np.ndarray, b: np.ndarray, *, without_blas: bool | None = None) -> np.ndarray:
    """a.T @ b for two (tokens, ·) matrices: every token's outer product, summed (a weight's gradient). Without
    BLAS, einsum sums in matmul's order: equal to the bit (tests/native/test_model_forward.py)."""
    return np.einsum("ji,jk->ik", a, b) if _einsum_here(without_blas) else a.T @ b


def wide_product(a: np.ndarray, b: np.ndarray, *, without_blas: bool | None = None) -> np.ndarray:
    """a @ b where b is wide (the unembedding: every token's row times (d_model, V)); equal to the bit too."""
    return np.einsum("ij,jk->ik", a, b) if _einsum_here(without_blas) else a @ b


def rows_product(a: np.ndarray, b: np.ndarray, *, without_blas: bool | None = None) -> np.ndarray:
    """a @ b.T: every row of a against every row of b (a gradient sent back through a weight). Without BLAS,
    einsum sums in another order than matmul (differences of ~1e-13)."""
    return np.einsum("ij,kj->ik", a, b) if _einsum_here(without_blas) else a @ b.T


def side_by_side(W: np.ndarray) -> np.ndarray:
    """(H, d_model, d_head) -> (d_model, H d_head): every head's columns in one matrix."""
    return W.transpose(1, 0, 2).reshape(W.shape[1], -1)


def per_head(rows: np.ndarray, B: int, H: int) -> np.ndarray:
    """(B n, H k) -> (B, H, n, k): each head's slice of every token's row (a view)."""
    flat, width = rows.shape
    return rows.reshape(B, flat // B, H, width // H).transpose(0, 2, 1, 3)


def per_token(a: np.ndarray) -> np.ndarray:
    """(B, H, n, k) -> (B n, H k): the inverse of per_head (a copy)."""
    B, H, n, k = a.shape
    return a.transpose(0, 2, 1, 3).reshape(B * n, H * k)


class Unembedded(NamedTuple):
    """What the unembedding read, for the backward pass."""

    x_rows: np.ndarray  # (B n, d_model): the final stream, LayerNorm-ed if the model has it
    norm: Normalised | None


def normalised_rows(params: dict, config: TrainConfig, rows: np.ndarray, at: int) -> tuple[np.ndarray, Normalised | None]:
    """transformer.normalised on (B n, d_model) rows, with what the backward pass needs."""
    if not config.layer_norm:
        return rows, None
    return layer_norm_rows(rows, params["ln_gain"][at], params["ln_bias"][at])


def forward_batch(params: dict, ids: np.ndarray, config: TrainConfig, knocked_out=frozenset(),
                  with_logits: bool = True) -> tuple[np.ndarray | None, list[LayerRun], Unembedded]:
    """The forward pass on token indices (B, n): (logits (B, n, V), each layer's LayerRun, what was unembedded).
    Without `with_logits`, the logits are None: the attention patterns alone cost a fraction of the unembedding.

    `knocked_out` lists (layer, head) pairs whose output is zeroed, as in transformer.forward (evaluation
    measures knock-outs this way; training never knocks a head out)."""
    n = ids.shape[1]
    W_K = key_weights(params, config)  # (L, H, d_model, d_head): W_Q itself when tied
    factor = score_factor(config)
    # -inf above the diagonal: a token may not read the ones after it
    blocked = np.triu(np.full((n, n), -np.inf), k=1) if config.causal_mask else None  # (n, n)
    B, H, d_model = ids.shape[0], config.n_heads, config.d_model
    resid = params["W_E"][ids]  # (B, n, d_model)
    if config.positions:
        resid = resid + params["W_pos"][:n]  # (B, n, d_model)
    layers = []
    for layer in range(config.n_layers):
        x_rows, norm = normalised_rows(params, config, resid.reshape(B * n, d_model), layer)  # read by every head
        Q = per_head(x_rows @ side_by_side(params["W_Q"][layer]), B, H)  # (B, H, n, d_head)
        K = per_head(x_rows @ side_by_side(W_K[layer]), B, H)  # (B, H, n, d_head)
        V = per_head(x_rows @ side_by_side(params["W_V"][layer]), B, H)  # (B, H, n, d_head)
        scores = Q @ K.swapaxes(-1, -2)  # (B, H, n, n)
        scores *= factor
        if blocked is not None:
            scores += blocked
        pattern = softmax_rows(scores)  # (B, H, n, n)
        z = pattern @ V  # (B, H, n, d_head)
        for at, head in knocked_out:
            if at == layer:
                z[:, head] = 0.0  # the head still reads, but writes nothing
        layers.append(LayerRun(x_rows.reshape(B, n, d_model), Q, K, V, pattern, z, norm))
        # Σ over heads of z @ W_O is one product of the heads' outputs side by side with W_O's rows stacked
        W_O = params["W_O"][layer].reshape(-1, d_model)  # (H d_head, d_model)
        resid = resid + (per_token(z) @ W_O).reshape(B, n, d_model)  # (B, n, d_model)
    final_rows, final_norm = normalised_rows(params, config, resid.reshape(B * n, d_model), config.n_layers)
    if not with_logits:
        return None, layers, Unembedded(final_rows, final_norm)
    logits = wide_product(final_rows, unembedding(params, config)).reshape(B, n, -1)
    logits += params["b_U"]  # (B, n, V)
    return logits, layers, Unembedded(final_rows, final_norm)


def batched_logits(params: dict, ids: np.ndarray, config: TrainConfig, knocked_out=frozenset()) -> np.ndarray:
    """The next-word scores for a batch of token indices (B, n): (B, n, V)."""
    return forward_batch(params, ids, config, knocked_out)[0]


def cross_entropy(logits: np.ndarray, targets: np.ndarray) -> tuple[float, np.ndarray]:
    """Mean next-token cross-entropy in nats, and its gradient with respect to the logits (B, n, V)."""
    B, n, _ = logits.shape
    d_logits = softmax_rows(logits)  # (B, n, V): the probabilities, made the gradient in place below
    chosen = np.take_along_axis(d_logits, targets[..., None], axis=-1)  # (B, n, 1)
    loss = float(-np.log(chosen).mean())
    np.put_along_axis(d_logits, targets[..., None], chosen - 1, axis=-1)  # d loss / d logits = (p - one_hot(target)) / (B n)
    d_logits /= B * n
    return loss, d_logits


def loss_of(params: dict, ids: np.ndarray, targets: np.ndarray, config: TrainConfig) -> float:
    """The loss alone (what finite differences perturb)."""
    return cross_entropy(batched_logits(params, ids, config), targets)[0]


def loss_and_gradients(params: dict, ids: np.ndarray, targets: np.ndarray, config: TrainConfig) -> tuple[float, dict]:
    """The loss on a batch (ids and targets (B, n) token indices) and its gradient for every parameter."""
    B, n = ids.shape
    d_model, H, d_head = config.d_model, config.n_heads, config.d_head
    logits, layers, final = forward_batch(params, ids, config)
    loss, d_logits = cross_entropy(logits, targets)  # (B, n, V)

    flat = B * n  # the weight gradients sum over every token of every sequence
    d_logits_rows = d_logits.reshape(flat, -1)  # (B n, V)
    d_unembedding = token_sum_product(final.x_rows, d_logits_rows)  # (d_model, V)
    grads = {"b_U": d_logits_rows.sum(axis=0)}  # (V,)
    if not config.tied_embeddings:
        grads["W_U"] = d_unembedding
    if config.layer_norm:
        grads["ln_gain"], grads["ln_bias"] = np.zeros_like(params["ln_gain"]), np.zeros_like(params["ln_bias"])
    d_resid = rows_product(d_logits_rows, unembedding(params, config))  # (B n, d_model): every token's row

    def through_norm(d_read: np.ndarray, norm: Normalised | None, at: int) -> np.ndarray:
        """The gradient of what read the stream at `at`, carried back through its LayerNorm (if any) to the stream."""
        if norm is None:
            return d_read
        d_rows, d_gain, d_bias = layer_norm_backward(d_read, norm, params["ln_gain"][at])
        grads["ln_gain"][at] += d_gain
        grads["ln_bias"][at] += d_bias
        return d_rows

    d_resid = through_norm(d_resid, final.norm, config.n_layers)
    W_K = key_weights(params, config)
    factor = score_factor(config)
    for name in ("W_Q", "W_K", "W_V", "W_O"):
        grads[name] = np.zeros_like(params[name])

    def per_head_weights(rows_gradient: np.ndarray) -> np.ndarray:
        """(d_model, H d_head) -> (H, d_model, d_head): a side_by_side gradient, back in the weights' shape."""
        return rows_gradient.reshape(d_model, H, d_head).transpose(1, 0, 2)

    for layer in reversed(range(config.n_layers)):
        run = layers[layer]
        x_rows = run.x.reshape(flat, d_model)  # (B n, d_model)
        # attn_out = Σ_heads z @ W_O, added to the residual stream: its gradient is d_resid for every head
        W_O = params["W_O"][layer].reshape(H * d_head, d_model)
        grads["W_O"][layer] = token_sum_product(per_token(run.z), d_resid).reshape(H, d_head, d_model)
        d_z = per_head(rows_product(d_resid, W_O), B, H)  # (B, H, n, d_head)
        d_V = run.pattern.swapaxes(-1, -2) @ d_z  # (B, H, n, d_head)
        # softmax: d_scores = p ⊙ (d_p − Σ_row d_p ⊙ p); masked entries have p = 0, so they get none
        d_scores = d_z @ run.V.swapaxes(-1, -2)  # (B, H, n, n): d_pattern, made d_scores in place
        d_scores -= (d_scores * run.pattern).sum(axis=-1, keepdims=True)
        d_scores *= run.pattern
        d_scores *= factor
        d_Q = per_token(d_scores @ run.K)  # (B n, H d_head)
        d_K = per_token(d_scores.swapaxes(-1, -2) @ run.Q)  # (B n, H d_head)
        d_V = per_token(d_V)  # (B n, H d_head)
        grads["W_Q"][layer] = per_head_weights(token_sum_product(x_rows, d_Q))  # (H, d_model, d_head)
        grads["W_V"][layer] = per_head_weights(token_sum_product(x_rows, d_V))
        d_W_K = per_head_weights(token_sum_product(x_rows, d_K))
        if config.tied_qk:
            grads["W_Q"][layer] += d_W_K  # one matrix served as both: both uses add to its gradient
        else:
            grads["W_K"][layer] = d_W_K
        # the residual stream feeds the next layer directly and through this layer's Q, K and V
        d_read = (rows_product(d_Q, side_by_side(params["W_Q"][layer]))
                  + rows_product(d_K, side_by_side(W_K[layer]))
                  + rows_product(d_V, side_by_side(params["W_V"][layer])))  # (B n, d_model)
        d_resid = d_resid + through_norm(d_read, run.norm, layer)

    grads["W_E"] = np.zeros_like(params["W_E"])
    np.add.at(grads["W_E"], ids.reshape(flat), d_resid)  # a word's row gets its tokens' sum
    if config.tied_embeddings:
        grads["W_E"] += d_unembedding.T  # one matrix at both ends: both uses add to its gradient
    grads["W_pos"] = np.zeros_like(params["W_pos"])
    if config.positions:
        grads["W_pos"][:n] = d_resid.reshape(B, n, d_model).sum(axis=0)  # (n, d_model)
    return loss, grads
