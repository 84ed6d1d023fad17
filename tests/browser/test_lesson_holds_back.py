"""What a later step asks is not shown before it: the lab's first step drew the heatmap whose row of “met” its second
step asks the learner to sketch. Now the first step holds the weights back (the heatmap's cells and numbers, the bars,
saying why) while the mask's triangle still shows; once the second step is answered, the first shows them again. The
steps held, and until when, are the compiled lesson's (lessons/holds.py), not written here."""

import pytest
from playwright.sync_api import expect

from lesson_helpers import answer_in_the_player, lesson_steps, page_scene, right_answer, wait_for_progress, wait_for_verdict
from page_helpers import sel

pytestmark = pytest.mark.browser

LESSON = "self-attention-lab"


def held(page):
    return page.evaluate("document.body.dataset.lessonHolds ?? null")


def test_the_first_step_holds_back_the_weights_the_second_asks_until_it_is_answered(live_page):
    page = live_page
    first, second = lesson_steps(LESSON)[:2]
    assert {"stage": "weights", "until": second["id"]} in first["holds"]
    page.evaluate("(lesson) => window.attentionPlayground.lessons.open(lesson, { step: 1 })", LESSON)
    wait_for_progress(page, lambda p: p["step"] == first["id"] and p["status"] == "ready", what="the first step")
    assert held(page) == "weights"
    expect(page.locator(f'{sel("heatmap-panel")} .cell-value').first).to_be_hidden()
    expect(page.locator(f'{sel("bars-panel")} .bars')).to_be_hidden()
    masked = page.locator(f'{sel("heatmap-panel")} rect.cell[data-masked="true"]')
    expect(masked.first).to_be_visible()  # the mask is no weight: its triangle still shows
    assert masked.first.evaluate("(cell) => getComputedStyle(cell).fill").startswith("url(")
    assert "A later step asks about these weights" in page.evaluate(
        "getComputedStyle(document.querySelector('.bars-panel'), '::after').content")

    page.locator(sel("lesson-next")).click()
    now = wait_for_progress(page, lambda p: p["step"] == second["id"] and p["status"] == "ready", what="the second step")
    answer_in_the_player(page, now["question"], right_answer(second["question"], page_scene(page)))
    wait_for_verdict(page, second["id"], 1)
    page.locator(sel("lesson-back")).click()
    wait_for_progress(page, lambda p: p["step"] == first["id"] and p["status"] == "ready", what="the first step again")
    assert held(page) is None
    expect(page.locator(f'{sel("heatmap-panel")} .cell-value').first).to_be_visible()
    expect(page.locator(f'{sel("bars-panel")} .bars')).to_be_visible()
