"""Every text on every panel is readable in both themes (WCAG AA: 4.5:1 for text, 3:1 for large text), with
every panel open and filled as a learner fills it: every step worked by hand with a number pointed at, the
weights as a table, the exercises open with the editor, its checks, a hint and the solution shown, each
experiment run, the trained model open with a head knocked out and a word it does not know.

Two measurements: axe's colour-contrast rule, which looks into the code editor's shadow root too, and our own
(contrast.py) for what axe leaves undecided (text in SVG, cells scrolled out of view, symbols).
"""

import pytest
from playwright.sync_api import expect

from axe import run_contrast
from contrast import measure_text_contrast
from page_helpers import open_every_panel, sel


PYTHON_TIMEOUT_MS = 90_000


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


def assert_readable(page, where):
    """Nothing below AA by axe or by our measurement; returns what axe measured (target paths)."""
    found = run_contrast(page)
    assert found["violations"] == [], f"text below WCAG AA contrast {where} (axe): {found['violations']}"
    ours = measure_text_contrast(page)
    assert ours["measured"] > 100, "our measurement found almost no text: the page did not draw"
    assert ours["failures"] == [], f"text below WCAG AA contrast {where}: {ours['failures']}"
    return found["checked"]


@pytest.mark.parametrize("how", ["system-light", "system-dark", "toggle-dark"])
def test_every_text_on_every_panel_meets_aa_contrast(page, site_url, how):
    page.emulate_media(color_scheme="dark" if how == "system-dark" else "light")
    page.goto(f"{site_url}/")
    if how == "toggle-dark":
        page.locator(sel("theme-toggle")).click()
    theme = "light" if how == "system-light" else "dark"
    assert page.evaluate("document.documentElement.dataset.theme") == theme

    open_every_panel(page)
    checked = assert_readable(page, f"({how}, every panel open)")
    # axe crossed into the editor's shadow root: the code lines are among what it measured.
    # (An element inside a shadow root has a target path: the host's selector, then the selector inside.)
    in_editor = [target for target in checked if isinstance(target[0], list) and ".cm-" in target[0][-1]]
    assert in_editor, "axe did not measure the text inside the code editor"
    for name in experiment_tabs(page):
        assert_readable(page, f"({how}, experiment “{name}” run)")
