"""The page as a learner uses it, in real Chromium with real Pyodide.

Each test opens the page, acts the way a learner would (typing into the grids, clicking the heatmap,
picking examples) and checks what is on screen against the tutorial's numbers or against the same
module run natively. Screenshots go to tests/artifacts/ for a person to look at.
"""

import copy
import json
import math
from pathlib import Path

from playwright.sync_api import expect

from attention_playground import compute
from attention_playground.presets import random_scene
from page_helpers import PRESETS, module_error, page_constant, preset_scene, sel, shown_bar_shares, type_into

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PRESET = "it-animal-noun"

# Positions in the default scene, "the cat sat on the mat because it was tired".
IT, CAT, MAT = 7, 1, 5
# Rows of Wq are features (noun, animal, pronoun, …); its columns are the dims (animal, noun).
PRONOUN, ANIMAL_DIM, NOUN_DIM = 2, 0, 1


def bar_value(page, token_index):
    return page.locator(f'{sel("bar-row", token_index=token_index)} {sel("bar-value")}')


def cell_value(page, row, column):
    """The number written in heatmap cell (row, column)."""
    return page.locator(sel("heatmap-cell", row=row, column=column)).locator("xpath=following-sibling::*[1]")


def assert_weights_equal(browser_result, native_result, tolerance=1e-12):
    assert len(browser_result["heads"]) == len(native_result["heads"])
    for browser_head, native_head in zip(browser_result["heads"], native_result["heads"]):
        for browser_row, native_row in zip(browser_head["weights"], native_head["weights"], strict=True):
            for got, want in zip(browser_row, native_row, strict=True):
                if want is None:  # nan from the overflow trap crosses as null on both sides
                    assert got is None
                else:
                    assert got is not None and math.isclose(got, want, rel_tol=0, abs_tol=tolerance)


def test_preview_is_drawn_before_python_is_live_then_the_page_goes_live(page, site_url, artifacts):
    # Hold back Python's WebAssembly so the page is certainly still waiting for it.
    held = []
    page.route("**/vendor/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(f"{site_url}/")

    expect(page.locator(sel("preview-badge"))).to_be_visible()
    expect(page.locator(sel("heatmap-cell"))).to_have_count(100)
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "preview")
    ready_settled = page.evaluate(
        """() => {
            let settled = false;
            window.attentionPlayground.ready.then(() => (settled = true), () => (settled = true));
            return new Promise((resolve) => setTimeout(() => resolve(settled), 50));
        }"""
    )
    assert ready_settled is False
    # The preview is the default example, computed natively by build.py: "it" spends 92% on "cat".
    expect(bar_value(page, CAT)).to_have_text("92.0%")
    expect(cell_value(page, IT, CAT)).to_have_text("0.920")
    expect(page.locator(sel("boot-stage"))).not_to_have_text("Python is live: every edit recomputes")
    page.screenshot(path=str(artifacts / "page-preview.png"), full_page=True)
    # A scene set now waits for Python instead of failing.
    dog = preset_scene("dog-bites-man")
    page.evaluate("s => { window.pendingWeights = window.attentionPlayground.setScene(s).then((r) => r.heads[0].weights); }", dog)

    for route in held:
        route.continue_()
    page.unroute("**/vendor/pyodide/pyodide.asm.wasm")
    page.evaluate("window.attentionPlayground.ready")
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    expect(page.locator(sel("preview-badge"))).to_be_hidden()
    expect(page.locator(sel("boot-stage"))).to_contain_text("live")
    # The scene set while Python was starting is computed now, and shown.
    weights = page.evaluate("window.pendingWeights")
    assert_weights_equal({"heads": [{"weights": weights}]}, compute(dog))
    expect(page.locator(sel("scene-title"))).to_have_text("dog bites man")
    expect(page.locator(sel("heatmap-cell"))).to_have_count(9)
    page.screenshot(path=str(artifacts / "page-live.png"), full_page=True)


def test_typing_into_wq_reproduces_the_part_6_variations(live_page, artifacts):
    expect(live_page.locator(sel("bars-heading"))).to_have_text("Where “it” pays attention")
    expect(bar_value(live_page, CAT)).to_have_text("92.0%")
    expect(bar_value(live_page, MAT)).to_have_text("5.4%")
    expect(cell_value(live_page, IT, CAT)).to_have_text("0.920")

    pronoun_animal = live_page.locator(sel("wq-cell", row=PRONOUN, column=ANIMAL_DIM))
    pronoun_noun = live_page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM))

    # Remove the noun match: cat keeps the lead but loses the extra score.
    type_into(live_page, pronoun_noun, "0")
    expect(bar_value(live_page, CAT)).to_have_text("65.3%")
    # The cell being typed in was not rebuilt by the recompute: focus and text are still there.
    assert live_page.evaluate("document.activeElement.dataset.testid") == "wq-cell"
    expect(pronoun_noun).to_be_focused()
    expect(pronoun_noun).to_have_value("0")
    live_page.screenshot(path=str(artifacts / "page-wq-no-noun-match.png"), full_page=True)

    for strength, share in (("1", "29.1%"), ("5", "96.5%"), ("8", "99.6%")):
        type_into(live_page, pronoun_animal, strength)
        type_into(live_page, pronoun_noun, strength)
        expect(bar_value(live_page, CAT)).to_have_text(share)

    # The heatmap agrees with the module run natively on the scene now on the page. Wq = [8, 5] on the way
    # there also reads 99.6%, so wait for the result of the last keystroke (results echo the Wq they used).
    scene = live_page.evaluate("window.attentionPlayground.getScene()")
    assert scene["heads"][0]["Wq"][PRONOUN] == [8, 8]
    live_page.wait_for_function(
        "(row) => JSON.stringify(window.attentionPlayground.result().heads[0].Wq[row]) === '[8,8]'", arg=PRONOUN
    )
    assert_weights_equal(live_page.evaluate("window.attentionPlayground.result()"), compute(scene))

    # Hovering a cell explains it: the weight and the score that produced it.
    live_page.locator(sel("heatmap-cell", row=IT, column=CAT)).hover()
    tooltip = live_page.locator(sel("heatmap-tooltip"))
    expect(tooltip).to_be_visible()
    expect(tooltip).to_contain_text("weight 0.996 (99.6%)")
    expect(tooltip).to_contain_text("score q·k = 16, ÷ √2 = 11.3137")  # [8, 8] · [1, 1] = 16
    live_page.screenshot(path=str(artifacts / "page-wq-strength-8.png"), full_page=True)


def test_a_bad_cell_shows_the_module_message_there_and_keeps_the_last_good_heatmap(live_page, artifacts):
    cat_animal = live_page.locator(sel("x-cell", row=CAT, column=1))
    type_into(live_page, cat_animal, "abc")

    bad_scene = preset_scene(DEFAULT_PRESET)
    bad_scene["X"][CAT][1] = "abc"
    message = module_error(bad_scene)
    expect(live_page.locator(sel("x-error"))).to_have_text(f"⚠ {message}")
    expect(cat_animal).to_have_attribute("aria-invalid", "true")
    expect(cat_animal).to_have_value("abc")
    expect(cat_animal).to_be_focused()
    expect(live_page.locator(sel("stale-note"))).to_contain_text("showing the last good result")
    # The last good heatmap stays on screen, with its numbers.
    expect(live_page.locator(sel("heatmap-cell"))).to_have_count(100)
    expect(bar_value(live_page, CAT)).to_have_text("92.0%")
    assert live_page.evaluate("window.attentionPlayground.getScene().X[1][1]") == "abc"
    live_page.screenshot(path=str(artifacts / "page-bad-cell.png"), full_page=True)

    # Fixing the cell clears the message and recomputes: cat is no longer an animal, so it drops.
    type_into(live_page, cat_animal, "0")
    expect(live_page.locator(sel("x-error"))).to_be_hidden()
    expect(live_page.locator(sel("stale-note"))).to_be_hidden()
    expect(cat_animal).not_to_have_attribute("aria-invalid", "true")
    fixed = preset_scene(DEFAULT_PRESET)
    fixed["X"][CAT][1] = 0
    want = compute(fixed)["heads"][0]["weights"][IT][CAT]
    expect(bar_value(live_page, CAT)).to_have_text(f"{want * 100:.1f}%")


# Every transition that starts on the page, by the test id (else the first class) of its element and the property.
RECORD_TRANSITIONS = """() => {
  window.transitionsSeen = [];
  document.addEventListener("transitionrun", (event) => {
    window.transitionsSeen.push([event.target.dataset.testid ?? event.target.classList[0], event.propertyName]);
  });
}"""


def shares_by_token(page):
    """The focused token's bars: how much of its track each covers, by token index."""
    return {int(row["tokenIndex"]): share for row, share in shown_bar_shares(page, "bar-row")}


def test_each_bar_covers_its_share_and_glides_there_by_transform_alone(live_page):
    live_page.evaluate(RECORD_TRANSITIONS)
    type_into(live_page, live_page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "0")
    expect(bar_value(live_page, CAT)).to_have_text("65.3%")

    weights = live_page.evaluate("window.attentionPlayground.result()")["heads"][0]["weights"][IT]
    shares = shares_by_token(live_page)
    assert len(shares) == len(weights)
    for j, weight in enumerate(weights):
        assert math.isclose(shares[j], weight, abs_tol=0.01), f"token {j}: bar shows {shares[j]}, weight {weight}"
    # The bars glided there, and only by a transform: a width transition would lay out the page at every frame.
    seen = live_page.evaluate("window.transitionsSeen")
    bars = [prop for test_id, prop in seen if test_id == "bar-fill"]
    assert bars and set(bars) == {"transform"}, seen
    assert all(prop in ("transform", "opacity") for _, prop in seen), seen


def test_the_bars_of_a_long_row_jump_to_their_shares(live_page):
    scene = random_scene(64, seed=3, digits=2)
    live_page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", scene)
    expect(live_page.locator(sel("bar-row"))).to_have_count(64)
    live_page.evaluate(RECORD_TRANSITIONS)
    changed = copy.deepcopy(scene)
    changed["heads"][0]["Wq"][0][0] += 3
    live_page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", changed)

    last = len(scene["tokens"]) - 1  # a scene with no "it" focuses its last token
    expect(live_page.locator(sel("bars-heading"))).to_have_text(f"Where “{scene['tokens'][last]}” pays attention")
    weights = live_page.evaluate("window.attentionPlayground.result()")["heads"][0]["weights"][last]
    shares = shares_by_token(live_page)
    for j, weight in enumerate(weights):
        assert math.isclose(shares[j], weight, abs_tol=0.01), f"token {j}: bar shows {shares[j]}, weight {weight}"
    assert [prop for test_id, prop in live_page.evaluate("window.transitionsSeen") if test_id == "bar-fill"] == []


def test_a_redraw_that_moves_no_outline_leaves_the_outlines_untouched(live_page):
    # Chromium lays out a whole SVG again when any attribute of it is written, even with the value it had:
    # at 64 tokens, that is 4,096 cells at every update for an outline that stayed where it was.
    live_page.evaluate("""() => {
      window.outlineWrites = [];
      const outlines = document.querySelectorAll('[data-testid="heatmap"] .focus-outline, [data-testid="heatmap"] .hover-outline');
      const watcher = new MutationObserver((records) => window.outlineWrites.push(...records.map((r) => r.attributeName)));
      outlines.forEach((outline) => watcher.observe(outline, { attributes: true }));
    }""")
    type_into(live_page, live_page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "0")
    expect(bar_value(live_page, CAT)).to_have_text("65.3%")
    assert live_page.evaluate("window.outlineWrites") == []
    # Focusing another row moves the focus outline: that write is kept.
    live_page.locator(sel("row-label", row=CAT)).click()
    expect(live_page.locator(sel("bars-heading"))).to_have_text("Where “cat” pays attention")
    assert "y" in live_page.evaluate("window.outlineWrites")


def test_clicking_a_cell_in_custom_mask_mode_masks_it_and_renormalises_the_row(live_page, artifacts):
    live_page.locator(sel("mask-custom")).check()
    live_page.locator(sel("heatmap-cell", row=IT, column=CAT)).click()

    cell = live_page.locator(sel("heatmap-cell", row=IT, column=CAT))
    expect(cell).to_have_attribute("data-masked", "true")
    expect(bar_value(live_page, CAT)).to_have_text("may not read")
    result = live_page.evaluate("window.attentionPlayground.result()")
    row = result["heads"][0]["weights"][IT]
    assert row[CAT] == 0
    assert math.isclose(sum(row), 1.0, abs_tol=1e-12)
    assert result["mask"][IT][CAT] is True and sum(map(sum, result["mask"])) == 1
    scene = live_page.evaluate("window.attentionPlayground.getScene()")
    assert scene["mask"][IT][CAT] is True
    assert_weights_equal(result, compute(scene))
    # With cat out of reach, "mat" (the only other noun) takes the lead.
    expect(live_page.locator(sel("bar-row")).first).to_have_attribute("data-token-index", str(MAT))
    live_page.screenshot(path=str(artifacts / "page-custom-mask.png"), full_page=True)

    # A second click lets "it" read "cat" again.
    cell.click()
    expect(cell).to_have_attribute("data-masked", "false")
    expect(bar_value(live_page, CAT)).to_have_text("92.0%")


def test_every_preset_set_through_the_api_matches_the_native_module(live_page, artifacts):
    index = json.loads((PRESETS / "index.json").read_text())
    assert index, "no presets were built"
    for entry in index:
        scene = preset_scene(entry["id"])
        result = live_page.evaluate("scene => window.attentionPlayground.setScene(scene)", scene)
        assert_weights_equal(result, compute(scene))
        # The page shows the scene it was given, and getScene() gives it back unchanged.
        assert live_page.evaluate("window.attentionPlayground.getScene()") == scene
        expect(live_page.locator(sel("scene-title"))).to_have_text(scene["title"])
        expect(live_page.locator(sel("heatmap-cell"))).to_have_count(len(scene["tokens"]) ** 2)
        live_page.screenshot(path=str(artifacts / f"page-preset-{entry['id']}.png"), full_page=True)

    # A learner picks an example from the list: the page loads it and computes it live.
    live_page.locator(sel("preset-picker")).select_option("dog-bites-man")
    expect(live_page.locator(sel("scene-title"))).to_have_text("dog bites man")
    expect(live_page.locator(sel("bars-heading"))).to_have_text("Where “man” pays attention")
    native = compute(preset_scene("dog-bites-man"))["heads"][0]["weights"][2]
    for j, weight in enumerate(native):
        expect(bar_value(live_page, j)).to_have_text(f"{weight * 100:.1f}%")


def test_a_stream_of_set_scene_calls_leaves_the_list_of_examples_as_it_is(live_page):
    """Each scene a course page's script shows reaches the example picker; while what it lists stays the same,
    its options are the same elements (a stream of setScene calls rebuilt them every time)."""
    picker = live_page.locator(sel("preset-picker"))
    listed = len(json.loads((PRESETS / "index.json").read_text()))
    expect(picker.locator("option")).to_have_count(listed)
    live_page.evaluate("scene => window.attentionPlayground.setScene(scene)", random_scene(4, seed=1))
    expect(picker.locator("option")).to_have_count(listed + 1)
    expect(picker).to_have_value("")
    live_page.evaluate("""() => { for (const option of document.querySelectorAll('[data-testid="preset-picker"] option')) option.dataset.seen = "1"; }""")
    for seed in (2, 3):
        live_page.evaluate("scene => window.attentionPlayground.setScene(scene)", random_scene(4, seed=seed))
    assert live_page.evaluate("""() => Array.from(document.querySelectorAll('[data-testid="preset-picker"] option'), (option) => option.dataset.seen)""") == ["1"] * (listed + 1)
    expect(picker.locator("option").first).to_have_text("— your own scene —")
    expect(picker).to_have_value("")
    # Picking an example changes what the list holds: the entry for a scene of one's own goes.
    picker.select_option("dog-bites-man")
    expect(picker.locator("option")).to_have_count(listed)
    expect(picker).to_have_value("dog-bites-man")


def test_a_scene_set_again_unchanged_gives_the_same_result_and_puts_back_what_was_edited(live_page):
    """setScene of the scene already on show answers from what the page holds (Python is not asked again); it
    must give the same result, leave the page as showing it anew would, and never answer for an edited draft."""
    scene = preset_scene(DEFAULT_PRESET)
    set_scene = "scene => window.attentionPlayground.setScene(scene)"
    first = live_page.evaluate(set_scene, scene)
    assert_weights_equal(first, compute(scene))
    # The learner looks at another token: showing the scene again focuses "it" again, as a new scene does.
    live_page.locator(sel("row-label", row=CAT)).click()
    expect(live_page.locator(sel("bars-heading"))).to_have_text("Where “cat” pays attention")
    again = live_page.evaluate(set_scene, scene)
    assert again == first
    assert live_page.evaluate("window.attentionPlayground.result()") == first
    expect(live_page.locator(sel("bars-heading"))).to_have_text("Where “it” pays attention")

    # An edit in between: the same scene set again replaces it, with the scene's own result.
    pronoun_noun = live_page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM))
    type_into(live_page, pronoun_noun, "0")
    expect(bar_value(live_page, CAT)).to_have_text("65.3%")
    assert live_page.evaluate(set_scene, scene) == first
    assert live_page.evaluate("window.attentionPlayground.getScene()") == scene
    expect(bar_value(live_page, CAT)).to_have_text("92.0%")

    # Two calls in a row, not awaited, then the first scene again: each gets its own scene's result, in order.
    other = copy.deepcopy(scene)
    other["heads"][0]["Wq"][PRONOUN][NOUN_DIM] = 0
    results = live_page.evaluate(
        "([a, b]) => Promise.all([a, b, a].map((scene) => window.attentionPlayground.setScene(scene)))", [scene, other]
    )
    assert results[0] == first and results[2] == first
    assert_weights_equal(results[1], compute(other))
    assert live_page.evaluate("window.attentionPlayground.getScene()") == scene


#: How long a view far from the screen waits for the updates to pause before it catches up.
FAR_VIEW_STILL_MS = page_constant("page/deferred-views.js", "FAR_VIEW_STILL_MS")

# Every write to a form control's value, checked, disabled or selectedIndex while the calls run, with whether it
# wrote what the control already held; the controls' own setters are put back at the end.
CONTROL_WRITES = """async ({ scenes, catchUpMs }) => {
  const hooked = [
    [HTMLInputElement.prototype, ["value", "checked", "disabled"]],
    [HTMLSelectElement.prototype, ["value", "disabled", "selectedIndex"]],
    [HTMLTextAreaElement.prototype, ["value", "disabled"]],
  ];
  const writes = [];
  const originals = [];
  for (const [prototype, names] of hooked) {
    for (const name of names) {
      const original = Object.getOwnPropertyDescriptor(prototype, name);
      originals.push([prototype, name, original]);
      Object.defineProperty(prototype, name, {
        ...original,
        set(value) {
          writes.push({ control: this.dataset.testid ?? this.id, property: name, same: original.get.call(this) === value });
          original.set.call(this, value);
        },
      });
    }
  }
  try {
    for (const scene of scenes) await window.attentionPlayground.setScene(scene);
    // Views far from the screen catch up once the calls pause (deferred-views.js): their writes count too.
    await new Promise((resolve) => setTimeout(resolve, catchUpMs));
  } finally {
    for (const [prototype, name, original] of originals) Object.defineProperty(prototype, name, original);
  }
  return writes;
}"""


def test_scenes_set_one_after_another_write_no_control_with_what_it_already_holds(live_page):
    """A course page's script that shows scene after scene must not cost each call more than it changes: in
    Chromium every write to a form control, even of the value it holds, makes autofill lay the page out again
    in a task of its own. Only controls whose value changes are written."""
    scene = preset_scene(DEFAULT_PRESET)
    other = copy.deepcopy(scene)
    other["heads"][0]["Wq"][PRONOUN][NOUN_DIM] = 0
    causal = {**copy.deepcopy(scene), "mask": "causal"}
    live_page.evaluate("scene => window.attentionPlayground.setScene(scene)", scene)
    writes = live_page.evaluate(CONTROL_WRITES, {"scenes": [other, scene, other, causal, scene],
                                                 "catchUpMs": 2 * FAR_VIEW_STILL_MS})
    assert [write for write in writes if write["same"]] == []
    # The mask's change is written (to the radios), and written back: the hook sees the writes that matter.
    changed = {write["control"] for write in writes}
    assert {"mask-causal", "mask-none"} <= changed


def test_set_scene_with_a_bad_scene_rejects_with_the_module_message_and_changes_nothing(live_page):
    before = live_page.evaluate("window.attentionPlayground.getScene()")
    result_before = live_page.evaluate("window.attentionPlayground.result()")

    bad = copy.deepcopy(before)
    bad["heads"][0]["Wq"] = bad["heads"][0]["Wq"][:5]  # one row short
    outcome = live_page.evaluate(
        "scene => window.attentionPlayground.setScene(scene).then(() => 'resolved', (error) => error.message)", bad
    )
    assert outcome == module_error(bad)
    assert live_page.evaluate("window.attentionPlayground.getScene()") == before
    assert live_page.evaluate("window.attentionPlayground.result()") == result_before
    expect(live_page.locator(sel("w-error"))).to_be_hidden()
    expect(live_page.locator(sel("wq-cell"))).to_have_count(12)

    # Whatever it is given, setScene settles, and says what it needed.
    for argument in ("undefined", '"x"', "null", "[]", "42"):
        message = live_page.evaluate(
            f"window.attentionPlayground.setScene({argument}).then(() => 'resolved', (error) => error.message)"
        )
        assert message.startswith("setScene needs a scene object"), message
    assert live_page.evaluate("window.attentionPlayground.getScene()") == before


def test_editing_the_sentence_features_and_dims_keeps_every_matrix_consistent(live_page, artifacts):
    sentence = live_page.locator(sel("sentence-input"))
    type_into(live_page, sentence, "the dog chased the cat")
    expect(live_page.locator(sel("token-name"))).to_have_count(5)
    scene = live_page.evaluate("window.attentionPlayground.getScene()")
    assert scene["tokens"] == ["the", "dog", "chased", "the", "cat"]
    assert scene["X"][4] == [1, 1, 0, 0, 0, 0]  # "cat" is known: it keeps its features
    assert scene["X"][1] == [0, 0, 0, 0, 0, 0]  # "dog" is new: zeros
    expect(live_page.locator(sel("heatmap-cell"))).to_have_count(25)

    live_page.locator(sel("add-feature")).click()
    expect(live_page.locator(sel("feature-name"))).to_have_count(7)
    type_into(live_page, live_page.locator(sel("feature-name", column=6)), "furry")
    scene = live_page.evaluate("window.attentionPlayground.getScene()")
    assert scene["features"][-1] == "furry"
    assert all(len(row) == 7 for row in scene["X"])
    assert len(scene["heads"][0]["Wq"]) == len(scene["heads"][0]["Wk"]) == 7
    expect(live_page.locator(sel("wq-grid")).locator("tbody th").last).to_have_text("furry")

    live_page.locator(sel("add-dim")).click()
    expect(live_page.locator(sel("wq-cell"))).to_have_count(21)
    expect(live_page.locator(sel("wk-cell"))).to_have_count(21)
    live_page.locator(sel("wv-onehot")).uncheck()
    expect(live_page.locator(sel("wv-cell"))).to_have_count(49)

    live_page.locator(sel("add-token")).click()
    expect(live_page.locator(sel("heatmap-cell"))).to_have_count(36)
    scene = live_page.evaluate("window.attentionPlayground.getScene()")
    assert len(scene["X"]) == 6 and scene["heads"][0]["dims"][-1] and len(scene["heads"][0]["Wq"][0]) == 3
    assert_weights_equal(live_page.evaluate("window.attentionPlayground.result()"), compute(scene))
    live_page.screenshot(path=str(artifacts / "page-edited-structure.png"), full_page=True)


def test_the_layout_holds_at_900_pixels(live_page, artifacts):
    live_page.set_viewport_size({"width": 900, "height": 1000})
    width = live_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 900, f"the page scrolls sideways ({width} px)"
    live_page.screenshot(path=str(artifacts / "page-900px.png"), full_page=True)


def test_when_python_cannot_start_the_page_says_so_and_keeps_the_preview(page, site_url, page_problems, artifacts):
    page.route("**/vendor/pyodide/pyodide.asm.js", lambda route: route.abort())
    page.goto(f"{site_url}/")

    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "failed", timeout=60_000)
    expect(page.locator(sel("boot-stage"))).to_contain_text("Python could not start")
    expect(page.locator(sel("preview-badge"))).to_have_text("preview — Python could not start")
    expect(page.locator(sel("heatmap-cell"))).to_have_count(100)
    expect(bar_value(page, CAT)).to_have_text("92.0%")

    # Every API call still settles, and says why.
    ready = page.evaluate("window.attentionPlayground.ready.then(() => 'resolved', () => 'rejected')")
    assert ready == "rejected"
    outcome = page.evaluate(
        "scene => window.attentionPlayground.setScene(scene).then(() => 'resolved', (error) => error.message)",
        preset_scene("dog-bites-man"),
    )
    assert outcome.startswith("Python could not start"), outcome
    assert page.evaluate("window.attentionPlayground.getScene().tokens") == preset_scene(DEFAULT_PRESET)["tokens"]
    page.screenshot(path=str(artifacts / "page-boot-failed.png"), full_page=True)

    # The refused download is reported on the console by the browser itself; nothing else may be.
    assert all("pyodide.asm.js" in message or "Failed to load resource" in message for message in page_problems.console_errors)
    assert page_problems.page_errors == []
    page_problems.clear()
