"""Progress that tells the truth: a step that only shows is done once the learner has read it and moved on, not on
opening; a question is done once answered right, not when answered; the map marks an answer not right yet apart
from a right one, and says so in the step's label; the last step ends with a summary of the lesson, its counts
computed from the learner's answers."""

import re
import time

import pytest
from playwright.sync_api import expect

from lesson_helpers import answer_in_the_player, lesson_steps, page_scene, progress, right_answer, wait_for_progress, wait_for_verdict
from page_helpers import sel

pytestmark = pytest.mark.browser

LESSON = "attention-from-scratch"


def map_step(page, index):
    return page.locator(sel("lesson-map-step")).nth(index)


def test_a_step_is_done_when_read_and_left_or_answered_right_and_the_map_says_which(live_page):
    page = live_page
    steps = lesson_steps(LESSON)
    first_question = next(index for index, step in enumerate(steps) if step["question"] and step["question"]["kind"] == "compute")
    assert steps[0]["question"] is None and first_question > 0
    page.evaluate("(lesson) => window.attentionPlayground.lessons.open(lesson, { step: 0 })", LESSON)
    now = wait_for_progress(page, lambda p: p["status"] == "ready", what="the first step")
    assert now["done"] == [], "a step that only shows is not done as it opens"
    expect(map_step(page, 0)).not_to_have_class(re.compile(r"\bdone\b"))

    page.evaluate("(step) => window.attentionPlayground.lessons.open('attention-from-scratch', { step })", steps[first_question]["id"])
    now = wait_for_progress(page, lambda p: p["number"] == first_question + 1 and p["status"] == "ready", what="the question")
    assert steps[0]["id"] in now["done"], "read, and left"
    step = steps[first_question]
    right = right_answer(step["question"], page_scene(page))
    answer_in_the_player(page, now["question"], right + 1000)
    wait_for_verdict(page, step["id"], 1)
    now = progress(page)
    assert step["id"] not in now["done"], "a wrong answer does not make the step done"
    expect(map_step(page, first_question)).to_have_class(re.compile(r"\btried\b"))
    expect(map_step(page, first_question)).to_have_attribute("aria-label", f"{first_question + 1}. {step['title']} (answered, not right yet)")

    answer_in_the_player(page, now["question"], right)
    wait_for_verdict(page, step["id"], 2)
    assert step["id"] in progress(page)["done"]
    expect(map_step(page, first_question)).to_have_class(re.compile(r"\bdone later\b"))
    expect(map_step(page, first_question)).to_have_attribute("aria-label", f"{first_question + 1}. {step['title']} (right after 2 tries)")

    # Read and left: the step before, once the learner has gone on from it.
    page.locator(sel("lesson-back")).click()
    wait_for_progress(page, lambda p: p["number"] == first_question and p["status"] == "ready", what="the step before")
    page.locator(sel("lesson-next")).click()
    now = wait_for_progress(page, lambda p: p["number"] == first_question + 1 and p["status"] == "ready", what="the question again")
    before = steps[first_question - 1]
    if before["question"] is None:
        assert before["id"] in now["done"]
        expect(map_step(page, first_question - 1)).to_have_class(re.compile(r"\bdone read\b"))

    # The end: the summary, its counts from the answers given.
    page.locator(sel("lesson-map-step")).last.click()
    now = wait_for_progress(page, lambda p: p["number"] == len(steps) and p["status"] == "ready", what="the last step")
    asked = sum(1 for step in steps if step["question"])
    first_try = sum(1 for answer in now["answers"].values() if answer["first"]["correct"])
    expect(page.locator(sel("lesson-summary-count"))).to_have_text(
        f"{first_try} of {asked} questions right at the first try; {len(now['done'])} of {len(steps)} steps done.")
    expect(page.locator(sel("lesson-summary"))).to_contain_text(f"{step['title']} — right after 2 tries")
    expect(page.locator(sel("lesson-summary-download"))).to_be_visible()


def test_a_lesson_opened_over_another_at_the_same_step_number_shows_its_own_step(live_page):
    page = live_page
    for lesson in ("self-attention-lab", LESSON):
        page.evaluate("(lesson) => window.attentionPlayground.lessons.open(lesson, { step: 1 })", lesson)
        wait_for_progress(page, lambda p, lesson=lesson: p["id"] == lesson and p["status"] == "ready", what=lesson)
        first = lesson_steps(lesson)[0]
        expect(page.locator(sel("lesson-step-title"))).to_have_text(first["title"])
        expect(page.locator(sel("lesson-prose"))).to_contain_text(first["prose"][0]["children"][0]["text"][:30])


def test_a_lesson_left_while_its_step_loads_leaves_the_playground_as_it_was(page, site_url):
    """The step's scene arrives after the learner has left the lesson: the page does not show it, nor the step's
    panels, after all."""
    page.goto(f"{site_url}/")
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live", timeout=120_000)
    before = page_scene(page)
    held = []
    page.route("**/generated/presets/repeated-noun.json", lambda route: held.append(route))
    page.evaluate("() => { window.attentionPlayground.lessons.open('self-attention-lab', {step: 1}).catch(() => {}); }")  # not awaited
    wait_for_progress(page, lambda p: p["status"] == "loading", what="the step loading")
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the step's scene was asked for"
    page.evaluate("window.attentionPlayground.lessons.close()")
    held[0].continue_()
    page.wait_for_timeout(1500)  # the scene has come and been turned away
    assert page_scene(page)["tokens"] == before["tokens"]
    assert progress(page) is None
    expect(page.locator('[data-panel="controls"]')).to_be_visible()  # every panel back, not the step's few
