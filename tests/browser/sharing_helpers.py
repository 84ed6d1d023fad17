"""What the tests of links, embed codes, scene files and saved work (test_links.py, test_old_links.py,
test_broken_links.py, test_scene_files.py, test_saved_work.py, test_embed_code.py, …) need besides page_helpers: a
shared page that makes a link or an embed code and leaves neither behind, saved work carried from the page that
made it into another browser, to be opened there by a link, links made here without the page, and what a learner
reads of the scene, its focus and its saving.

A link is made on the shared page (`maker_page`) and opened in a fresh context (`fresh_page`): only the page that
opens it must be fresh. What making it leaves that the shared page's reset does not put back, the share menus' own
controls (the link shown, its status line, the embed code's choices) and the clipboard permission, is put back
here; test_share_menus_put_back.py shows that the next test finds them as a fresh visitor does.
"""

import base64
import json
import zlib

import pytest
from playwright.sync_api import Error as PlaywrightError, expect

from page_helpers import sel

#: Where the full page keeps the learner's work in localStorage (js/sharing/saved-drafts.js: its prefix, mode "page").
STORAGE_PREFIX = "attention-playground/v1/page"

# The share menus' controls as they are now: for each element in "Copy link" and "Copy embed code" (and the two
# menus themselves), whether it is hidden, what it holds and whether it is ticked, and what a status line says.
MENU_ELEMENTS = """() => [
  document.querySelector('[data-testid="copy-link"]').closest(".share-group"),
  document.querySelector('[data-testid="embed-code"]').closest(".embed-code"),
].flatMap((menu) => [menu, ...menu.querySelectorAll("*")])"""

READ_MENUS = f"""() => ({MENU_ELEMENTS})().map((element) => ({{
  hidden: element.hidden,
  value: "value" in element && element.tagName !== "BUTTON" ? element.value : null,
  checked: element.type === "checkbox" ? element.checked : null,
  status: element.getAttribute("role") === "status" ? element.textContent : null,
}}))"""

PUT_BACK_MENUS = f"""(states) => ({MENU_ELEMENTS})().forEach((element, index) => {{
  const state = states[index];
  element.hidden = state.hidden;
  if (state.value !== null) element.value = state.value;
  if (state.checked !== null) element.checked = state.checked;
  if (state.status !== null) element.textContent = state.status;
}})"""


@pytest.fixture
def maker_page(live_page, shared_page):
    """The shared page (`live_page`), for a test that makes a link or an embed code on it: afterwards
    its share menus are as the test found them, and its context has no permission the test granted. If that
    cannot be done, the page is booted again for the next test."""
    # The menus' controls are added once the page is live and idle: a page just booted may not have them yet.
    live_page.locator(sel("embed-code")).wait_for(state="attached")
    menus = live_page.evaluate(READ_MENUS)
    yield live_page
    try:
        live_page.context.clear_permissions()
        live_page.evaluate(PUT_BACK_MENUS, menus)
        assert live_page.evaluate(READ_MENUS) == menus
    except (AssertionError, PlaywrightError):
        shared_page["broken"] = True


def saved_work(page):
    """Everything the page keeps in this browser's storage for its address (a learner's saved work)."""
    return page.evaluate("() => ({ ...localStorage })")


def carry_saved_work(page, site_url, saved):
    """Put `saved` (saved_work of another page) into the storage of `page`'s browser for the site, as if the
    learner had worked there, without booting the playground: from an empty page at the site's address (answered
    here, so the server never sees it; its icon is empty, so the browser asks for none). The next goto in `page`
    is then a new visit to a browser holding that work."""
    address = f"{site_url}/carrying-saved-work.html"
    page.route(address, lambda route: route.fulfill(
        content_type="text/html", body='<!doctype html><title>saved work</title><link rel="icon" href="data:,">'))
    page.goto(address)
    page.unroute(address)
    page.evaluate("(saved) => { localStorage.clear(); Object.entries(saved).forEach(([k, v]) => localStorage.setItem(k, v)); }",
                  saved)
    assert saved_work(page) == saved


def expect_cell(page, selector, text):
    """Wait until a grid cell shows `text` (a cell is an input while edited and text otherwise)."""
    page.wait_for_function(
        "([selector, text]) => { const cell = document.querySelector(selector); return cell && (cell.value ?? cell.textContent) === text; }",
        arg=[selector, text],
    )


def get_scene(page):
    return page.evaluate("window.attentionPlayground.getScene()")


def focused_heading(page):
    return page.locator(sel("bars-heading"))


def wait_saved(page):
    """Saving waits for a pause in typing: wait until the status line says the edits are saved."""
    expect(page.locator(sel("save-status"))).to_contain_text("saved in this browser")


def deflated(data):
    """Raw deflate and base64url without padding, as links carry their data."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.urlsafe_b64encode(compressor.compress(data) + compressor.flush()).decode().rstrip("=")


def v2_link(site_url, payload):
    """A link in the format before panels' open states were kept (version 2), made here without the page."""
    return f"{site_url}/#s=2.{deflated(json.dumps(payload).encode())}"


def open_every_panel_and_pick_tabs(page):
    """Tick "show every step", show the table, open the exercises at "attention", pick the scaling experiment."""
    page.locator(sel("step-toggle")).check()
    page.locator(sel("weights-table-toggle")).click()
    page.locator(sel("exercise-open")).click()
    page.locator(sel("exercise-tab-attention")).click(timeout=90_000)
    page.locator(sel("experiment-tab-scaling")).click()


def expect_every_panel_open_at_the_tabs(page):
    expect(page.locator(sel("step-toggle"))).to_be_checked()
    expect(page.locator(sel("step-explain"))).to_be_visible()
    expect(page.locator(sel("weights-table-toggle"))).to_have_attribute("aria-expanded", "true")
    expect(page.locator(sel("weights-table"))).to_be_visible()
    expect(page.locator(sel("exercise-body"))).to_be_visible()
    expect(page.locator(sel("exercise-tab-attention"))).to_have_attribute("aria-pressed", "true", timeout=90_000)
    expect(page.locator(sel("experiment-tab-scaling"))).to_have_attribute("aria-selected", "true")
    expect(page.locator(sel("experiment-scaling"))).to_be_visible()
