"""Positional encoding: telling attention where each token stands.

Attention compares tokens by their features only, so "dog bites man" and "man bites dog" give each
word the same output, just in another row. Adding a different vector to each position's row of X
breaks that symmetry: the same word at another position now has other numbers, so its query, key
and value change with where it stands.

The sinusoidal encoding of the original Transformer gives position `pos` and feature pair `i` the
numbers

    PE[pos, 2i]     = sin(pos / 10000^(2i / d))
    PE[pos, 2i + 1] = cos(pos / 10000^(2i / d))

where d is the number of features: each pair of features is a clock ticking at its own speed, fast
for the first features and slow for the last, so every position gets its own pattern.
"""

from __future__ import annotations

import numpy as np

#: The encodings a scene's "positions" key may name. "none" adds nothing.
POSITION_ENCODINGS: tuple[str, ...] = ("none", "sinusoidal")

#: The base of the clock speeds: feature pair i turns 10000^(2i / d) times slower than the first pair.
BASE = 10000.0


def sinusoidal_positions(n_tokens: int, n_features: int) -> np.ndarray:
    """The sinusoidal encoding (n_tokens, n_features): row `pos` is added to the features of token `pos`.

    Even columns hold sines, odd columns cosines of the same angle; with an odd number of features
    the last column is a sine without its cosine partner.
    """
    positions = np.arange(n_tokens, dtype=np.float64)[:, None]  # (n_tokens, 1)
    pair = np.arange(n_features) // 2  # (n_features,)  the pair each feature belongs to
    speeds = BASE ** (-2.0 * pair / max(n_features, 1))  # (n_features,)
    angles = positions * speeds  # (n_tokens, n_features)
    is_even = np.arange(n_features) % 2 == 0  # (n_features,)
    return np.where(is_even, np.sin(angles), np.cos(angles))  # (n_tokens, n_features)


def position_rows(encoding: str, n_tokens: int, n_features: int) -> np.ndarray:
    """What to add to X for `encoding` (one of POSITION_ENCODINGS): zeros for "none"."""
    if encoding == "none":
        return np.zeros((n_tokens, n_features))  # (n_tokens, n_features)
    if encoding == "sinusoidal":
        return sinusoidal_positions(n_tokens, n_features)  # (n_tokens, n_features)
    raise ValueError(f"unknown positional encoding {encoding!r}; expected one of {POSITION_ENCODINGS}")
