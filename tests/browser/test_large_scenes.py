"""A scene at the size limits (64 tokens, features and dims): its grids are skipped by the browser while they
are off screen (js/ui/grids/large-grid.js), yet every cell stays in the document, reachable by keyboard and
editable, and drawing a grid as it comes into view moves nothing."""

import pytest
from playwright.sync_api import expect

from attention_playground.presets import random_scene
from page_helpers import sel, wait_live

pytestmark = pytest.mark.browser

SIZE = 64
GRIDS = ["feature-table", "wq-grid", "wk-grid", "wv-grid"]
CELLS = {"x-cell": SIZE * SIZE, "wq-cell": SIZE * SIZE, "wk-cell": SIZE * SIZE, "wv-cell": SIZE * SIZE}

SKIPPED = """(ids) => ids.map((id) => document.querySelector(`[data-testid="${id}"]`).closest(".grid-scroll")
  .classList.contains("skip-offscreen"))"""

RECORD_SHIFTS = """() => {
  window.gridShifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.gridShifts.push(entry.value);
  }).observe({ type: "layout-shift" });
}"""


def show_large_scene(page):
    scene = random_scene(SIZE, seed=8, digits=2)
    page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", scene)
    expect(page.locator(sel("x-cell"))).to_have_count(SIZE * SIZE)
    return scene


def test_only_large_grids_are_skipped_off_screen_and_every_cell_stays(page, site_url):
    page.goto(site_url)
    wait_live(page)
    skipped = page.evaluate("() => [...document.querySelectorAll('.grid-scroll')].map((s) => s.classList.contains('skip-offscreen'))")
    assert skipped and not any(skipped), "the 10-token example is drawn as it is"
    show_large_scene(page)
    assert page.evaluate(SKIPPED, GRIDS) == [True] * 4
    for test_id, count in CELLS.items():
        expect(page.locator(sel(test_id))).to_have_count(count)
    # The spoken names are all there, skipped or not.
    assert page.locator(sel("wv-cell", row=63, column=63)).get_attribute("aria-label").startswith("Wv row f63, column ")


def test_a_cell_of_a_skipped_grid_is_reached_by_keyboard_and_edited(page, site_url):
    page.goto(site_url)
    wait_live(page)
    scene = show_large_scene(page)
    page.evaluate("() => window.scrollTo(0, 0)")  # Wv's grid is far below, skipped
    page.locator(sel("wv-cell", row=62, column=5)).focus()
    page.keyboard.press("ArrowDown")
    focused = page.locator(sel("wv-cell", row=63, column=5))
    expect(focused).to_be_focused()
    page.keyboard.type("0.25")
    page.wait_for_function("() => window.attentionPlayground.getScene().heads[0].Wv[63][5] === 0.25")
    # The edit reached Python: the result's Wv holds it, and nothing else of Wv changed.
    expected = [row[:] for row in scene["heads"][0]["Wv"]]
    expected[63][5] = 0.25
    page.wait_for_function("() => window.attentionPlayground.result().heads[0].Wv[63][5] === 0.25")
    result = page.evaluate("() => window.attentionPlayground.result()")
    assert result["heads"][0]["Wv"] == expected


def test_a_skipped_grid_coming_into_view_moves_nothing(page, site_url):
    page.goto(site_url)
    wait_live(page)
    show_large_scene(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    page.evaluate(RECORD_SHIFTS)
    for grid in GRIDS[1:]:
        page.locator(sel(grid)).scroll_into_view_if_needed()
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.wait_for_timeout(300)
    assert sum(page.evaluate("window.gridShifts")) < 0.01
