"""The teaching views as a learner uses them: every step worked by hand, the experiments, and heads
side by side. Each test clicks, types, hovers and reads what is on screen, and checks it against the
tutorial's numbers or against the same module run natively. Screenshots go to tests/artifacts/.
"""

import json
import math
import re

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_playground import compute, load_preset, scaling_experiment
from attention_playground.presets import random_scene
from contrast import low_contrast_text
from page_helpers import sel


IT, CAT = 7, 1  # in "the cat sat on the mat because it was tired"
DOG, BITES, MAN = 0, 1, 2  # in "dog bites man"
#: Wide enough that the worked steps sit beside each other.
WIDE = {"width": 1400, "height": 1000}


def stage_cell(page, stage, row, column):
    return page.locator(f'[data-testid="step-matrix"][data-stage="{stage}"] td[data-row="{row}"][data-column="{column}"]')


def pick(page, preset_id):
    """Choose an example in the picker, and wait until its result is on screen."""
    title = load_preset(preset_id)["title"]
    page.locator(sel("preset-picker")).select_option(preset_id)
    expect(page.locator(sel("scene-title"))).to_have_text(title)
    page.wait_for_function("(n) => window.attentionPlayground.result()?.tokens.length === n", arg=len(load_preset(preset_id)["tokens"]))


def explanation(page):
    return page.locator(sel("step-explain"))


def fmt(value):
    """A number as the page writes it: up to four decimals, no trailing zeros."""
    return str(float(f"{value:.4f}")).removesuffix(".0")


def open_steps(page):
    page.locator(sel("step-toggle")).check()
    expect(page.locator(sel("step-matrix")).first).to_be_visible()


def test_every_step_is_worked_by_hand_on_hover_and_focus(live_page, artifacts):
    live_page.set_viewport_size(WIDE)
    # The main view stays calm: the stages appear only when asked for.
    expect(live_page.locator(sel("step-matrix")).first).to_be_hidden()
    pick(live_page, "dog-bites-man")
    open_steps(live_page)
    stages = [live_page.locator(sel("step-matrix")).nth(k).get_attribute("data-stage") for k in range(live_page.locator(sel("step-matrix")).count())]
    # "dog bites man" masks nothing: no "masked" stage repeats the scaled scores (a note stands in its place).
    assert stages == ["X", "Wq", "Wk", "Wv", "Q", "K", "V", "scores", "scaled", "weights", "output"]

    # A score: the tutorial's own dot product, and where it came from lights up.
    stage_cell(live_page, "scores", MAN, DOG).hover()
    expect(explanation(live_page)).to_contain_text("“man” asks, “dog” answers: [1, 1] · [1, 0] = 1×1 + 1×0 = 1")
    expect(stage_cell(live_page, "Q", MAN, 0)).to_have_class(re.compile(r"\bsource-row\b"))
    expect(stage_cell(live_page, "K", DOG, 1)).to_have_class(re.compile(r"\bsource-row\b"))
    expect(stage_cell(live_page, "Q", DOG, 0)).not_to_have_class(re.compile(r"\bsource-row\b"))

    # Scaled: the division by √d_k, with the same number the cell shows.
    stage_cell(live_page, "scaled", MAN, DOG).hover()
    expect(explanation(live_page)).to_contain_text("1 ÷ √2 = 0.7071")
    expect(stage_cell(live_page, "scores", MAN, DOG)).to_have_class(re.compile(r"\bsource-cell\b"))

    # A query entry by keyboard: Tab onto the cell, as a learner without a mouse does.
    stage_cell(live_page, "Q", MAN, 1).focus()
    expect(explanation(live_page)).to_contain_text("[1, 1] · [0, 1] = 1×0 + 1×1 = 1")
    expect(stage_cell(live_page, "X", MAN, 0)).to_have_class(re.compile(r"\bsource-row\b"))
    expect(stage_cell(live_page, "Wq", 0, 1)).to_have_class(re.compile(r"\bsource-column\b"))

    # Softmax: the row's exponentials, their total and the share, matching the module.
    native = compute(load_preset("dog-bites-man"))["heads"][0]["stages"]
    row = np.array(native["masked"][MAN])
    exps = np.exp(row - row.max())
    stage_cell(live_page, "weights", MAN, DOG).focus()
    text = explanation(live_page).inner_text()
    assert f"total = {fmt(exps.sum())}" in text
    assert f"share of “dog” = {fmt(exps[DOG])} ÷ {fmt(exps.sum())} = {native['weights'][MAN][DOG]:.4f}" in text
    expect(stage_cell(live_page, "scaled", MAN, 2)).to_have_class(re.compile(r"\bsource-row\b"))

    # Output: the weighted sum of the values.
    stage_cell(live_page, "output", MAN, 0).hover()
    weights, values = native["weights"][MAN], [v[0] for v in native["V"]]
    expected_sum = " + ".join(f"{fmt(w)}×{fmt(v)}" for w, v in zip(weights, values))
    expect(explanation(live_page)).to_contain_text(f"{expected_sum} = {fmt(native['output'][MAN][0])}")
    expect(stage_cell(live_page, "V", DOG, 0)).to_have_class(re.compile(r"\bsource-column\b"))
    expect(stage_cell(live_page, "weights", MAN, 1)).to_have_class(re.compile(r"\bsource-row\b"))
    live_page.locator(sel("step-view")).screenshot(path=str(artifacts / "teaching-step-view.png"))


#: Records what changes inside the worked steps: text nodes replaced in a cell, numbers changed in place.
WATCH_STEP_CELLS = """() => {
  const seen = window.stepCellChanges = { replaced: 0, inPlace: 0 };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "childList" && record.target.matches?.("td.matrix-cell")) seen.replaced += 1;
      if (record.type === "characterData" && record.target.parentElement?.matches("td.matrix-cell")) seen.inPlace += 1;
    }
  }).observe(document.querySelector('[data-testid="step-view"]'), { childList: true, characterData: true, subtree: true });
}"""


def test_an_edit_changes_the_worked_numbers_in_place(live_page):
    live_page.set_viewport_size(WIDE)
    pick(live_page, "dog-bites-man")
    open_steps(live_page)
    live_page.evaluate(WATCH_STEP_CELLS)
    live_page.locator(sel("x-cell", row=DOG, column=1)).click()
    live_page.keyboard.type("2")
    live_page.wait_for_function("(row) => window.attentionPlayground.result().X[row][1] === 2", arg=DOG)
    scene = live_page.evaluate("window.attentionPlayground.getScene()")
    native = compute(scene)["heads"][0]["stages"]
    expect(stage_cell(live_page, "X", DOG, 1)).to_have_text("2")
    for i, row in enumerate(native["scores"]):
        for j, score in enumerate(row):
            expect(stage_cell(live_page, "scores", i, j)).to_have_text(fmt(score).replace("-", "−"))
    changes = live_page.evaluate("window.stepCellChanges")
    # Each number that changed was changed where it stands; no cell's text was thrown away and made again.
    assert changes["replaced"] == 0, changes
    assert changes["inPlace"] > 0, changes
    # The weights keep their colours, and a number on a dark cell is light: every number stays readable.
    stage_cell(live_page, "weights", 0, 0).scroll_into_view_if_needed()
    assert stage_cell(live_page, "weights", DOG, DOG).evaluate("(td) => td.style.backgroundColor") != ""
    assert low_contrast_text(live_page) == []


def test_far_below_the_grid_being_typed_in_the_worked_steps_catch_up_once_the_typing_pauses(live_page):
    """At 64 tokens the worked steps are thousands of pixels below the grids: while the learner types, they wait,
    and once the typing pauses they show the numbers of the scene as typed, without being scrolled to."""
    live_page.set_viewport_size(WIDE)
    live_page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", random_scene(64, digits=2))
    open_steps(live_page)
    cell = live_page.locator(sel("wq-cell", row=0, column=0))
    cell.click()
    far = live_page.locator(sel("step-view")).evaluate("(panel) => panel.getBoundingClientRect().top / innerHeight")
    assert far > 2, f"the worked steps are only {far:.1f} screens below the grid"
    scroll = live_page.evaluate("scrollY")
    live_page.keyboard.press("Control+A")
    live_page.keyboard.type("123")
    live_page.wait_for_function("() => window.attentionPlayground.result().heads[0].Wq[0][0] === 123")
    native = compute(live_page.evaluate("window.attentionPlayground.getScene()"))["heads"][0]
    expect(stage_cell(live_page, "Wq", 0, 0)).to_have_text("123")
    for j in range(16):
        expect(stage_cell(live_page, "scores", 0, j)).to_have_text(fmt(native["stages"]["scores"][0][j]).replace("-", "−"))
    assert live_page.evaluate("scrollY") == scroll, "the worked steps caught up without being scrolled to"


def test_step_view_follows_the_mask_and_scaling_off(live_page, artifacts):
    live_page.set_viewport_size(WIDE)
    pick(live_page, "dog-bites-man")
    open_steps(live_page)
    live_page.locator(sel("mask-causal")).check()
    live_page.locator(sel("scale-toggle")).uncheck()
    expect(stage_cell(live_page, "masked", DOG, MAN)).to_have_text("−∞")
    stage_cell(live_page, "masked", DOG, MAN).hover()
    expect(explanation(live_page)).to_contain_text("masked: “dog” may not read “man” → −∞")
    stage_cell(live_page, "scaled", MAN, DOG).hover()
    expect(explanation(live_page)).to_contain_text("scaling is off: the score stays 1")
    expect(live_page.locator('[data-testid="step-matrix"][data-stage="scaled"] .matrix-formula')).to_contain_text("scaling is off")
    # The first word may read only itself: its whole weight is on itself, and the softmax says so.
    stage_cell(live_page, "weights", DOG, DOG).hover()
    expect(explanation(live_page)).to_contain_text("share of “dog” = 1 ÷ 1 = 1.000")
    stage_cell(live_page, "weights", DOG, BITES).hover()
    expect(explanation(live_page)).to_contain_text("“bites” is masked: e^(−∞) = 0")
    expect(stage_cell(live_page, "weights", DOG, BITES)).to_have_text("0")
    # The page's one-line note: each row re-normalises over the words it may read.
    live_page.locator(sel("row-label", row=BITES)).click()
    expect(live_page.locator(sel("causal-note"))).to_contain_text("Row “bites” may read 2 of 3 words, and its weights over them add up to 1.")
    live_page.locator(sel("step-view")).screenshot(path=str(artifacts / "teaching-step-view-causal.png"))


def test_step_view_draws_only_the_first_tokens_of_a_big_scene(live_page):
    live_page.set_viewport_size(WIDE)
    pick(live_page, "causal-exercise")  # 6 tokens, 32 features, 32 dims
    open_steps(live_page)
    expect(live_page.locator(sel("step-cap-note"))).to_contain_text("first 16 rows and columns")
    x_matrix = live_page.locator('[data-testid="step-matrix"][data-stage="X"]')
    expect(x_matrix.locator("td[data-row='0']")).to_have_count(16)
    # The sums still use every number: a query entry is a dot product of 32 terms.
    stage_cell(live_page, "Q", 0, 0).hover()
    native_q = compute(load_preset("causal-exercise"))["heads"][0]["stages"]["Q"][0][0]
    expect(explanation(live_page)).to_contain_text(f"= {fmt(native_q)}".replace("-", "−"))


@pytest.mark.parametrize(
    ("button", "percent", "row"),
    [("no-noun", "65.3%", "[4, 0]"), ("strength-1", "29.1%", "[1, 1]"), ("strength-5", "96.5%", "[5, 5]"),
     ("strength-8", "99.6%", "[8, 8]"), ("original", "92.0%", "[4, 4]")],
)
def test_try_changing_one_thing_is_one_click(live_page, artifacts, button, percent, row):
    live_page.set_viewport_size(WIDE)
    expect(live_page.locator(sel("variation-cat-weight"))).to_contain_text("92.0%")
    live_page.locator(sel(f"variation-{button}")).click()
    expect(live_page.locator(sel("variation-said"))).to_contain_text(f"row “pronoun” = {row}")
    expect(live_page.locator(sel("variation-cat-weight"))).to_contain_text(percent)
    # The bars of "it" agree: the change went through the page's own editors and Python.
    expect(live_page.locator(f'{sel("bar-row", token_index=CAT)} {sel("bar-value")}')).to_contain_text(percent)
    if button == "strength-1":
        live_page.locator(sel("experiments")).screenshot(path=str(artifacts / "teaching-one-thing.png"))


def test_softmax_trap_note_comes_and_goes_with_the_shift(live_page, artifacts):
    live_page.set_viewport_size(WIDE)
    pick(live_page, "softmax-trap")
    note = live_page.locator(sel("softmax-trap-note"))
    expect(note).to_be_visible()
    expect(note).to_contain_text("∞ ÷ ∞ is not a number")
    expect(live_page.locator(sel("heatmap-cell", row=0, column=0)).locator("xpath=following-sibling::*[1]")).to_have_text("nan")
    live_page.locator(".toolbar").screenshot(path=str(artifacts / "teaching-softmax-trap.png"))
    live_page.locator(sel("shift-toggle")).check()
    expect(note).to_be_hidden()
    expect(live_page.locator(sel("heatmap-cell", row=0, column=0)).locator("xpath=following-sibling::*[1]")).not_to_have_text("nan")
    live_page.locator(sel("shift-toggle")).uncheck()
    expect(note).to_be_visible()


def test_scaling_experiment_runs_in_the_browser_and_follows_the_learner(live_page, artifacts):
    live_page.set_viewport_size(WIDE)
    live_page.locator(sel("experiment-tab-scaling")).click()
    live_page.locator(sel("scaling-run")).click()
    table = live_page.locator(sel("scaling-table"))
    for d, unscaled, scaled in [(4, "0.501", "0.307"), (64, "0.855", "0.317"), (512, "0.958", "0.318")]:
        expect(table.locator(f'tr[data-d="{d}"] td.unscaled')).to_have_text(unscaled)
        expect(table.locator(f'tr[data-d="{d}"] td.scaled')).to_have_text(scaled)
    expect(live_page.locator(sel("scaling-plot")).locator("circle")).to_have_count(6)
    status = live_page.locator(sel("scaling-time"))
    expect(status).to_contain_text("ms in your browser")
    first_ms = float(status.get_attribute("data-ms"))
    live_page.locator(sel("experiments")).screenshot(path=str(artifacts / "teaching-scaling.png"))

    # The learner types other lengths and another number of keys, and presses Enter.
    live_page.locator(sel("scaling-ds")).fill("2, 16, 128, 1024")
    live_page.locator(sel("scaling-keys")).fill("4")
    live_page.locator(sel("scaling-keys")).press("Enter")
    expect(table.locator('tr[data-d="1024"]')).to_have_count(1)
    native = scaling_experiment(ds=[2, 16, 128, 1024], n_keys=4)
    for row in native["rows"]:
        expect(table.locator(f'tr[data-d="{row["d"]}"] td.unscaled')).to_have_text(f"{row['unscaled']:.3f}")
        expect(table.locator(f'tr[data-d="{row["d"]}"] td.scaled')).to_have_text(f"{row['scaled']:.3f}")
    expect(live_page.locator(sel("scaling-plot")).locator("circle")).to_have_count(8)
    # Measured, not asserted (a busy machine is no place for timing assertions): kept for the notes.
    (artifacts / "teaching-scaling-time.json").write_text(json.dumps({"default_run_ms": first_ms}))

    live_page.locator(sel("scaling-ds")).fill("4, x")
    live_page.locator(sel("scaling-run")).click()
    expect(status).to_contain_text("Type whole numbers")


def moved_difference(page):
    check = page.locator(sel("shuffle-check"))
    expect(check).to_contain_text("Largest |difference|")
    return float(check.get_attribute("data-difference"))


def test_shuffle_moves_each_output_with_its_word_until_positions_are_added(live_page, artifacts):
    live_page.set_viewport_size(WIDE)
    pick(live_page, "dog-bites-man")
    live_page.locator(sel("experiment-tab-order")).click()
    before = live_page.evaluate("window.attentionPlayground.result()")
    live_page.locator(sel("shuffle-button")).click()
    # Zero up to the last binary digit: the same products are added in another order.
    assert moved_difference(live_page) <= 1e-12
    expect(live_page.locator(sel("shuffle-check"))).to_contain_text("Every output row just moved with its word")
    after = live_page.evaluate("window.attentionPlayground.result()")
    assert sorted(after["tokens"]) == sorted(before["tokens"]) and after["tokens"] != before["tokens"]
    for token, output in zip(after["tokens"], after["output"]):
        np.testing.assert_allclose(output, before["output"][before["tokens"].index(token)], rtol=0, atol=1e-12)

    live_page.locator(sel("positions-toggle")).check()
    expect(live_page.locator(sel("positions-note"))).to_contain_text("Positions are on")
    live_page.wait_for_function("() => window.attentionPlayground.result().positions === 'sinusoidal'")
    live_page.locator(sel("shuffle-button")).click()
    assert moved_difference(live_page) > 0.01
    expect(live_page.locator(sel("shuffle-check"))).to_contain_text("the positions added to X changed with the places")
    assert live_page.evaluate("window.attentionPlayground.getScene().positions") == "sinusoidal"
    live_page.locator(sel("experiments")).screenshot(path=str(artifacts / "teaching-shuffle.png"))

    live_page.locator(sel("positions-toggle")).uncheck()
    live_page.wait_for_function("() => window.attentionPlayground.result().positions === 'none'")
    live_page.locator(sel("shuffle-button")).click()
    assert moved_difference(live_page) <= 1e-12


def test_knocking_a_word_out_measures_what_its_weight_did(live_page, artifacts):
    live_page.set_viewport_size(WIDE)
    live_page.locator(sel("experiment-tab-knockout")).click()
    live_page.locator(sel("knockout-token")).select_option(str(CAT))
    live_page.locator(sel("knockout-run")).click()
    rows = live_page.locator(sel("knockout-row"))
    expect(rows).to_have_count(10)
    scene = load_preset("it-animal-noun")
    base = compute(scene)
    knocked = dict(scene, mask=[[j == CAT for j in range(10)] for _ in range(10)])
    after = compute(knocked)
    for i in range(10):
        change = math.dist(base["output"][i], after["output"][i])
        expect(rows.nth(i).locator(sel("knockout-weight"))).to_have_text(f"{base['heads'][0]['weights'][i][CAT]:.3f}")
        expect(rows.nth(i).locator(sel("knockout-change"))).to_have_text(fmt(change))
    expect(live_page.locator(sel("knockout-summary"))).to_contain_text("With “cat” knocked out")
    live_page.locator(sel("experiments")).screenshot(path=str(artifacts / "teaching-knockout.png"))

    # With real values the weight is no measure of the effect: in the causal exercise, t3 gives t1 a
    # weight of about 0.02, yet knocking t1 out moves t3's output more than most full weights move theirs.
    live_page.locator(sel("experiment-tab-order")).click()
    pick(live_page, "causal-exercise")
    # The table measured the scene before: it goes with it, also when its tab was not open at the time.
    live_page.locator(sel("experiment-tab-knockout")).click()
    expect(rows).to_have_count(0)
    expect(live_page.locator(sel("knockout-summary"))).to_have_text("")
    live_page.locator(sel("knockout-token")).select_option("1")
    live_page.locator(sel("knockout-run")).click()
    t3 = live_page.locator(sel("knockout-row", row=3))
    expect(t3.locator(sel("knockout-weight"))).not_to_have_text("masked")
    scene = load_preset("causal-exercise")
    base, after = compute(scene), compute(dict(scene, mask=[[j > i or j == 1 for j in range(6)] for i in range(6)]))
    weight, change = base["heads"][0]["weights"][3][1], math.dist(base["output"][3], after["output"][3])
    assert weight < 0.05 and change > 0.5
    expect(t3.locator(sel("knockout-weight"))).to_have_text(f"{weight:.3f}")
    expect(t3.locator(sel("knockout-change"))).to_have_text(fmt(change))


def test_two_heads_side_by_side_with_their_joined_output(live_page, artifacts):
    live_page.set_viewport_size(WIDE)
    expect(live_page.locator(sel("load-two-heads"))).to_be_visible()
    live_page.locator(sel("load-two-heads")).click()
    expect(live_page.locator(sel("scene-title"))).to_have_text(load_preset("two-heads")["title"])
    native = compute(load_preset("two-heads"))
    heads = live_page.locator(sel("head-weights"))
    expect(heads).to_have_count(2)
    expect(heads.nth(0).locator(".matrix-name")).to_have_text("antecedent")
    expect(heads.nth(1).locator(".matrix-name")).to_have_text("previous")
    it, cat = native["tokens"].index("it"), native["tokens"].index("cat")
    expect(heads.nth(0).locator(f'td[data-row="{it}"][data-column="{cat}"]')).to_have_text(f"{native['heads'][0]['weights'][it][cat]:.3f}")
    for i in range(1, len(native["tokens"])):
        expect(heads.nth(1).locator(f'td[data-row="{i}"][data-column="{i - 1}"]')).to_have_text(f"{native['heads'][1]['weights'][i][i - 1]:.3f}")
    output = live_page.locator(sel("concat-output"))
    expect(output.locator("th.column-head")).to_have_count(len(native["output_dims"]))
    expect(output.locator("th.column-head").nth(len(native["tokens"]))).to_have_text("previous/the")
    cells = output.locator(f'td[data-row="{it}"]')
    for j, value in enumerate(native["output"][it]):
        expect(cells.nth(j)).to_have_text(fmt(float(f"{value:.3f}")))
    expect(live_page.locator(sel("multi-head-note"))).to_contain_text("14 columns")
    live_page.locator(sel("multi-head")).screenshot(path=str(artifacts / "teaching-two-heads.png"))
