"""A learner at the keyboard: the numbers to change a few Tabs from the top (a skip link, not a walk through every
feature cell), every panel reached by a skip link or by its heading, and controls whose spoken names begin with
the words they show (WCAG 2.5.3, Label in Name), checked by axe's own rule too."""

import re

from attention_playground.model import load_model
from axe import axe_source
from playwright.sync_api import expect

from page_helpers import sel

MOST_TABS = 10
HEAD_COUNT = len(load_model().heads)  # the trained model's heads, each a card


def from_the_top(page):
    """The focus on the document itself, the window at the top: where a learner arriving by link starts. (A blur
    alone would leave the next Tab to start from the control focused last.)"""
    page.evaluate("""() => {
      document.body.tabIndex = -1;
      document.body.focus();
      document.body.removeAttribute("tabindex");
      window.scrollTo(0, 0);
    }""")


def focused(page):
    return page.evaluate("() => { const e = document.activeElement; return {testid: e?.dataset?.testid ?? '', "
                         "text: (e?.textContent ?? '').trim(), panel: e?.closest('[data-panel]')?.dataset.panel ?? ''}; }")


def tab_to(page, text):
    """Press Tab until the focus is on a control whose words contain `text`; return how many Tabs it took."""
    for tabs in range(1, MOST_TABS + 1):
        page.keyboard.press("Tab")
        if text in focused(page)["text"]:
            return tabs
    raise AssertionError(f"no control saying {text!r} within {MOST_TABS} Tabs from the top")


def test_the_first_wq_cell_is_at_most_ten_tabs_from_the_top_and_takes_a_number(live_page):
    page = live_page
    from_the_top(page)
    tabs = tab_to(page, "Skip to the numbers you change")
    assert tabs <= MOST_TABS
    expect(page.locator("a:focus")).to_be_visible()  # a keyboard user sees where the focus is
    page.keyboard.press("Enter")
    now = focused(page)
    assert now["testid"] == "wq-cell" and now["panel"] == "weights", f"Enter on the skip link focused {now}"
    first = page.locator(sel("wq-cell")).first
    expect(first).to_be_focused()
    expect(first).to_be_in_viewport()
    # The learner types a number there; the nouns' rows ("cat", "mat") stop being even.
    page.keyboard.press("Control+a")
    page.keyboard.type("2")
    page.wait_for_function("() => { const row = window.attentionPlayground.result().heads[0].weights[1];"
                           " return Math.max(...row) - Math.min(...row) > 0.1; }")
    assert "#" not in page.url, "the skip link wrote into the address, where the page reads links to scenes"


def test_every_panel_has_a_skip_link_or_a_heading_landmark(live_page):
    page = live_page
    expect(page.locator(sel("model-open"))).to_have_count(1)  # the teaching views are drawn
    skips = page.locator(".skip-links a")
    assert skips.count() >= 4
    reached = set()
    for index in range(skips.count()):
        from_the_top(page)
        for _ in range(index + 1):
            page.keyboard.press("Tab")
        expect(skips.nth(index)).to_be_focused()
        page.keyboard.press("Enter")
        now = focused(page)
        assert now["panel"], f"skip link {index + 1} left the focus outside every panel: {now}"
        expect(page.locator(":focus")).to_be_in_viewport()
        reached.add(now["panel"])
    assert {"weights", "heatmap", "features"} <= reached
    # Every panel shown is a landmark with a name (or the complementary one) and starts with a heading.
    panels = page.locator(".panel:visible")
    assert panels.count() >= 8
    for index in range(panels.count()):
        panel = panels.nth(index)
        name = panel.get_attribute("data-panel")
        heading = panel.get_by_role("heading").first
        expect(heading).to_be_visible()
        assert heading.inner_text().strip(), f"the {name} panel's heading is empty"
        is_region = panel.evaluate("(e) => e.tagName === 'ASIDE' || (e.tagName === 'SECTION' && "
                                   "!!(e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')))")
        assert is_region, f"the {name} panel is not a named landmark"


def visible_words(locator):
    """The words a control shows on screen (what is only for screen readers left out)."""
    return locator.evaluate("(e) => { const c = e.cloneNode(true); c.querySelectorAll('.visually-hidden, "
                            "[aria-hidden=true]').forEach((n) => n.remove()); return c.textContent.replace(/\\s+/g, ' ').trim(); }")


def assert_named_by_what_it_shows(locator, what):
    words = visible_words(locator)
    assert words, f"{what} shows no words"
    # Any space matches any space: a no-break space on screen is a space when spoken.
    spoken = r"\s+".join(re.escape(word) for word in words.split())
    expect(locator).to_have_accessible_name(re.compile(spoken, re.IGNORECASE))


def test_claim_links_and_head_cards_are_named_by_the_words_they_show(live_page):
    page = live_page
    links = page.locator(f'{sel("mask-controls")} {sel("claim-link")}')
    assert links.count() == 2
    for index in range(links.count()):
        link = links.nth(index)
        assert_named_by_what_it_shows(link, "a claim link")
        # Which claim it tests is still said, after the words.
        expect(link).to_have_accessible_name(re.compile(r"^test by training\s*: .{20,}"))
    page.locator(sel("model-open")).click()
    cards = page.locator(f'{sel("model-head-card")} button.model-head-choose')
    expect(cards).to_have_count(HEAD_COUNT, timeout=60_000)
    for index in range(HEAD_COUNT):
        assert_named_by_what_it_shows(cards.nth(index), "a head card")
    # axe's rule for it (experimental until 4.11, run here anyway) finds the page's names and passes them.
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    outcome = page.evaluate("""async () => {
      const run = await axe.run(document, { runOnly: { type: "rule", values: ["label-content-name-mismatch"] } });
      return { passes: run.passes.flatMap((r) => r.nodes).length, violations: run.violations };
    }""")
    assert outcome["violations"] == []
    assert outcome["passes"] >= 2 + HEAD_COUNT
