"""A lesson's text read once as an editor would: every step's prose, question, options, hints and explanation, and
what the module says back to a right answer and to wrong ones, has no doubled punctuation, no stop followed by more
punctuation (“(nan).”.”), no word said twice in a row, no double space and no raw backtick (Markdown's code marks are
drawn as code, never shown)."""

import re
from pathlib import Path

import pytest

from attention_playground.lessons.checker import check_lesson
from attention_playground.lessons.compile import compile_lesson
from attention_playground.lessons.questions import answer, expected

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ("attention-from-scratch", "self-attention-lab")
SLIPS = {
    "doubled punctuation": re.compile(r"([.,;:!?])\1"),
    "a stop followed by more punctuation": re.compile(r"[.!?][”’)]?[.:;,]"),
    "a word twice in a row": re.compile(r"\b(\w+) \1\b", re.IGNORECASE),
    "a double space": re.compile(r"  "),
    "a raw backtick": re.compile(r"`"),
}


def prose_texts(tree):
    """The text a prose tree shows as words (code is drawn as code)."""
    if isinstance(tree, dict):
        if tree.get("type") == "code":
            return
        if tree.get("type") == "text":
            yield tree["text"]
        for value in tree.values():
            yield from prose_texts(value)
    elif isinstance(tree, list):
        for value in tree:
            yield from prose_texts(value)


def answers_to_try(question, scene):
    """A right answer and some wrong ones, in the form the player sends."""
    truth = expected(question, scene)
    kind = question["kind"]
    if kind == "choose":
        ids = [option["id"] if isinstance(option, dict) else option for option in question.get("options") or truth.get("options") or []]
        return [truth["value"], *(option for option in ids if option != truth["value"])]
    if kind == "sketch":
        return [truth["value"], [1] * len(scene["tokens"])]
    value = 100 * truth["value"] if kind == "estimate" and truth.get("unit") == "percent" else truth["value"]
    if kind == "pick":
        return [value, 0, len(scene["tokens"]) - 1]
    return [value, 2 * value + 1, -value - 3]


@pytest.mark.parametrize("lesson_id", LESSONS)
def test_every_word_of_a_lesson_and_its_feedback_read_cleanly(lesson_id):
    text = (ROOT / "lessons" / f"{lesson_id}.md").read_text(encoding="utf-8")
    _, lesson = compile_lesson(text, lesson_id)
    slips = []
    for step, checked in zip(lesson["steps"], check_lesson(text, lesson_id).steps, strict=True):
        words = list(prose_texts([step["prose"], step["ask"], step["explain"], step["hints"], step["options"]]))
        question = checked.question
        if question and question["kind"] != "build" and question.get("measure", {}).get("of") != "claim":
            words += [answer(question, checked.scene, tried)["feedback"] for tried in answers_to_try(question, checked.scene)]
        slips += [f"{step['id']}: {slip}: …{found.string[max(0, found.start() - 30):found.end() + 10]}…"
                  for words_read in words for slip, pattern in SLIPS.items() if (found := pattern.search(words_read))]
    assert slips == []
