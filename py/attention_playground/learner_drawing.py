"""compute(scene), but with the learner's own function in place of the playground's: the heatmap drawn with it.

The heatmap can be drawn from what the learner wrote, so a bug shows up as a picture: forget the ÷√d_k
and the weights sharpen; mask after the softmax and the rows stop adding up to 1. The maths module stays
untouched: the scene is computed by `compute` as usual, and then, head by head, the weights and the output
are computed again from the same Q, K and V by the learner's function:

- for the "attention" exercise, `output, weights = attention(Q, K, V, scale=..., mask=...)`;
- for the "softmax" exercise, `weights = softmax(masked_scores)` and `output = weights @ V`.

Everything else in the result (tokens, Q, K, V, the scores before the softmax) is the module's own. Running the
learner's code, and telling its mistakes in their lines, is learner_program.py's.

The page's captions state facts about weights ("each row adds up to 1"), and a buggy function breaks them.
So the learner's weights are checked as they come back (each readable row adds up to 1, masked reads get
exactly 0, no weight is negative or nan) and every fact that does not hold is said in `drawn_with_problems`,
for the page to show in place of its usual captions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .scene_stages import ComputedHead, ComputedScene, compute_scene
from .exercises import get_exercise, signature_problem
from .learner_program import LearnerError, run_learner_code
from .wire import result_json


def _learner_matrix(value: Any, expected: tuple[int, int], what: str) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise LearnerError(f"Your {what} is not an array of numbers, so the heatmap cannot show it.") from None
    if array.shape != expected:
        shape = " × ".join(map(str, array.shape)) or "a single number"
        raise LearnerError(f"Your {what} has shape {shape}; the heatmap needs {expected[0]} × {expected[1]}.")
    return array


#: How far from 1 a row of the learner's weights may add up (rounding), and how far from 0 a masked weight may be.
ROW_SUM_TOLERANCE = 1e-6

#: The most problems listed: the first few say what is wrong; the rest would only repeat it.
MAX_PROBLEMS = 3


def weight_problems(weights: np.ndarray, mask: np.ndarray, tokens: list[str], function: str, head_label: str = "") -> list[str]:
    """Sentences naming what does not hold in the learner's weights (n, n): [] when they are proper weights.

    Checked, in this order: nan or infinite weights, negative weights, masked reads that got weight, rows
    that may read something but do not add up to 1. `mask` is True where a token may not read.
    """
    quoted = lambda i: f"\u201c{tokens[i]}\u201d"  # noqa: E731
    problems = []
    with np.errstate(all="ignore"):
        not_finite = np.argwhere(~np.isfinite(weights))
        if not_finite.size:
            i, j = (int(n) for n in not_finite[0])
            problems.append(f"Your {function}() gave {_plain(weights[i, j])} as the weight of {quoted(i)} on {quoted(j)}"
                            f"{head_label}: a weight must be a number between 0 and 1.")
        negative = np.argwhere(weights < 0)
        if negative.size:
            i, j = (int(n) for n in negative[0])
            problems.append(f"Your {function}() gave {quoted(i)} a negative weight on {quoted(j)} ({_plain(weights[i, j])})"
                            f"{head_label}: exponentials are never negative.")
        leaked = np.argwhere(mask & (np.abs(np.nan_to_num(weights, nan=1.0)) > ROW_SUM_TOLERANCE))
        if leaked.size:
            i, j = (int(n) for n in leaked[0])
            problems.append(f"Your {function}() gave {quoted(i)} weight {_plain(weights[i, j])} on {quoted(j)}, which the "
                            f"mask forbids{head_label}: a masked read must get exactly 0.")
        readable = ~np.all(mask, axis=-1)  # rows that may read at least one token
        totals = np.sum(weights, axis=-1)  # (n,)
        off = np.flatnonzero(readable & ~(np.abs(totals - 1.0) <= ROW_SUM_TOLERANCE))
        if off.size:
            i = int(off[0])
            others = f" (and {off.size - 1} other row{'s' if off.size > 2 else ''})" if off.size > 1 else ""
            problems.append(f"With your {function}(), the weights of row {quoted(i)}{others} add up to {_plain(totals[i])}, "
                            f"not 1{head_label}: the shares no longer make 100%.")
    return problems


def _plain(value: float) -> str:
    """A number as a learner reads it: 0.447, -0.2, nan."""
    value = float(value)
    return "nan" if np.isnan(value) else f"{value:.4g}"


def compute_with_learner(scene: Mapping[str, Any], exercise_id: str, code: str) -> dict[str, Any]:
    """Return {"result", "error"}: the scene computed with the learner's function, or why it could not be.

    `result` has every key of compute(scene), plus "drawn_with" (the learner's function's name) and
    "drawn_with_problems" (sentences naming what does not hold in the learner's weights, see
    `weight_problems`; [] when they are proper weights), and a note first among its "warnings", followed by
    those problems. `error` (a LearnerError's dict) is set, and `result` None, when the learner's code
    failed. A scene the module rejects raises SceneError, as compute() does.
    """
    exercise = get_exercise(exercise_id)
    computed = compute_scene(scene)
    try:
        function = run_learner_code(code).function(exercise.function)
        if (problem := signature_problem(function, exercise)) is not None:
            raise problem
        drawn_heads = [_learner_head(head, computed, exercise.function, function) for head in computed.heads]
    except LearnerError as error:
        return {"result": None, "error": error.to_dict()}
    problems = []
    for head in drawn_heads:
        label = f' in head "{head.head.name}"' if len(drawn_heads) > 1 else ""
        problems += weight_problems(head.stages.weights, computed.scene.mask, list(computed.scene.tokens), exercise.function, label)
    problems = problems[:MAX_PROBLEMS]
    note = f"Drawn with your {exercise.function}(): the weights and the output come from your code."
    drawn = computed._replace(
        heads=tuple(drawn_heads),
        output=np.concatenate([head.stages.output for head in drawn_heads], axis=1),  # (n_tokens, sum of d_v)
        warnings=[note, *problems, *computed.warnings],
    )
    result = result_json(drawn)
    result["drawn_with"] = exercise.function
    result["drawn_with_problems"] = problems
    return {"result": result, "error": None}


def _learner_head(computed_head: ComputedHead, computed: ComputedScene, name: str, function) -> ComputedHead:
    """One head with its weights and output computed by the learner's `function`, from the module's Q, K, V."""
    stages = computed_head.stages
    Q, K, V = stages.Q, stages.K, stages.V  # (n, d_k), (n, d_k), (n, d_v)
    n_tokens = Q.shape[0]
    mask = computed.scene.mask  # (n, n), True = may not read
    with np.errstate(all="ignore"):  # the learner's nan and inf show on the heatmap; no console noise
        if name == "attention":
            returned = function(Q.copy(), K.copy(), V.copy(), scale=computed.scene.scale, mask=mask.copy())
            if not isinstance(returned, (tuple, list)) or len(returned) != 2:
                raise LearnerError("Your attention() should return (output, weights) for the heatmap to use.")
            output = _learner_matrix(returned[0], (n_tokens, V.shape[1]), "output")
            weights = _learner_matrix(returned[1], (n_tokens, n_tokens), "weights")
        else:
            # The masked scores as the softmax sees them: -inf where a token may not read.
            weights = _learner_matrix(function(stages.masked.copy()), (n_tokens, n_tokens), "softmax's weights")
            output = weights @ V  # (n_tokens, d_v)
    return computed_head._replace(stages=stages._replace(weights=weights, output=output))
