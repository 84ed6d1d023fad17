"""Saved work, checked after a real reload: edits survive it, even an invalid one, with every panel open and the
tabs chosen; a script stepping through scenes leaves only the last one saved; an edited scene is saved at once
when another replaces it; "reset to example" and another example and back keep the edits to bring back; when
storage fails the page says so and keeps working; and how drafts are keyed.
"""

from playwright.sync_api import expect

from attention_playground.presets import random_scene
from page_helpers import (
    CAT, DEFAULT_PRESET, NOUN_DIM, PRONOUN, module_error, open_live, preset_scene, sel, type_into, wait_live)
from sharing_helpers import (
    STORAGE_PREFIX, expect_cell, expect_every_panel_open_at_the_tabs, focused_heading, get_scene,
    open_every_panel_and_pick_tabs, wait_saved)


def test_saved_work_keeps_every_panel_open_and_the_tabs_chosen(page, site_url):
    open_live(page, f"{site_url}/")
    type_into(page, page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "2")
    open_every_panel_and_pick_tabs(page)
    wait_saved(page)
    page.wait_for_function(
        """() => Object.keys(localStorage).some((key) => key.endsWith("/draft/it-animal-noun")
                 && JSON.parse(localStorage.getItem(key)).view.experiment === "scaling")""")
    page.reload()
    wait_live(page)
    expect_every_panel_open_at_the_tabs(page)


def test_edits_survive_a_reload_even_an_invalid_one(page, site_url, artifacts):
    open_live(page, f"{site_url}/")
    type_into(page, page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "2.50")
    type_into(page, page.locator(sel("x-cell", row=CAT, column=1)), "abc")
    page.locator(sel("row-label")).nth(CAT).click()
    wait_saved(page)
    expect(page.locator(sel("save-text"))).to_have_text("✓ Your edits, saved in this browser.")
    edited = get_scene(page)
    keys = page.evaluate("Object.keys(localStorage).sort()")
    assert keys == [f"{STORAGE_PREFIX}/current", f"{STORAGE_PREFIX}/draft/{DEFAULT_PRESET}"]

    page.reload()
    wait_live(page)
    # Exactly as typed: "2.50" (not 2.5) and "abc", with the module's message for it.
    expect_cell(page, sel("wq-cell", row=PRONOUN, column=NOUN_DIM), "2.50")
    expect_cell(page, sel("x-cell", row=CAT, column=1), "abc")
    expect(page.locator(sel("x-error"))).to_have_text(f"⚠ {module_error(edited)}")
    assert get_scene(page) == edited
    expect(page.locator(sel("save-text"))).to_have_text("✓ Your edits, saved in this browser.")
    expect(page.locator(sel("preset-reset"))).to_be_visible()
    page.screenshot(path=str(artifacts / "sharing-after-reload.png"), full_page=True)
    # Fixing the cell draws the result, focused on the token the learner had chosen.
    type_into(page, page.locator(sel("x-cell", row=CAT, column=1)), "1")
    expect(page.locator(sel("x-error"))).to_be_hidden()
    expect(focused_heading(page)).to_have_text("Where “cat” pays attention")
    edited["X"][CAT][1] = 1
    assert get_scene(page) == edited


# A course page's script sweeping one weight through 40 values, each shown and waited for, then a pause longer
# than saving waits for; returns the saved scenes of one's own.
SWEEP_ONE_WEIGHT = """async () => {
  const scene = window.attentionPlayground.getScene();
  for (let i = 0; i < 40; i += 1) {
    scene.heads[0].Wq[0][0] = i / 10;
    await window.attentionPlayground.setScene(scene);
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return Object.keys(localStorage).filter((key) => key.includes("/draft/scene-"));
}"""


def test_a_script_stepping_through_scenes_leaves_only_the_last_one_saved(page, site_url):
    """Each scene the script shows is on screen for a moment and nothing of the learner's is in it: only the one
    left on screen is saved (for a reload). Saving every one filled the browser's storage at 64 tokens, after
    which the learner's own edits could not be saved."""
    open_live(page, f"{site_url}/")
    saved = page.evaluate(SWEEP_ONE_WEIGHT)
    assert len(saved) == 1, saved
    shown = get_scene(page)
    assert page.evaluate("(key) => JSON.parse(localStorage.getItem(key)).draft.heads[0].Wq[0][0]", saved[0]) == "3.9"
    assert shown["heads"][0]["Wq"][0][0] == 3.9
    # The learner's edit of the scene on screen is saved as always, and a reload brings it back.
    type_into(page, page.locator(sel("wq-cell", row=1, column=0)), "7")
    wait_saved(page)
    edited = get_scene(page)
    page.reload()
    wait_live(page)
    assert get_scene(page) == edited


def test_an_edited_scene_is_saved_at_once_when_another_replaces_it(live_page):
    """Replacing a scene does not wait for the edits to pause: they are written before the new scene shows."""
    live_page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", random_scene(4, digits=2))
    type_into(live_page, live_page.locator(sel("wq-cell", row=0, column=0)), "5")
    edited = get_scene(live_page)
    live_page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", random_scene(5, digits=2))
    saved = live_page.evaluate("""() => Object.keys(localStorage).filter((key) => key.includes("/draft/scene-"))
      .map((key) => JSON.parse(localStorage.getItem(key)).draft.heads[0].Wq[0][0])""")
    assert "5" in saved, saved
    assert edited["heads"][0]["Wq"][0][0] == 5


def test_reset_to_example_keeps_the_edits_to_bring_back(page, site_url, artifacts):
    open_live(page, f"{site_url}/")
    cell = sel("wq-cell", row=PRONOUN, column=NOUN_DIM)
    type_into(page, page.locator(cell), "0")
    wait_saved(page)
    mine = get_scene(page)
    reset = page.locator(sel("preset-reset"))
    expect(reset).to_have_text("reset to example")
    reset.click()
    expect_cell(page, cell, "4")
    assert get_scene(page) == preset_scene(DEFAULT_PRESET)
    expect(page.locator(sel("notice-text"))).to_contain_text("The example is back as it was")
    expect(reset).to_be_hidden()
    page.screenshot(path=str(artifacts / "sharing-reset.png"), full_page=True)
    # After a reload the example is as shipped; the kept edits can still be brought back.
    page.reload()
    wait_live(page)
    assert get_scene(page) == preset_scene(DEFAULT_PRESET)
    page.locator(sel("restore-kept")).click()
    expect_cell(page, cell, "0")
    assert get_scene(page) == mine


def test_another_example_and_back_brings_the_edits_back(live_page, artifacts):
    type_into(live_page, live_page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "1")
    mine = get_scene(live_page)
    picker = live_page.locator(sel("preset-picker"))
    picker.select_option("dog-bites-man")
    expect(live_page.locator(sel("scene-title"))).to_have_text("dog bites man")
    assert get_scene(live_page) == preset_scene("dog-bites-man")
    # Nothing saved for this example: its line says nothing (it keeps its place, so nothing moves when it does).
    expect(live_page.locator(sel("save-text"))).to_have_text("")
    picker.select_option(DEFAULT_PRESET)
    expect_cell(live_page, sel("wq-cell", row=PRONOUN, column=NOUN_DIM), "1")
    assert get_scene(live_page) == mine
    expect(live_page.locator(sel("save-text"))).to_have_text("✓ Your edits, saved in this browser.")
    expect(live_page.locator(sel("preset-reset"))).to_be_visible()
    live_page.screenshot(path=str(artifacts / "sharing-edits-back.png"), full_page=True)


def test_when_storage_fails_the_page_says_so_and_keeps_working(page, site_url, artifacts):
    page.add_init_script(
        """Storage.prototype.setItem = function () {
            throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        };"""
    )
    open_live(page, f"{site_url}/")
    type_into(page, page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "1")
    status = page.locator(sel("save-status"))
    expect(status).to_contain_text("storage is full")
    expect(status).to_have_attribute("data-tone", "error")
    expect(page.locator(f'{sel("bar-row", token_index=CAT)} {sel("bar-value")}')).not_to_have_text("92.0%")
    page.screenshot(path=str(artifacts / "sharing-storage-full.png"), full_page=True)


def test_storage_keys_are_built_from_mode_and_scene(live_page):
    keys = live_page.evaluate(
        """() => import('./js/sharing/saved-drafts.js').then((m) => [
            m.storageKey('page', 'dog-bites-man'),
            m.storageKey('embed', 'dog-bites-man'),
            m.storageKey('embed', m.sceneIdentity({tokens: ['a'], b: 1})),
            m.sceneIdentity({b: 1, tokens: ['a']}),
            m.sceneIdentity({tokens: ['a'], b: 2}),
        ])"""
    )
    assert keys[0] == "attention-playground/v1/page/draft/dog-bites-man"
    assert keys[1] == "attention-playground/v1/embed/draft/dog-bites-man"
    assert keys[2] == f"attention-playground/v1/embed/draft/{keys[3]}"  # key order does not matter
    assert keys[3].startswith("scene-") and len(keys[3]) == 22 and keys[3] != keys[4]
