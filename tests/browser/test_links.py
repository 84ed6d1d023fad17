"""Links, as a learner or a course author makes and opens them: a copied link opens the same scene and focus in a
fresh context (a half-typed cell with its message too), keeps the head being edited, every panel open and the tabs
chosen, a preset's link opens that example, a link says where it opens, and a link that would replace saved edits
keeps them to bring back. Each link is made on the shared page and opened in a fresh browser context (nothing
saved); screenshots go to tests/artifacts/.
"""

import json
import re
from urllib.parse import urlsplit

from playwright.sync_api import expect

from model_panel_helpers import REPEATED_NOUN, model_page  # noqa: F401  (model_page is a fixture)
from page_helpers import (
    CAT, DEFAULT_PRESET, IT, NOUN_DIM, POLL_EVERY_MS, PRONOUN, copy_link, module_error, open_live, open_share_menu,
    preset_scene, scene_link_hash, sel, type_into, wait_live)
from sharing_helpers import (  # noqa: F401  (maker_page is a fixture)
    carry_saved_work, expect_cell, expect_every_panel_open_at_the_tabs, focused_heading, get_scene, maker_page,
    open_every_panel_and_pick_tabs, saved_work, v2_link, wait_saved)


def test_a_copied_link_opens_the_same_scene_and_focus_in_a_fresh_context(maker_page, fresh_page, site_url, artifacts):
    page = maker_page  # the link is made on the shared page; only the page that opens it must be fresh
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    # The learner weakens the noun match and looks at "cat".
    type_into(page, page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "1.5")
    page.locator(sel("row-label")).nth(CAT).click()
    expect(focused_heading(page)).to_have_text("Where “cat” pays attention")
    seen = get_scene(page)
    assert seen["heads"][0]["Wq"][PRONOUN][NOUN_DIM] == 1.5

    link = copy_link(page)
    expect(page.locator(sel("share-link"))).to_be_visible()
    expect(page.locator(sel("share-status"))).to_contain_text("Link copied")
    assert link == page.evaluate("navigator.clipboard.readText()")
    assert link.startswith(f"{site_url}/#s=4.")
    assert all(c.isalnum() or c in "-_" for c in link.split("#s=4.", 1)[1])
    page.screenshot(path=str(artifacts / "sharing-copy-link.png"), full_page=True)

    fresh_page.goto(link)
    wait_live(fresh_page)
    assert get_scene(fresh_page) == seen
    expect(focused_heading(fresh_page)).to_have_text("Where “cat” pays attention")
    # Live is Python's state; the link's scene's result may come a moment after.
    fresh_page.wait_for_function("() => window.attentionPlayground.result() !== null", polling=POLL_EVERY_MS)
    assert fresh_page.evaluate("window.attentionPlayground.result()") == page.evaluate("window.attentionPlayground.result()")
    expect(fresh_page.locator(sel("preset-picker"))).to_have_value(DEFAULT_PRESET)
    expect(fresh_page.locator(sel("preset-reset"))).to_be_visible()
    # The link was read; the address is the page's own again, so a reload opens the saved work.
    assert urlsplit(fresh_page.url).fragment == ""
    fresh_page.screenshot(path=str(artifacts / "sharing-link-opened.png"), full_page=True)

    # A half-typed cell travels as typed, and the module's message comes with it. Pasting the new
    # link into the open tab replaces the first link's scene, which is kept and can come back.
    type_into(page, page.locator(sel("x-cell", row=4, column=0)), "-")
    expect(page.locator(sel("x-error"))).to_be_visible()
    seen = get_scene(page)
    assert seen["X"][4][0] == "-"
    fresh_page.goto(copy_link(page))
    expect_cell(fresh_page, sel("x-cell", row=4, column=0), "-")
    expect(fresh_page.locator(sel("x-error"))).to_have_text(f"⚠ {module_error(seen)}")
    assert get_scene(fresh_page) == seen
    expect(fresh_page.locator(sel("notice-text"))).to_contain_text("This replaced your saved edits")


def test_a_link_keeps_the_head_being_edited(maker_page, fresh_page):
    page = maker_page
    two = preset_scene("dog-bites-man")
    second = json.loads(json.dumps(two["heads"][0]))
    second["name"] = "head 2"
    second["Wq"] = [[0, 1], [1, 0]]
    two["heads"].append(second)
    two["title"] = "two heads"
    page.evaluate("s => window.attentionPlayground.setScene(s)", two)
    # The learner picks head 2 by its small heatmap, then copies the link.
    thumbs = page.locator(sel("head-thumb"))
    thumbs.nth(1).click()
    expect(thumbs.nth(1)).to_have_attribute("aria-pressed", "true")
    link = copy_link(page)

    fresh_page.goto(link)
    wait_live(fresh_page)
    assert get_scene(fresh_page) == two
    expect(fresh_page.locator(sel("head-thumb")).nth(1)).to_have_attribute("aria-pressed", "true")
    expect(fresh_page.locator(sel("preset-picker"))).to_have_value("")


def test_a_preset_link_opens_that_example(fresh_page, site_url, artifacts):
    open_live(fresh_page, f"{site_url}/#preset=dog-bites-man")
    assert get_scene(fresh_page) == preset_scene("dog-bites-man")
    expect(fresh_page.locator(sel("scene-title"))).to_have_text("dog bites man")
    expect(fresh_page.locator(sel("preset-picker"))).to_have_value("dog-bites-man")
    expect(fresh_page.locator(sel("heatmap-cell"))).to_have_count(9)
    fresh_page.screenshot(path=str(artifacts / "sharing-preset-link.png"), full_page=True)


def test_a_link_keeps_every_panel_open_and_the_tabs_chosen(maker_page, fresh_page, artifacts):
    page = maker_page
    open_every_panel_and_pick_tabs(page)
    link = copy_link(page)
    assert "#s=4." in link
    open_live(fresh_page, link)
    expect_every_panel_open_at_the_tabs(fresh_page)
    # Nothing was hidden, so nothing to say about hidden panels.
    expect(fresh_page.locator(sel("notice"))).to_be_hidden()
    fresh_page.screenshot(path=str(artifacts / "sharing-link-open-panels.png"), full_page=True)


def test_a_link_says_where_it_opens(maker_page, model_page, fresh_page, site_url):
    page = model_page  # the shared page with the model's panel put back; maker_page puts its share menus back after
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    page.locator(sel("model-example-repeated-noun")).click()
    open_share_menu(page)
    page.locator(sel("link-opens-at")).select_option("model")
    page.locator(sel("copy-link")).click()
    expect(page.locator(sel("share-status"))).to_contain_text("copied")
    link = page.locator(sel("share-link")).input_value()
    # Opened on another computer: the page goes to the trained model, and says how to get back up.
    fresh_page.goto(link)
    wait_live(fresh_page)
    expect(fresh_page.locator(sel("model-words"))).to_have_value(REPEATED_NOUN, timeout=60_000)
    expect(fresh_page.locator(sel("model-panel"))).to_have_attribute("data-revealed", re.compile(r"\d+"))
    expect(fresh_page.locator("#model-panel-title")).to_be_in_viewport()
    expect(fresh_page.locator(sel("notice-text"))).to_contain_text("This link opens at the trained model")
    fresh_page.locator(sel("notice-action")).click()
    expect(fresh_page.locator(sel("scene-title"))).to_be_in_viewport()
    # A link that opens at the top but set the model up says what waits below.
    page.locator(sel("link-opens-at")).select_option("")
    page.locator(sel("copy-link")).click()
    expect(page.locator(sel("share-link"))).not_to_have_value(link)
    fresh_page.goto(page.locator(sel("share-link")).input_value())
    wait_live(fresh_page)
    expect(fresh_page.locator(sel("notice-text"))).to_contain_text("This link also set up the trained model")
    expect(fresh_page.locator(sel("scene-title"))).to_be_in_viewport()


def test_a_link_that_would_replace_saved_edits_keeps_them(live_page, page, site_url, artifacts):
    # The learner's saved edits (made on the shared page, carried to a fresh browser)…
    type_into(live_page, live_page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "3")
    wait_saved(live_page)
    mine = get_scene(live_page)
    carry_saved_work(page, site_url, saved_work(live_page))
    theirs = preset_scene(DEFAULT_PRESET)
    theirs["heads"][0]["Wq"][PRONOUN][NOUN_DIM] = 7
    # …and a link to the same example, edited otherwise, opened as a new visit.
    page.goto(v2_link(site_url, {"scene": theirs, "preset": DEFAULT_PRESET, "edited": True, "view": {"focus": IT, "head": 0}}))
    wait_live(page)
    assert get_scene(page) == theirs
    expect(page.locator(sel("notice-text"))).to_contain_text("This replaced your saved edits")
    page.screenshot(path=str(artifacts / "sharing-link-kept-edits.png"), full_page=True)
    page.locator(sel("notice-action")).click()
    expect_cell(page, sel("wq-cell", row=PRONOUN, column=NOUN_DIM), "3")
    assert get_scene(page) == mine
    # A swap: the link's version is kept in turn.
    page.locator(sel("notice-action")).click()
    expect_cell(page, sel("wq-cell", row=PRONOUN, column=NOUN_DIM), "7")


def test_links_pasted_one_after_another_open_in_that_order(live_page):
    # A preset that Python draws, then at once the default example as shipped (drawn from its preview, without
    # waiting for Python): the page ends on the second, the one pasted last, and stays there. It starts on a third
    # example, so that the picker showing the default one says the second link has been opened.
    home = scene_link_hash({"scene": preset_scene(DEFAULT_PRESET), "preset": DEFAULT_PRESET, "edited": False,
                            "view": {"focus": None, "head": 0}})
    live_page.locator(sel("preset-picker")).select_option("two-animals")
    expect(live_page.locator(sel("preset-picker"))).to_have_value("two-animals")
    live_page.wait_for_function("(tokens) => JSON.stringify(window.attentionPlayground.getScene().tokens) === tokens",
                                arg=json.dumps(preset_scene("two-animals")["tokens"], separators=(",", ":")), polling=POLL_EVERY_MS)
    live_page.evaluate("""async (home) => {
      location.hash = "#preset=dog-bites-man";
      await new Promise((resolve) => setTimeout(resolve, 0));  // the first link's hashchange has run
      location.hash = home;
    }""", home)
    expect(live_page.locator(sel("preset-picker"))).to_have_value(DEFAULT_PRESET)
    shown = live_page.evaluate("""async () => {
      const api = window.attentionPlayground;
      const seen = new Set();
      for (let waited = 0; waited < 1500; waited += 20) {
        seen.add(JSON.stringify(api.getScene().tokens));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return [...seen].map((tokens) => JSON.parse(tokens));
    }""")
    assert shown == [preset_scene(DEFAULT_PRESET)["tokens"]]
    assert not live_page.evaluate("location.hash")
