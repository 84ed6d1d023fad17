"""A lesson's step embedded in a course page of another origin (`?embed&lesson=ID&step=STEP`): the course page
drives it by postMessage (lessonsOpen, lessonsAnswer, lessonsProgress) and hears each answer as an event
({type: "attention-playground:answer", lesson, step, kind, answer, expected, correct, score, attempts}); a frame
that allows only another origin tells this page nothing."""

import json

import pytest
from playwright.sync_api import expect

from course_pages import COURSE_SCRIPT, course_page
from lesson_helpers import lesson_steps, native_verdict
from page_helpers import preset_scene, sel

pytestmark = pytest.mark.browser

LESSON = "attention-from-scratch"

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title>
<link rel="icon" href="data:,"></head><body>
<iframe id="allowed" src="{site}/index.html?embed&lesson={lesson}&step={step}&origins={me}" width="900" height="700"></iframe>
<iframe id="refused" src="{site}/index.html?embed&lesson={lesson}&step={step}&origins=https://elsewhere.example" width="900" height="300"></iframe>
<script src="course.js"></script></body></html>"""

def test_an_embedded_step_posts_its_answers_to_the_course_page_and_to_no_other_origin(page, site_url):
    steps = lesson_steps(LESSON)
    pick = next(index for index, step in enumerate(steps) if step["question"] and step["question"]["kind"] == "pick")
    step = steps[pick]
    files = lambda me: {"/": PAGE.format(site=site_url, lesson=LESSON, step=step["id"], me=me), "/course.js": COURSE_SCRIPT}  # noqa: E731
    with course_page(files) as lesson_page:
        page.goto(f"{lesson_page}/")
        allowed = page.frame_locator("#allowed")
        expect(allowed.locator(sel("lesson-step-title"))).to_have_text(step["title"], timeout=120_000)
        expect(page.frame_locator("#refused").locator(sel("lesson-step-title"))).to_have_text(step["title"], timeout=120_000)
        expect(allowed.locator(sel("lesson-pick-word")).first).to_be_visible(timeout=120_000)  # the question is asked
        # The frame of another origin than ours answers nothing; ours answers, and says where the learner is.
        refused = page.evaluate("window.askOrNothing('refused', 'lessonsProgress')")
        assert refused == "no reply"
        reply = page.evaluate("window.ask('allowed', 'lessonsProgress', {})")
        assert reply["ok"] and reply["result"]["step"] == step["id"] and reply["result"]["question"]["kind"] == "pick"
        # The learner answers in the frame; the course page hears the answer, with the page's own verdict.
        frame = page.frame_locator("#allowed")
        frame.locator(sel("lesson-pick-word")).nth(1).click()
        page.wait_for_function("window.heard.some((e) => e.data.type === 'attention-playground:answer')")
        # And the course page answers again, by postMessage, as a script of its own would.
        answered = page.evaluate("window.ask('allowed', 'lessonsAnswer', {answer: 5})")
        assert answered["ok"] is True
        page.wait_for_function("window.heard.filter((e) => e.data.type === 'attention-playground:answer').length === 2")
        heard = page.evaluate("window.heard")
    scene = preset_scene(steps[pick]["scene"]["preset"]) if steps[pick]["scene"] else None
    answers = [event["data"] for event in heard if event["data"]["type"] == "attention-playground:answer"]
    assert all(event["frame"] == "allowed" for event in heard), "nothing from the frame that allows another origin"
    for attempts, (event, value) in enumerate(zip(answers, (1, 5)), start=1):
        verdict = native_verdict(step["question"], scene, value)
        assert {key: event[key] for key in ("lesson", "step", "kind", "answer", "correct", "attempts")} == {
            "lesson": LESSON, "step": step["id"], "kind": "pick", "answer": value, "correct": verdict["correct"], "attempts": attempts}
        assert event["score"] == pytest.approx(verdict["score"]) and event["expected"] == json.loads(json.dumps(verdict["expected"]))
    assert answered["result"]["correct"] == answers[1]["correct"]
