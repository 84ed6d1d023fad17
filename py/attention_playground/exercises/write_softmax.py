"""The first exercise: write softmax, and make it survive the overflow trap. Its text, solution and checks."""

from __future__ import annotations

import numpy as np

from ..attention_maths import softmax as reference_softmax
# The exercises' framework, then the helpers that write a check's message.
from .checking import LARGE_SCORES, TOLERANCE, Check, CheckFailed, Exercise, seed_scores, shared_checks
from .checking import as_array, compare_rows, number_text, require_shape, vector_text

#: The solution's function, written once: the attention exercise starts from it too.
SOFTMAX_FUNCTION = (
    "def softmax(x, axis=-1):\n"
    "    x = np.asarray(x, dtype=float)\n"
    "    # The largest score becomes 0, so exp() never overflows.\n"
    "    shifted = x - np.max(x, axis=axis, keepdims=True)\n"
    "    exponentials = np.exp(shifted)\n"
    "    return exponentials / np.sum(exponentials, axis=axis, keepdims=True)\n"
)


def check_softmax_shape(softmax, context):
    scores = seed_scores()
    weights = as_array(softmax(scores.copy()), "softmax(scores)")
    require_shape(weights, scores.shape, "softmax of a 6 × 6 matrix of scores")


def check_softmax_rows(softmax, context):
    weights = as_array(softmax(seed_scores()), "softmax(scores)")
    require_shape(weights, (6, 6), "softmax of a 6 × 6 matrix of scores")
    if np.any(weights < 0):
        raise CheckFailed("Some weights are negative; exponentials are never negative, so check the formula.")
    totals = weights.sum(axis=-1)  # (6,)
    bad = np.flatnonzero(~np.isclose(totals, 1.0, rtol=0, atol=TOLERANCE))
    if bad.size:
        i = int(bad[0])
        raise CheckFailed(
            f"Row {i + 1} adds up to {number_text(totals[i])}, not 1. Divide each exponential by the total of "
            f"its own row: sum along axis=-1 with keepdims=True, so every row is divided by its own sum."
        )


def check_softmax_matches_module(softmax, context):
    scores = seed_scores()
    mine = as_array(softmax(scores.copy()), "softmax(scores)")
    require_shape(mine, scores.shape, "softmax of a 6 × 6 matrix of scores")
    expected = reference_softmax(scores)  # (6, 6)
    difference = np.abs(mine - expected)
    if not np.all(difference <= TOLERANCE):
        i, j = np.unravel_index(np.nanargmax(np.where(np.isnan(difference), np.inf, difference)), difference.shape)
        raise CheckFailed(
            f"Entry [{i}, {j}] is {number_text(mine[i, j])}, but softmax gives {number_text(expected[i, j])}: "
            f"e to the power of each score, divided by the row's total."
        )


def check_softmax_overflow(softmax, context):
    mine = as_array(softmax(LARGE_SCORES.copy()), "softmax([1000, 1001, 1002])")
    expected = reference_softmax(LARGE_SCORES)  # (3,)
    if mine.shape != expected.shape or not np.all(np.isfinite(mine)):
        raise CheckFailed(
            f"softmax([1000, 1001, 1002]) gave {vector_text(mine)}. exp(1000) is too big for a float (it becomes "
            f"inf), and inf / inf is nan. Subtract the row's largest score before exp(): the factor cancels "
            f"in the division, so the weights stay the same, and exp() never sees more than 0."
        )
    if not np.allclose(mine, expected, rtol=0, atol=TOLERANCE):
        raise CheckFailed(f"softmax([1000, 1001, 1002]) gave {vector_text(mine)}, expected {vector_text(expected)}.")


def check_softmax_masked_scores(softmax, context):
    scores = np.array([[2.0, -np.inf, -np.inf], [1.0, 3.0, -np.inf], [0.5, 0.5, 0.5]])  # causal, 3 tokens
    mine = as_array(softmax(scores.copy()), "softmax of masked scores")
    require_shape(mine, scores.shape, "softmax of a 3 × 3 matrix")
    above = mine[np.triu_indices(3, k=1)]
    if not np.all(above == 0.0):
        raise CheckFailed(
            f"A score of -inf (a masked one) should get a weight of exactly 0, but got {vector_text(above)}. "
            f"np.exp(-np.inf) is exactly 0, so the plain formula already gives 0 there."
        )


def check_softmax_scene(softmax, context):
    for head in context.heads:
        Q, K = head["Q"], head["K"]
        scores = Q @ K.T  # (n_tokens, n_tokens)
        if context.scale:
            scores = scores / np.sqrt(Q.shape[-1])
        masked = np.where(context.mask, -np.inf, scores)  # (n_tokens, n_tokens)
        readable = ~np.all(context.mask, axis=-1)  # rows that may read something
        if not np.all(np.isfinite(scores)):
            continue  # a scene with overflowing inputs has no meaningful reference
        mine = as_array(softmax(masked.copy()), "softmax of the scene's scores")
        require_shape(mine, masked.shape, "softmax of the scene's scores")
        compare_rows(mine, reference_softmax(masked), readable, context, head["name"], "weights")



SOFTMAX = Exercise(
    id="softmax",
    title="Write softmax",
    function="softmax",
    text=(
        "Softmax turns a row of scores into weights: every weight positive, each row adding up to 1. "
        "Write softmax(x, axis=-1): raise e to the power of each score, then divide by the total along "
        "axis. Then make it survive scores like [1000, 1001, 1002]."
    ),
    starter=(
        "import numpy as np\n"
        "\n"
        "def softmax(x, axis=-1):\n"
        "    x = np.asarray(x, dtype=float)\n"
        "    # Turn each row of scores into weights that add up to 1.\n"
        "    return x\n"
    ),
    hints=(
        "np.exp(x) makes every score positive. Divide by np.sum(..., axis=axis, keepdims=True) so each row is "
        "divided by its own total (keepdims keeps the shape lined up for the division).",
        "np.exp(1000) is inf in float64. Subtracting the row's largest score first (np.max(x, axis=axis, "
        "keepdims=True)) gives exactly the same weights, because the factor e^max cancels in the division.",
    ),
    solution="import numpy as np\n\n" + SOFTMAX_FUNCTION,
    checks=(
        Check("shape", "The weights have the same shape as the scores", check_softmax_shape),
        Check("rows-sum-to-1", "Each row of weights adds up to 1", check_softmax_rows),
        Check("matches-module", "The weights agree with the playground's softmax", check_softmax_matches_module),
        Check("masked-zero", "A masked score (-inf) gets a weight of exactly 0", check_softmax_masked_scores),
        *shared_checks(overflow=check_softmax_overflow, scene=check_softmax_scene),
    ),
    called_as="softmax(x)",
    call_example=(("x",), {}),
    why_called="x is an array of scores (a row, or a matrix with one row per token), and each check compares "
               "what your softmax returns for it with the playground's weights.",
)
