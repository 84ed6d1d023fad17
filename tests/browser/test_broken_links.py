"""A broken link says so and never breaks the page: truncated, with characters a link never has, from a newer
playground, cut off, naming an example there is not, holding a hostile scene or a zip bomb, it shows a clear
message and the learner's saved work instead; with nothing saved, the default example.
"""

import pytest
from playwright.sync_api import expect

from page_helpers import DEFAULT_PRESET, NOUN_DIM, PRONOUN, open_live, preset_scene, sel, type_into, wait_live
from sharing_helpers import carry_saved_work, deflated, get_scene, saved_work, v2_link, wait_saved


@pytest.mark.parametrize(
    "damage, says",
    [
        (lambda link: link[: len(link) // 2], "incomplete"),
        (lambda link: link.replace("#s=2.", "#s=2.%%%"), "characters a playground link never has"),
        (lambda link: link.replace("#s=2.", "#s=9."), "newer playground"),
        (lambda link: link.split("#", 1)[0] + "#s=2.", "cut off"),
        (lambda link: link.split("#", 1)[0] + "#preset=no-such-example", "does not have"),
        (lambda link: v2_link(link.split("/#", 1)[0], {"scene": {"tokens": "abc"}}), "cannot be shown: tokens must be a list"),
        (lambda link: link.split("#", 1)[0] + "#s=2." + deflated(b" " * 20_000_000), "too large"),
    ],
    ids=["truncated", "bad-characters", "future-version", "empty-data", "unknown-preset", "hostile-scene", "zip-bomb"],
)
def test_a_broken_link_says_so_and_falls_back_to_the_saved_work(live_page, fresh_page, site_url, artifacts, damage, says):
    # The learner has saved work in this browser (made on the shared page, carried to a fresh browser)…
    type_into(live_page, live_page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "2")
    wait_saved(live_page)
    saved = get_scene(live_page)
    carry_saved_work(fresh_page, site_url, saved_work(live_page))
    good = v2_link(site_url, {"scene": preset_scene("dog-bites-man"), "preset": None, "edited": True, "view": {}})
    # …and opens a damaged link: a clear message, and the saved work instead of a crash. (The page open before
    # is not the playground, so the link is a new visit, not a change of the open page's hash.) All but one of
    # them are read before Python is live: its WebAssembly is held back, so they are, and no Python boots for
    # them (the page would only close it half booted).
    held = []
    if says != "incomplete":
        fresh_page.context.route("**/vendor/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    fresh_page.goto(damage(good))
    notice = fresh_page.locator(sel("notice"))
    expect(notice).to_be_visible()
    expect(notice).to_have_attribute("data-tone", "error")
    expect(fresh_page.locator(sel("notice-text"))).to_contain_text(says)
    # The saved work is the scene shown, before Python is live too (the draft needs no Python).
    fresh_page.wait_for_function(
        "(saved) => JSON.stringify(window.attentionPlayground?.getScene()) === JSON.stringify(saved)", arg=saved)
    if held:
        expect(fresh_page.locator(sel("playground"))).to_have_attribute("data-status", "preview")
        fresh_page.close()  # with its WebAssembly still held back, so that no Python starts booting as it goes
    if says == "incomplete":
        # One of them all the way: the page goes live on the saved work after the broken link.
        wait_live(fresh_page)
        assert get_scene(fresh_page) == saved
        fresh_page.screenshot(path=str(artifacts / "sharing-broken-link.png"), full_page=True)


def test_a_broken_link_with_nothing_saved_shows_the_default_example(fresh_page, site_url):
    open_live(fresh_page, f"{site_url}/#s=2.AAAA")
    expect(fresh_page.locator(sel("notice-text"))).to_contain_text("This link")
    assert get_scene(fresh_page) == preset_scene(DEFAULT_PRESET)
