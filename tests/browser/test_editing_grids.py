"""Editing the scene in its grids, as a learner does: typing into Wq reproduces the tutorial's part 6 variations, a
bad cell shows the module's message there and keeps the last good heatmap, a click in custom mask mode masks a
cell and renormalises its row, and editing the sentence, the features and the dims keeps every matrix consistent.
Every number is checked against the tutorial's or the same module run natively; screenshots go to
tests/artifacts/.
"""

import math

from playwright.sync_api import expect

from attention_playground import compute
from page_helpers import (
    ANIMAL_DIM, CAT, DEFAULT_PRESET, IT, MAT, NOUN_DIM, PRONOUN, assert_weights_equal, bar_value, cell_value,
    module_error, preset_scene, sel, type_into)


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
