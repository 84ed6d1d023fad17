"""setScene, as a course page's script calls it: every preset set through it matches the native module and shows as
given, a stream of calls leaves the list of examples as it is, a scene set again unchanged gives the same result
and puts back what was edited, and a bad scene rejects with the module's message and changes nothing.
"""

import copy
import json

from playwright.sync_api import expect

from attention_playground import compute
from attention_playground.presets import random_scene
from page_helpers import (
    CAT, DEFAULT_PRESET, NOUN_DIM, PRESETS, PRONOUN, assert_weights_equal, bar_value, module_error, preset_scene, sel,
    type_into)


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
