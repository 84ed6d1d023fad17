"""A lesson's instructions name what the learner sees and work as written: the lab's step on building the causal
mask by hand opens with the mask on "custom", so the first click on a cell of the heatmap blocks it, as the step
says; the heatmap's caption, which states that every row adds up to 1, is hidden while a question about the
weights is open (it would give "Why every row adds up to one" away) and back once it is answered; on a phone the
mask cells' tooltip stays on screen; and a step whose words point at the worked steps has them open."""

import re

import pytest
from playwright.sync_api import expect

from lesson_helpers import answer_in_the_player, lesson_steps, page_scene, right_answer, wait_for_progress, wait_for_verdict
from page_helpers import sel

pytestmark = pytest.mark.browser


def open_step(page, lesson, step_id):
    page.evaluate("([lesson, step]) => window.attentionPlayground.lessons.open(lesson, { step })", [lesson, step_id])
    return wait_for_progress(page, lambda p: p["step"] == step_id and p["status"] == "ready", what=step_id)


def test_building_the_mask_by_hand_opens_on_custom_and_a_click_blocks_a_cell(live_page):
    step = next(step for step in lesson_steps("self-attention-lab") if step["question"] and "mask" in step["question"].get("fields", []))
    assert "click a cell of the heatmap" in " ".join(" ".join(node["text"] for node in _texts(step["prose"])).split())
    open_step(live_page, "self-attention-lab", step["id"])
    expect(live_page.locator(sel("mask-custom"))).to_be_checked()
    live_page.locator(sel("heatmap-cell", row=0, column=1)).click()
    wait_for_progress(live_page, lambda p: live_page.evaluate("window.attentionPlayground.getScene().mask")[0][1] is True,
                      what="the clicked cell blocked")


def test_the_caption_that_says_rows_add_up_to_one_waits_for_the_answer(live_page):
    steps = lesson_steps("attention-from-scratch")
    step = next(step for step in steps if step["question"] and step["question"].get("measure", {}).get("of") == "sums")
    caption = live_page.locator(f'{sel("heatmap-panel")} .heatmap-hint')
    expect(caption).to_contain_text("Each row adds up to 1")  # the playground's own caption, no lesson open
    now = open_step(live_page, "attention-from-scratch", step["id"])
    expect(caption).to_be_visible()
    expect(caption.locator(".states-answer")).to_be_hidden()
    answer_in_the_player(live_page, now["question"], right_answer(step["question"], page_scene(live_page)))
    wait_for_verdict(live_page, step["id"], 1)
    expect(caption.locator(".states-answer")).to_be_visible()
    expect(caption).to_contain_text(re.compile("^Each row adds up to 1"))


def _texts(tree):
    """Every text node of a prose tree, depth first."""
    for node in tree:
        if node.get("type") == "text":
            yield node
        for child in node.get("children", []):
            yield from _texts([child])
        for item in node.get("items", []):
            yield from _texts(item)


def test_on_a_phone_the_mask_cells_tooltip_stays_on_screen(live_page):
    live_page.set_viewport_size({"width": 390, "height": 844})
    step = next(step for step in lesson_steps("self-attention-lab") if step["question"] and "mask" in step["question"].get("fields", []))
    open_step(live_page, "self-attention-lab", step["id"])
    width = live_page.evaluate("document.documentElement.clientWidth")
    tooltip = live_page.locator(f'{sel("heatmap-panel")} .heatmap-tooltip')
    columns = len(live_page.evaluate("window.attentionPlayground.getScene().tokens"))
    for column in range(columns):
        live_page.locator(sel("heatmap-cell", row=0, column=column)).hover()
        expect(tooltip).to_be_visible()
        box = tooltip.bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= width, f"the tooltip of column {column} runs off the screen: {box}"
        spill = tooltip.evaluate("(tip) => [...tip.children].map((line) => line.scrollWidth - tip.clientWidth)")
        assert max(spill) <= 0, f"a line of the tooltip of column {column} runs past its edge: {spill}"


def test_a_step_that_shows_the_worked_steps_opens_them(live_page):
    steps = lesson_steps("attention-from-scratch")
    step = next(step for step in steps if step["panels"] and "steps" in step["panels"])
    open_step(live_page, "attention-from-scratch", step["id"])
    expect(live_page.locator(sel("step-toggle"))).to_be_checked()
    expect(live_page.locator(f'{sel("step-view")} .labelled-matrix[data-stage="Q"] table')).to_be_visible()  # the vectors its words name
    later = next(step for step in steps if step["panels"] and "steps" not in step["panels"])
    open_step(live_page, "attention-from-scratch", later["id"])
    expect(live_page.locator(sel("step-toggle"))).not_to_be_checked()
    # Left, the lesson gives the learner's own setting back: unticked, as they had it.
    live_page.evaluate("window.attentionPlayground.lessons.close()")
    expect(live_page.locator(sel("step-toggle"))).not_to_be_checked()


def test_leaving_a_lesson_gives_back_the_learners_own_show_every_step(live_page):
    live_page.locator(sel("step-toggle")).check()
    step = next(step for step in lesson_steps("attention-from-scratch") if step["panels"] and "steps" not in step["panels"])
    open_step(live_page, "attention-from-scratch", step["id"])
    expect(live_page.locator(sel("step-toggle"))).not_to_be_checked()
    live_page.evaluate("window.attentionPlayground.lessons.close()")
    expect(live_page.locator(sel("step-toggle"))).to_be_checked()
