"""What a redraw writes, and only that: each bar covers its share and glides there by a transform alone, the bars of a
long row jump to their shares, a redraw that moves no outline leaves the heatmap's outlines untouched, and scenes
set one after another write no form control with what it already holds.
"""

import copy
import math

from playwright.sync_api import expect

from attention_playground.presets import random_scene
from page_helpers import (
    CAT, DEFAULT_PRESET, IT, NOUN_DIM, PRONOUN, bar_value, page_constant, preset_scene, sel, shown_bar_shares, type_into)


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


#: How long a view far from the screen waits for the updates to pause before it catches up.
FAR_VIEW_STILL_MS = page_constant("state/redraw-schedule.js", "FAR_VIEW_STILL_MS")


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
    // Views far from the screen catch up once the calls pause (redraw-schedule.js): their writes count too.
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
