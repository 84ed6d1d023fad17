"""Making links, embed codes and files on the shared page (`maker_page`, sharing_helpers.py) leaves nothing for the
next test: the first test does all that the link, embed code and saved-work tests do there, at once; the second
finds the share menus, the clipboard permission and the tabs as a fresh visitor does (pytest runs a module's tests
in the order they are written; test_shared_page.py shows the rest).
"""

import re

from playwright.sync_api import expect

from conftest import tabs_opened_by_tests
from page_helpers import NOUN_DIM, PRONOUN, copy_link, download, open_live, open_share_menu, sel, type_into
from sharing_helpers import maker_page, open_every_panel_and_pick_tabs  # noqa: F401  (maker_page is a fixture)
from test_shared_page import assert_reads_as_a_fresh_visitors


def test_making_links_and_files_on_the_shared_page_leaves_all_it_can(maker_page, site_url):
    """What the link, embed code and saved-work tests do on the shared page to make a link, an embed code
    or a file, all at once: the next test must find none of it (test_shared_page.py shows the rest)."""
    page = maker_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    type_into(page, page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "1.5")
    open_every_panel_and_pick_tabs(page)
    open_share_menu(page)
    page.locator(sel("link-opens-at")).select_option("experiments")
    expect(page.locator(sel("share-status"))).to_be_empty()
    copy_link(page)
    expect(page.locator(sel("share-status"))).to_contain_text("Link copied")
    page.locator(sel("copy-embed-code")).click()
    page.locator(sel("embed-panels-bars")).uncheck()
    page.locator(sel("embed-locks-Wq")).check()
    page.locator(sel("embed-theme-toggle")).check()
    expect(page.locator(sel("embed-code"))).to_have_value(re.compile("lock=Wq.*theme-toggle|theme-toggle.*lock=Wq"))
    expect(page.locator(sel("embed-code-status"))).to_contain_text("Copied")
    download(page, "download-png")
    toggle = page.locator(sel("theme-toggle"))  # on and off again, as test_dark_and_small_screens.py leaves it
    toggle.click()
    expect(toggle).to_have_text("Dark mode: on")
    toggle.click()
    expect(toggle).to_have_text("Dark mode: off")
    page.context.new_page().close()


def test_the_next_test_finds_the_share_menus_as_a_fresh_visitor_does(live_page, page, site_url):
    open_live(page, f"{site_url}/")
    assert_reads_as_a_fresh_visitors(live_page, page)
    clipboard = "() => navigator.permissions.query({name: 'clipboard-read'}).then((status) => status.state)"
    assert live_page.evaluate(clipboard) == page.evaluate(clipboard) == "prompt"
    assert tabs_opened_by_tests(live_page.context) == [live_page]
