"""Dark mode (following the system, or the learner's pick, remembered) and a phone-sized screen (360 × 740, touch):
the page fits the width, every target is at least 24 px, the heatmap's labels and legend stay readable."""

import pytest
from playwright.sync_api import expect

from page_helpers import open_live, sel

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
    open_live(page, f"{site_url}/", "light")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    expect(page.locator(sel("theme-toggle"))).to_have_attribute("aria-pressed", "false")


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
    page.evaluate("window.attentionPlayground.ready")
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
    page.evaluate("window.attentionPlayground.ready")
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(artifacts / "phone-360-dark.png"), full_page=False)
