"""Dark mode (following the system, or the learner's pick, remembered; its button says what it does and whether it
is on) and small screens: on a phone-sized screen (360 × 740, touch) the page fits the width, every target is at
least 24 px, the heatmap's labels and legend stay readable; on the phone a learner used (390 × 844) a tap on a
heatmap cell shows its score and the panels line up with what is in them fitting inside; at 900 px the layout
holds."""

import pytest
from playwright.sync_api import expect

from model_panel_helpers import N_HEADS, REPEATED_NOUN
from page_helpers import LEARNERS_PHONE, await_ready, open_live, sel, type_into

PHONE = {"width": 360, "height": 740}  # CSS pixels of the phone the page is tried on (2× pixels, touch)

# WCAG contrast of the text colour of `selector` on the page's panel colour.
CONTRAST = """(selector) => {
  const parse = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const element = document.querySelector(selector);
  const style = getComputedStyle(element);
  const fg = parse(element instanceof SVGElement ? style.fill : style.color);
  const bg = parse(getComputedStyle(document.querySelector('[data-testid="heatmap-panel"]')).backgroundColor);
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def panel_colour(page):
    return page.evaluate("getComputedStyle(document.querySelector('[data-testid=heatmap-panel]')).backgroundColor")


def test_dark_mode_follows_the_system_and_the_toggle_is_remembered(page, site_url, artifacts):
    open_live(page, f"{site_url}/", "dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    toggle = page.locator(sel("theme-toggle"))
    expect(toggle).to_have_attribute("aria-pressed", "true")
    dark_panel = panel_colour(page)
    assert dark_panel == "rgb(28, 33, 41)"
    # The heatmap's labels and legend are readable on the dark panel (4.5:1 for text).
    for selector in [".heatmap .column-label", ".heatmap .row-label text", ".heatmap .axis-title", ".legend-text", ".legend-caption"]:
        assert page.evaluate(CONTRAST, selector) >= 4.5, selector
    page.screenshot(path=str(artifacts / "dark-mode.png"), full_page=False)

    # The learner picks light: it changes at once and survives a reload, whatever the system says.
    toggle.click()
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert panel_colour(page) == "rgb(255, 255, 255)"
    page.reload()
    page.locator(sel("heatmap")).wait_for()
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    for selector in [".heatmap .column-label", ".legend-text", ".legend-caption"]:
        assert page.evaluate(CONTRAST, selector) >= 4.5, selector

    # And back to dark by the toggle, on a light system.
    page.emulate_media(color_scheme="light")
    page.locator(sel("theme-toggle")).click()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate("localStorage.getItem('attention-playground-theme')") == "dark"


def test_light_system_gives_light_page(page, site_url):
    # The theme is chosen as the page loads, before Python is live (nothing here waits for it).
    page.emulate_media(color_scheme="light")
    page.goto(f"{site_url}/")
    page.locator(sel("heatmap")).wait_for()
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    expect(page.locator(sel("theme-toggle"))).to_have_attribute("aria-pressed", "false")


def test_the_theme_button_says_what_it_does_and_whether_it_is_on(live_page):
    page = live_page  # as a fresh visitor finds it: the system's colour scheme light, no pick remembered
    toggle = page.locator(sel("theme-toggle"))
    expect(toggle).to_have_text("Dark mode: off")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    expect(toggle).to_have_text("Dark mode: on")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    # And off again (the shared page's next test finds it so).
    toggle.click()
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    expect(toggle).to_have_text("Dark mode: off")
    expect(toggle).to_have_attribute("aria-pressed", "false")


@pytest.fixture
def phone_page(phone_at):
    return phone_at(PHONE["width"], PHONE["height"])


SMALL_TARGETS = """() => {
  const targets = document.querySelectorAll('button, select, input, [role="button"], [role="tab"], [role="textbox"], a[href], summary');
  const small = [];
  for (const target of targets) {
    const box = target.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;  // not shown
    if (getComputedStyle(target).visibility === "hidden") continue;
    // A check box or radio is reached through its label, which is the target a finger hits.
    const hit = target.matches('input[type="checkbox"], input[type="radio"]') && target.closest("label") ? target.closest("label").getBoundingClientRect() : box;
    if (Math.round(hit.width) < 24 || Math.round(hit.height) < 24) small.push(`${target.dataset.testid ?? target.tagName} ${Math.round(hit.width)}x${Math.round(hit.height)}`);
  }
  return small;
}"""


def test_the_page_fits_a_phone(phone_page, site_url, artifacts):
    page = phone_page
    page.goto(f"{site_url}/")
    await_ready(page)
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    # No sideways scrolling of the page: wide grids scroll inside their own panel.
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), page.evaluate(
        "[document.scrollingElement.scrollWidth, window.innerWidth]")
    # Panels stack: the bars come below the heatmap, not beside it.
    heatmap = page.locator(sel("heatmap-panel")).bounding_box()
    bars = page.locator(sel("bars-panel")).bounding_box()
    assert bars["y"] >= heatmap["y"] + heatmap["height"] - 1
    assert heatmap["x"] >= 0 and heatmap["x"] + heatmap["width"] <= 360
    # Every target a finger can hit is at least 24 × 24 px.
    assert page.evaluate(SMALL_TARGETS) == []
    # The heatmap fits and a tap on a row label focuses that token.
    svg = page.locator(sel("heatmap")).bounding_box()
    assert svg["x"] + svg["width"] <= 360
    page.locator(sel("row-label")).nth(1).tap()
    expect(page.locator(sel("bars-heading"))).to_contain_text("cat")
    page.screenshot(path=str(artifacts / "phone-360.png"), full_page=False)
    page.screenshot(path=str(artifacts / "phone-360-full.png"), full_page=True)
    # The feature table is wider than the phone: it scrolls inside its panel, and the panel stays in the page.
    scroller = page.locator(f'{sel("feature-editor")} .grid-scroll')
    assert scroller.evaluate("(el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === 'auto'")
    panel = page.locator(sel("feature-editor")).bounding_box()
    assert panel["x"] + panel["width"] <= 360
    page.locator(sel("feature-editor")).screenshot(path=str(artifacts / "phone-360-features.png"))


def test_the_page_fits_a_phone_in_dark_mode(phone_page, site_url, artifacts):
    page = phone_page
    page.emulate_media(color_scheme="dark")
    page.goto(f"{site_url}/")
    await_ready(page)
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(artifacts / "phone-360-dark.png"), full_page=False)


@pytest.fixture
def learners_phone(phone_at):
    return phone_at(LEARNERS_PHONE["width"], LEARNERS_PHONE["height"])


def test_a_tap_on_a_heatmap_cell_shows_its_score_on_a_phone(learners_phone, site_url):
    phone = learners_phone
    open_live(phone, f"{site_url}/")
    phone.locator(sel("heatmap-cell", row=7, column=1)).tap()
    tooltip = phone.locator(sel("heatmap-tooltip"))
    expect(tooltip).to_be_visible()
    expect(tooltip).to_contain_text("weight 0.920")


def test_on_a_phone_the_panels_line_up_and_what_is_in_them_fits(learners_phone, site_url):
    phone = learners_phone
    open_live(phone, f"{site_url}/")
    phone.locator(sel("step-view")).wait_for(state="attached")
    phone.wait_for_function("() => document.querySelector('[data-testid=\"experiments\"] h2') !== null")
    lefts = {name: phone.locator(sel(name)).bounding_box()["x"] for name in ["heatmap-panel", "feature-editor", "experiments", "model-panel"]}
    rights = {name: (lambda box: box["x"] + box["width"])(phone.locator(sel(name)).bounding_box()) for name in lefts}
    assert len({round(x) for x in lefts.values()}) == 1, lefts
    assert len({round(x) for x in rights.values()}) == 1, rights
    # A knock-out's table: each word's change is a bar with its number beside it on the same line (the largest
    # bar pushed its number below it), and the table ends inside the panel.
    phone.locator(sel("experiment-tab-knockout")).click()
    phone.locator(sel("knockout-run")).click()
    expect(phone.locator(sel("knockout-row")).first).to_be_visible()
    lines = phone.eval_on_selector_all(sel("knockout-change"), """cells => cells.map((cell) => {
      const [bar, number] = [cell.querySelector(".knockout-bar"), cell.lastElementChild].map((e) => e.getBoundingClientRect());
      return [bar.width, Math.abs((bar.top + bar.bottom) / 2 - (number.top + number.bottom) / 2) < number.height / 2];
    })""")
    assert max(width for width, _ in lines) > 0 and all(same_line for _, same_line in lines), lines
    panel = phone.locator(sel("experiments")).bounding_box()
    table = phone.locator(".knockout-table").bounding_box()
    assert table["x"] + table["width"] <= panel["x"] + panel["width"], (table, panel)
    # A sentence of the learner's own: the notice's offer is read across the bar, under its text, not squeezed
    # beside it into a column a word wide.
    type_into(phone, phone.locator(sel("sentence-input")), REPEATED_NOUN)
    action = phone.locator(sel("notice-action"))
    expect(action).to_contain_text("or open the example")
    # The three boxes measured in one layout: the page above the notice still redraws for the new sentence.
    text_box, action_box, bar_box = phone.evaluate("""(selectors) => selectors.map((selector) => {
      const { x, y, width, height } = document.querySelector(selector).getBoundingClientRect();
      return { x, y, width, height };
    })""", [sel(name) for name in ("notice-text", "notice-action", "notice")])
    assert action_box["y"] >= text_box["y"] + text_box["height"] - 1, (text_box, action_box)
    assert action_box["width"] > bar_box["width"] / 2, (action_box, bar_box)
    # The trained model: each layer's name stands above its cards, which line up in columns (beside the name, the
    # first card stood apart from the rest), and the weight-against-effect table ends inside the panel.
    phone.locator(sel("model-open")).click()
    expect(phone.locator(sel("model-head-card"))).to_have_count(N_HEADS, timeout=60_000)
    expect(phone.locator(sel("weight-effect-row"))).to_have_count(N_HEADS, timeout=60_000)
    cards = phone.eval_on_selector_all(sel("model-head-card"), "cards => cards.map((c) => c.getBoundingClientRect().x)")
    assert len({round(x) for x in cards}) <= 2 and round(cards[0]) == round(min(cards)), cards
    panel = phone.locator(sel("model-panel")).bounding_box()
    # On a phone the table is folded under its summary: a tap opens it.
    phone.locator(sel("model-weight-effect-heads")).locator("summary").click()
    table = phone.locator(".weight-effect-table").bounding_box()
    assert table["x"] + table["width"] <= panel["x"] + panel["width"], (table, panel)


def test_the_layout_holds_at_900_pixels(live_page, artifacts):
    live_page.set_viewport_size({"width": 900, "height": 1000})
    width = live_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 900, f"the page scrolls sideways ({width} px)"
    live_page.screenshot(path=str(artifacts / "page-900px.png"), full_page=True)
