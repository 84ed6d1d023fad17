"""What the tests of links, embed codes and saved work (test_sharing.py, test_learner_reports.py) need besides
page_helpers: a shared page that makes a link or an embed code and leaves neither behind, and saved work carried
from the page that made it into another browser, to be opened there by a link.

A link is made on the module's shared page (`maker_page`) and opened in a fresh context (`fresh_page`): only the
page that opens it must be fresh. What making it leaves that the shared page's reset does not put back, the share
menus' own controls (the link shown, its status line, the embed code's choices) and the clipboard permission, is
put back here; test_sharing.py's last two tests show that the next test finds them as a fresh visitor does.
"""

import pytest
from playwright.sync_api import Error as PlaywrightError


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
    """The module's shared page (`live_page`), for a test that makes a link or an embed code on it: afterwards
    its share menus are as the test found them, and its context has no permission the test granted. If that
    cannot be done, the page is booted again for the next test."""
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
