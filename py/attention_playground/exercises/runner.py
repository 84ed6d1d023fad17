"""Running an exercise: the learner's code, then every check against it, each result said once."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..learner_program import MAX_PRINTED_CHARS, LearnerError, run_learner_code
from .catalogue import get_exercise
from .checking import RAISED_ABOVE, CheckContext, CheckFailed, Exercise, signature_problem


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
    # The learner's nan and overflow are reported by the checks; NumPy's warnings would only add noise.
    with contextlib.redirect_stdout(printed), np.errstate(all="ignore"):
        try:
            program = run_learner_code(code)
            function = program.function(exercise.function)
            printed.write(program.printed)
            error = signature_problem(function, exercise)
        except LearnerError as failure:
            error, function = failure, None
        results, error, raised = _run_checks(exercise, function, context, error)
    return {
        "exercise_id": exercise.id,
        "passed": error is None and raised is None and all(result["passed"] for result in results),
        "error": error.to_dict() if error else None,
        "raised": raised.to_dict() if raised else None,
        "interrupted": bool(error and error.interrupted),
        "printed": printed.getvalue()[:MAX_PRINTED_CHARS],
        "checks": results,
    }


def _run_checks(exercise: Exercise, function: Any, context: CheckContext, error: LearnerError | None
                ) -> tuple[list[dict[str, Any]], LearnerError | None, LearnerError | None]:
    """Every check's result in order, the error that stopped the run (if any) and the first error the learner's
    function raised (said once; a later check that raised the same says only RAISED_ABOVE)."""
    raised: LearnerError | None = None
    results = []
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
    return results, error, raised
