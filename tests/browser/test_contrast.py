"""Every text on every panel is readable in both themes (WCAG AA: 4.5:1 for text, 3:1 for large text), with
every panel open and filled as a learner fills it: every step worked by hand with a number pointed at, the
weights as a table, the exercises open with the editor, its checks, a hint and the solution shown, each
experiment run, the trained model open with a head knocked out and a word it does not know.

Two measurements: axe's colour-contrast rule, which looks into the code editor's shadow root too, and our own
(contrast.py) for what axe leaves undecided (text in SVG, cells scrolled out of view, symbols).

Opening every panel boots Python three times over (the page's, the exercises', the model's), so the three ways
to a theme share one page with every panel open: the system's setting and the toggle both switch the theme
live, with everything on screen redrawn in it. Each test puts the page back where the panels left it (the
example as shipped, the first experiment, the worked weight pointed at) before it measures.
"""

import re

import pytest
from playwright.sync_api import expect

from attention_playground import DEFAULT_PRESET_ID
from axe import run_contrast
from conftest import ROOT, shared_page_slot, using_shared_page
from contrast import measure_text_contrast
from page_helpers import open_every_panel, preset_scene, sel


PYTHON_TIMEOUT_MS = 90_000
#: Where the page remembers the learner's pick of a theme (js/page/theme.js); without it the page follows the system.
THEME_KEY = re.search(r'const STORAGE_KEY = "([^"]+)";', (ROOT / "js" / "page" / "theme.js").read_text()).group(1)
EXPERIMENTS = '[data-testid="experiments"]'
WORKED_WEIGHT = 'figure[data-stage="weights"] td[data-row="7"][data-column="1"]'


@pytest.fixture(scope="module")
def every_panel_page_shared(browser):  # noqa: ARG001  (asked for so that its context closes before the browser does)
    """One guarded page for the module, every panel open; booted again after a test failed on it."""
    yield from shared_page_slot()


@pytest.fixture
def every_panel_page(request, every_panel_page_shared, browser, site_url, page_problems):
    """The module's page with every panel open and filled (open_every_panel), opened by the first test that
    needs it with the system in light mode; its problems go to this test's `page_problems`."""
    def open_page(page):
        page.emulate_media(color_scheme="light")
        page.goto(f"{site_url}/")
        open_every_panel(page)

    yield from using_shared_page(request, every_panel_page_shared, browser, page_problems, open_page, back_to_every_panel_open)


def back_to_every_panel_open(page):
    """Undo what the experiments did, as open_every_panel left the page: the example as shipped (the edits
    saved of it forgotten, then picked again), the first experiment's tab, and a weight pointed at again."""
    page.evaluate("localStorage.clear()")
    page.locator(sel("preset-picker")).select_option(DEFAULT_PRESET_ID)
    shipped = preset_scene(DEFAULT_PRESET_ID)
    page.wait_for_function("""(shipped) => {
      const scene = window.attentionPlayground.getScene();
      return JSON.stringify([scene.tokens, scene.X, scene.heads]) === JSON.stringify([shipped.tokens, shipped.X, shipped.heads]);
    }""", arg=shipped)
    expect(page.locator(sel("preset-picker"))).to_have_value(DEFAULT_PRESET_ID)
    expect(page.locator(sel("preset-reset"))).to_be_hidden()
    notice = page.locator(sel("notice"))
    if notice.is_visible():
        notice.locator(".notice-close").click()
        expect(notice).to_be_hidden()
    page.locator(sel("experiment-tab-one-thing")).click()
    expect(page.locator(sel("variation-said"))).to_be_empty()
    page.locator(f'{sel("step-view")} {WORKED_WEIGHT}').hover()
    expect(page.locator(sel("step-explain"))).to_contain_text("softmax")


def show_theme(page, how):
    """Bring the page to the theme `how` names, live: no pick of the learner's, the system's setting changed to
    the one named (it is changed away and back, so the page hears a change whatever it was), and for
    "toggle-dark" the toggle pressed over a light system."""
    page.evaluate("(key) => localStorage.removeItem(key)", THEME_KEY)
    system = "dark" if how == "system-dark" else "light"
    page.emulate_media(color_scheme="light" if system == "dark" else "dark")
    page.emulate_media(color_scheme=system)
    expect(page.locator("html")).to_have_attribute("data-theme", system)
    if how == "toggle-dark":
        page.locator(sel("theme-toggle")).click()


def experiment_tabs(page):
    """Each experiment, opened and run; yields its name once it shows its result."""
    page.locator(sel("experiment-tab-one-thing")).click()
    page.locator(sel("variation-strength-8")).click()
    expect(page.locator(sel("variation-said"))).to_contain_text("Twice as loud")
    yield "one thing"
    page.locator(sel("experiment-tab-scaling")).click()
    page.locator(sel("scaling-run")).click()
    expect(page.locator(sel("scaling-table"))).to_be_visible(timeout=PYTHON_TIMEOUT_MS)
    yield "scaling"
    page.locator(sel("experiment-tab-order")).click()
    page.locator(sel("shuffle-button")).click()
    expect(page.locator(sel("shuffle-check"))).to_contain_text("Now:")
    yield "word order"
    page.locator(sel("experiment-tab-knockout")).click()
    page.locator(sel("knockout-run")).click()
    expect(page.locator(sel("knockout-row")).first).to_be_visible()
    yield "knock-out"


def assert_readable(page, where, checked=True, axe_within=None):
    """Nothing below AA by axe or by our measurement; returns what axe measured (target paths), if `checked`.
    With `axe_within` (a CSS selector) axe measures only there; ours measures the whole page always."""
    found = run_contrast(page, checked, include=axe_within)
    assert found["violations"] == [], f"text below WCAG AA contrast {where} (axe): {found['violations']}"
    ours = measure_text_contrast(page)
    assert ours["measured"] > 100, "our measurement found almost no text: the page did not draw"
    assert ours["failures"] == [], f"text below WCAG AA contrast {where}: {ours['failures']}"
    return found["checked"]


@pytest.mark.parametrize("how", ["system-light", "system-dark", "toggle-dark"])
def test_every_text_on_every_panel_meets_aa_contrast(every_panel_page, how):
    page = every_panel_page
    show_theme(page, how)
    theme = "light" if how == "system-light" else "dark"
    assert page.evaluate("document.documentElement.dataset.theme") == theme

    checked = assert_readable(page, f"({how}, every panel open)")
    # axe crossed into the editor's shadow root: the code lines are among what it measured.
    # (An element inside a shadow root has a target path: the host's selector, then the selector inside.)
    in_editor = [target for target in checked if isinstance(target[0], list) and ".cm-" in target[0][-1]]
    assert in_editor, "axe did not measure the text inside the code editor"
    # Each experiment run: our measurement over the whole page (an experiment may change the scene, and with it
    # every number drawn on a coloured cell), axe over the experiments' panel, the HTML text the run added (axe
    # has just measured the rest of the page in this theme; over all of it again, four times, it took most of
    # this test's time). Once per theme: a run after the toggle draws in the same dark as one after the system's
    # setting (what the toggle must change, all that is already on screen, is measured above).
    if how == "toggle-dark":
        return
    for name in experiment_tabs(page):
        assert_readable(page, f"({how}, experiment “{name}” run)", checked=False, axe_within=EXPERIMENTS)
