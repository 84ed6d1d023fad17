"""A head of the trained model opened in the playground: it is the model's head, an edit there feeds back into the
model's predictions, and the page takes the learner to it and back again.
"""

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_playground.model import run, with_head_weights
from model_panel_helpers import (  # noqa: F401  (model and model_page are fixtures)
    REPEATED_NOUN, card, model, model_page, native_run, wait_for_predictions)
from page_helpers import sel, type_into

# On one worker with the other files that use the trained model's panel on the shared page (model_page), kept
# open from one file to the next (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("model-panel")


def test_an_opened_head_is_the_models_and_an_edit_there_feeds_back(model_page, model):
    model_page.locator(sel("model-example-repeated-noun")).click()
    card(model_page, 1, 0).locator(sel("model-head-choose")).click()
    model_page.locator(sel("model-open-head")).click()
    expect(model_page.locator(sel("scene-title"))).to_contain_text("trained model, layer 1 (L1H0)")
    result = model_page.evaluate("window.attentionPlayground.result()")
    assert np.allclose(result["heads"][0]["weights"], run(model, REPEATED_NOUN).weights[1][0], rtol=0, atol=1e-12)
    expect(model_page.locator(sel("model-edited"))).to_contain_text("L1H0 is open in the playground")

    # The learner zeroes the largest query weight of one residual dimension.
    Wq = model.params["W_Q"][1, 0]
    row, column = np.unravel_index(np.argmax(np.abs(Wq)), Wq.shape)
    type_into(model_page, model_page.locator(sel("wq-cell", row=row, column=column)), "0")
    edited = Wq.copy()
    edited[row, column] = 0.0
    focus = len(REPEATED_NOUN.split())
    expected = native_run(REPEATED_NOUN, edited_head={"layer": 1, "head": 0, "Wq": edited.tolist()})
    assert np.allclose(np.array(expected["weights"][1][0]), run(with_head_weights(model, 1, 0, Wq=edited), REPEATED_NOUN).weights[1][0])
    wait_for_predictions(model_page, expected["predictions"][focus])
    expect(model_page.locator(sel("model-edited"))).to_contain_text("L1H0 is edited in the playground")

    model_page.locator(sel("model-trained-weights")).click()
    wait_for_predictions(model_page, native_run(REPEATED_NOUN)["predictions"][focus])
    expect(model_page.locator(sel("model-edited"))).to_contain_text("L1H0 is open in the playground")


def test_opening_a_head_in_the_playground_takes_the_learner_to_it_and_back(model_page):
    page = model_page
    page.locator(sel("model-example-repeated-noun")).click()
    page.locator(sel("model-head-card", layer=1, head=0)).locator(sel("model-head-choose")).click()
    page.locator(sel("model-open-head")).scroll_into_view_if_needed()
    expect(page.locator(sel("scene-title"))).not_to_be_in_viewport()
    page.locator(sel("model-open-head")).click()
    expect(page.locator(sel("scene-title"))).to_contain_text("L1H0")
    expect(page.locator(sel("scene-title"))).to_be_in_viewport()
    expect(page.locator(sel("notice-text"))).to_contain_text("L1H0 of the trained model is now the playground's scene")
    back = page.locator(sel("notice-action"))
    expect(back).to_have_text("back to the trained model")
    back.click()
    expect(page.locator(sel("model-open-head"))).to_be_in_viewport()
    expect(page.locator(sel("scene-title"))).not_to_be_in_viewport()
