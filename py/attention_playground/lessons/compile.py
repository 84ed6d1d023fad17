"""A checked lesson as the page loads it: plain data, prose as trees, questions as the module reads them back.

    compile_lesson(text, name, files)  ->  (index entry, lesson)      LessonProblems if the checker found any mistake

The index entry (generated/lessons/index.json lists one per lesson): {id, title, source, summary, steps: [{id,
title, kind}]}, `kind` being the question's kind or null for a step that only shows.

The lesson (generated/lessons/<id>.json):

    {"format": 1, "id", "title", "source", "summary", "intro": [prose],
     "steps": [{"id", "number", "title", "prose": [prose],
                "scene": {"preset": id} | {"link": "#s=…"} | {"scene": {...}, "from"?: id or link, "file"?: its path}
                         | null (keep the scene on show: the step before it, with the learner's edits),
                "panels": [...] | null, "focus": {"word", "index"} | null, "head": n | null,
                "model": {name?, words, head, knocked_out, focus?} | null, "experiment", "exercise", "claim": id | null,
                "question": {the question as lesson_ask, lesson_answer and lesson_check take it} | null,
                "ask": [prose] | null, "explain": [prose] | null, "hints": [[prose], ...],
                "options": {option id: [inline prose]} | null (a choice's options, their Markdown as trees),
                "holds": [{"stage", "head"?, "row"?, "until"}] (the numbers a later question asks about on this
                         step's scene, a stage or one head or row of the weights, hidden until that step is answered:
                         holds.py)}]}

No expected answer is in it (every one is computed when the page asks), and no build's solution.
"""

from __future__ import annotations

from typing import Any

from .checker import CheckedLesson, check_lesson, describe
from .format import prose
from .holds import holds
from .sources import SceneFiles

#: The version of the compiled lesson's shape, for the page to check.
FORMAT = 1


class LessonProblems(ValueError):
    """A lesson that has mistakes: `lines` holds one line for each (FILE:LINE: step N (id): field: message)."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


def option_prose(question: dict[str, Any] | None) -> dict[str, list[dict[str, Any]]] | None:
    """A choice's options as the player draws them: each option's text (Markdown, like the rest of the lesson:
    "None: `<bos>` carries no meaning.") as the inline nodes of its one paragraph, by option id. An option named
    by a mistake's id alone is worded by the page when it asks (its value computed), so it has none here."""
    if not question or question.get("kind") != "choose":
        return None
    drawn = {}
    for option in question["options"]:
        if isinstance(option, dict) and isinstance(option.get("text"), str):  # not an option the page words itself
            blocks = prose(option["text"], problems=[])  # an option's text is one line: one paragraph
            drawn[option["id"]] = [node for block in blocks for node in block.get("children", [])]
    return drawn or None


def compiled(lesson: CheckedLesson) -> tuple[dict[str, Any], dict[str, Any]]:
    """The index entry and the lesson of a lesson checked without mistakes."""
    steps = []
    held = holds([(checked.id, checked.scene, checked.question) for checked in lesson.steps])
    for checked, holding in zip(lesson.steps, held, strict=True):
        question = checked.question
        settings = checked.settings
        steps.append({
            "id": checked.id,
            "number": checked.step.number,
            "title": checked.step.title,
            "prose": checked.step.prose,
            "scene": checked.reference,
            "panels": settings.get("panels"),
            "focus": settings.get("focus"),
            "head": settings.get("head"),
            "model": settings.get("model"),
            "experiment": settings.get("experiment"),
            "exercise": settings.get("exercise"),
            "claim": settings.get("claim"),
            "question": question,
            "ask": checked.presentation.get("ask"),
            "explain": checked.presentation.get("explain"),
            "hints": checked.presentation.get("hints", []),
            "options": option_prose(question),
            "holds": holding,
        })
    entry = {
        "id": lesson.id,
        "title": lesson.file.title,
        "source": lesson.source,
        "summary": lesson.summary,
        "steps": [{"id": step["id"], "title": step["title"],
                   "kind": step["question"]["kind"] if step["question"] else None} for step in steps],
    }
    body = {"format": FORMAT, "id": lesson.id, "title": lesson.file.title, "source": lesson.source,
            "summary": lesson.summary, "intro": lesson.file.intro, "steps": steps}
    return entry, body


def compile_lesson(text: str, name: str, files: SceneFiles | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Check a lesson file's text and compile it, its scene files read through `files` (sources.py); LessonProblems
    listing every mistake if it has any."""
    lesson = check_lesson(text, name, files)
    if lesson.problems:
        raise LessonProblems([describe(problem, name) for problem in sorted(lesson.problems)])
    return compiled(lesson)
