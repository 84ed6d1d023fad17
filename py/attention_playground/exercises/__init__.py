"""Exercises: the learner writes `softmax` and `attention` themselves, and checks say whether they work.

Each exercise is one file of plain data and its checks (text, starter code, hints, a solution and a list of
checks): `write_softmax.py`, `write_attention.py`; adding one means adding a file and naming it in
`catalogue.py`. A check is a small function that calls the learner's function on known inputs and raises
CheckFailed with a sentence a learner can act on; the checks never look at the code itself, only at what it
computes, compared with this package's own `softmax` and `attention` (what they share: `checking.py`).
`runner.py` runs the learner's code and the checks.
"""

from .catalogue import EXERCISES, get_exercise, list_exercises
from .checking import (
    RAISED_ABOVE,
    TOLERANCE,
    Check,
    CheckContext,
    CheckFailed,
    Exercise,
    UnknownExerciseError,
    causal_mask,
    seed_data,
    signature_problem,
)
from .runner import run_exercise

__all__ = ["EXERCISES", "RAISED_ABOVE", "TOLERANCE", "Check", "CheckContext", "CheckFailed", "Exercise",
           "UnknownExerciseError", "causal_mask", "get_exercise", "list_exercises", "run_exercise", "seed_data",
           "signature_problem"]
