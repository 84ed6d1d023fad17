"""The claim test's chart as a learner reads it: for the causal mask, the model trained without it has the lower
loss, and the chart itself says why (it reads the word it must predict: it looks better, and is not); then the
learner tries another seed. The numbers on the chart are the native module's: the same pair trained here."""

import pytest
from playwright.sync_api import expect

from attention_playground.model import train
from attention_playground.model.claims import CLAIMS, judge, measure, pair_configs
from page_helpers import sel

# Each test trains pairs of models in the page, the claims' page (`claims_page`, shared with test_claims.py).
pytestmark = [pytest.mark.long, pytest.mark.xdist_group("claims")]

#: Steps of the pairs trained here: the model without the mask already has the lower loss (checked below).
STEPS = 20


def native_pair(seed):
    claim = CLAIMS["mask"]
    with_config, without_config = pair_configs(claim, seed=seed, steps=STEPS)
    honest, reading = train(with_config), train(without_config)
    return honest, reading, judge(claim, measure(claim, honest), measure(claim, reading))


def train_claim_pair(page, claim_id):
    """As a learner does in the model's panel: the claim chosen, STEPS steps, Test it."""
    page.locator(sel("claim-picker")).select_option(claim_id)
    page.locator(sel("claim-steps")).fill(str(STEPS))
    page.locator(sel("claim-run")).click()


def test_the_chart_says_why_the_model_without_the_mask_looks_better_and_another_seed_is_one_click(claims_page, artifacts):
    page = claims_page
    train_claim_pair(page, "mask")
    verdict = page.locator(sel("claim-verdict"))
    expect(verdict).to_be_visible(timeout=120_000)
    claim = CLAIMS["mask"]
    honest, reading, native = native_pair(seed=1)
    expect(verdict).to_have_text(native.sentence)
    assert reading.loss_curve[-1] < honest.loss_curve[-1]  # reading the next word lowers the loss from the start
    note = page.locator(sel("claim-chart-note"))
    expect(note).to_have_attribute("data-side", "without")
    hidden = round(native.without_accuracy * 100)
    # The chart's note opens a sentence: its label ("without the mask") with a capital.
    expected = (f"{claim.without_label[:1].upper()}{claim.without_label[1:]}, the loss falls to {reading.loss_curve[-1]:.2f} ({claim.with_label}: "
                f"{honest.loss_curve[-1]:.2f}): the model reads the word it must predict, so it looks better, and is "
                f"not. With that word hidden it predicts {hidden}% of the repeated part.")
    # On the chart (its lines break the sentence), and in the chart's spoken label.
    page.wait_for_function(
        "(want) => document.querySelector('[data-testid=\"claim-chart-note\"]')?.textContent.replace(/\\s+/g, '') === want",
        arg=expected.replace(" ", ""))
    expect(page.locator(sel("claim-curves"))).to_have_attribute("aria-label", f"Training loss over {STEPS} of {STEPS} steps. "
        f"{claim.with_label}: from {honest.loss_curve[0]:.2f} to {honest.loss_curve[-1]:.2f}; {claim.without_label}: from "
        f"{reading.loss_curve[0]:.2f} to {reading.loss_curve[-1]:.2f}. {expected}")
    # The note is inside the chart, above its plot, with a leader to the end of the line it is about.
    # Both boxes read at one moment: the chart is drawn again when the models' heads arrive, a moment after.
    box, chart = page.evaluate("""() => ["claim-chart-note", "claim-curves"].map((id) => {
      const { y, height } = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
      return { y, height };
    })""")
    assert chart["y"] <= box["y"] and box["y"] + box["height"] <= chart["y"] + chart["height"]
    expect(page.locator(sel("claim-status"))).to_contain_text(f"Both trained step {STEPS} of {STEPS}")
    expect(page.locator(sel("claim-status"))).to_contain_text("from seed 1")
    page.locator(sel("claim-test")).screenshot(path=str(artifacts / "claim-chart-note.png"))

    # Another seed: the same claim and steps, from seed 2, and its verdict is the native run's.
    again = page.locator(sel("claim-another-seed"))
    expect(again).to_have_text("Try another seed (2)")
    again.click()
    expect(page.locator(sel("claim-status"))).to_contain_text("from seed 2", timeout=120_000)
    _, _, second = native_pair(seed=2)
    expect(verdict).to_have_text(second.sentence)
    expect(again).to_have_text("Try another seed (3)")


def test_a_claim_whose_curves_need_no_word_has_no_note(claims_page):
    page = claims_page
    train_claim_pair(page, "positions")
    # This run's end (the page may have shown another claim's chart before it), then its chart.
    expect(page.locator(sel("claim-status"))).to_contain_text(f"Both trained step {STEPS} of {STEPS}", timeout=120_000)
    expect(page.locator(sel("claim-verdict"))).to_be_visible(timeout=120_000)
    expect(page.locator(sel("claim-chart-note"))).to_have_count(0)
    expect(page.locator(sel("claim-another-seed"))).to_be_visible()
