"""A frame follows the theme of the page around it: the author's page's `data-theme`, on its root or on the frame,
and every switch of it.
"""

import re

from playwright.sync_api import expect

from embed_helpers import author_page
from page_helpers import POLL_EVERY_MS, open_share_menu, sel
from sharing_helpers import maker_page  # noqa: F401  (a fixture)


def test_a_frame_follows_the_theme_of_the_page_around_it(maker_page):
    page = maker_page
    page.emulate_media(color_scheme="light")
    open_share_menu(page)
    page.locator(sel("copy-embed-code")).click()
    expect(page.locator(sel("embed-code"))).to_have_value(re.compile("<iframe"))
    snippet = page.locator(sel("embed-code")).input_value()
    author, frame = author_page(page.context, snippet, html_theme="dark")
    frame.wait_for_function("() => document.documentElement.dataset.theme === 'dark'", polling=POLL_EVERY_MS)
    # The course page's own switch: the frame follows it.
    author.evaluate("document.documentElement.dataset.theme = 'light'")
    frame.wait_for_function("() => document.documentElement.dataset.theme === 'light'", polling=POLL_EVERY_MS)
    author.evaluate("document.querySelector('iframe').dataset.theme = 'dark'")
    frame.wait_for_function("() => document.documentElement.dataset.theme === 'dark'", polling=POLL_EVERY_MS)
    author.close()
