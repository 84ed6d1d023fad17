"""What a later step asks is not shown before it. The lab's first step drew the heatmap whose row of “met” its second
step asks the learner to sketch; the lab's trained scene (steps 9 to 12) asks about one row of head 0, another row
of head 0, every row of head 3 and one row of head 2, and step 9's reveal showed them all: the second “the” at 1.000
on “fox”, step 10's answer. Now each step holds back the rows and heads a later question asks about, wherever they
show (the heatmap's cells and numbers, the bars, the heads side by side), and shows the rest; once that question is
answered, they show. What is held, and until when, is the compiled lesson's (lessons/holds.py), not written here."""

import pytest
from playwright.sync_api import expect

from lesson_helpers import answer_in_the_player, lesson_steps, page_scene, right_answer, wait_for_progress, wait_for_verdict
from page_helpers import sel

pytestmark = pytest.mark.browser

LESSON = "self-attention-lab"
HIDDEN_FILL = "var(--hidden-cell)"


def shown_rows(page, head_selector, row):
    """For the cells of `row` in the element `head_selector` finds: how many of their numbers are visible, of how
    many (a cell hidden by a style sheet is `visibility: hidden`)."""
    return page.evaluate("""([selector, row]) => {
      const cells = [...document.querySelectorAll(`${selector} :is(text.cell-value, td)[data-row="${row}"]`)]
        .filter((cell) => !cell.classList.contains("masked-symbol") && cell.textContent.trim() !== "×");
      return [cells.filter((cell) => getComputedStyle(cell).visibility === "visible").length, cells.length];
    }""", [head_selector, row])


def heatmap_fill_hidden(page, row, scope=".heatmap-panel .heatmap-wrap:not(.compact)"):
    """Whether the unmasked cells of `row` (every row if None) of the heatmap `scope` finds (the big one unless said)
    are filled with the held colour, every one of them."""
    return page.evaluate("""([row, scope]) => {
      const probe = document.createElement("div");
      probe.style.color = "var(--hidden-cell)";
      document.body.append(probe);
      const hidden = getComputedStyle(probe).color;
      probe.remove();
      const inRow = row === null ? "" : `[data-row="${row}"]`;
      const cells = [...document.querySelectorAll(`${scope} rect.cell${inRow}:not([data-masked="true"])`)];
      return cells.length > 0 && cells.every((cell) => getComputedStyle(cell).fill === hidden);
    }""", [row, scope])


def open_step(page, step, number, what):
    page.evaluate("([lesson, number]) => window.attentionPlayground.lessons.open(lesson, { step: number })", [LESSON, number])
    return wait_for_progress(page, lambda p: p["step"] == step["id"] and p["status"] == "ready", what=what)


def answer_right(page, step, now):
    answer_in_the_player(page, now["question"], right_answer(step["question"], page_scene(page)))
    wait_for_verdict(page, step["id"], 1)


def test_the_first_step_holds_back_the_row_the_second_asks_until_it_is_answered(live_page):
    page = live_page
    first, second = lesson_steps(LESSON)[:2]
    [hold] = [hold for hold in first["holds"] if hold["until"] == second["id"]]
    row = hold["row"]
    assert (hold["stage"], hold["head"]) == ("weights", 0)
    open_step(page, first, 1, "the first step")
    # Until the player is on the page, the whole stage is held in the row's place; then only the row.
    page.wait_for_function("() => document.body.dataset.lessonHolds === undefined")
    page.wait_for_function("(row) => document.querySelectorAll(`.heatmap-panel text.cell-value[data-row='${row}']`).length > 0", arg=row)
    visible, cells = shown_rows(page, '.heatmap-panel[data-head="0"]', row)
    assert cells > 0 and visible == 0, "the row the second step asks to sketch is hidden"
    assert heatmap_fill_hidden(page, row)
    other_visible, other_cells = shown_rows(page, ".heatmap-panel", row + 1)
    assert other_visible == other_cells > 0, "the other rows show"
    masked = page.locator(f'{sel("heatmap-panel")} rect.cell[data-masked="true"][data-row="{row}"]')
    expect(masked.first).to_be_visible()  # the mask is no weight: its triangle still shows
    assert masked.first.evaluate("(cell) => getComputedStyle(cell).fill").startswith("url(")

    page.locator(sel("lesson-next")).click()
    now = wait_for_progress(page, lambda p: p["step"] == second["id"] and p["status"] == "ready", what="the second step")
    answer_right(page, second, now)
    page.locator(sel("lesson-back")).click()
    wait_for_progress(page, lambda p: p["step"] == first["id"] and p["status"] == "ready", what="the first step again")
    visible, cells = shown_rows(page, ".heatmap-panel", row)
    assert visible == cells > 0, "answered, the row shows on the first step too"
    assert not heatmap_fill_hidden(page, row)


def test_the_trained_scene_shows_each_answer_and_holds_the_rows_and_heads_the_next_steps_ask(live_page):
    page = live_page
    steps = lesson_steps(LESSON)
    number = next(i for i, step in enumerate(steps) if step["id"] == "a-trained-model-on-a-repeated-noun") + 1
    trained = steps[number - 1]
    holds = {hold["until"]: hold for hold in trained["holds"]}
    early, sink, weight_one = (steps[number + k] for k in range(3))
    assert set(holds) == {early["id"], sink["id"], weight_one["id"]}, "the next three questions on this scene are held"
    assert holds[sink["id"]].get("row") is None, "the sink's question is about every row of its head"

    now = open_step(page, trained, number, "the trained scene's first step")
    answer_right(page, trained, now)
    the_two = holds[early["id"]]
    fox_two = holds[weight_one["id"]]  # the second “fox”: the row this step asked about in head 0, later in head 2
    # Its own row of head 0 shows, with its answer; the row the next step asks about does not.
    page.wait_for_function("() => document.querySelector('.heatmap-panel')?.dataset.head === '0'")
    visible, cells = shown_rows(page, '.heatmap-panel[data-head="0"]', fox_two["row"])
    assert visible == cells > 0, "the row step 9 asked about shows once answered"
    visible, cells = shown_rows(page, '.heatmap-panel[data-head="0"]', the_two["row"])
    assert cells > 0 and visible == 0, "the second “the”, which the next step asks about, is held"
    assert heatmap_fill_hidden(page, the_two["row"])
    # The heads' thumbnails above the heatmap: the same parts held, the rest drawn.
    assert heatmap_fill_hidden(page, the_two["row"], '.head-thumb[data-head="0"]')
    assert not heatmap_fill_hidden(page, fox_two["row"], '.head-thumb[data-head="0"]')
    assert heatmap_fill_hidden(page, None, '.head-thumb[data-head="3"]'), "every row of head 3, before the sink's question"
    assert heatmap_fill_hidden(page, fox_two["row"], '.head-thumb[data-head="2"]')
    assert not heatmap_fill_hidden(page, None, '.head-thumb[data-head="1"]'), "nothing of head 1 is asked"
    # The heads side by side: all of head 3 held, one row of head 2, the rest shown.
    expect(page.locator(sel("multi-head"))).to_be_visible()
    page.wait_for_function("() => document.querySelectorAll('.multi-head-panel .labelled-matrix[data-head=\"3\"] td[data-row]').length > 0")
    for row in range(len(page_scene(page)["tokens"])):
        visible, _ = shown_rows(page, '.multi-head-panel .labelled-matrix[data-head="3"]', row)
        assert visible == 0, f"row {row} of head 3 shows before the sink's question"
    visible, cells = shown_rows(page, '.multi-head-panel .labelled-matrix[data-head="2"]', fox_two["row"])
    assert cells > 0 and visible == 0, "the row of head 2 a later step asks about is held"
    visible, cells = shown_rows(page, '.multi-head-panel .labelled-matrix[data-head="2"]', the_two["row"])
    assert visible == cells > 0, "the rest of head 2 shows"

    # The next step, answered: its row shows now.
    page.locator(sel("lesson-next")).click()
    now = wait_for_progress(page, lambda p: p["step"] == early["id"] and p["status"] == "ready", what="one word early")
    answer_right(page, early, now)
    visible, cells = shown_rows(page, '.heatmap-panel[data-head="0"]', the_two["row"])
    assert visible == cells > 0, "answered, the second “the” shows"
