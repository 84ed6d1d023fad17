"""Clicking a number cell, as a learner does between keystrokes: a first click selects the number, even in
a cell that already has focus (after Tab, Enter or Escape), so typing replaces it; a second click places the
caret. Typing "1" into a selected "0" must give 1, never 10, or the heatmap shows another experiment.
"""

import copy

import pytest
from playwright.sync_api import expect

from attention_playground import compute
from page_helpers import preset_scene, sel


# "dog bites man": X is [[1, 0], [0, 1], [1, 1]]; row 2 is "man".
MAN = 2


def open_dog_bites_man(page):
    """Open the example in the live page by its link, as when one is pasted into the address of an open page."""
    page.evaluate("location.hash = '#preset=dog-bites-man'")
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    expect(page.locator(sel("scene-title"))).to_have_text("dog bites man")
    page.wait_for_function("() => window.attentionPlayground.result()?.tokens.join(' ') === 'dog bites man'")


def x_cell(page, row, column):
    return page.locator(sel("x-cell", row=row, column=column))


def focused_cell(page):
    return page.evaluate("[document.activeElement.dataset.row, document.activeElement.dataset.column, document.activeElement.value]")


def native_weights_with(x_changes):
    scene = copy.deepcopy(preset_scene("dog-bites-man"))
    for (row, column), value in x_changes.items():
        scene["X"][row][column] = value
    return compute(scene)["heads"][0]["weights"]


def wait_for_weights(page, weights):
    page.wait_for_function(
        """(want) => {
          const got = window.attentionPlayground.result()?.heads[0].weights;
          return got && got.every((row, i) => row.every((w, j) => Math.abs(w - want[i][j]) <= 1e-12));
        }""",
        arg=weights,
    )


@pytest.mark.parametrize("key", ["Tab", "Enter", "Escape"])
def test_a_click_on_a_cell_that_kept_focus_selects_its_number(live_page, key):
    open_dog_bites_man(live_page)
    # The learner types 0 into "man, f0", then moves on with the key (Escape: stays, putting back the 1).
    x_cell(live_page, MAN, 0).click()
    live_page.keyboard.type("0")
    live_page.keyboard.press(key)
    where = {"Tab": (MAN, 1), "Enter": (MAN, 0), "Escape": (MAN, 0)}[key]
    row, column = where
    # Enter has no row below "man": the focus stays in the cell, as does Escape's.
    assert focused_cell(live_page)[:2] == [str(row), str(column)]
    before = {"Tab": "1", "Enter": "0", "Escape": "1"}[key]
    assert focused_cell(live_page)[2] == before
    # The learner looks at the heatmap: the edit (or, after Escape, its undoing) is drawn.
    wait_for_weights(live_page, native_weights_with({(MAN, 0): 1 if key == "Escape" else 0}))

    # Now a click on the cell that has focus, and "1": the number is replaced.
    x_cell(live_page, row, column).click()
    live_page.keyboard.type("1")
    assert focused_cell(live_page)[2] == "1", "typing after a click must replace the number, not add to it"
    changes = {(MAN, 0): 0 if key in ("Tab", "Enter") else 1, (row, column): 1}
    wait_for_weights(live_page, native_weights_with(changes))


def test_a_second_click_places_the_caret(live_page):
    open_dog_bites_man(live_page)
    cell = x_cell(live_page, MAN, 1)
    cell.click()  # first click: the number "1" is selected
    assert live_page.evaluate("[document.activeElement.selectionStart, document.activeElement.selectionEnd]") == [0, 1]
    box = live_page.locator("input" + sel("x-cell", row=MAN, column=1)).bounding_box()
    live_page.mouse.click(box["x"] + box["width"] - 3, box["y"] + box["height"] / 2)  # second click, at the end
    live_page.keyboard.type("5")
    assert focused_cell(live_page)[2] == "15"
    wait_for_weights(live_page, native_weights_with({(MAN, 1): 15}))
