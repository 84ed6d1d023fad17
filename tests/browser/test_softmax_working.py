"""The worked softmax as a learner following the tutorial's Part 3 meets it: "dog bites man", every step shown,
a weight of the row of "man" pointed at. The working shows Part 3's own exponentials (2.0281, 4.1133, total
8.1695) beside the shifted ones the code runs (0.4931, 1, total 1.9861) and why both give the same weights; and a
scene with no mask shows no "masked" matrix that only repeats the scaled one. The expected numbers are worked out
here from the module's scaled scores, run natively."""

import re

import numpy as np
from playwright.sync_api import expect

from attention_playground import compute, load_preset
from page_helpers import sel

MAN = 2  # in "dog bites man"
WIDE = {"width": 1400, "height": 1000}


def four(value):
    """A number as the worked steps write it: four decimals, no trailing zeros, a true minus sign."""
    return str(float(f"{value:.4f}")).removesuffix(".0").replace("-", "−")


def pick(page, preset_id):
    scene = load_preset(preset_id)
    page.locator(sel("preset-picker")).select_option(preset_id)
    expect(page.locator(sel("scene-title"))).to_have_text(scene["title"])
    page.wait_for_function("(n) => window.attentionPlayground.result()?.tokens.length === n", arg=len(scene["tokens"]))


def stage_cell(page, stage, row, column):
    return page.locator(f'[data-testid="step-matrix"][data-stage="{stage}"] td[data-row="{row}"][data-column="{column}"]')


def shown_stages(page):
    return page.locator(sel("step-matrix")).evaluate_all("(figures) => figures.map((figure) => figure.dataset.stage)")


def test_the_softmax_is_worked_as_part_3_writes_it_and_as_the_code_runs_it(live_page, artifacts):
    page = live_page
    page.set_viewport_size(WIDE)
    pick(page, "dog-bites-man")
    page.locator(sel("step-toggle")).check()
    stage_cell(page, "weights", MAN, MAN).hover()
    explain = page.locator(sel("step-explain"))
    stages = compute(load_preset("dog-bites-man"))["heads"][0]["stages"]
    row = np.array(stages["scaled"][MAN])  # [0.7071, 0.7071, 1.4142]
    plain, shifted = np.exp(row), np.exp(row - row.max())
    tokens = ["dog", "bites", "man"]
    # Part 3's numbers: e^0.7071 = 2.0281, e^1.4142 = 4.1133, total 8.1695 (the seed prints these four decimals).
    expect(explain).to_contain_text("as Part 3 writes it: " + ", ".join(
        f"“{token}” e^{four(score)} = {four(value)}" for token, score, value in zip(tokens, row, plain)) + f"; total = {four(plain.sum())}")
    assert [four(value) for value in plain] == ["2.0281", "2.0281", "4.1133"] and four(plain.sum()) == "8.1695"
    # And the shifted ones the code runs, with the row's largest score taken off first.
    expect(explain).to_contain_text(f"as the code runs it, minus the row's largest ({four(row.max())}): " + ", ".join(
        f"“{token}” e^{four(score)} = {four(value)}" for token, score, value in zip(tokens, row - row.max(), shifted)) +
        f"; total = {four(shifted.sum())}")
    # Why both give the same weights, and the share worked both ways.
    expect(explain).to_contain_text(
        f"subtracting {four(row.max())} divides every exponential and the total by e^{four(row.max())} = {four(np.exp(row.max()))}")
    weight = stages["weights"][MAN][MAN]
    expect(explain).to_contain_text(
        f"share of “man” = {four(shifted[MAN])} ÷ {four(shifted.sum())} = {weight:.4f} "
        f"(as Part 3 writes it: {four(plain[MAN])} ÷ {four(plain.sum())}, the same)")
    assert f"{weight:.4f}" == "0.5035"
    page.locator(sel("step-view")).screenshot(path=str(artifacts / "softmax-both-ways.png"))


def test_with_no_mask_the_steps_say_so_instead_of_repeating_the_scaled_scores(live_page):
    page = live_page
    page.set_viewport_size(WIDE)
    pick(page, "dog-bites-man")
    page.locator(sel("step-toggle")).check()
    assert load_preset("dog-bites-man")["mask"] == "none"
    expect(page.locator(sel("step-no-mask"))).to_be_visible()
    expect(page.locator(sel("step-no-mask"))).to_contain_text("No mask: every token may read every token")
    assert "masked" not in shown_stages(page)
    # The softmax's numbers came from the scaled scores: those light up.
    stage_cell(page, "weights", MAN, 0).hover()
    expect(stage_cell(page, "scaled", MAN, 1)).to_have_class(re.compile(r"\bsource-row\b"))
    # A causal mask puts the "masked" matrix back, −∞ above the diagonal, and the note goes.
    page.locator(sel("mask-causal")).check()
    page.wait_for_function("() => window.attentionPlayground.result().mask[0][1] === true")
    expect(page.locator(sel("step-matrix", stage="masked"))).to_be_visible()
    expect(page.locator(sel("step-no-mask"))).to_have_count(0)
    expect(stage_cell(page, "masked", 0, 1)).to_have_text("−∞")
    assert shown_stages(page).index("masked") == shown_stages(page).index("scaled") + 1
