"""An answer given away in words: an earlier step whose text states the number a later question asks for.

The numbers on screen are held back until they are asked (holds.py), but a step's own words cannot be: its prose,
its question, its hints, its explanation and its options are the author's. So the checker reads them, and a step
whose words state a later question's answer, as the page would print it (0.2483, 24.8%), is a mistake of the lesson,
named with both steps and the number: “Twice as loud” asks for 99.6%, which “Scaling every query” said first.

Only answers that are numbers are looked for: a word (which word “it” reads most) is named in a lesson's prose
for many other reasons. Numbers anyone would write for their own sake (0, 1, a half, 2) are not looked for either.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from .format import Problem, plain_text
from .words import number, percent, quote

#: Answers too plain to be given away by a step that writes them: 0, 1, ½, 2, 100% and so on.
PLAIN_NUMBERS = (0.0, 0.5, 1.0, 2.0, 10.0, 100.0)


def answer_as_written(question: dict[str, Any] | None, expected: dict[str, Any] | None) -> tuple[str, ...]:
    """How the page writes the number `question` asks for (four decimals, and a weight as a percent); () when its
    answer is not a number, or is one too plain to count as given away."""
    if not question or not expected or question["kind"] not in ("estimate", "compute"):
        return ()
    value = expected.get("value")
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        return ()
    if any(math.isclose(abs(value), plain, abs_tol=5e-5) for plain in PLAIN_NUMBERS):
        return ()
    written = [number(value)]
    if expected.get("unit") == "percent" or 0 < value < 1:
        written.append(percent(value))
    return tuple(written)


def words_of(step: Any) -> str:
    """Everything a step says in words: its prose, its question, hints and explanation, and its options' texts."""
    parts = [plain_text(step.step.prose)]
    for key in ("ask", "explain"):
        parts.append(plain_text(step.presentation.get(key) or []))
    for hint in step.presentation.get("hints") or []:
        parts.append(plain_text(hint))
    for option in (step.question or {}).get("options") or []:
        if isinstance(option, dict) and isinstance(option.get("text"), str):
            parts.append(option["text"])
    return "\n".join(parts)


def answers_given_away(steps: Sequence[Any]) -> list[Problem]:
    """A mistake for each step (a CheckedStep) whose words state the number a later step's question asks for."""
    problems = []
    said = [words_of(step) for step in steps]
    for later, step in enumerate(steps):
        for written in answer_as_written(step.question, step.expected):
            # The number as a whole: 24.8% is not 4.8%, nor is 10.2483 0.2483.
            as_a_whole = re.compile(rf"(?<![\d.]){re.escape(written)}(?!\d)")
            for before in range(later):
                if as_a_whole.search(said[before]):
                    earlier = steps[before].step
                    problems.append(Problem(
                        earlier.line,
                        f"its words say {written}, the answer step {step.step.number} ({step.id}) asks for: "
                        f"let {quote(step.step.title)} ask it first, and say it there, in its explanation",
                        None, earlier.number, steps[before].id))
    return problems
