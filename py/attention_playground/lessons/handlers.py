"""The lessons' three request kinds, as kinds.py declares them: a question from the page, asked, answered, or (a
build) checked against the learner's scene.

The question comes from the compiled lesson the page holds, so it is read again here like any request (the page's
copy is not trusted); a mistake in it comes back as the request's error, its field the key inside the question
("question.row"), and a mistake in the scene as the scene's own (SceneError), as for `compute`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..wire import RequestError
from .mistakes import LessonInputError
from .questions import answer as _answer
from .questions import ask, check_build

#: Payload keys a mistake's field may start with; any other field is a key inside the question.
_PAYLOAD_FIELDS = ("answer", "evidence", "scene", "start")


def _request_error(error: LessonInputError) -> RequestError:
    field = error.field
    if field is None:
        field = "question"
    elif not field.startswith(_PAYLOAD_FIELDS):
        field = f"question.{field}"
    return RequestError(error.message, field)


def _served(run: Callable[..., Any]) -> Callable[..., Any]:
    """`run` with a LessonInputError turned into the request's error."""

    def serve(**payload: Any) -> Any:
        try:
            return run(**payload)
        except LessonInputError as error:
            raise _request_error(error) from None

    serve.__name__ = run.__name__
    return serve


@_served
def lesson_ask(question: Any, scene: Any = None) -> Any:
    return ask(question, scene)


@_served
def lesson_answer(question: Any, answer: Any, scene: Any = None, evidence: Any = None) -> Any:  # noqa: A002
    return _answer(question, scene, answer, evidence)


@_served
def lesson_check(question: Any, scene: Any, start: Any) -> Any:
    return check_build(question, scene, start)
