"""compute(scene), but with the learner's own function in place of the playground's.

The heatmap can be drawn from what the learner wrote, so a bug shows up as a picture: forget the ÷√d_k
and the weights sharpen; mask after the softmax and the rows stop adding up to 1. The maths module stays
untouched: the scene is computed by `compute` as usual, and then, head by head, the weights and the output
are computed again from the same Q, K and V by the learner's function:

- for the "attention" exercise, `output, weights = attention(Q, K, V, scale=..., mask=...)`;
- for the "softmax" exercise, `weights = softmax(masked_scores)` and `output = weights @ V`.

Everything else in the result (tokens, Q, K, V, the scores before the softmax) is the module's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .compute import compute, json_matrix
from .exercises import get_exercise
from .learner_code import LearnerError, run_learner_code


def _array(rows: Any) -> np.ndarray:
    return np.array([[np.nan if value is None else value for value in row] for row in rows], dtype=np.float64)


def _learner_matrix(value: Any, expected: tuple[int, int], what: str) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise LearnerError(f"Your {what} is not an array of numbers, so the heatmap cannot show it.") from None
    if array.shape != expected:
        shape = " × ".join(map(str, array.shape)) or "a single number"
        raise LearnerError(f"Your {what} has shape {shape}; the heatmap needs {expected[0]} × {expected[1]}.")
    return array


def compute_with_learner(scene: Mapping[str, Any], exercise_id: str, code: str) -> dict[str, Any]:
    """Return {"result", "error"}: the scene computed with the learner's function, or why it could not be.

    `result` has every key of compute(scene), plus "drawn_with" (the learner's function's name), and a
    note first among its "warnings". `error` (a LearnerError's dict) is set, and `result` None, when the
    learner's code failed. A scene the module rejects raises SceneError, as compute() does.
    """
    exercise = get_exercise(exercise_id)
    result = compute(scene)
    try:
        function = run_learner_code(code).function(exercise.function)
        heads = [_learner_head(head, result, exercise.function, function) for head in result["heads"]]
    except LearnerError as error:
        return {"result": None, "error": error.to_dict()}
    outputs = [output for output, _ in heads]
    for head, (output, weights) in zip(result["heads"], heads, strict=True):
        weights_rows = json_matrix(weights)
        head["stages"]["weights"] = weights_rows
        head["weights"] = weights_rows
        head["stages"]["output"] = json_matrix(output)
    result["output"] = json_matrix(np.concatenate(outputs, axis=1))  # (n_tokens, sum of d_v)
    result["drawn_with"] = exercise.function
    note = f"Drawn with your {exercise.function}(): the weights and the output come from your code."
    result["warnings"] = [note, *result.get("warnings", [])]
    return {"result": result, "error": None}


def _learner_head(head: dict[str, Any], result: dict[str, Any], name: str, function) -> tuple[np.ndarray, np.ndarray]:
    """(output, weights) of one head, computed by the learner's `function`."""
    Q, K, V = (_array(head["stages"][stage]) for stage in ("Q", "K", "V"))  # (n, d_k), (n, d_k), (n, d_v)
    n_tokens = Q.shape[0]
    mask = np.array(result["mask"], dtype=bool).reshape(n_tokens, n_tokens)  # True = may not read
    with np.errstate(all="ignore"):  # the learner's nan and inf show on the heatmap; no console noise
        if name == "attention":
            returned = function(Q, K, V, scale=bool(result["scale"]), mask=mask)
            if not isinstance(returned, (tuple, list)) or len(returned) != 2:
                raise LearnerError("Your attention() should return (output, weights) for the heatmap to use.")
            output = _learner_matrix(returned[0], (n_tokens, V.shape[1]), "output")
            weights = _learner_matrix(returned[1], (n_tokens, n_tokens), "weights")
        else:
            masked = np.array(_array(head["stages"]["masked"]))  # (n, n), nan where masked
            masked = np.where(mask, -np.inf, masked)  # the masked scores as the softmax sees them
            weights = _learner_matrix(function(masked), (n_tokens, n_tokens), "softmax's weights")
            output = weights @ V  # (n_tokens, d_v)
    return output, weights
