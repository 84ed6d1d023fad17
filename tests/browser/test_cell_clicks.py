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


def open_dog_bites_man(page, site_url):
    page.goto(f"{site_url}/#preset=dog-bites-man")
    page.evaluate("window.attentionPlayground.ready")
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    expect(page.locator(sel("scene-title"))).to_have_text("dog bites man")


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
def test_a_click_on_a_cell_that_kept_focus_selects_its_number(page, site_url, key):
    open_dog_bites_man(page, site_url)
    # The learner types 0 into "man, f0", then moves on with the key (Escape: stays, putting back the 1).
    x_cell(page, MAN, 0).click()
    page.keyboard.type("0")
    page.keyboard.press(key)
    where = {"Tab": (MAN, 1), "Enter": (MAN, 0), "Escape": (MAN, 0)}[key]
    row, column = where
    # Enter has no row below "man": the focus stays in the cell, as does Escape's.
    assert focused_cell(page)[:2] == [str(row), str(column)]
    before = {"Tab": "1", "Enter": "0", "Escape": "1"}[key]
    assert focused_cell(page)[2] == before
    # The learner looks at the heatmap: the edit (or, after Escape, its undoing) is drawn.
    wait_for_weights(page, native_weights_with({(MAN, 0): 1 if key == "Escape" else 0}))

    # Now a click on the cell that has focus, and "1": the number is replaced.
    x_cell(page, row, column).click()
    page.keyboard.type("1")
    assert focused_cell(page)[2] == "1", "typing after a click must replace the number, not add to it"
    changes = {(MAN, 0): 0 if key in ("Tab", "Enter") else 1, (row, column): 1}
    wait_for_weights(page, native_weights_with(changes))


def test_a_second_click_places_the_caret(page, site_url):
    open_dog_bites_man(page, site_url)
    cell = x_cell(page, MAN, 1)
    cell.click()  # first click: the number "1" is selected
    assert page.evaluate("[document.activeElement.selectionStart, document.activeElement.selectionEnd]") == [0, 1]
    box = page.locator("input" + sel("x-cell", row=MAN, column=1)).bounding_box()
    page.mouse.click(box["x"] + box["width"] - 3, box["y"] + box["height"] / 2)  # second click, at the end
    page.keyboard.type("5")
    assert focused_cell(page)[2] == "15"
    wait_for_weights(page, native_weights_with({(MAN, 1): 15}))
