"""A scene at the size limits (64 tokens, features and dims): every cell of every grid is drawn, reachable by
keyboard and editable, and each grid is in the browser's accessibility tree with its spoken names (its first
and last cells are checked), on screen or not.

The grids are not skipped off screen (`content-visibility: auto`): Chromium leaves what it skips out of its
accessibility tree, which the test of the tree below would catch."""

from playwright.sync_api import expect

from attention_playground.presets import random_scene
from page_helpers import sel


SIZE = 64
CELLS = {"x-cell": SIZE * SIZE, "wq-cell": SIZE * SIZE, "wk-cell": SIZE * SIZE, "wv-cell": SIZE * SIZE}
# The start of the spoken name of the last cell of each grid (row 63, column 63).
CORNERS = {
    "x-cell": "f63 of “t63”",
    "wq-cell": "Wq row f63, column ",
    "wk-cell": "Wk row f63, column ",
    "wv-cell": "Wv row f63, column ",
}


def show_large_scene(page):
    scene = random_scene(SIZE, seed=8, digits=2)
    page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", scene)
    expect(page.locator(sel("x-cell"))).to_have_count(SIZE * SIZE)
    return scene


def accessibility_node(cdp, selector):
    """The browser's own accessibility node for the element `selector` finds (DevTools protocol)."""
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node_id = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node_id, f"no element {selector}"
    return cdp.send("Accessibility.getPartialAXTree", {"nodeId": node_id, "fetchRelatives": False})["nodes"][0]


def test_every_cell_is_on_the_page_and_every_grid_in_the_accessibility_tree(live_page):
    show_large_scene(live_page)
    for test_id, count in CELLS.items():
        expect(live_page.locator(sel(test_id))).to_have_count(count)
    live_page.evaluate("() => window.scrollTo(0, 0)")  # the Wk and Wv grids are far below the screen
    live_page.wait_for_timeout(300)
    cdp = live_page.context.new_cdp_session(live_page)
    cdp.send("Accessibility.enable")
    for test_id, spoken in CORNERS.items():
        for row, column in [(0, 0), (SIZE - 1, SIZE - 1)]:
            node = accessibility_node(cdp, sel(test_id, row=row, column=column))
            assert not node.get("ignored"), f"{test_id} ({row}, {column}) is left out: {node.get('ignoredReasons')}"
            assert node["role"]["value"] == "textbox"
        assert node["name"]["value"].startswith(spoken)
    assert live_page.evaluate("() => window.scrollY") == 0, "nothing scrolled the grids into view"


def test_a_cell_of_a_grid_far_below_is_reached_by_keyboard_and_edited(live_page):
    scene = show_large_scene(live_page)
    live_page.evaluate("() => window.scrollTo(0, 0)")  # Wv's grid is far below
    live_page.locator(sel("wv-cell", row=62, column=5)).focus()
    live_page.keyboard.press("ArrowDown")
    focused = live_page.locator(sel("wv-cell", row=63, column=5))
    expect(focused).to_be_focused()
    live_page.keyboard.type("0.25")
    live_page.wait_for_function("() => window.attentionPlayground.getScene().heads[0].Wv[63][5] === 0.25")
    # The edit reached Python: the result's Wv holds it, and nothing else of Wv changed.
    expected = [row[:] for row in scene["heads"][0]["Wv"]]
    expected[63][5] = 0.25
    live_page.wait_for_function("() => window.attentionPlayground.result().heads[0].Wv[63][5] === 0.25")
    result = live_page.evaluate("() => window.attentionPlayground.result()")
    assert result["heads"][0]["Wv"] == expected
