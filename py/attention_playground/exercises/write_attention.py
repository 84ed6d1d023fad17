"""The second exercise: write attention(Q, K, V, scale, mask), starting from the softmax of the first. Its text,
solution and checks."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..attention_maths import attention as reference_attention
from ..attention_maths import softmax as reference_softmax
# The exercises' framework, then the helpers that write a check's message.
from .checking import LARGE_SCORES, TOLERANCE, Check, CheckFailed, Exercise, causal_mask, seed_data, shared_checks
from .checking import as_array, compare_rows, number_text, require_shape, vector_text
from .write_softmax import SOFTMAX_FUNCTION


def unpack_pair(returned: Any) -> tuple[np.ndarray, np.ndarray]:
    """The learner's attention returns (output, weights)."""
    if not isinstance(returned, (tuple, list)) or len(returned) != 2:
        got = type(returned).__name__ if not isinstance(returned, (tuple, list)) else f"{len(returned)} things"
        raise CheckFailed(f"attention should return two things, (output, weights), but it returned {got}.")
    return as_array(returned[0], "The output"), as_array(returned[1], "The weights")



def check_attention_returns_pair(attention, context):
    Q, K, V = seed_data()
    unpack_pair(attention(Q.copy(), K.copy(), V.copy()))


def check_attention_shapes(attention, context):
    Q, K, V = seed_data()
    output, weights = unpack_pair(attention(Q.copy(), K.copy(), V.copy()))
    require_shape(weights, (6, 6), "The weights (one row per token asking, one column per token answering)")
    require_shape(output, (6, 32), "The output (one row per token, one column per value dim)")


def _causal_weights(attention):
    """The learner's weights on the lab's 6 tokens with the causal mask, checked to be 6 × 6."""
    Q, K, V = seed_data()
    _, weights = unpack_pair(attention(Q.copy(), K.copy(), V.copy(), mask=causal_mask(6)))
    require_shape(weights, (6, 6), "The weights")
    return weights  # (6, 6)


def check_attention_rows(attention, context):
    weights = _causal_weights(attention)
    totals = weights.sum(axis=-1)  # (6,)
    bad = np.flatnonzero(~np.isclose(totals, 1.0, rtol=0, atol=1e-6))
    if bad.size:
        i = int(bad[0])
        raise CheckFailed(
            f"With the causal mask, row {i + 1} of the weights adds up to {number_text(totals[i])}, not 1. "
            f"Mask the scores (set them to -np.inf) before the softmax, not the weights after it: then each "
            f"row is normalised over the tokens it may read."
        )


def check_attention_causal_zeros(attention, context):
    weights = _causal_weights(attention)
    above = np.triu(np.ones((6, 6), dtype=bool), k=1)
    wrong = np.argwhere(above & (weights != 0.0))
    if wrong.size:
        i, j = (int(n) for n in wrong[0])
        raise CheckFailed(
            f"With the causal mask, weights[{i}, {j}] is {number_text(weights[i, j])}, but token {i + 1} may not "
            f"read token {j + 1}, which comes after it: every weight above the diagonal must be exactly 0. "
            f"Where mask is True, set the score to -np.inf before the softmax."
        )


def check_attention_scaling(attention, context):
    Q, K, V = seed_data()
    for scale in (True, False):
        _, weights = unpack_pair(attention(Q.copy(), K.copy(), V.copy(), scale=scale))
        require_shape(weights, (6, 6), "The weights")
        _, expected = reference_attention(Q, K, V, scale=scale)
        if np.allclose(weights, expected, rtol=0, atol=TOLERANCE):
            continue
        _, other = reference_attention(Q, K, V, scale=not scale)
        if scale and np.allclose(weights, other, rtol=0, atol=TOLERANCE):
            raise CheckFailed(
                "With scale=True your weights are those of unscaled scores. Divide the scores by √d_k "
                "(np.sqrt(Q.shape[-1])) before the softmax."
            )
        if not scale and np.allclose(weights, other, rtol=0, atol=TOLERANCE):
            raise CheckFailed("With scale=False the scores should not be divided by √d_k, but yours are.")
        i, j = np.unravel_index(np.argmax(np.abs(np.nan_to_num(weights - expected, nan=np.inf))), weights.shape)
        raise CheckFailed(
            f"With scale={scale}, weights[{i}, {j}] is {number_text(weights[i, j])}, but it should be "
            f"{number_text(expected[i, j])}: softmax(Q @ K.T{' / √d_k' if scale else ''}) row by row."
        )


def check_attention_output(attention, context):
    Q, K, V = seed_data()
    output, weights = unpack_pair(attention(Q.copy(), K.copy(), V.copy()))
    require_shape(output, (6, 32), "The output")
    require_shape(weights, (6, 6), "The weights")
    if not np.allclose(output, weights @ V, rtol=0, atol=1e-6):
        raise CheckFailed("The output should be the weights times the values: weights @ V.")


def check_attention_overflow(attention, context):
    # One query, three keys whose scores are 1000, 1001 and 1002: the overflow trap.
    Q = np.array([[1.0]])  # (1, 1)
    K = LARGE_SCORES[:, None].copy()  # (3, 1)
    V = np.eye(3)  # (3, 3)
    _, weights = unpack_pair(attention(Q, K, V, scale=False))
    expected = reference_softmax(LARGE_SCORES)[None, :]  # (1, 3)
    if weights.shape != expected.shape or not np.all(np.isfinite(weights)):
        raise CheckFailed(
            f"Scores of 1000, 1001 and 1002 gave weights {vector_text(weights)}. exp(1000) overflows to inf, and "
            f"inf / inf is nan. Subtract each row's largest score before exp()."
        )
    if not np.allclose(weights, expected, rtol=0, atol=TOLERANCE):
        raise CheckFailed(f"Scores of 1000, 1001 and 1002 gave weights {vector_text(weights)}, expected {vector_text(expected)}.")


def check_attention_scene(attention, context):
    readable = ~np.all(context.mask, axis=-1)  # rows that may read something
    for head in context.heads:
        Q, K, V = head["Q"], head["K"], head["V"]
        if not all(np.all(np.isfinite(m)) for m in (Q, K, V)):
            continue  # a scene with overflowing inputs has no meaningful reference
        output, weights = unpack_pair(attention(Q.copy(), K.copy(), V.copy(), scale=context.scale, mask=context.mask.copy()))
        expected_output, expected_weights = reference_attention(Q, K, V, scale=context.scale, mask=context.mask)
        require_shape(weights, expected_weights.shape, "On the scene shown, the weights")
        require_shape(output, expected_output.shape, "On the scene shown, the output")
        compare_rows(weights, expected_weights, readable, context, head["name"], "weights")
        compare_rows(output, expected_output, readable, context, head["name"], "output")



ATTENTION = Exercise(
    id="attention",
    title="Write attention",
    function="attention",
    text=(
        "Write attention(Q, K, V, scale=True, mask=None) returning (output, weights). Score every query "
        "against every key (Q @ K.T), divide by √d_k when scale is True, set the scores where mask is True "
        "to -inf (mask is None or a boolean matrix, True meaning \"may not read\"), softmax each row, and "
        "blend the values with the weights."
    ),
    starter=(
        "import numpy as np\n"
        "\n"
        + SOFTMAX_FUNCTION
        + "\n"
        "def attention(Q, K, V, scale=True, mask=None):\n"
        "    scores = Q @ K.T  # (n_tokens, n_tokens): row asks, column answers\n"
        "    # Scale, mask, softmax, then blend the values.\n"
        "    weights = scores\n"
        "    output = weights @ V\n"
        "    return output, weights\n"
    ),
    hints=(
        "d_k is Q.shape[-1]. With scale=True, divide the scores by np.sqrt(d_k) before the softmax.",
        "np.where(mask, -np.inf, scores) puts -inf wherever a token may not read; exp(-inf) is exactly 0, "
        "so those weights come out exactly 0 and each row still adds up to 1.",
        "The output is weights @ V: each token's blend of the values it read.",
    ),
    solution=(
        "import numpy as np\n"
        "\n"
        + SOFTMAX_FUNCTION
        + "\n"
        "def attention(Q, K, V, scale=True, mask=None):\n"
        "    scores = Q @ K.T  # (n_tokens, n_tokens)\n"
        "    if scale:\n"
        "        scores = scores / np.sqrt(Q.shape[-1])\n"
        "    if mask is not None:\n"
        "        scores = np.where(mask, -np.inf, scores)\n"
        "    weights = softmax(scores, axis=-1)  # each row adds up to 1\n"
        "    output = weights @ V  # (n_tokens, d_v)\n"
        "    return output, weights\n"
    ),
    checks=(
        Check("returns-pair", "It returns two things, (output, weights)", check_attention_returns_pair),
        Check("shapes", "On 6 tokens of 32 dims: weights are 6 × 6, the output 6 × 32", check_attention_shapes),
        Check("rows-sum-to-1", "Each row of weights adds up to 1, even with the causal mask", check_attention_rows),
        Check("causal-zeros", "The causal mask leaves exact zeros above the diagonal", check_attention_causal_zeros),
        Check("scaling", "Scores are divided by √d_k exactly when scale is True", check_attention_scaling),
        Check("output", "The output is the weights times the values", check_attention_output),
        *shared_checks(overflow=check_attention_overflow, scene=check_attention_scene),
    ),
    called_as="attention(Q, K, V, scale=True, mask=None)",
    call_example=(("Q", "K", "V"), {"scale": True, "mask": None}),
    why_called="Q, K and V are the queries, keys and values already computed (X @ Wq, X @ Wk, X @ Wv), so that "
               "your weights can be compared with the playground's on exactly the same numbers.",
)

