"""A heatmap of 25 tokens or more paints its weight cells on a canvas under its SVG (ui/heatmap/cell-canvas.js).

What the learner sees must be what the SVG's cells say: every weight cell's colour on the canvas is the fill of
its rect, after each update; masked cells stay the SVG's (the hatch); the rects keep taking the pointer, the
keyboard and the export. Below 25 tokens there is no canvas."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from playwright.sync_api import expect

from attention_playground.presets import random_scene
from page_helpers import open_share_menu, sel


# What the canvas shows at the centre of each cell, beside its rect's fill, colour and visibility; and the
# canvas's own box beside the SVG's.
READ_CELLS = """({heatmap = "heatmap", cell = "heatmap-cell", index = 0} = {}) => {
  const svg = document.querySelectorAll(`[data-testid="${heatmap}"]`)[index];
  const canvas = svg.parentElement.querySelector("canvas.heatmap-canvas");
  const scale = canvas ? canvas.width / Number(svg.getAttribute("width")) : 0;
  const context = canvas?.getContext("2d");
  const cells = [...svg.querySelectorAll(`[data-testid="${cell}"]`)].map((rect) => {
    const style = getComputedStyle(rect);
    const x = Number(rect.getAttribute("x")) + Number(rect.getAttribute("width")) / 2;
    const y = Number(rect.getAttribute("y")) + Number(rect.getAttribute("height")) / 2;
    const [r, g, b, a] = context ? context.getImageData(Math.floor(x * scale), Math.floor(y * scale), 1, 1).data : [0, 0, 0, 0];
    return {row: +rect.dataset.row, column: +rect.dataset.column, masked: rect.dataset.masked === "true",
            fill: style.fill, visibility: style.visibility, canvas: a ? `rgb(${r}, ${g}, ${b})` : null, alpha: a};
  });
  const box = (node) => { const { x, y, width, height } = node.getBoundingClientRect(); return [x, y, width, height].map(Math.round); };
  return {cells, canvasBox: canvas ? box(canvas) : null, svgBox: box(svg)};
}"""


def show(page, scene):
    page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", scene)
    n = len(scene["tokens"])
    page.wait_for_function(
        """(n) => { const cells = document.querySelectorAll('[data-testid="heatmap-cell"]');
                    return cells.length === n * n && ![...cells].some((cell) => cell.classList.contains("pending")); }""",
        arg=n)


def causal_scene(size, seed):
    scene = random_scene(size, seed=seed, digits=2)
    scene["mask"] = "causal"
    return scene


def check_canvas_matches_cells(page, tab_stops=1, **which):
    """`which` picks the heatmap (see READ_CELLS); `tab_stops`: how many of its weight cells take Tab (the big
    heatmap has one, the heads' small ones none)."""
    drawn = page.evaluate(READ_CELLS, which)
    cells = drawn["cells"]
    weights = [cell for cell in cells if not cell["masked"]]
    masked = [cell for cell in cells if cell["masked"]]
    assert weights and masked
    assert [cell for cell in weights if cell["canvas"] != cell["fill"]] == []
    # The SVG does not paint the weight cells (but for the keyboard's tab stop); it does paint the masked ones,
    # and the canvas leaves those clear.
    assert sum(cell["visibility"] == "visible" for cell in weights) == tab_stops
    assert all(cell["visibility"] == "visible" and cell["alpha"] == 0 for cell in masked)
    assert drawn["canvasBox"] == drawn["svgBox"]
    return cells


def test_a_big_heatmap_shows_on_its_canvas_the_colour_of_every_weight_cell(live_page):
    show(live_page, causal_scene(64, seed=3))
    first = check_canvas_matches_cells(live_page)
    # Another scene of the same size: the layout stays, so only the cells whose colour changed are repainted.
    show(live_page, causal_scene(64, seed=4))
    second = check_canvas_matches_cells(live_page)
    assert [cell["fill"] for cell in first] != [cell["fill"] for cell in second]
    # A mask taken away: the cells it hid are now weights, painted on the canvas.
    live_page.evaluate("() => window.attentionPlayground.setScene({...window.attentionPlayground.getScene(), mask: 'none'})")
    live_page.wait_for_function("() => !document.querySelector('[data-testid=\"heatmap-cell\"][data-masked=\"true\"]')")
    cells = live_page.evaluate(READ_CELLS, {})["cells"]
    assert [cell for cell in cells if cell["canvas"] != cell["fill"]] == []
    # Narrow the page: the canvas is scaled with the SVG.
    live_page.set_viewport_size({"width": 420, "height": 800})
    drawn = live_page.evaluate(READ_CELLS, {})
    assert drawn["canvasBox"] == drawn["svgBox"]
    assert drawn["svgBox"][2] < 420


def test_a_small_heatmap_has_no_canvas_and_paints_its_own_cells(live_page):
    for size in (10, 24):
        show(live_page, causal_scene(size, seed=5))
        drawn = live_page.evaluate(READ_CELLS, {})
        assert drawn["canvasBox"] is None
        assert {cell["visibility"] for cell in drawn["cells"]} == {"visible"}
    show(live_page, causal_scene(25, seed=5))
    assert live_page.evaluate(READ_CELLS, {})["canvasBox"] is not None


def test_the_small_heatmaps_of_a_big_scenes_heads_are_painted_on_canvases_too(live_page):
    scene = causal_scene(40, seed=10)
    scene["heads"] = [{**random_scene(40, seed=11 + h, digits=2)["heads"][0], "name": f"head {h + 1}"} for h in range(3)]
    show(live_page, scene)
    expect(live_page.locator(sel("head-thumb"))).to_have_count(3)
    for index in range(3):
        cells = check_canvas_matches_cells(live_page, tab_stops=0, heatmap="heatmap-thumb", cell="thumb-cell", index=index)
        assert len(cells) == 40 * 40
    # The style sheet draws them 64 px wide: the canvas follows.
    assert live_page.evaluate(READ_CELLS, {"heatmap": "heatmap-thumb", "cell": "thumb-cell"})["svgBox"][2] == 64


def test_the_cells_of_a_big_heatmap_still_take_the_pointer_and_the_keyboard(live_page):
    scene = causal_scene(64, seed=6)
    show(live_page, scene)
    # The pointer on a cell the SVG does not paint: its tooltip names its two tokens.
    cell = live_page.locator(sel("heatmap-cell", row=40, column=7))
    cell.scroll_into_view_if_needed()
    assert cell.evaluate("(rect) => getComputedStyle(rect).visibility") == "hidden"
    box = cell.bounding_box()
    live_page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(live_page.locator(sel("heatmap-tooltip"))).to_contain_text("“t40” asks, “t7” answers")
    # The keyboard: Tab stop on the first cell, arrows move it; the focused cell is drawn and named.
    live_page.locator(sel("heatmap-cell", row=0, column=0)).focus()
    live_page.keyboard.press("ArrowDown")
    live_page.keyboard.press("ArrowDown")
    live_page.keyboard.press("ArrowRight")
    focused = live_page.locator(sel("heatmap-cell", row=2, column=1))
    expect(focused).to_be_focused()
    assert focused.evaluate("(rect) => getComputedStyle(rect).visibility") == "visible"
    expect(focused).to_have_attribute("aria-label", re.compile(r"^“t2” asks, “t1” answers: weight \d"))
    # A click on a cell the SVG does not paint does what it does on any cell (here: shows where that row's
    # token looks). The mouse, as a learner clicks: Playwright will not click an element that is not painted.
    box = live_page.locator(sel("heatmap-cell", row=30, column=2)).bounding_box()
    live_page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(live_page.locator(sel("row-label", row=30))).to_have_attribute("aria-pressed", "true")


def test_the_picture_of_a_big_heatmap_draws_every_cell(live_page):
    show(live_page, causal_scene(64, seed=7))
    open_share_menu(live_page)
    with live_page.expect_download() as info:
        live_page.locator(sel("download-svg")).click()
    root = ET.fromstring(Path(info.value.path()).read_bytes())
    cells = [rect for rect in root.iter("{http://www.w3.org/2000/svg}rect") if rect.get("data-testid") == "heatmap-cell"]
    assert len(cells) == 64 * 64
    assert [rect.attrib for rect in cells if not rect.get("fill", "").startswith(("rgb", "url("))] == []
    assert [rect.attrib for rect in cells if rect.get("visibility") == "hidden"] == []


def test_a_stale_big_heatmap_is_dimmed_as_one_picture(live_page):
    """While a mistake is on screen the last good heatmap is dimmed: the canvas and the SVG on it as one, so
    the cell the SVG still draws over the canvas (the keyboard's tab stop) is not dimmed twice."""
    show(live_page, causal_scene(30, seed=9))
    cell = live_page.locator(sel("wq-cell", row=0, column=0))
    cell.click()
    live_page.keyboard.type("abc")
    expect(live_page.locator(".heatmap-panel")).to_have_class(re.compile(r"\bstale\b"))
    live_page.wait_for_function("() => getComputedStyle(document.querySelector('.heatmap-picture')).opacity === '0.62'")  # faded in
    opacity = live_page.evaluate("""() => Object.fromEntries(['.heatmap-picture', '.heatmap-canvas', '[data-testid="heatmap"]']
        .map((selector) => [selector, +getComputedStyle(document.querySelector(selector)).opacity]))""")
    assert opacity == {".heatmap-picture": 0.62, ".heatmap-canvas": 1, '[data-testid="heatmap"]': 1}
