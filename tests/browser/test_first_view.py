"""The first view, as a learner meets it: the numbers to change beside the grid they move (on a laptop's screen
and on a phone), why the first grid's rows are even said over the grid, the lede's three words defined, the
sharing and file controls folded under one button, and a grid wider than a phone that says it scrolls sideways."""

import re

import pytest
from playwright.sync_api import expect

from page_helpers import sel, type_into

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
PRONOUN, ANIMAL_DIM = 2, 0  # the default example's Wq row that "it" asks with, and its first dim
IT = 7  # the row of "it" in the default example's heatmap

#: The eight controls that share the scene or save it, as a file or as a frame.
SHARE_CONTROLS = ["copy-link", "link-opens-at", "download-svg", "download-png", "download-csv", "download-json",
                  "open-scene-file", "copy-embed-code"]


@pytest.fixture
def sized(live_page):
    """`sized(viewport)`: the shared page at that window size, scrolled to the top; the size is put back after."""
    before = live_page.viewport_size

    def resize(viewport):
        live_page.set_viewport_size(viewport)
        live_page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
        live_page.wait_for_timeout(300)  # let the grids take their new widths
        return live_page

    yield resize
    live_page.set_viewport_size(before)


def box(locator):
    """`locator`'s box in the window, as {top, bottom, left, right} in CSS pixels from the window's top left."""
    return locator.evaluate("(e) => { const b = e.getBoundingClientRect(); "
                            "return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; }")


def assert_wholly_on_screen(page, locator, what):
    shown = box(locator)
    size = page.viewport_size
    assert shown["top"] >= 0 and shown["bottom"] <= size["height"], f"{what} is not on screen: {shown} in {size}"
    assert shown["left"] >= 0 and shown["right"] <= size["width"], f"{what} is not on screen: {shown} in {size}"


def weights_of_it(page):
    return page.evaluate(f"window.attentionPlayground.result().heads[0].weights[{IT}]")


def edit_and_wait(page, cell, text):
    """Type `text` over `cell`, as a learner does, and wait until the row of "it" is drawn anew."""
    before = weights_of_it(page)
    type_into(page, cell, text)
    page.wait_for_function(f"(before) => JSON.stringify(window.attentionPlayground.result().heads[0].weights[{IT}])"
                           " !== JSON.stringify(before)", arg=before)
    expect(page.locator(sel("heatmap-panel"))).not_to_have_class(re.compile(r"\bstale\b"))


def test_at_1366_by_900_the_heatmap_and_the_wq_cell_being_edited_are_on_screen_together(sized):
    page = sized(LAPTOP)
    grid = page.locator(f'{sel("heatmap-panel")} svg.heatmap')
    cell = page.locator(sel("wq-cell", row=PRONOUN, column=ANIMAL_DIM))
    # Before any scroll, the whole grid and the number the example turns on are in the first view.
    assert_wholly_on_screen(page, grid, "the heatmap")
    assert_wholly_on_screen(page, cell, "the Wq cell of \"pronoun\"")
    # The learner types over it; the row it moves changes in view, and nothing scrolled away.
    edit_and_wait(page, cell, "0")
    assert page.evaluate("window.scrollY") == 0
    assert_wholly_on_screen(page, grid, "the heatmap after the edit")
    assert_wholly_on_screen(page, page.locator(sel("wq-cell", row=PRONOUN, column=ANIMAL_DIM)), "the edited cell")


def test_on_a_phone_an_edit_and_the_row_it_changes_are_at_most_one_screen_apart(sized):
    page = sized(PHONE)
    cell = page.locator(sel("wq-cell", row=PRONOUN, column=ANIMAL_DIM))
    cell.scroll_into_view_if_needed()
    edit_and_wait(page, cell, "0")
    row = page.locator(sel("row-label", row=IT))
    edited, changed = box(page.locator(sel("wq-cell", row=PRONOUN, column=ANIMAL_DIM))), box(row)
    span = max(edited["bottom"], changed["bottom"]) - min(edited["top"], changed["top"])
    assert span <= PHONE["height"], f"the edited cell and the row of \"it\" are {span:.0f} px apart, over a screen"
    # And the learner sees both at once, scrolled to halfway between them.
    page.evaluate("(y) => window.scrollBy(0, y)", (edited["top"] + changed["top"]) / 2 - PHONE["height"] / 2)
    assert_wholly_on_screen(page, row, "the row of \"it\"")
    assert_wholly_on_screen(page, page.locator(sel("wq-cell", row=PRONOUN, column=ANIMAL_DIM)), "the edited cell")


def test_on_a_phone_the_feature_table_shows_that_it_scrolls_sideways(sized):
    page = sized(PHONE)
    panel = page.locator(sel("feature-editor"))
    panel.scroll_into_view_if_needed()
    cue, view = panel.locator(".scroll-cue"), panel.locator(".side-scroll-view")
    expect(cue).to_be_visible()
    expect(cue).to_contain_text("more features →")
    expect(view).to_have_attribute("data-more", "right")
    # Scrolled to its far edge, the cue points back the other way.
    panel.locator(".grid-scroll").evaluate("(e) => { e.scrollLeft = e.scrollWidth; }")
    expect(cue).to_have_text("← more features")
    expect(view).to_have_attribute("data-more", "left")
    panel.locator(".grid-scroll").evaluate("(e) => { e.scrollLeft = 0; }")
    # On a laptop the table fits: nothing says it scrolls.
    sized(LAPTOP)
    expect(cue).to_be_hidden()
    expect(view).to_have_attribute("data-more", "none")


def test_the_share_and_download_controls_fold_under_one_button_off_the_way_to_the_heatmap(sized):
    page = sized(LAPTOP)
    button = page.locator(sel("share-menu-button"))
    expect(button).to_have_attribute("aria-expanded", "false")
    for control in SHARE_CONTROLS:
        expect(page.locator(sel(control))).to_be_hidden()
    # Between the settings and the heatmap stands nothing but the panels' gap.
    settings = max(box(page.locator(sel(name)))["bottom"] for name in ("mask-controls", "preset-area"))
    heatmap = box(page.locator(sel("heatmap-panel")))["top"]
    assert 0 <= heatmap - settings <= 48, f"{heatmap - settings:.0f} px between the settings and the heatmap"
    button.click()
    expect(button).to_have_attribute("aria-expanded", "true")
    for control in SHARE_CONTROLS:
        expect(page.locator(sel(control))).to_be_visible()
    button.click()
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(page.locator(sel("copy-link"))).to_be_hidden()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366", "390"])
def test_why_the_first_grids_rows_are_even_is_said_over_the_grid(sized, viewport):
    page = sized(viewport)
    note = page.locator(sel("zero-query-note"))
    expect(note).to_be_visible()
    expect(note).to_contain_text("9 of 10 words ask with a query of all zeros")
    grid = box(page.locator(f'{sel("heatmap-panel")} svg.heatmap'))
    said = box(note)
    assert said["bottom"] <= grid["top"], "the note is not over the grid"
    assert grid["top"] - said["top"] <= 200, "the note is far from the grid it explains"
    if viewport is LAPTOP:
        assert_wholly_on_screen(page, note, "the note on even rows")  # above the fold


def test_the_lede_defines_query_key_and_value(sized):
    page = sized(LAPTOP)
    lede = page.locator(".lede")
    expect(lede).to_contain_text("its query")
    expect(lede).to_contain_text("its key")
    expect(lede).to_contain_text(re.compile(r"carries a value, what it hands to the words that read it"))
