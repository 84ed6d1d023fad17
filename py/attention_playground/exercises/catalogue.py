"""Every exercise, in the order the page offers them, and how one is found or listed."""

from __future__ import annotations

from typing import Any

from .checking import Exercise, UnknownExerciseError
from .write_attention import ATTENTION
from .write_softmax import SOFTMAX

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

