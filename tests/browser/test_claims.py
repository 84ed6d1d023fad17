""""Test a claim", used as a learner and a course author use it: a claim's pair trains in the training worker
and its numbers and verdict are the native module's."""

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_playground.model import train
from attention_playground.model.claims import CLAIMS, judge, measure, pair_configs
from page_helpers import open_live, sel

# Each test trains a pair of models in the page; the claim chart's tests share its page (`claims_page`).
pytestmark = [pytest.mark.long, pytest.mark.xdist_group("claims")]

#: Steps of the pairs trained here: enough to compare every number with native training, short enough for a
#: test (the claims themselves are shown at their own settings in tests/native/test_model_claims.py).
STEPS = 20


def open_claims(page, url):
    open_live(page, url)
    page.locator(sel("model-open")).click()
    # The claims are asked for once the model panel opens: on a busy machine, seconds.
    expect(page.locator(sel("claim-picker"))).to_be_visible(timeout=60_000)


def test_a_learner_trains_a_pair_and_reads_the_verdict_the_native_run_gives(page, site_url):
    open_claims(page, f"{site_url}/")
    assert page.locator(f"{sel('claim-picker')} option").evaluate_all("os => os.map((o) => o.value)") == list(CLAIMS)
    assert training_workers(page) == []  # nothing trains, nor boots to, before a claim is chosen
    page.locator(sel("claim-picker")).select_option("positions")
    # Chosen, the claim's two workers start booting while the learner reads it: the pair need not wait for them.
    wait_for_training_workers(page, ["training", "training-pair"])
    expect(page.locator(sel("claim-statement"))).to_contain_text(CLAIMS["positions"].statement)
    assert page.locator(sel("claim-steps")).input_value() == str(CLAIMS["positions"].settings["steps"])
    page.locator(sel("claim-steps")).fill(str(STEPS))
    page.locator(sel("claim-run")).click()
    verdict = page.locator(sel("claim-verdict"))
    expect(verdict).to_be_visible(timeout=120_000)
    with_config, without_config = pair_configs(CLAIMS["positions"], seed=1, steps=STEPS)
    claim = CLAIMS["positions"]
    native = judge(claim, measure(claim, train(with_config)), measure(claim, train(without_config)))
    expect(verdict).to_have_text(native.sentence)
    expect(page.locator(sel("claim-status"))).to_contain_text(f"Both trained step {STEPS} of {STEPS}")
    assert page.locator(sel("claim-curves")).get_attribute("data-points") == str(STEPS)
    assert page.locator(f"{sel('claim-curves')} polyline").count() == 2
    # Each model's heads, as cards to read: these models are not the panel's, so nothing there knocks a head out
    # or opens one large (a switch that did nothing would tell the learner it had).
    for side in ("with", "without"):
        expect(page.locator(f"{sel('claim-heads-' + side)} {sel('model-head-card')}")).to_have_count(
            with_config.n_layers * with_config.n_heads, timeout=60_000)
        expect(page.locator(f"{sel('claim-heads-' + side)} {sel('model-knock-out')}")).to_have_count(0)
        expect(page.locator(f"{sel('claim-heads-' + side)} button")).to_have_count(0)
    # On a phone the chart shrinks with its panel: both legends and the last step stay on screen.
    page.set_viewport_size({"width": 360, "height": 740})
    curves = page.locator(sel("claim-curves"))
    curves.scroll_into_view_if_needed()
    box = curves.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


def test_a_course_pages_pair_equals_native_training_step_by_step(claims_page):
    page = claims_page
    outcome = page.evaluate(
        """async (steps) => {
          const reports = [];
          const outcome = await window.attentionPlayground.model.compare("mask", {seed: 2, steps, onProgress: (p) => reports.push(p)});
          return {...outcome, reports: reports.length};
        }""",
        STEPS,
    )
    claim = CLAIMS["mask"]
    with_config, without_config = pair_configs(claim, seed=2, steps=STEPS)
    assert outcome["status"] == "done" and outcome["step"] == STEPS and outcome["reports"] >= 1
    assert outcome["configs"]["without"]["causal_mask"] is False
    for side, config in (("with", with_config), ("without", without_config)):
        native = train(config)
        # Pyodide's NumPy rounds some sums differently in the last bit; over 20 steps that stays far below 1e-9.
        assert np.max(np.abs(np.array(outcome["losses"][side]) - np.array(native.loss_curve))) < 1e-9, side
        assert abs(outcome["metrics"][side]["repeat_accuracy"] - measure(claim, native).repeat_accuracy) < 1e-9
    # The view shows the test a script started.
    expect(page.locator(sel("claim-picker"))).to_have_value("mask")
    expect(page.locator(sel("claim-verdict"))).to_have_text(outcome["verdict"]["sentence"])
    # On two cores the two models trained side by side, each in a training worker of its own.
    assert training_workers(page) == ["training", "training-pair"]


def training_workers(page) -> list[str]:
    """What each of the page's training workers is for (the `for` of its script's URL), sorted."""
    return sorted(url.split("for=")[1] for url in (worker.url for worker in page.workers) if "for=" in url)


def wait_for_training_workers(page, expected, seconds=10):
    """Wait until the page's training workers are `expected` (a worker starts a moment after it is asked for)."""
    for _ in range(seconds * 10):
        if training_workers(page) == expected:
            return
        page.wait_for_timeout(100)
    assert training_workers(page) == expected


def test_on_one_core_the_pair_takes_turns_in_one_worker_with_the_same_numbers(page, site_url):
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', {get: () => 1})")
    open_claims(page, f"{site_url}/")
    outcome = page.evaluate("(steps) => window.attentionPlayground.model.compare('separate-qk', {seed: 3, steps})", STEPS)
    claim = CLAIMS["separate-qk"]
    natives = [train(config) for config in pair_configs(claim, seed=3, steps=STEPS)]
    for side, native in zip(("with", "without"), natives):
        assert np.max(np.abs(np.array(outcome["losses"][side]) - np.array(native.loss_curve))) < 1e-9, side
    native_verdict = judge(claim, *(measure(claim, native) for native in natives))
    assert outcome["verdict"]["sentence"] == native_verdict.sentence
    assert abs(outcome["verdict"]["without_accuracy"] - native_verdict.without_accuracy) < 1e-9
    assert training_workers(page) == ["training"]
    # Both models are asked where they trained: their heads come as cards.
    for side in ("with", "without"):
        expect(page.locator(f"{sel('claim-heads-' + side)} {sel('model-head-card')}")).to_have_count(
            natives[0].config.n_layers * natives[0].config.n_heads, timeout=60_000)


def test_stop_ends_a_pair_and_the_page_stays_live(claims_page):
    page = claims_page
    page.locator(sel("claim-steps")).fill("3000")
    page.locator(sel("claim-run")).click()
    status = page.locator(sel("claim-status"))
    expect(status).to_contain_text("Step ", timeout=90_000)
    before = page.evaluate("window.attentionPlayground.result().heads[0].weights")
    page.evaluate("""() => { const s = window.attentionPlayground.getScene(); s.X[0][0] = 3; return window.attentionPlayground.setScene(s); }""")
    assert page.evaluate("window.attentionPlayground.result().heads[0].weights") != before
    page.locator(sel("claim-stop")).click()
    expect(status).to_contain_text("Stopped at step", timeout=5000)
    expect(page.locator(sel("claim-verdict"))).to_be_hidden()
