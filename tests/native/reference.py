"""An independent reference for the tests: attention with plain lists, loops and the math module.

It shares no code with the module under test, so an agreement between the two means something.
"""

from __future__ import annotations

import math

NEG_INF = float("-inf")


def dot(a, b):
    return sum(x * y for x, y in zip(a, b, strict=True))


def transpose(A):
    return [list(column) for column in zip(*A, strict=True)]


def matmul(A, B):
    columns = transpose(B)
    return [[dot(row, column) for column in columns] for row in A]


def softmax_row(scores):
    """Shifted softmax of one row; a row of -inf only reads nothing (all 0)."""
    finite = [s for s in scores if s != NEG_INF]
    if not finite:
        return [0.0] * len(scores)
    top = max(finite)
    exps = [0.0 if s == NEG_INF else math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def self_attention(X, Wq, Wk, Wv=None, scale=True, causal=False):
    """Returns (output, weights) as lists; Wv None means one-hot position markers."""
    n = len(X)
    Q, K = matmul(X, Wq), matmul(X, Wk)
    V = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)] if Wv is None else matmul(X, Wv)
    d_k = len(Q[0])
    weights = []
    for i in range(n):
        row = [dot(Q[i], K[j]) / (math.sqrt(d_k) if scale else 1.0) for j in range(n)]
        if causal:
            row = [NEG_INF if j > i else s for j, s in enumerate(row)]
        weights.append(softmax_row(row))
    output = [[sum(weights[i][j] * V[j][c] for j in range(n)) for c in range(len(V[0]))] for i in range(n)]
    return output, weights
