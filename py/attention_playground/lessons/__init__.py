"""Lessons: guided steps through the tutorials, each asking the learner to predict before the page shows the live
numbers, then judging the answer against the truth computed from the step's scene.

Two sides, kept apart (import-linter checks it):

- judging, which runs in the page's Python (NumPy only): `questions` (read, ask, answer, check a build), what it
  computes (`measures`, `misconceptions`, `builds`), scenes made from scenes (`variants`), naming words
  (`words`), and `handlers`, the request kinds `lesson_ask`, `lesson_answer` and `lesson_check`;
- authoring, which runs where lessons are written and built, and in the page for a course's own lesson file (it needs
  markdown-it-py): `format` reads a lesson's Markdown, `sources` its scenes (a scene file beside it among them),
  `checker` finds every mistake in it, `compile` writes what the page loads, `authoring` is the page's request
  kind `lesson_compile`, and `python -m attention_playground.lessons check FILE...` checks files from the
  command line (`preview FILE.md` serves the page with it, reloaded at every save).

docs/lessons.md is the author's guide.
"""

from .mistakes import LessonInputError
from .questions import KINDS, answer, ask, check_build, expected, read_question

__all__ = ["KINDS", "LessonInputError", "answer", "ask", "check_build", "expected", "read_question"]
