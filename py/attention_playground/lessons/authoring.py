"""The request kind `lesson_compile`: a lesson file the page fetched (from a course's own site, or sent by its
page), checked and compiled in the page's Python by the same code as `python -m attention_playground.lessons check`
and the build.

    lesson_compile(markdown, name, files?)  ->  {"lesson": ..., "entry": ...}      the lesson, as compile.py writes it
                                            |   {"problems": [{line, step, step_id, field, message, text}, ...]}
                                            |   {"needs": ["scenes/a.json", ...]}

`name` is the file's name as the page shows it in a problem (its stem is the lesson's id). A lesson whose steps
name scene files beside it comes back first as the paths it needs, relative to the lesson; the page fetches them
and asks again with `files`, {path: text, or {"error": why it could not be fetched}}.
"""

from __future__ import annotations

from typing import Any

from ..wire import RequestError
from .checker import check_lesson, describe
from .compile import compiled
from .sources import SceneFiles

#: The most characters a lesson file may have (the longest that ships has about 40,000).
MAX_LESSON_CHARACTERS = 1_000_000


def _problem(problem, name: str) -> dict[str, Any]:
    return {"line": problem.line, "step": problem.step, "step_id": problem.step_id, "field": problem.field,
            "message": problem.message, "text": describe(problem, name)}


def lesson_compile(markdown: Any, name: Any, files: Any = None) -> dict[str, Any]:
    if not isinstance(markdown, str):
        raise RequestError("the lesson is the text of a Markdown file", "markdown")
    if len(markdown) > MAX_LESSON_CHARACTERS:
        raise RequestError(f"the lesson has {len(markdown):,} characters; a lesson has at most "
                           f"{MAX_LESSON_CHARACTERS:,}", "markdown")
    if not isinstance(name, str) or not name.strip():
        raise RequestError("name is the lesson file's name, such as my-lesson.md", "name")
    if files is not None and not isinstance(files, dict):
        raise RequestError("files maps each scene file's path to its text", "files")
    scene_files = SceneFiles(files)
    lesson = check_lesson(markdown, name, scene_files)
    if scene_files.missing:
        return {"needs": sorted(scene_files.missing)}
    if lesson.problems:
        return {"problems": [_problem(problem, name) for problem in sorted(lesson.problems)]}
    entry, body = compiled(lesson)
    return {"lesson": body, "entry": entry}


__all__ = ["MAX_LESSON_CHARACTERS", "lesson_compile"]
