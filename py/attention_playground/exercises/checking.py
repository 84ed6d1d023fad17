"""What every exercise's checks use: the exercise's shape (`Exercise`, `Check`), what a check compares against
(`CheckContext`, the tutorial's data), how a failure is worded, and how the learner's function must be callable.

The fixed inputs are those of "Check your work" in the tutorial: six tokens of 32 features and three
32 × 32 projections drawn from `np.random.default_rng(0)`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..attention_maths import mask_matrix
from ..scene_stages import compute_scene
from ..learner_program import LEARNER_FILENAME, LearnerError
from ..presets import DEFAULT_PRESET_ID, load_preset

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


def shared_checks(overflow: Callable[[Callable[..., Any], "CheckContext"], None],
                  scene: Callable[[Callable[..., Any], "CheckContext"], None]) -> tuple[Check, Check]:
    """The two checks every exercise ends with: the overflow trap's scores give weights, not nan; and the learner's
    function agrees with the playground on the scene on screen."""
    return (Check("overflow", "Large scores [1000, 1001, 1002] give weights, not nan", overflow),
            Check("scene", "It agrees with the playground on the scene shown", scene))


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
    """True strictly above the diagonal: token i may not read tokens after it (the module's own "causal")."""
    return mask_matrix("causal", n_tokens)  # (n_tokens, n_tokens)

#: The overflow trap: exp(1000) is infinity in float64.
LARGE_SCORES = np.array([1000.0, 1001.0, 1002.0])


# --- wording ------------------------------------------------------------------------------------------------


def number_text(value: float) -> str:
    return "nan" if np.isnan(value) else f"{value:.4g}"


def vector_text(values: np.ndarray) -> str:
    return "[" + ", ".join(number_text(float(v)) for v in np.ravel(values)) + "]"


def as_array(value: Any, what: str) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise CheckFailed(f"{what} should be an array of numbers, but it is {type(value).__name__}.") from None
    return array


def shape_text(shape: tuple[int, ...]) -> str:
    return " × ".join(str(n) for n in shape) if shape else "a single number"


def require_shape(array: np.ndarray, expected: tuple[int, ...], what: str) -> None:
    if array.shape != expected:
        raise CheckFailed(f"{what} has shape {shape_text(array.shape)}, but it should be {shape_text(expected)}.")


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



# --- the scores both exercises start from -------------------------------------------------------------------


def seed_scores() -> np.ndarray:
    """The tutorial's scaled scores for its six tokens: what softmax is checked on."""
    Q, K, _ = seed_data()
    return Q @ K.T / np.sqrt(Q.shape[-1])  # (6, 6)


def compare_rows(mine, expected, rows, context, head_name, what):
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
        f"On the scene shown{where}, the {what} for {cell} are {number_text(mine[i, j])} with your code but "
        f"{number_text(expected[i, j])} with the playground's."
    )
