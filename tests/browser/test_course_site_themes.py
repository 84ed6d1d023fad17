"""A playground frame on a course site, as an author publishes it: the frame follows the site's light and dark
modes, marked as each documentation theme marks them (MkDocs Material, Furo, the PyData Sphinx theme, Jupyter
Book 2), through js/embed-host.js; and a page that forgot embed-host.js gets a frame that says so.

The themes' marks are set here as each theme's own switch sets them (tests/browser/test_built_course_sites.py builds the real sites).
"""

import pytest
from playwright.sync_api import expect

from course_pages import course_page
from page_helpers import POLL_EVERY_MS, page_constant, sel

FRAME = '<iframe id="frame" src="{site}/index.html?embed&panels={panels}#preset=dog-bites-man" width="100%" height="{height}" title="dog bites man"></iframe>'
HOST_SCRIPT = '<script src="{site}/js/embed-host.js" async></script>'
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A lesson</title><link rel="icon" href="data:,">
{script}</head><body><h1>A lesson</h1>{frame}</body></html>"""

# How each course site's theme marks its mode, and the frame's theme that follows: a line of JavaScript run in the
# lesson page after every mark was taken away.
SITE_MODES = [
    ("MkDocs Material, slate", "document.body.dataset.mdColorScheme = 'slate'", "dark"),
    ("MkDocs Material, default", "document.body.dataset.mdColorScheme = 'default'", "light"),
    ("Furo, dark", "document.body.dataset.theme = 'dark'", "dark"),
    ("Furo, light", "document.body.dataset.theme = 'light'", "light"),
    ("Furo, auto: the system's (dark here)", "document.body.dataset.theme = 'auto'", "dark"),
    ("PyData, dark", "document.documentElement.dataset.mode = 'dark'; document.documentElement.dataset.theme = 'dark'", "dark"),
    ("PyData, light", "document.documentElement.dataset.mode = 'light'; document.documentElement.dataset.theme = 'light'", "light"),
    ("Jupyter Book 2, dark", "document.documentElement.className = 'dark'", "dark"),
    ("Jupyter Book 2, light", "document.documentElement.className = 'light'", "light"),
]
NO_MARKS = """() => {
  for (const element of [document.documentElement, document.body]) {
    for (const name of ["theme", "mode", "mdColorScheme"]) delete element.dataset[name];
    element.className = "";
  }
}"""


@pytest.fixture(scope="module")
def lessons(site_url):
    """Two lesson pages on another origin: one with embed-host.js around a frame of the default panels, one
    without it around a short frame (the author forgot the script)."""
    with_script = PAGE.format(script=HOST_SCRIPT.format(site=site_url),
                              frame=FRAME.format(site=site_url, panels="heatmap,bars", height=640))
    without = PAGE.format(script="", frame=FRAME.format(site=site_url, panels="heatmap,bars,features,weights", height=300))
    with course_page(lambda url: {"/with-script": with_script, "/without-script": without}) as url:
        yield url


def frame_of(page):
    frame = page.locator("#frame").element_handle().content_frame()
    frame.wait_for_function("() => window.attentionPlayground !== undefined", polling=POLL_EVERY_MS)
    return frame


def test_the_frame_follows_each_course_sites_dark_mode(lessons, page):
    page.emulate_media(color_scheme="light")
    page.goto(f"{lessons}/with-script")
    frame = frame_of(page)
    expect(page.locator("#frame")).to_have_attribute("data-resized", "true")
    frame_theme = frame.locator("html")
    expect(frame_theme).to_have_attribute("data-theme", "light")
    for site, mark, theme in SITE_MODES:
        # The reader's system is light, unless the site leaves it to the system: then dark, to show it is followed.
        page.emulate_media(color_scheme="dark" if "auto" in site else "light")
        # Away from the mode expected first, so each case shows a change the frame followed.
        page.evaluate(NO_MARKS)
        page.evaluate("(theme) => { document.documentElement.dataset.theme = theme; }", "light" if theme == "dark" else "dark")
        expect(frame_theme).not_to_have_attribute("data-theme", theme)
        page.evaluate(NO_MARKS)
        page.evaluate(mark)
        expect(frame_theme, site).to_have_attribute("data-theme", theme)
    expect(frame.locator(sel("host-script-missing"))).to_have_count(0)


def test_a_frame_the_page_does_not_size_says_so_once(lessons, page, page_problems):
    warnings = []
    page.on("console", lambda message: message.type == "warning" and warnings.append(message.text))
    page.goto(f"{lessons}/without-script")
    frame = frame_of(page)
    wait_ms = page_constant("embed/embed-frame.js", "HOST_SCRIPT_WAIT_MS")
    note = frame.locator(sel("host-script-missing"))
    expect(note).to_be_visible(timeout=wait_ms + 10_000)
    expect(note).to_contain_text("Scroll inside this frame")
    assert page.locator("#frame").get_attribute("height") == "300"
    assert [text for text in warnings if "embed-host.js" in text] != []
    page.wait_for_timeout(1000)
    expect(note).to_have_count(1)
    assert len([text for text in warnings if "embed-host.js" in text]) == 1
