""""Copy embed code", as a course author uses it: the snippet, copied from the full page and pasted into a blank page,
works there (an edited scene travels whole, in a permalink), and its options give the panels, the locks and the
theme button asked for. The code is made on the shared page; each frame boots in an author's page of its own.
"""

import re

from playwright.sync_api import expect

from embed_helpers import author_page, snippet_page
from page_helpers import POLL_EVERY_MS, await_ready, open_share_menu, sel
from sharing_helpers import maker_page  # noqa: F401  (a fixture)


def test_copy_embed_code_gives_a_snippet_that_works_in_another_page(maker_page, site_url, artifacts):
    page = maker_page  # the shared page; its share menus and the clipboard are put back after (maker_page)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    copy_embed_code_and_paste_it(page, site_url, artifacts)


def copy_embed_code_and_paste_it(page, site_url, artifacts):
    page.select_option(sel("preset-picker"), "dog-bites-man")
    expect(page.locator(sel("scene-title"))).to_have_text("dog bites man")
    open_share_menu(page)
    page.click(sel("copy-embed-code"))
    expect(page.locator(sel("embed-code-status"))).to_contain_text("Copied")
    snippet = page.locator(sel("embed-code")).input_value()
    assert page.evaluate("navigator.clipboard.readText()") == snippet
    assert f'src="{site_url}/index.html?embed#preset=dog-bites-man"' in snippet
    assert f'<script src="{site_url}/js/embed-host.js" async></script>' in snippet
    page.screenshot(path=str(artifacts / "embed-copy-code.png"))

    # An edited scene travels whole, in a permalink.
    page.locator(sel("x-cell", row=2, column=1)).click()
    page.keyboard.press("Control+a")
    page.keyboard.type("0")
    page.wait_for_function("() => window.attentionPlayground.getScene().X[2][1] === 0")
    page.click(sel("copy-embed-code"))
    expect(page.locator(sel("embed-code"))).to_have_value(re.compile(re.escape("#s=")))
    edited_snippet = page.locator(sel("embed-code")).input_value()

    for code, expect_x in ((snippet, [1, 1]), (edited_snippet, [1, 0])):
        author = snippet_page(page.context, code)
        try:
            frame_element = author.locator("iframe")
            frame = frame_element.element_handle().content_frame()
            frame.wait_for_function("() => window.attentionPlayground !== undefined", polling=POLL_EVERY_MS)
            await_ready(frame)
            frame.wait_for_function("(x) => JSON.stringify(window.attentionPlayground.getScene()?.X[2]) === JSON.stringify(x)", arg=expect_x, polling=POLL_EVERY_MS)
            expect(frame.locator(sel("scene-title"))).to_have_text("dog bites man")
            expect(frame_element).to_have_attribute("data-resized", "true")
            author.screenshot(path=str(artifacts / "embed-snippet-in-a-blank-page.png"), full_page=True)
        finally:
            author.close()  # it is a page of the shared page's context


def test_the_embed_code_offers_panels_locks_and_the_theme_button(maker_page, site_url):
    page = maker_page  # the code is made on the shared page; each frame boots in a course page of its own
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    open_share_menu(page)
    page.locator(sel("copy-embed-code")).click()
    expect(page.locator(sel("embed-code-status"))).to_contain_text("Copied")
    plain = page.locator(sel("embed-code")).input_value()
    assert "panels=" not in plain and "lock=" not in plain and "theme-toggle" not in plain
    page.locator(sel("embed-panels-bars")).uncheck()
    page.locator(sel("embed-locks-Wq")).check()
    expect(page.locator(sel("embed-code"))).to_have_value(re.compile("lock=Wq"))
    snippet = page.locator(sel("embed-code")).input_value()
    assert re.search(r"panels=[a-z,]+", snippet) and "bars" not in re.search(r"panels=([a-z,]+)", snippet).group(1)
    assert page.evaluate("navigator.clipboard.readText()") == snippet
    author, frame = author_page(page.context, snippet)
    expect(frame.locator(sel("bars-panel"))).to_be_hidden()
    expect(frame.locator(sel("heatmap-panel"))).to_be_visible()
    expect(frame.locator(sel("wq-cell", row=2, column=0))).to_have_attribute("aria-label", re.compile("locked by this page"))
    # Without the theme button asked for, the frame has none; asked for, it has one.
    expect(frame.locator(sel("theme-toggle"))).to_be_hidden()
    author.close()
    page.locator(sel("embed-theme-toggle")).check()
    expect(page.locator(sel("embed-code"))).to_have_value(re.compile("theme-toggle"))
    author, frame = author_page(page.context, page.locator(sel("embed-code")).input_value())
    expect(frame.locator(sel("theme-toggle"))).to_be_visible()
    author.close()
