"""Exercises: the learner writes `softmax` and `attention` themselves, and checks say whether they work.

Each exercise is plain data (text, starter code, hints, a solution and a list of checks), so adding one
means adding an entry to EXERCISES. A check is a small function that calls the learner's function on known
inputs and raises CheckFailed with a sentence a learner can act on; the checks never look at the code
itself, only at what it computes, compared with this package's own `softmax` and `attention`.

The fixed inputs are those of "Check your work" in the tutorial: six tokens of 32 features and three
32 × 32 projections drawn from `np.random.default_rng(0)`.
"""

from __future__ import annotations

import contextlib
import inspect
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .attention import attention as reference_attention
from .attention import softmax as reference_softmax
from .compute import compute_scene
from .learner_code import LEARNER_FILENAME, MAX_PRINTED_CHARS, LearnerError, run_learner_code
from .presets import DEFAULT_PRESET_ID, load_preset

#: How closely the learner's numbers must agree with the module's.
TOLERANCE = 1e-9

#: What a check says when the learner's function raised the error already shown once, above the checks.
RAISED_ABOVE = "Your code raised the error shown above."



class CheckFailed(Exception):
    """A check did not pass; the message says what was wrong and what to try."""


class UnknownExerciseError(ValueError):
    """There is no exercise with that id."""


@dataclass(frozen=True)
class Check:
    """One thing the learner's function must do. `title` is shown before running, in plain words."""

    id: str
    title: str
    run: Callable[[Callable[..., Any], "CheckContext"], None]


@dataclass(frozen=True)
class Exercise:
    """One exercise: what to write (`function`), how to start, how to get unstuck, and how it is checked.

    `called_as` is how every check calls the learner's function, written out ("attention(Q, K, V,
    scale=True, mask=None)"), with `call_example` the arguments of such a call (names stand for arrays) and
    `why_called` the reason, in a sentence: a function that cannot be called that way gets one message
    saying so, instead of the same TypeError from every check.
    """

    id: str
    title: str
    function: str
    text: str
    starter: str
    hints: tuple[str, ...]
    solution: str
    checks: tuple[Check, ...]
    called_as: str
    call_example: tuple[tuple[str, ...], dict[str, Any]]
    why_called: str

    def describe(self) -> dict[str, Any]:
        """The exercise as the page shows it (everything but the check functions)."""
        return {
            "id": self.id,
            "title": self.title,
            "function": self.function,
            "text": self.text,
            "starter": self.starter,
            "hints": list(self.hints),
            "solution": self.solution,
            "checks": [{"id": check.id, "title": check.title} for check in self.checks],
        }


@dataclass(frozen=True)
class CheckContext:
    """What the checks compare against: the current scene's per-head Q, K, V, mask and scaling."""

    heads: list[dict[str, Any]]  # {"name", "Q", "K", "V"} as float arrays
    mask: np.ndarray  # (n_tokens, n_tokens) bool, True = may not read
    scale: bool
    tokens: list[str]

    @classmethod
    def from_scene(cls, scene: Mapping[str, Any] | None) -> "CheckContext":
        """Take Q, K and V from the scene as computed, so they are exactly what the page's heatmap uses."""
        computed = compute_scene(scene if scene is not None else load_preset(DEFAULT_PRESET_ID))
        heads = [{"name": head.head.name, "Q": head.stages.Q, "K": head.stages.K, "V": head.stages.V} for head in computed.heads]
        return cls(heads, computed.scene.mask, computed.scene.scale, list(computed.scene.tokens))


# --- the tutorial's data ------------------------------------------------------------------------------------


def seed_data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q, K and V for six tokens of 32 features, as in the tutorial's "Check your work"."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 32))  # (n_tokens, n_features)
    Wq, Wk, Wv = (rng.normal(size=(32, 32)) for _ in range(3))  # (n_features, d_k) each
    return X @ Wq, X @ Wk, X @ Wv  # (6, 32) each


def causal_mask(n_tokens: int) -> np.ndarray:
    """True strictly above the diagonal: token i may not read tokens after it."""
    return np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)  # (n_tokens, n_tokens)


#: The overflow trap: exp(1000) is infinity in float64.
LARGE_SCORES = np.array([1000.0, 1001.0, 1002.0])


# --- wording ------------------------------------------------------------------------------------------------


def _number(value: float) -> str:
    return "nan" if np.isnan(value) else f"{value:.4g}"


def _vector(values: np.ndarray) -> str:
    return "[" + ", ".join(_number(float(v)) for v in np.ravel(values)) + "]"


def _as_array(value: Any, what: str) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise CheckFailed(f"{what} should be an array of numbers, but it is {type(value).__name__}.") from None
    return array


def _shape(shape: tuple[int, ...]) -> str:
    return " × ".join(str(n) for n in shape) if shape else "a single number"


def _require_shape(array: np.ndarray, expected: tuple[int, ...], what: str) -> None:
    if array.shape != expected:
        raise CheckFailed(f"{what} has shape {_shape(array.shape)}, but it should be {_shape(expected)}.")


#: The parameters of the tutorial's own attention, attention(X, Wq, Wk, Wv, causal=True): it projects inside.
TUTORIAL_PARAMETERS = ("X", "Wq", "Wk", "Wv")


def signature_problem(function: Callable[..., Any], exercise: "Exercise") -> LearnerError | None:
    """A LearnerError of kind "signature" when the checks cannot call `function` as `exercise.called_as`
    says, naming how they call it, why, and what the learner's function takes; None when they can."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None  # a builtin or something odd: let the checks find out
    args, kwargs = exercise.call_example
    try:
        signature.bind(*args, **kwargs)
        return None
    except TypeError:
        pass
    takes = f"{exercise.function}{signature}"
    names = tuple(signature.parameters)
    if names[: len(TUTORIAL_PARAMETERS)] == TUTORIAL_PARAMETERS:
        advice = (
            f"Yours takes {takes}, like the tutorial's, which projects X inside. Keep its body, but start from "
            f"Q, K and V, and take scale= and mask= (None, or a boolean matrix, True where a token may not read) "
            f"instead of causal=."
        )
    else:
        advice = f"Yours takes {takes}: give it the parameters above."
    original = inspect.unwrap(function)
    code = getattr(original, "__code__", None)
    line = code.co_firstlineno if code is not None and code.co_filename == LEARNER_FILENAME else None
    where = f"line {line}: " if line else ""
    summary = f"{where}The checks call {exercise.called_as}: {exercise.why_called} {advice}"
    return LearnerError(summary, line, summary, kind="signature")


def _unpack_pair(returned: Any) -> tuple[np.ndarray, np.ndarray]:
    """The learner's attention returns (output, weights)."""
    if not isinstance(returned, (tuple, list)) or len(returned) != 2:
        got = type(returned).__name__ if not isinstance(returned, (tuple, list)) else f"{len(returned)} things"
        raise CheckFailed(f"attention should return two things, (output, weights), but it returned {got}.")
    return _as_array(returned[0], "The output"), _as_array(returned[1], "The weights")


# --- softmax checks -----------------------------------------------------------------------------------------


def _seed_scores() -> np.ndarray:
    Q, K, _ = seed_data()
    return Q @ K.T / np.sqrt(Q.shape[-1])  # (6, 6)


def check_softmax_shape(softmax, context):
    scores = _seed_scores()
    weights = _as_array(softmax(scores.copy()), "softmax(scores)")
    _require_shape(weights, scores.shape, "softmax of a 6 × 6 matrix of scores")


def check_softmax_rows(softmax, context):
    weights = _as_array(softmax(_seed_scores()), "softmax(scores)")
    _require_shape(weights, (6, 6), "softmax of a 6 × 6 matrix of scores")
    if np.any(weights < 0):
        raise CheckFailed("Some weights are negative; exponentials are never negative, so check the formula.")
    totals = weights.sum(axis=-1)  # (6,)
    bad = np.flatnonzero(~np.isclose(totals, 1.0, rtol=0, atol=TOLERANCE))
    if bad.size:
        i = int(bad[0])
        raise CheckFailed(
            f"Row {i + 1} adds up to {_number(totals[i])}, not 1. Divide each exponential by the total of "
            f"its own row: sum along axis=-1 with keepdims=True, so every row is divided by its own sum."
        )


def check_softmax_matches_module(softmax, context):
    scores = _seed_scores()
    mine = _as_array(softmax(scores.copy()), "softmax(scores)")
    _require_shape(mine, scores.shape, "softmax of a 6 × 6 matrix of scores")
    expected = reference_softmax(scores)  # (6, 6)
    difference = np.abs(mine - expected)
    if not np.all(difference <= TOLERANCE):
        i, j = np.unravel_index(np.nanargmax(np.where(np.isnan(difference), np.inf, difference)), difference.shape)
        raise CheckFailed(
            f"Entry [{i}, {j}] is {_number(mine[i, j])}, but softmax gives {_number(expected[i, j])}: "
            f"e to the power of each score, divided by the row's total."
        )


def check_softmax_overflow(softmax, context):
    mine = _as_array(softmax(LARGE_SCORES.copy()), "softmax([1000, 1001, 1002])")
    expected = reference_softmax(LARGE_SCORES)  # (3,)
    if mine.shape != expected.shape or not np.all(np.isfinite(mine)):
        raise CheckFailed(
            f"softmax([1000, 1001, 1002]) gave {_vector(mine)}. exp(1000) is too big for a float (it becomes "
            f"inf), and inf / inf is nan. Subtract the row's largest score before exp(): the factor cancels "
            f"in the division, so the weights stay the same, and exp() never sees more than 0."
        )
    if not np.allclose(mine, expected, rtol=0, atol=TOLERANCE):
        raise CheckFailed(f"softmax([1000, 1001, 1002]) gave {_vector(mine)}, expected {_vector(expected)}.")


def check_softmax_masked_scores(softmax, context):
    scores = np.array([[2.0, -np.inf, -np.inf], [1.0, 3.0, -np.inf], [0.5, 0.5, 0.5]])  # causal, 3 tokens
    mine = _as_array(softmax(scores.copy()), "softmax of masked scores")
    _require_shape(mine, scores.shape, "softmax of a 3 × 3 matrix")
    above = mine[np.triu_indices(3, k=1)]
    if not np.all(above == 0.0):
        raise CheckFailed(
            f"A score of -inf (a masked one) should get a weight of exactly 0, but got {_vector(above)}. "
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
        mine = _as_array(softmax(masked.copy()), "softmax of the scene's scores")
        _require_shape(mine, masked.shape, "softmax of the scene's scores")
        _compare_rows(mine, reference_softmax(masked), readable, context, head["name"], "weights")


def _compare_rows(mine, expected, rows, context, head_name, what):
    difference = np.where(rows[:, None], np.abs(mine - expected), 0.0)
    difference = np.where(np.isnan(difference), np.inf, difference)
    if np.all(difference <= TOLERANCE):
        return
    i, j = np.unravel_index(np.argmax(difference), difference.shape)
    where = f" (head {head_name})" if len(context.heads) > 1 else ""
    if what == "weights":
        cell = f'"{context.tokens[i]}" reading "{context.tokens[j]}"'
    else:
        cell = f'"{context.tokens[i]}", column {j + 1}'
    raise CheckFailed(
        f"On the scene shown{where}, the {what} for {cell} are {_number(mine[i, j])} with your code but "
        f"{_number(expected[i, j])} with the playground's."
    )


# --- attention checks ---------------------------------------------------------------------------------------


def check_attention_returns_pair(attention, context):
    Q, K, V = seed_data()
    _unpack_pair(attention(Q.copy(), K.copy(), V.copy()))


def check_attention_shapes(attention, context):
    Q, K, V = seed_data()
    output, weights = _unpack_pair(attention(Q.copy(), K.copy(), V.copy()))
    _require_shape(weights, (6, 6), "The weights (one row per token asking, one column per token answering)")
    _require_shape(output, (6, 32), "The output (one row per token, one column per value dim)")


def check_attention_rows(attention, context):
    Q, K, V = seed_data()
    _, weights = _unpack_pair(attention(Q.copy(), K.copy(), V.copy(), mask=causal_mask(6)))
    _require_shape(weights, (6, 6), "The weights")
    totals = weights.sum(axis=-1)  # (6,)
    bad = np.flatnonzero(~np.isclose(totals, 1.0, rtol=0, atol=1e-6))
    if bad.size:
        i = int(bad[0])
        raise CheckFailed(
            f"With the causal mask, row {i + 1} of the weights adds up to {_number(totals[i])}, not 1. "
            f"Mask the scores (set them to -np.inf) before the softmax, not the weights after it: then each "
            f"row is normalised over the tokens it may read."
        )


def check_attention_causal_zeros(attention, context):
    Q, K, V = seed_data()
    _, weights = _unpack_pair(attention(Q.copy(), K.copy(), V.copy(), mask=causal_mask(6)))
    _require_shape(weights, (6, 6), "The weights")
    above = np.triu(np.ones((6, 6), dtype=bool), k=1)
    wrong = np.argwhere(above & (weights != 0.0))
    if wrong.size:
        i, j = (int(n) for n in wrong[0])
        raise CheckFailed(
            f"With the causal mask, weights[{i}, {j}] is {_number(weights[i, j])}, but token {i + 1} may not "
            f"read token {j + 1}, which comes after it: every weight above the diagonal must be exactly 0. "
            f"Where mask is True, set the score to -np.inf before the softmax."
        )


def check_attention_scaling(attention, context):
    Q, K, V = seed_data()
    for scale in (True, False):
        _, weights = _unpack_pair(attention(Q.copy(), K.copy(), V.copy(), scale=scale))
        _require_shape(weights, (6, 6), "The weights")
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
            f"With scale={scale}, weights[{i}, {j}] is {_number(weights[i, j])}, but it should be "
            f"{_number(expected[i, j])}: softmax(Q @ K.T{' / √d_k' if scale else ''}) row by row."
        )


def check_attention_output(attention, context):
    Q, K, V = seed_data()
    output, weights = _unpack_pair(attention(Q.copy(), K.copy(), V.copy()))
    _require_shape(output, (6, 32), "The output")
    _require_shape(weights, (6, 6), "The weights")
    if not np.allclose(output, weights @ V, rtol=0, atol=1e-6):
        raise CheckFailed("The output should be the weights times the values: weights @ V.")


def check_attention_overflow(attention, context):
    # One query, three keys whose scores are 1000, 1001 and 1002: the overflow trap.
    Q = np.array([[1.0]])  # (1, 1)
    K = LARGE_SCORES[:, None].copy()  # (3, 1)
    V = np.eye(3)  # (3, 3)
    _, weights = _unpack_pair(attention(Q, K, V, scale=False))
    expected = reference_softmax(LARGE_SCORES)[None, :]  # (1, 3)
    if weights.shape != expected.shape or not np.all(np.isfinite(weights)):
        raise CheckFailed(
            f"Scores of 1000, 1001 and 1002 gave weights {_vector(weights)}. exp(1000) overflows to inf, and "
            f"inf / inf is nan. Subtract each row's largest score before exp()."
        )
    if not np.allclose(weights, expected, rtol=0, atol=TOLERANCE):
        raise CheckFailed(f"Scores of 1000, 1001 and 1002 gave weights {_vector(weights)}, expected {_vector(expected)}.")


def check_attention_scene(attention, context):
    readable = ~np.all(context.mask, axis=-1)  # rows that may read something
    for head in context.heads:
        Q, K, V = head["Q"], head["K"], head["V"]
        if not all(np.all(np.isfinite(m)) for m in (Q, K, V)):
            continue  # a scene with overflowing inputs has no meaningful reference
        output, weights = _unpack_pair(attention(Q.copy(), K.copy(), V.copy(), scale=context.scale, mask=context.mask.copy()))
        expected_output, expected_weights = reference_attention(Q, K, V, scale=context.scale, mask=context.mask)
        _require_shape(weights, expected_weights.shape, "On the scene shown, the weights")
        _require_shape(output, expected_output.shape, "On the scene shown, the output")
        _compare_rows(weights, expected_weights, readable, context, head["name"], "weights")
        _compare_rows(output, expected_output, readable, context, head["name"], "output")


# --- the exercises ------------------------------------------------------------------------------------------

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
    solution=(
        "import numpy as np\n"
        "\n"
        "def softmax(x, axis=-1):\n"
        "    x = np.asarray(x, dtype=float)\n"
        "    # The largest score becomes 0, so exp() never overflows.\n"
        "    shifted = x - np.max(x, axis=axis, keepdims=True)\n"
        "    exponentials = np.exp(shifted)\n"
        "    return exponentials / np.sum(exponentials, axis=axis, keepdims=True)\n"
    ),
    checks=(
        Check("shape", "The weights have the same shape as the scores", check_softmax_shape),
        Check("rows-sum-to-1", "Each row of weights adds up to 1", check_softmax_rows),
        Check("matches-module", "The weights agree with the playground's softmax", check_softmax_matches_module),
        Check("masked-zero", "A masked score (-inf) gets a weight of exactly 0", check_softmax_masked_scores),
        Check("overflow", "Large scores [1000, 1001, 1002] give weights, not nan", check_softmax_overflow),
        Check("scene", "It agrees with the playground on the scene shown", check_softmax_scene),
    ),
    called_as="softmax(x)",
    call_example=(("x",), {}),
    why_called="x is an array of scores (a row, or a matrix with one row per token), and each check compares "
               "what your softmax returns for it with the playground's weights.",
)

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
        "def softmax(x, axis=-1):\n"
        "    shifted = x - np.max(x, axis=axis, keepdims=True)\n"
        "    exponentials = np.exp(shifted)\n"
        "    return exponentials / np.sum(exponentials, axis=axis, keepdims=True)\n"
        "\n"
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
        "def softmax(x, axis=-1):\n"
        "    shifted = x - np.max(x, axis=axis, keepdims=True)\n"
        "    exponentials = np.exp(shifted)\n"
        "    return exponentials / np.sum(exponentials, axis=axis, keepdims=True)\n"
        "\n"
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
        Check("overflow", "Large scores [1000, 1001, 1002] give weights, not nan", check_attention_overflow),
        Check("scene", "It agrees with the playground on the scene shown", check_attention_scene),
    ),
    called_as="attention(Q, K, V, scale=True, mask=None)",
    call_example=(("Q", "K", "V"), {"scale": True, "mask": None}),
    why_called="Q, K and V are the queries, keys and values already computed (X @ Wq, X @ Wk, X @ Wv), so that "
               "your weights can be compared with the playground's on exactly the same numbers.",
)

#: Every exercise, in the order the page offers them.
EXERCISES: dict[str, Exercise] = {exercise.id: exercise for exercise in (SOFTMAX, ATTENTION)}


def get_exercise(exercise_id: Any) -> Exercise:
    try:
        return EXERCISES[exercise_id]
    except (KeyError, TypeError):
        known = ", ".join(EXERCISES)
        raise UnknownExerciseError(f"there is no exercise {exercise_id!r}; the exercises are {known}") from None


def list_exercises() -> list[dict[str, Any]]:
    """Every exercise as the page shows it."""
    return [exercise.describe() for exercise in EXERCISES.values()]


def run_exercise(exercise_id: str, code: str, scene: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Run the learner's `code` and every check of the exercise against it.

    Returns {"exercise_id", "passed", "error", "raised", "interrupted", "printed", "checks"}: `checks` lists
    {"id", "title", "passed", "message"} in order (`passed` is None for a check that could not run).
    `error` is set (a LearnerError's dict) when no check could run: the code failed, or its function cannot
    be called the way the checks call it (kind "signature": one message saying how they call it and why).
    `raised` is the first error the learner's function raised inside a check: it is said once, there, and
    each check that raised the same error says only RAISED_ABOVE. `passed` is True only when every check
    passed. A scene the module rejects raises SceneError.
    """
    exercise = get_exercise(exercise_id)
    context = CheckContext.from_scene(scene)
    printed = io.StringIO()
    error: LearnerError | None = None
    raised: LearnerError | None = None
    results = []
    # The learner's nan and overflow are reported by the checks; NumPy's warnings would only add noise.
    with contextlib.redirect_stdout(printed), np.errstate(all="ignore"):
        try:
            program = run_learner_code(code)
            function = program.function(exercise.function)
            printed.write(program.printed)
            error = signature_problem(function, exercise)
        except LearnerError as failure:
            error, function = failure, None
        for check in exercise.checks:
            if function is None or error is not None:
                results.append({"id": check.id, "title": check.title, "passed": None, "message": "Not run."})
                continue
            try:
                check.run(function, context)
                results.append({"id": check.id, "title": check.title, "passed": True, "message": ""})
            except CheckFailed as failure:
                results.append({"id": check.id, "title": check.title, "passed": False, "message": str(failure)})
            except LearnerError as failure:
                if failure.interrupted:
                    error = failure
                    message = failure.summary
                elif raised is None or raised.summary == failure.summary:
                    raised = raised or failure
                    message = RAISED_ABOVE
                else:
                    message = failure.summary
                results.append({"id": check.id, "title": check.title, "passed": False, "message": message})
    return {
        "exercise_id": exercise.id,
        "passed": error is None and raised is None and all(result["passed"] for result in results),
        "error": error.to_dict() if error else None,
        "raised": raised.to_dict() if raised else None,
        "interrupted": bool(error and error.interrupted),
        "printed": printed.getvalue()[:MAX_PRINTED_CHARS],
        "checks": results,
    }

