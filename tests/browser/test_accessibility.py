"""Accessibility, WCAG 2.2 AA as the bar: axe-core finds no violation (light and dark, a bad cell, every panel
opened); the grids work from the keyboard; the heatmap has a data table and a spoken summary; every input has a
name; masked cells and errors carry text, not only colour."""

import re

import pytest
from axe import WITH_BEST_PRACTICE, run_axe
from playwright.sync_api import expect
from conftest import shared_page_slot, using_shared_page
from page_helpers import open_live, open_share_menu, sel


def assert_no_violations(page, where, tags=None):
    violations = run_axe(page) if tags is None else run_axe(page, tags=tags)
    assert violations == [], f"axe found {len(violations)} kinds of violation {where}: {violations}"


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
def test_the_default_page_has_no_axe_violation(live_page, color_scheme):
    live_page.emulate_media(color_scheme=color_scheme)
    # The page follows the system's setting as it changes (on the task after): wait for it, then check.
    live_page.wait_for_function("(scheme) => document.documentElement.dataset.theme === scheme", arg=color_scheme)
    assert live_page.evaluate("document.documentElement.dataset.theme") == color_scheme
    assert_no_violations(live_page, f"on the default page ({color_scheme})", tags=WITH_BEST_PRACTICE)


def test_the_page_has_no_axe_violation_while_the_later_views_are_still_coming(page, site_url):
    # The teaching views mount a moment after the page is live; until then their sections stand empty, and
    # each must still be a named region (a name its title will give it later does not count yet).
    # Their stylesheet is held until the check is done; one asked for after that goes through (the page may ask
    # for it only once the check has begun: held then, it would never arrive).
    held, released = [], []
    page.route("**/static/teaching.css", lambda route: route.continue_() if released else held.append(route))
    open_live(page, f"{site_url}/", "light")
    expect(page.locator(sel("model-open"))).to_have_count(0)
    try:
        assert_no_violations(page, "before the later views arrive", tags=WITH_BEST_PRACTICE)
    finally:
        released.append(True)
        for route in held:
            route.continue_()
    expect(page.locator(sel("model-open"))).to_have_count(1)


def test_a_bad_cell_has_no_axe_violation_and_says_what_is_wrong_in_words(live_page):
    cell = live_page.locator(sel("x-cell")).first
    cell.click()
    live_page.keyboard.type("abc")
    error = live_page.locator(sel("x-error"))
    expect(error).to_be_visible()
    expect(error).to_contain_text("not a number")  # the error is words, not only a red border
    expect(live_page.locator(f'{sel("x-cell")}[aria-invalid="true"]')).to_have_count(1)
    assert_no_violations(live_page, "with a bad cell")


@pytest.fixture(scope="module")
def every_panel_opened_shared(browser):  # noqa: ARG001  (asked for so that its context closes before the browser does)
    yield from shared_page_slot()


@pytest.fixture
def every_panel_opened(request, every_panel_opened_shared, browser, site_url, page_problems, color_scheme):
    """A page with every panel opened (open_every_panel_for_axe), in the system's `color_scheme`: opened by the first
    test that asks, then kept for the other scheme (the page follows the system as it changes), so the panels,
    the trained model among them, load once."""
    def open_page(page):
        open_live(page, f"{site_url}/", color_scheme)
        open_every_panel_for_axe(page)

    def to_the_scheme(page):
        page.emulate_media(color_scheme=color_scheme)
        page.wait_for_function("(scheme) => document.documentElement.dataset.theme === scheme", arg=color_scheme)

    yield from using_shared_page(request, every_panel_opened_shared, browser, page_problems, open_page, to_the_scheme)


def open_every_panel_for_axe(page):
    """The weights as a table, a custom mask, a second head (the states that add controls); then everything that
    opens, and "Share and download" with the embed code's choices shown. Gives how many panels it opened."""
    page.locator(sel("weights-table-toggle")).click()
    expect(page.locator(sel("weights-table"))).to_be_visible()
    page.locator(sel("mask-custom")).check()
    page.locator(sel("add-head")).click()
    expect(page.locator(sel("head-tab"))).to_have_count(2)
    # Then everything that opens: disclosure buttons and <details>, one after another.
    closed = page.locator('main button[aria-expanded="false"]:visible, .teaching button[aria-expanded="false"]:visible, details:not([open]) > summary:visible')
    # The teaching sections are drawn after the playground goes live: on a busy machine, wait for the first.
    expect(closed.first).to_be_visible()
    opened = 0
    for _ in range(20):
        if closed.count() == 0:
            break
        # Activated as a keyboard does (the element's own click()): what opens is what is scanned here, and a panel
        # still drawing what an earlier one started may move the next button under a pointer for a long while.
        closed.first.evaluate("(control) => control.click()")
        opened += 1
    assert opened >= 1
    open_share_menu(page)
    page.locator(sel("copy-embed-code")).click()
    # The code is written by Python, busy a while with the panels just opened (the trained model among them).
    expect(page.locator(sel("embed-code"))).to_be_visible(timeout=30_000)
    page.wait_for_timeout(500)  # let opened panels finish drawing
    page.opened_for_axe = opened


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
def test_every_panel_opened_has_no_axe_violation(every_panel_opened, color_scheme):
    page = every_panel_opened
    assert page.evaluate("document.documentElement.dataset.theme") == color_scheme
    assert_no_violations(page, f"({color_scheme}) with the table, a custom mask, two heads and {page.opened_for_axe} panels open")


def test_arrow_keys_move_between_cells_and_escape_restores(live_page):
    first = live_page.locator(f'{sel("x-cell")}[data-row="0"][data-column="0"]')
    first.focus()
    focused = lambda: live_page.evaluate("[document.activeElement.dataset.testid, document.activeElement.dataset.row, document.activeElement.dataset.column]")
    assert focused() == ["x-cell", "0", "0"]
    live_page.keyboard.press("ArrowRight")
    assert focused() == ["x-cell", "0", "1"]
    live_page.keyboard.press("ArrowDown")
    assert focused() == ["x-cell", "1", "1"]
    live_page.keyboard.press("ArrowLeft")
    assert focused() == ["x-cell", "1", "0"]
    live_page.keyboard.press("ArrowUp")
    assert focused() == ["x-cell", "0", "0"]
    live_page.keyboard.press("Enter")
    assert focused() == ["x-cell", "1", "0"]

    # Typing replaces the number (it arrives selected); Escape puts back what was there, and the result follows.
    before_value = live_page.evaluate("document.activeElement.value")
    before_weights = live_page.evaluate("window.attentionPlayground.result().heads[0].weights")
    live_page.keyboard.type("7")
    live_page.wait_for_function("() => document.activeElement.value === '7'")
    live_page.wait_for_function("(w) => JSON.stringify(window.attentionPlayground.result().heads[0].weights) !== JSON.stringify(w)", arg=before_weights)
    live_page.keyboard.press("Escape")
    assert live_page.evaluate("document.activeElement.value") == before_value
    live_page.wait_for_function("(w) => JSON.stringify(window.attentionPlayground.result().heads[0].weights) === JSON.stringify(w)", arg=before_weights)
    assert focused() == ["x-cell", "1", "0"], "Escape keeps the focus in the cell"

    # Inside a number, Left/Right move the caret first; at its edge they move to the next cell.
    live_page.keyboard.type("12")
    live_page.keyboard.press("ArrowLeft")
    assert focused() == ["x-cell", "1", "0"]
    live_page.keyboard.press("End")
    live_page.keyboard.press("ArrowRight")
    assert focused() == ["x-cell", "1", "1"]

    # The weight matrices too.
    live_page.locator(f'{sel("wq-cell")}[data-row="0"][data-column="0"]').focus()
    live_page.keyboard.press("ArrowDown")
    assert focused() == ["wq-cell", "1", "0"]


def test_every_control_is_reachable_with_tab(live_page):
    reached = set()
    live_page.locator("body").focus()
    for _ in range(400):
        live_page.keyboard.press("Tab")
        test_id = live_page.evaluate("document.activeElement?.dataset?.testid ?? document.activeElement?.tagName")
        reached.add(test_id)
    for wanted in ["preset-picker", "mask-none", "scale-toggle", "row-label", "x-cell", "token-name",
                   "feature-name", "add-token", "head-tab", "wq-cell", "wk-cell", "wv-onehot", "theme-toggle",
                   "weights-table-toggle"]:
        assert wanted in reached, f"Tab never reaches {wanted}"


def test_focus_is_visible(live_page):
    for test_id in ["theme-toggle", "add-token", "weights-table-toggle"]:
        live_page.locator(sel(test_id)).focus()
        live_page.keyboard.press("Shift+Tab")
        live_page.keyboard.press("Tab")  # focus by keyboard, so :focus-visible applies
        outline = live_page.evaluate("getComputedStyle(document.activeElement).outlineStyle + ' ' + getComputedStyle(document.activeElement).outlineWidth")
        assert outline.startswith("solid") and not outline.endswith(" 0px"), f"{test_id}: {outline}"


def test_every_input_has_a_name(live_page):
    live_page.locator(sel("x-cell")).first.focus()  # one drawn cell becomes an input
    unnamed = live_page.evaluate("""() => [...document.querySelectorAll('input, select, textarea, [role="textbox"]')]
      .filter((el) => el.offsetParent !== null)
      .filter((el) => !(el.getAttribute('aria-label') || el.labels?.length || el.getAttribute('aria-labelledby') || el.title))
      .map((el) => el.outerHTML.slice(0, 120))""")
    assert unnamed == []
    # Cells are named by their row and column.
    expect(live_page.locator(f'{sel("x-cell")}[data-row="0"][data-column="0"]')).to_have_attribute("aria-label", re.compile(r".+ of “.+”"))


def test_the_heatmap_has_a_data_table_and_a_spoken_summary(live_page):
    table = live_page.locator(sel("weights-table"))
    result = live_page.evaluate("window.attentionPlayground.result()")
    tokens = result["tokens"]
    # Present for screen readers before it is shown: the same numbers as the heatmap, as percentages.
    expect(table.locator("tbody tr")).to_have_count(len(tokens))
    it = tokens.index("it")
    row = table.locator("tbody tr").nth(it)
    expect(row.locator("th")).to_have_text("it")
    weights = result["heads"][0]["weights"][it]
    top = max(range(len(tokens)), key=lambda j: weights[j])
    expect(row.locator("td").nth(top)).to_have_text(f"{weights[top] * 100:.1f}%")
    live_page.locator(sel("weights-table-toggle")).click()
    expect(table).to_be_visible()

    # A change is summarised in words, in a polite live region.
    summary = live_page.locator(sel("attention-summary"))
    expect(summary).to_have_attribute("aria-live", "polite")
    live_page.evaluate("""() => {
      const scene = window.attentionPlayground.getScene();
      return window.attentionPlayground.setScene({ ...scene, mask: "causal" });
    }""")
    new = live_page.evaluate("window.attentionPlayground.result()")
    w = new["heads"][0]["weights"][it]
    best = max((j for j in range(len(tokens)) if not new["mask"][it][j]), key=lambda j: w[j])
    expect(summary).to_have_text(re.compile(rf"^“it” now attends \d+(\.\d+)?% to “{re.escape(tokens[best])}”\.$"))
    # Masked cells read as a symbol and a word, not as a colour.
    expect(row.locator("td").nth(len(tokens) - 1)).to_have_text("× masked")
    expect(live_page.locator(f'{sel("heatmap-cell")}[data-masked="true"]').first).to_be_attached()
    assert live_page.locator(".heatmap .masked-symbol").count() > 0


# Five scenes, 100 ms apart, each with a different Wq: the hidden weights table is watched while they arrive
# and until it holds the last one's weights.
STREAM_OF_SCENES = """async () => {
  const api = window.attentionPlayground;
  const body = document.querySelector('[data-testid="weights-table"] tbody');
  let redrawsDuringStream = 0;
  let streaming = true;
  new MutationObserver(() => { if (streaming) redrawsDuringStream += 1; })
    .observe(body, { childList: true, characterData: true, subtree: true });
  const base = api.getScene();
  let result = null;
  for (let k = 1; k <= 5; k += 1) {
    const scene = structuredClone(base);
    scene.heads[0].Wq[2][1] = k;
    result = await api.setScene(scene);
    if (k < 5) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  streaming = false;
  return { redrawsDuringStream, weights: result.heads[0].weights };
}"""


def expect_table_row(table, row, weights):
    """The hidden table's row `row` shows `weights` (those of 1% or more are written with one decimal; smaller
    ones have a form of their own)."""
    plain = {j: f"{weight * 100:.1f}%" for j, weight in enumerate(weights) if weight * 100 >= 1}
    assert plain
    cells = table.locator("tbody tr").nth(row).locator("td")
    for j, text in plain.items():
        expect(cells.nth(j)).to_have_text(text)


def test_the_hidden_weights_table_is_redrawn_once_a_stream_of_updates_stops(live_page):
    table = live_page.locator(sel("weights-table"))
    expect(table.locator("tbody tr")).to_have_count(10)
    it = live_page.evaluate("window.attentionPlayground.getScene().tokens.indexOf('it')")
    # The table as drawn for the scene on screen (once the page has stayed still), before the stream starts.
    expect_table_row(table, it, live_page.evaluate("window.attentionPlayground.result().heads[0].weights")[it])
    outcome = live_page.evaluate(STREAM_OF_SCENES)
    assert outcome["redrawsDuringStream"] == 0, "the hidden table waits for the weights to stay still"
    expect_table_row(table, it, outcome["weights"][it])


def test_the_heatmap_cells_work_from_the_keyboard(live_page):
    # One tab stop for the whole grid.
    expect(live_page.locator(f'{sel("heatmap-cell")}[tabindex="0"]')).to_have_count(1)
    first = live_page.locator(f'{sel("heatmap-cell")}[data-row="0"][data-column="0"]')
    first.focus()
    where = lambda: live_page.evaluate("[document.activeElement.dataset.row, document.activeElement.dataset.column]")
    live_page.keyboard.press("ArrowDown")
    live_page.keyboard.press("ArrowRight")
    assert where() == ["1", "1"]
    live_page.keyboard.press("End")
    assert where() == ["1", "9"]
    # The focused cell is named in words and shows its tooltip.
    expect(live_page.locator(f'{sel("heatmap-cell")}[data-row="1"][data-column="9"]')).to_have_attribute(
        "aria-label", re.compile(r"^“cat” asks, “tired” answers: weight \d"))
    expect(live_page.locator(sel("heatmap-tooltip"))).to_be_visible()
    # Enter does what a click does: show where that row's token looks.
    live_page.keyboard.press("Enter")
    expect(live_page.locator(sel("bars-heading"))).to_contain_text("cat")
    # With a custom mask, Space forbids the read and Space again allows it.
    live_page.locator(sel("mask-custom")).check()
    live_page.locator(f'{sel("heatmap-cell")}[data-row="1"][data-column="9"]').focus()
    live_page.keyboard.press(" ")
    live_page.wait_for_function("() => window.attentionPlayground.result().mask[1][9] === true")
    expect(live_page.locator(f'{sel("heatmap-cell")}[data-row="1"][data-column="9"]')).to_have_attribute(
        "aria-label", re.compile("masked"))
    live_page.keyboard.press(" ")
    live_page.wait_for_function("() => window.attentionPlayground.result().mask[1][9] === false")
