"""What the lesson tests share: a lesson's compiled steps as the page loads them, each question's answer worked
out natively by the module on the scene the page shows (never typed in), and a learner's way of answering each
kind of question through the player, as they would: clicking a word, typing a number, moving sliders, choosing."""

import json
import time
from pathlib import Path

from playwright.sync_api import expect

from attention_playground.lessons.questions import answer as judge, expected
from page_helpers import sel

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "generated" / "lessons"
#: A course's own site, as the tests play it: a lesson file of its own, with a scene file beside it.
COURSE_SITE = ROOT / "tests" / "data" / "course-site"
COURSE_LESSON = COURSE_SITE / "lessons" / "our-lesson.md"


def course_lesson():
    """The course's own lesson, compiled natively as the page compiles it: (index entry, lesson)."""
    from attention_playground.lessons.compile import compile_lesson
    from attention_playground.lessons.sources import files_beside

    return compile_lesson(COURSE_LESSON.read_text(encoding="utf-8"), COURSE_LESSON.name, files_beside(COURSE_LESSON))


def lesson_steps(lesson_id):
    """The compiled lesson's steps (generated/lessons/<id>.json, as the page fetches it; the course's own lesson,
    compiled, by its id)."""
    if lesson_id == COURSE_LESSON.stem:
        return course_lesson()[1]["steps"]
    return json.loads((LESSONS / f"{lesson_id}.json").read_text())["steps"]


def page_scene(page):
    return page.evaluate("window.attentionPlayground.getScene()")


def right_answer(question, scene):
    """The answer the module counts as right for `question` on `scene`, in the form the player submits."""
    truth = expected(question, scene)
    kind = question["kind"]
    if kind == "estimate":
        return 100 * truth["value"] if truth["unit"] == "percent" else truth["value"]
    if kind == "choose":
        return truth["value"]
    return truth["value"]


def native_verdict(question, scene, value):
    """What the module says of `value` as the answer to `question` on `scene`: {correct, score, feedback, ...}."""
    return judge(question, scene, value)


def answer_in_the_player(page, asked, value):
    """Answer the question on show as a learner does, through the player's form for its kind."""
    kind = asked["kind"]
    if kind == "pick":
        page.locator(sel("lesson-pick-word")).nth(value).click()
    elif kind in ("estimate", "compute"):
        page.locator(sel("lesson-number")).fill(f"{value:.4f}" if isinstance(value, float) else str(value))
        page.locator(sel("lesson-submit")).click()
    elif kind == "sketch":
        sliders = page.locator(sel("lesson-sketch-slider"))
        for i, share in enumerate(value):
            sliders.nth(i).fill(str(round(100 * share)))
        page.locator(sel("lesson-submit")).click()
    elif kind == "choose":
        page.locator(f'{sel("lesson-option")}[value="{value}"]').check()
        page.locator(sel("lesson-submit")).click()
    else:
        raise AssertionError(f"no form for {kind}")


def progress(page):
    """Where the learner is, as the JS API says (lessons.progress())."""
    return page.evaluate("window.attentionPlayground.lessons.progress()")


def wait_for_progress(page, holds, timeout=30.0, what="the lesson's progress"):
    """Poll the lesson's progress until `holds(progress)` (the API's calls are async, which a page-side
    wait_for_function would take as true at once)."""
    deadline = time.monotonic() + timeout
    while True:
        now = progress(page)
        if now and holds(now):
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} never came: {json.dumps(now)[:400]}")
        time.sleep(0.05)


def wait_for_verdict(page, step_id, attempts, timeout=30.0):
    """Wait until the step's answer number `attempts` is judged and drawn."""
    wait_for_progress(page, lambda now: (now["answers"].get(step_id, {}).get("attempts", 0)) >= attempts, timeout, f"answer {attempts}")
    expect(page.locator(sel("lesson-verdict"))).to_be_visible()
