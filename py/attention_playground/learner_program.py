"""Run code a learner typed, and describe what went wrong in their terms.

The learner's code runs in a fresh namespace that already has NumPy as `np`. Whatever goes wrong is
reported against *their* lines ("line 3: ZeroDivisionError: division by zero"), never against the
machinery that called their function: the frames of this package are left out of every traceback.

Nothing here limits how long the code may run: a `while True: pass` is stopped from outside (the page
interrupts Python, or ends the worker and starts a new one). An interrupt arrives as KeyboardInterrupt,
which `LearnerError.from_exception` turns into an ordinary report.

What the learner's function is then used for is the caller's business: the exercises' checks (exercises/runner.py)
and the heatmap drawn with it (learner_drawing.py).
"""

from __future__ import annotations

import contextlib
import io
import traceback
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Callable

import numpy as np

#: The file name the learner's code is compiled under; frames with this name are theirs.
LEARNER_FILENAME = "<your code>"

#: Printed output kept per run, so a print in a loop cannot flood the page.
MAX_PRINTED_CHARS = 4000


@dataclass(eq=False)
class LearnerError(Exception):
    """Something in the learner's code failed.

    `line` is the line of their code it happened on (1-based; None when no line of theirs is involved),
    `summary` is the one-line "line 3: ValueError: ..." and `traceback` lists only their frames.
    `interrupted` is True when the code was stopped from outside rather than failing on its own.
    """

    summary: str
    line: int | None = None
    traceback: str = ""
    interrupted: bool = False
    #: "error" (the code raised or does not compile), "signature" (the function cannot be called the way the
    #: checks call it: `summary` says how they call it and why), or "interrupted"
    kind: str = "error"

    def __post_init__(self) -> None:
        if self.interrupted:
            self.kind = "interrupted"

    def __str__(self) -> str:
        return self.summary

    def to_dict(self) -> dict[str, Any]:
        return {"summary": self.summary, "line": self.line, "traceback": self.traceback, "interrupted": self.interrupted,
                "kind": self.kind}

    @classmethod
    def from_exception(cls, error: BaseException, source: str) -> "LearnerError":
        """Describe `error`, raised while running or calling the learner's code `source`."""
        if isinstance(error, KeyboardInterrupt):
            return cls("Your code was stopped before it finished (it ran too long).", interrupted=True)
        name = type(error).__name__
        message = str(error)
        if isinstance(error, MemoryError):
            message = message or "the code asked for more memory than the browser can give"
        if isinstance(error, SyntaxError) and error.filename == LEARNER_FILENAME:
            line = error.lineno
            summary = f"line {line}: {name}: {error.msg}" if line else f"{name}: {error.msg}"
            text = (error.text or "").rstrip("\n")
            pointer = f"\n    {text.strip()}" if text.strip() else ""
            return cls(summary, line, f"{summary}{pointer}")
        frames = _learner_frames(error.__traceback__)
        lines = source.splitlines()
        described = f"{name}: {message}" if message else name
        if not frames:
            return cls(described, None, described)
        listing = []
        for line_number, function in frames:
            text = lines[line_number - 1].strip() if 0 < line_number <= len(lines) else ""
            where = f"line {line_number}" + (f", in {function}" if function != "<module>" else "")
            listing.append(f"  {where}\n    {text}" if text else f"  {where}")
        line = frames[-1][0]
        summary = f"line {line}: {described}"
        return cls(summary, line, "Traceback (your code only):\n" + "\n".join(listing) + f"\n{described}")


def _learner_frames(tb: TracebackType | None) -> list[tuple[int, str]]:
    """(line, function) for each frame of the learner's code, outermost first."""
    return [
        (frame.lineno, frame.name)
        for frame in traceback.extract_tb(tb)
        if frame.filename == LEARNER_FILENAME and frame.lineno is not None
    ]


@dataclass
class LearnerProgram:
    """The learner's code after it ran: the names it defined and what it printed."""

    source: str
    namespace: dict[str, Any]
    printed: str

    def function(self, name: str) -> Callable[..., Any]:
        """The function `name` the learner defined, wrapped so a failure inside it is a LearnerError."""
        found = self.namespace.get(name)
        if found is None:
            raise LearnerError(f"Your code does not define {name}(). Write it with `def {name}(...):`.")
        if not callable(found):
            raise LearnerError(f"{name} is a {type(found).__name__}, not a function. Define it with `def {name}(...):`.")

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return found(*args, **kwargs)
            except (Exception, KeyboardInterrupt) as error:  # an interrupt is reported, not raised
                raise LearnerError.from_exception(error, self.source) from None

        call.__name__ = name
        call.__wrapped__ = found  # so that inspect.signature(call) is the learner's own signature
        return call


def run_learner_code(source: str) -> LearnerProgram:
    """Run `source` (the learner's whole editor) once, and return what it defined.

    Raises LearnerError if it does not compile or fails while running (its top-level lines run now).
    """
    if not isinstance(source, str):
        raise LearnerError(f"the code must be text, not {type(source).__name__}")
    namespace: dict[str, Any] = {"__name__": "__learner__", "np": np, "numpy": np}
    printed = io.StringIO()
    try:
        code = compile(source, LEARNER_FILENAME, "exec")
        with contextlib.redirect_stdout(printed):
            exec(code, namespace)  # noqa: S102  the learner's own code, in their own browser
    except (Exception, KeyboardInterrupt) as error:
        raise LearnerError.from_exception(error, source) from None
    return LearnerProgram(source, namespace, printed.getvalue()[:MAX_PRINTED_CHARS])
