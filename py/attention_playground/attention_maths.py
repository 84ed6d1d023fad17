"""Scaled dot-product attention, one stage at a time, in plain NumPy.

The whole idea fits in one line:

    Attention(Q, K, V) = softmax(Q @ K.T / sqrt(d_k)) @ V

Each token's query (what it looks for) is compared with every token's key (what it offers) by a dot
product; softmax turns each row of scores into weights that add up to 1; the weights blend the values
(what each token hands over when it is read). Rows ask, columns answer.

This module knows nothing of JSON, scenes or the browser: it takes arrays and returns arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np


class AttentionStages(NamedTuple):
    """Every intermediate result of one attention head, in the order a learner reads them."""

    Q: np.ndarray  # (n_tokens, d_k)  what each token looks for
    K: np.ndarray  # (n_tokens, d_k)  what each token offers
    V: np.ndarray  # (n_tokens, d_v)  what each token hands over when it is read
    scores: np.ndarray  # (n_tokens, n_tokens)  Q @ K.T: row asks, column answers
    scaled: np.ndarray  # (n_tokens, n_tokens)  scores / sqrt(d_k), or the scores unchanged
    masked: np.ndarray  # (n_tokens, n_tokens)  scaled, with -inf where a token may not read
    weights: np.ndarray  # (n_tokens, n_tokens)  softmax of masked: each row sums to 1 (or is all 0)
    output: np.ndarray  # (n_tokens, d_v)  weights @ V: each token's blend of the values it read


#: The names of the stages, in order. They are defined once, by the fields above; everything else
#: (the result of compute(), the page) uses them as they come from here.
STAGES: tuple[str, ...] = AttentionStages._fields

#: The mask names a scene may use besides an explicit matrix.
MASK_NAMES: tuple[str, ...] = ("none", "causal")

#: One head's projections: (Wq, Wk, Wv); Wv may be None for one-hot position markers.
HeadWeights = tuple[np.ndarray, np.ndarray, np.ndarray | None]


def softmax(x, axis: int = -1, shift: bool = True) -> np.ndarray:
    """Turn scores into weights: positive numbers that add up to 1 along `axis`.

    Softmax raises e to the power of every score, then divides by the total. With `shift=True` it
    first subtracts the largest score of each row. That changes nothing mathematically (every
    exponential is divided by the same factor, which the division cancels), but it keeps exp()
    from overflowing: exp(1000) is infinity in float64, and infinity / infinity is nan.
    `shift=False` skips the subtraction so the overflow trap can be shown on purpose; it stays
    quiet (no NumPy warnings) and simply returns the nan.

    A row whose every entry is -inf (a token that may read nothing at all) gets weights of 0
    everywhere instead of the 0 / 0 = nan that the formula would give.
    """
    x = np.asarray(x, dtype=np.float64)
    reads_nothing = np.all(x == -np.inf, axis=axis, keepdims=True)  # (..., 1, ...)
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        if shift:
            row_max = np.max(x, axis=axis, keepdims=True)
            # A row of -inf has max -inf, and -inf - (-inf) is nan: subtract 0 there instead.
            row_max = np.where(reads_nothing, 0.0, row_max)
            exponentials = np.exp(x - row_max)
        else:
            exponentials = np.exp(x)
        weights = exponentials / np.sum(exponentials, axis=axis, keepdims=True)
    return np.where(reads_nothing, 0.0, weights)


def mask_matrix(mask, n_queries: int, n_keys: int | None = None) -> np.ndarray:
    """Return the mask as a boolean matrix (n_queries, n_keys) where True means "may not read".

    `mask` is None or "none" (everyone reads everyone), "causal" (a token may not read the tokens
    after it: the strictly-upper triangle is blocked), or a boolean array of that shape.
    """
    n_keys = n_queries if n_keys is None else n_keys
    if mask is None or (isinstance(mask, str) and mask == "none"):
        return np.zeros((n_queries, n_keys), dtype=bool)
    if isinstance(mask, str):
        if mask == "causal":
            return np.triu(np.ones((n_queries, n_keys), dtype=bool), k=1)
        raise ValueError(f"unknown mask {mask!r}; expected one of {MASK_NAMES} or a boolean matrix")
    blocked = np.asarray(mask, dtype=bool)
    if blocked.shape != (n_queries, n_keys):
        raise ValueError(f"the mask has shape {blocked.shape}, expected {(n_queries, n_keys)}")
    return blocked


def fully_masked_rows(blocked: np.ndarray) -> list[int]:
    """Indices of the rows that may read no token at all (their weights and output are 0)."""
    return np.flatnonzero(np.all(blocked, axis=-1)).tolist()


def position_markers(n_tokens: int) -> np.ndarray:
    """One-hot values: token i hands over a vector with a 1 at position i and 0 elsewhere.

    With these values, each token's output is its own row of weights, so the output shows where
    the attention went.
    """
    return np.eye(n_tokens)  # (n_tokens, n_tokens)


def _stages_from_qkv(Q, K, V, scale: bool, mask, shift: bool) -> AttentionStages:
    """Run the score / scale / mask / softmax / blend steps on ready-made Q, K and V."""
    Q = np.asarray(Q, dtype=np.float64)  # (n_queries, d_k)
    K = np.asarray(K, dtype=np.float64)  # (n_keys, d_k)
    V = np.asarray(V, dtype=np.float64)  # (n_keys, d_v)
    d_k = Q.shape[-1]
    with np.errstate(over="ignore", invalid="ignore"):
        # Overflow from absurdly large inputs shows up as inf/nan in the stages (and the page says
        # so); it is not worth a NumPy warning on the console.
        scores = Q @ K.T  # (n_queries, n_keys)
        # Dot products of longer vectors spread wider, which would push softmax towards
        # all-or-nothing; dividing by sqrt(d_k) undoes that growth.
        scaled = scores / np.sqrt(d_k) if scale else scores.copy()  # (n_queries, n_keys)
        blocked = mask_matrix(mask, Q.shape[0], K.shape[0])  # (n_queries, n_keys)
        masked = np.where(blocked, -np.inf, scaled)  # (n_queries, n_keys)
        weights = softmax(masked, axis=-1, shift=shift)  # (n_queries, n_keys)
        output = weights @ V  # (n_queries, d_v)
    return AttentionStages(Q, K, V, scores, scaled, masked, weights, output)


def attention(Q, K, V, scale: bool = True, mask=None, shift: bool = True):
    """Scaled dot-product attention: returns `(output, weights)`.

    Q: (n_queries, d_k), K: (n_keys, d_k), V: (n_keys, d_v). `mask` is None, "none", "causal" or
    a boolean (n_queries, n_keys) array where True means "may not read". A query that may read no
    key at all gets weights of 0 and an output of 0.
    """
    stages = _stages_from_qkv(Q, K, V, scale, mask, shift)
    return stages.output, stages.weights


def attention_stages(X, Wq, Wk, Wv=None, scale: bool = True, mask=None, shift: bool = True) -> AttentionStages:
    """Self-attention of the tokens in X with every intermediate result kept, in STAGES order.

    X: (n_tokens, n_features); Wq, Wk: (n_features, d_k); Wv: (n_features, d_v), or None for
    one-hot position markers as values (see `position_markers`).
    """
    X = np.asarray(X, dtype=np.float64)  # (n_tokens, n_features)
    with np.errstate(over="ignore", invalid="ignore"):
        Q = X @ np.asarray(Wq, dtype=np.float64)  # (n_tokens, d_k)
        K = X @ np.asarray(Wk, dtype=np.float64)  # (n_tokens, d_k)
        V = position_markers(len(X)) if Wv is None else X @ np.asarray(Wv, dtype=np.float64)  # (n_tokens, d_v)
    return _stages_from_qkv(Q, K, V, scale, mask, shift)


def self_attention(X, Wq, Wk, Wv, scale: bool = True, causal: bool = False):
    """Attention of a sentence to itself: queries, keys and values all come from X. Returns `(output, weights)`."""
    stages = attention_stages(X, Wq, Wk, Wv, scale=scale, mask="causal" if causal else None)
    return stages.output, stages.weights


def multi_head_stages(
    X, heads: Sequence[HeadWeights], scale: bool = True, mask=None, shift: bool = True
) -> list[AttentionStages]:
    """Run several heads side by side; each head is a `(Wq, Wk, Wv)` triple with its own sizes.

    Heads share the tokens and the mask but nothing else, so each can look for something different.
    """
    return [attention_stages(X, Wq, Wk, Wv, scale=scale, mask=mask, shift=shift) for Wq, Wk, Wv in heads]


def concatenate_heads(per_head: Sequence[AttentionStages]) -> np.ndarray:
    """Put the heads' outputs side by side, column by column: (n_tokens, sum of the heads' d_v)."""
    return np.concatenate([stages.output for stages in per_head], axis=1)


def multi_head_attention(X, heads: Sequence[HeadWeights], scale: bool = True, mask=None, shift: bool = True):
    """Multi-head attention: returns `(output, weights_per_head)`.

    `output` is every head's output concatenated column by column; `weights_per_head` is a list of
    each head's (n_tokens, n_tokens) weight matrix.
    """
    per_head = multi_head_stages(X, heads, scale=scale, mask=mask, shift=shift)
    return concatenate_heads(per_head), [stages.weights for stages in per_head]
