"""Fields locked by the author (`lock=` in a frame's address): locked cells are read-only and say so, in a note and in
their accessible names; even an input event past them is refused; the positions switch can be locked; every
control that edits names its edit and every edit its lockable fields; and the locks hold for every way a learner
could replace the scene, while the course page itself may still set one.
"""

import json
import re

from playwright.sync_api import expect

from page_helpers import await_ready, preset_scene, sel


def test_locked_fields_are_read_only_and_cannot_be_changed(embed_page, site_url, artifacts):
    page = embed_page
    page.goto(f"{site_url}/index.html?embed&lock=X,Wq,mask#preset=dog-bites-man")
    await_ready(page)
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    expect(page.locator(sel("scene-title"))).to_have_text("dog bites man")
    scene_before = page.evaluate("window.attentionPlayground.getScene()")

    # A learner clicks a locked X cell and types: the cell is read-only and nothing changes.
    x_cell = page.locator(sel("x-cell", row=0, column=0))
    x_cell.click()
    expect(page.locator(sel("x-cell", row=0, column=0))).to_have_js_property("readOnly", True)
    page.keyboard.press("Control+a")
    page.keyboard.type("7")
    expect(page.locator(sel("x-cell", row=0, column=0))).to_have_value(str(scene_before["X"][0][0]))
    wq_cell = page.locator(sel("wq-cell", row=0, column=0))
    wq_cell.click()
    expect(page.locator(sel("wq-cell", row=0, column=0))).to_have_js_property("readOnly", True)
    page.keyboard.type("9")
    expect(page.locator(sel("token-name", row=0))).to_have_js_property("readOnly", False)  # tokens not locked
    for mode in ("none", "causal", "custom"):
        expect(page.locator(sel(f"mask-{mode}"))).to_be_disabled()
    expect(page.locator(sel("add-feature"))).to_be_disabled()

    # Even an input event that gets past the read-only inputs (a script, a browser extension) is refused.
    page.evaluate("""() => {
      const cell = document.querySelector('[data-testid="x-cell"][data-row="1"][data-column="0"]');
      cell.focus();
      const input = document.querySelector('[data-testid="x-cell"][data-row="1"][data-column="0"]');
      input.readOnly = false;
      input.value = "5";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }""")
    assert page.evaluate("window.attentionPlayground.getScene()") == scene_before

    # A field that is not locked still edits as usual, and recomputes.
    wk_cell = page.locator(sel("wk-cell", row=0, column=0))
    wk_cell.click()
    page.keyboard.press("Control+a")
    page.keyboard.type("3")
    page.wait_for_function("() => window.attentionPlayground.getScene().heads[0].Wk[0][0] === 3")
    page.wait_for_function("() => window.attentionPlayground.result().heads[0].stages.K[0][0] === 3")
    after = page.evaluate("window.attentionPlayground.getScene()")
    assert after["X"] == scene_before["X"] and after["heads"][0]["Wq"] == scene_before["heads"][0]["Wq"]
    assert after["mask"] == scene_before["mask"]
    page.locator(sel("x-cell", row=0, column=0)).focus()
    page.screenshot(path=str(artifacts / "embed-locked-fields.png"), full_page=True)


def test_locked_fields_say_they_are_locked(embed_page, site_url, artifacts):
    """A greyed cell that ignores typing must say why: a visible note in its panel, and an accessible name
    ending in "locked by this page"."""
    page = embed_page
    page.goto(f"{site_url}/index.html?embed&lock=X,Wq#preset=dog-bites-man")
    await_ready(page)
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    feature_note = page.locator(f'{sel("feature-editor")} {sel("lock-note")}')
    expect(feature_note).to_be_visible()
    # X's cells are here, and Wq's reach here too: a feature is a column of X and a row of Wq, so neither
    # "+ feature" nor "× feature" can be used.
    expect(feature_note).to_contain_text("Locked by this page: X, Wq. The greyed controls cannot be changed here")
    expect(page.locator(f'{sel("weight-editor")} {sel("lock-note")}')).to_contain_text("Locked by this page: Wq.")
    expect(page.locator(sel("add-feature"))).to_have_accessible_name(re.compile("locked by this page$"))
    # Every locked cell is named as locked, drawn or being edited; an unlocked one is not.
    expect(page.locator(sel("x-cell", row=0, column=1))).to_have_accessible_name(re.compile(r"^.+ of “dog”, locked by this page$"))
    expect(page.locator(sel("wq-cell", row=1, column=0))).to_have_accessible_name(re.compile(r"locked by this page$"))
    expect(page.locator(sel("wk-cell", row=1, column=0))).not_to_have_accessible_name(re.compile("locked"))
    cell = page.locator(sel("x-cell", row=0, column=1))
    cell.click()
    expect(page.locator(sel("x-cell", row=0, column=1))).to_have_accessible_name(re.compile(r"^.+ of “dog”, locked by this page$"))
    expect(page.locator(sel("x-cell", row=0, column=1))).to_have_attribute("title", re.compile("^Locked by this page"))
    # Typing into it changes nothing, and the note says that this cell is locked.
    page.keyboard.type("7")
    expect(page.locator(sel("x-cell", row=0, column=1))).to_have_value("0")
    expect(feature_note).to_contain_text("This one, f1 of “dog”, is locked by this page: it cannot be changed here.")
    page.locator(sel("feature-editor")).screenshot(path=str(artifacts / "embed-locked-note.png"))


def test_the_positions_switch_can_be_locked(embed_page, site_url):
    page = embed_page
    page.goto(f"{site_url}/index.html?embed&panels=heatmap,experiments&lock=positions#preset=it-animal-noun")
    await_ready(page)
    page.locator(sel("experiment-tab-order")).click()
    toggle = page.locator(sel("positions-toggle"))
    expect(toggle).to_be_disabled()
    expect(toggle).to_have_accessible_name(re.compile("locked by this page$"))
    expect(page.locator(f'{sel("experiments")} {sel("lock-note")}')).to_contain_text("Locked by this page: the positions.")
    # Even by script, the edit is refused.
    page.evaluate("""() => { const box = document.querySelector('[data-testid="positions-toggle"]');
                             box.disabled = false; box.click(); }""")
    assert page.evaluate("window.attentionPlayground.getScene().positions ?? 'none'") == "none"


def test_every_control_that_edits_names_its_edit_and_every_edit_its_lockable_fields(live_page):
    """Locks reach controls through the table of edits (scene/edits.js), so each must be complete: every control
    on the page that changes the scene says which edit it makes, and every edit names fields that can be locked."""
    page = live_page
    page.locator(sel("mask-custom")).check()
    page.locator(sel("wv-onehot")).uncheck()  # Wv as a matrix: its cells and its value dims' controls
    expect(page.locator(sel("value-dim-name")).first).to_be_attached()
    page.locator(sel("positions-toggle")).wait_for(state="attached")  # the experiments, mounted once live
    found = page.evaluate("""async () => {
      const { EDIT_KINDS, LOCKABLE_FIELDS, fieldsEditedBy } = await import("/js/scene/edits.js");
      const controls = [...document.querySelectorAll("[data-edit]")].map((control) =>
        ({ kind: control.dataset.edit, matrix: control.dataset.matrix ?? null }));
      const named = new Set();
      for (const kind of Object.keys(EDIT_KINDS)) {
        for (const matrix of kind === "cell" ? ["X", "Wq", "Wk", "Wv"] : [null]) {
          for (const field of fieldsEditedBy({ kind, matrix })) named.add(field);
        }
      }
      return { kinds: Object.keys(EDIT_KINDS), lockable: [...LOCKABLE_FIELDS], named: [...named], controls };
    }""")
    assert sorted(found["named"]) == sorted(found["lockable"]), "every lockable field is changed by some edit, and only those"
    used = {control["kind"] for control in found["controls"]}
    assert used <= set(found["kinds"]), used - set(found["kinds"])
    # The page's controls make every kind of edit but the heatmap's own: a custom mask's cells, which are not
    # controls (a click there masks a read, or focuses a row).
    assert set(found["kinds"]) - used == {"toggle-mask"}, set(found["kinds"]) - used
    assert all(control["matrix"] in ("X", "Wq", "Wk", "Wv") for control in found["controls"] if control["kind"] == "cell")


def test_locks_hold_for_every_way_a_learner_can_replace_the_scene(embed_page, site_url):
    """With X and Wq locked, the panels the author shows beside them (the example picker, the experiments, the
    heads) must not bring in another scene; a scene file dropped on the frame neither. The course page itself
    may still set a scene."""
    page = embed_page
    panels = "presets,heatmap,bars,features,weights,heads,experiments"
    page.goto(f"{site_url}/index.html?embed&panels={panels}&lock=X,Wq#preset=it-animal-noun")
    await_ready(page)
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    expect(page.locator(sel("experiment-tab-one-thing"))).to_be_visible()
    locked_scene = page.evaluate("window.attentionPlayground.getScene()")
    notice = page.locator(sel("notice-text"))

    # The example picker.
    page.locator(sel("preset-picker")).select_option("dog-bites-man")
    expect(notice).to_contain_text("This page keeps X and Wq as they are")
    expect(page.locator(sel("preset-picker"))).to_have_value("it-animal-noun")
    assert page.evaluate("window.attentionPlayground.getScene()") == locked_scene

    # "Load the two-heads example" in the heads panel.
    page.locator(sel("load-two-heads")).click()
    expect(notice).to_contain_text("the example “two heads")
    assert page.evaluate("window.attentionPlayground.getScene()") == locked_scene

    # The variations rewrite Wq: their buttons are locked, and say so; an edit sent anyway is refused.
    expect(page.locator(sel("variation-strength-8"))).to_be_disabled()
    expect(page.locator(sel("variation-strength-8"))).to_have_accessible_name(re.compile("locked by this page$"))
    page.locator(sel("variation-strength-8")).evaluate("(button) => { button.disabled = false; button.click(); }")
    assert page.evaluate("window.attentionPlayground.getScene()") == locked_scene

    # Shuffling the words moves the rows of X.
    page.locator(sel("experiment-tab-order")).click()
    page.locator(sel("shuffle-button")).click()
    expect(page.locator(sel("shuffle-check"))).to_contain_text("Could not shuffle: This page keeps X as they are")
    assert page.evaluate("window.attentionPlayground.getScene()") == locked_scene

    # A scene file dropped on the frame.
    transfer = page.evaluate_handle(
        """text => { const transfer = new DataTransfer();
                     transfer.items.add(new File([text], "mine.json", {type: "application/json"})); return transfer; }""",
        json.dumps(preset_scene("dog-bites-man")),
    )
    page.dispatch_event(sel("heatmap-panel"), "drop", {"dataTransfer": transfer})
    expect(notice).to_contain_text("“mine.json” would change them")
    assert page.evaluate("window.attentionPlayground.getScene()") == locked_scene

    # The author's own page may change the scene: setScene is not the learner's doing.
    dog = preset_scene("dog-bites-man")
    page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", dog)
    assert page.evaluate("window.attentionPlayground.getScene()")["tokens"] == dog["tokens"]
