"""The shared page (`live_page`, conftest.py) leaks nothing from one test into the next; nor do the warm
browser profiles behind `page` and `fresh_page`.

The first test leaves behind all it can: an edit half typed, another scene set through the API, the step view
and the weights table open, an experiment run on another tab, a notice, keyboard focus, a hover, a small
dark window. The second, which gets the same page after the reset, must see exactly what a fresh visitor sees
in a context of its own (pytest runs a module's tests in the order they are written).
"""

from playwright.sync_api import expect

from conftest import tabs_opened_by_tests
from page_helpers import ANIMATIONS_ENDED, open_live, preset_scene, sel, type_into, wait_live

CAT = 1  # in "the cat sat on the mat because it was tired"

# What a visitor can see or a script can read of the page, gathered once nothing is moving any more.
PAGE_STATE = """async () => {
  const api = window.attentionPlayground;
  await api.ready;
""" + ANIMATIONS_ENDED + """  await new Promise((resolve) => setTimeout(resolve, 1000));  // a scene is saved once it has stayed a moment
  const visible = (element) => element.checkVisibility();
  const controls = [...document.querySelectorAll("input, select, textarea, button")].filter(visible).map((control) => ({
    testid: control.closest("[data-testid]")?.dataset.testid ?? null,
    value: control.value,
    checked: control.checked ?? null,
    pressed: control.getAttribute("aria-pressed"),
    selected: control.getAttribute("aria-selected"),
    expanded: control.getAttribute("aria-expanded"),
  }));
  return {
    scene: api.getScene(),
    result: api.result(),
    text: document.body.innerText,
    shown: [...document.querySelectorAll("[data-testid]")].filter(visible).map((element) => element.dataset.testid),
    controls,
    hovered: [...document.querySelectorAll(":hover")].map((element) => element.tagName),
    focused: document.activeElement === document.body,
    status: document.querySelector('[data-testid="playground"]').dataset.status,
    theme: [document.documentElement.className, document.documentElement.dataset.theme ?? null,
            matchMedia("(prefers-color-scheme: dark)").matches],
    window: [innerWidth, innerHeight, scrollX, scrollY],
    address: location.hash,
    saved: Object.keys(localStorage).sort(),
    session: Object.keys(sessionStorage).sort(),
    databases: (await indexedDB.databases()).map((database) => database.name).sort(),
    caches: (await caches.keys()).sort(),
    serviceWorkers: (await navigator.serviceWorker.getRegistrations()).length,
    clipboard: (await navigator.permissions.query({ name: "clipboard-read" })).state,
  };
}"""


def test_a_test_leaves_behind_all_it_can(live_page):
    type_into(live_page, live_page.locator(sel("x-cell", row=CAT, column=0)), "0.")  # half typed, still being saved
    live_page.locator(sel("step-toggle")).check()
    live_page.locator(sel("weights-table-toggle")).click()
    live_page.locator(sel("experiment-tab-knockout")).click()
    live_page.locator(sel("knockout-run")).click()
    live_page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", preset_scene("two-heads"))
    live_page.locator(sel("head-thumb")).nth(1).click()
    live_page.evaluate("location.hash = '#preset=no-such-example'")  # a notice that stays until closed
    expect(live_page.locator(sel("notice"))).to_be_visible()
    live_page.set_viewport_size({"width": 390, "height": 700})
    live_page.emulate_media(color_scheme="dark")
    live_page.locator(sel("heatmap-cell")).first.hover()
    live_page.mouse.wheel(0, 600)
    assert live_page.evaluate("window.attentionPlayground.getScene().title") == preset_scene("two-heads")["title"]


def page_state(page):
    """PAGE_STATE of `page`, once the views below the playground and "Share and download" are there (they are added
    once Python is live and the page idle): waited for with Playwright's own timeout, so a page without them fails."""
    for test_id in ("exercise-open", "embed-code"):
        expect(page.locator(sel(test_id))).to_be_attached()
    return page.evaluate(PAGE_STATE)


def assert_reads_as_a_fresh_visitors(reused_page, fresh_page):
    """`reused_page` (live) reads exactly as `fresh_page`, opened live for a fresh visitor, in every PAGE_STATE part."""
    wait_live(reused_page)
    fresh, reused = page_state(fresh_page), page_state(reused_page)
    for key in fresh:
        assert reused[key] == fresh[key], f"the shared page's {key} differs from a fresh visitor's"


def test_the_next_test_finds_the_page_as_a_fresh_visitor_does(live_page, page, site_url):
    open_live(page, f"{site_url}/")
    assert_reads_as_a_fresh_visitors(live_page, page)


def test_a_page_test_leaves_behind_what_a_site_can_keep(page, site_url):
    leave_behind_what_a_site_can_keep(page, site_url)


def test_the_next_page_test_finds_what_a_first_visit_finds(page, cold_page, site_url):
    assert_finds_what_a_first_visit_finds(page, cold_page, site_url)


# `fresh_page` (a link opened on another computer) lives in a warm profile of its own, wiped the same way.
def test_a_fresh_page_test_leaves_behind_what_a_site_can_keep(fresh_page, site_url):
    leave_behind_what_a_site_can_keep(fresh_page, site_url)


def test_the_next_fresh_page_test_finds_what_a_first_visit_finds(fresh_page, cold_page, site_url):
    assert_finds_what_a_first_visit_finds(fresh_page, cold_page, site_url)


def leave_behind_what_a_site_can_keep(page, site_url):
    """Saved work, a permission, session storage, a cache, a database, the network off and a second tab."""
    open_live(page, f"{site_url}/")
    type_into(page, page.locator(sel("x-cell", row=CAT, column=0)), "0.5")
    expect(page.locator(sel("save-status"))).to_contain_text("saved in this browser")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    page.evaluate("""async () => {
      sessionStorage.setItem("left", "behind");
      await (await caches.open("left-behind")).put("/left-behind", new Response("x"));
      await new Promise((resolve) => { indexedDB.open("left-behind").onsuccess = resolve; });
    }""")
    # The views below the playground load once the page is idle after live: cut off before they arrive, the page
    # logs its failed import, which is no state a site keeps but an error of this visit.
    for test_id in ("exercise-open", "embed-code"):
        expect(page.locator(sel(test_id))).to_be_attached()
    page.context.set_offline(True)
    page.context.new_page()  # a second tab, left open


def assert_finds_what_a_first_visit_finds(page, cold_page, site_url):
    """`page`, in its warm profile, reads as `cold_page` does, a first visit in an empty context."""
    assert tabs_opened_by_tests(page.context) == [page], "the last test's tabs are closed"
    open_live(page, f"{site_url}/")
    open_live(cold_page, f"{site_url}/")
    warm, cold = page_state(page), page_state(cold_page)
    for key in cold:
        assert warm[key] == cold[key], f"a page in the warm profile differs from a first visit in its {key}"
