"""Training a model in the browser from the trained model's panel: it follows native training to 1e-9 over 20
steps, Stop ends a run at once while the page stays live, a quick run trains on repeated runs only with the
learner's seed, and a setting that is not a number is quoted back. The tests share one page, in the order they are
written (its training worker boots once): what a run leaves in the panel (its status, its curve, the boxes it
filled) no learner can put back, so each test starts its own run, or its own mistake, and reads only what that run
wrote; after a failed test the next opens the page again.
"""

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_playground.model import TrainConfig, train
from attention_playground.model import requests as model_requests
from attention_playground.model.checkpoint import shipped_checkpoint
from attention_playground.model.loss_drop import find_loss_drop
from conftest import shared_page_slot, using_shared_page
from model_panel_helpers import open_model
from page_helpers import sel, type_into


@pytest.fixture(scope="module")
def training_page_shared(browser):  # noqa: ARG001  (asked for so that its context closes before the browser does)
    yield from shared_page_slot()


@pytest.fixture
def training_page(request, training_page_shared, browser, site_url, page_problems):
    """The module's page with the model's panel open, opened by the first test (the docstring says why one)."""
    yield from using_shared_page(request, training_page_shared, browser, page_problems,
                                 lambda page: open_model(page, f"{site_url}/"))


def test_training_in_the_browser_follows_native_training(training_page):
    page = training_page
    outcome = page.evaluate("window.attentionPlayground.model.train({seed: 3, steps: 20})")
    native = train(TrainConfig(seed=3, steps=20))
    assert outcome["status"] == "done" and outcome["step"] == 20
    # Pyodide's NumPy rounds some sums differently in the last bit; over 20 steps that stays far below 1e-9.
    assert np.max(np.abs(np.array(outcome["losses"]) - np.array(native.loss_curve))) < 1e-9
    expect(page.locator(sel("model-training-status"))).to_contain_text("Trained step 20 of 20")
    c = TrainConfig()
    expect(page.locator(sel("model-summary"))).to_contain_text(f"Your model: {c.n_layers} layers × {c.n_heads} heads, trained for 20 steps")
    assert page.locator(sel("model-loss-curve")).get_attribute("data-points") == "20"
    assert find_loss_drop(native.loss_curve) is None  # 20 steps are too few to tell
    expect(page.locator(sel("model-loss-drop"))).to_contain_text("This run: no sudden drop in the loss")
    expect(page.locator(sel("model-loss-drop-mark"))).to_have_count(0)
    page.locator(sel("model-use-shipped")).click()
    expect(page.locator(sel("model-summary"))).to_contain_text("The model that comes with the page")
    # Back to the shipped model, the curve is its own again.
    expect(page.locator(sel("model-loss-curve"))).to_have_attribute("data-points", str(len(shipped_checkpoint()["loss_curve"])))


def test_stop_ends_a_run_at_once_and_the_page_stays_live_while_it_trains(training_page):
    page = training_page
    page.locator(sel("model-setting-steps")).fill("3000")
    page.locator(sel("model-train")).click()
    status = page.locator(sel("model-training-status"))
    expect(status).to_contain_text("Step ", timeout=90_000)
    # The playground answers while the model trains: an edit is drawn.
    before = page.evaluate("window.attentionPlayground.result().heads[0].weights")
    type_into(page, page.locator(sel("x-cell", row=0, column=0)), "3")
    page.wait_for_function("(old) => JSON.stringify(window.attentionPlayground.result().heads[0].weights) !== JSON.stringify(old)", arg=before)
    expect(status).to_contain_text("Step ")
    page.locator(sel("model-stop")).click()
    expect(status).to_contain_text("Stopped at step", timeout=3000)
    step = int(status.text_content().split("Stopped at step ")[1].split()[0])
    assert 0 < step < 3000


def test_a_quick_run_trains_on_repeated_runs_only_with_the_learners_seed(training_page):
    from attention_playground.model.requests import QUICK_RUN

    page = training_page
    page.locator(sel("model-setting-seed")).fill("5")
    expect(page.locator(sel("model-quick-note"))).to_contain_text("repeated runs only")
    page.locator(sel("model-quick-run")).click()
    status = page.locator(sel("model-training-status"))
    expect(status).to_contain_text(f"of {QUICK_RUN['steps']}", timeout=90_000)
    # The quick run's settings are shown in the boxes it filled; the seed is the learner's.
    expect(page.locator(sel("model-setting-repeat_fraction"))).to_have_value(str(int(QUICK_RUN["repeat_fraction"])))
    expect(page.locator(sel("model-setting-steps"))).to_have_value(str(QUICK_RUN["steps"]))
    expect(page.locator(sel("model-setting-seed"))).to_have_value("5")
    expect(page.locator(sel("model-quick-run"))).to_be_disabled()
    page.locator(sel("model-stop")).click()
    expect(status).to_contain_text("Stopped at step", timeout=5000)
    expect(page.locator(sel("model-quick-run"))).to_be_enabled()


def test_a_training_setting_that_is_not_a_number_is_quoted_back(training_page):
    page = training_page
    steps = page.locator(sel("model-setting-steps"))
    steps.fill("abc")
    page.locator(sel("model-train")).click()
    status = page.locator(sel("model-training-status"))
    expect(status).to_contain_text("“abc” is not a number")
    trainable = model_requests.model_info({})["trainable"]["steps"]
    expect(status).to_contain_text(f"a whole number from {trainable['min']} to {trainable['max']}")
    expect(status).not_to_contain_text("None")
