"""A lesson's step opened by a link, the weights hidden until the learner answers, and the lesson found again
after a reload at the step the learner left, with their answers: what a learner who follows a link from a course,
and comes back later, meets. Saved edits of a scene a step shows are put aside quietly, not announced as replaced."""

import re

import pytest
from playwright.sync_api import expect

from lesson_helpers import lesson_steps, native_verdict, page_scene, progress, wait_for_progress, wait_for_verdict
from page_helpers import NOUN_DIM, PRONOUN, sel, type_into, wait_live
from sharing_helpers import wait_saved

pytestmark = pytest.mark.browser

LESSON = "attention-from-scratch"


def test_a_step_opens_by_link_and_the_lesson_resumes_after_a_reload(page, site_url):
    steps = lesson_steps(LESSON)
    pick = next(index for index, step in enumerate(steps) if step["question"] and step["question"]["kind"] == "pick")
    step = steps[pick]
    page.goto(f"{site_url}/#lesson={LESSON}&step={pick + 1}")
    wait_live(page)
    now = wait_for_progress(page, lambda p: p["number"] == pick + 1 and p["status"] == "ready", what="the linked step")
    expect(page.locator(sel("lesson-counter"))).to_contain_text(f"Step {pick + 1} of {len(steps)}")
    expect(page.locator(sel("lesson-step-title"))).to_have_text(step["title"])
    assert page.url.endswith(f"#lesson={LESSON}&step={step['id']}"), page.url  # the address names the step on show
    # The question comes before the numbers: the heatmap's values and the bars are hidden until the learner picks.
    assert page.evaluate("document.body.dataset.lessonHides") == "weights"
    expect(page.locator('[data-testid="heatmap-panel"] .cell-value').first).to_be_hidden()
    expect(page.locator('[data-testid="bars-panel"] .bars')).to_be_hidden()
    question, scene = step["question"], page_scene(page)
    wrong = 0 if native_verdict(question, scene, 0)["correct"] is False else 2
    page.locator(sel("lesson-pick-word")).nth(wrong).click()
    wait_for_verdict(page, step["id"], 1)
    expect(page.locator(sel("lesson-feedback"))).to_have_text(native_verdict(question, scene, wrong)["feedback"])
    expect(page.locator('[data-testid="heatmap-panel"] .cell-value').first).to_be_visible()
    page.locator(sel("lesson-next")).click()
    wait_for_progress(page, lambda p: p["number"] == pick + 2 and p["status"] == "ready", what="the next step")
    # The address follows the step on show: a bookmark of it opens this step.
    assert page.url.endswith(f"#lesson={LESSON}&step={steps[pick + 1]['id']}"), page.url

    page.reload()
    wait_live(page)
    resumed = wait_for_progress(page, lambda p: p["status"] == "ready", what="the lesson, resumed")
    assert resumed["id"] == LESSON and resumed["number"] == pick + 2, "back at the step the learner left"
    assert resumed["answers"][step["id"]]["answer"] == wrong and resumed["answers"][step["id"]]["correct"] is False
    assert step["id"] not in resumed["done"], "answered wrongly: not done"
    expect(page.locator(f'{sel("lesson-map-step")}.done')).to_have_count(len(resumed["done"]))
    expect(page.locator(sel("lesson-map-step")).nth(pick)).to_have_class(re.compile(r"\btried\b"))
    # Back at the step answered: the reveal is there, as it was left.
    page.locator(sel("lesson-back")).click()
    wait_for_progress(page, lambda p: p["number"] == pick + 1 and p["status"] == "ready", what="the step answered")
    expect(page.locator(sel("lesson-verdict"))).to_have_text("✗ Not quite.")
    assert now["question"] == progress(page)["question"]


def test_a_steps_own_scene_keeps_saved_edits_aside_without_a_banner(live_page):
    # The learner's saved edits of the default example ("it" and "cat")...
    page = live_page
    type_into(page, page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "3")
    wait_saved(page)
    # ...then a step whose scene is that example, unedited: the edits are put aside, and nothing says the lesson
    # "replaced" them (outside a lesson a link that does so says it: test_links.py).
    step = "double-every-number-in-wq"
    page.evaluate("([lesson, step]) => window.attentionPlayground.lessons.open(lesson, { step })", [LESSON, step])
    try:
        # Kept, not lost: the save line (out of sight in a lesson) offers them back.
        expect(page.locator(sel("restore-kept"))).to_have_js_property("hidden", False)
        assert page.evaluate("window.attentionPlayground.getScene()")["heads"][0]["Wq"][PRONOUN][NOUN_DIM] != 3
        expect(page.locator(sel("notice-text"))).to_be_hidden()
        assert page.url.endswith(f"#lesson={LESSON}&step={step}"), page.url
    finally:
        page.evaluate("window.attentionPlayground.lessons.close()")
    assert "#" not in page.url  # closed: the address is the playground's again
