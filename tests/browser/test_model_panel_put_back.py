"""The trained model's panel on the shared page (`model_page`, model_panel_helpers.py) leaks nothing from one test
into the next: the first test leaves the panel changed every way it can, the second finds it as it first opened
(pytest runs a module's tests in the order they are written).
"""

import pytest
from playwright.sync_api import expect

from attention_playground import DEFAULT_PRESET_ID
from model_panel_helpers import (  # noqa: F401  (model_page is a fixture)
    FIRST_OPENED, INDUCTION, MODEL_PANEL_STATE, PREVIOUS, REPEATED_RUN, card, focus_position, model_page, native_run,
    wait_for_predictions)
from page_helpers import preset_scene, sel, type_into

# On one worker with the other files that use the trained model's panel on the shared page (model_page), kept
# open from one file to the next (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("model-panel")


def test_a_test_leaves_the_model_panel_changed_every_way_it_can(model_page):
    page = model_page
    # The guided contrast, and a head opened in the playground and back again (as the tests on it in other modules
    # leave them: test_verdict_words.py, test_model_panel_open_head.py).
    page.locator(sel("model-guided")).click()
    expect(page.locator(sel("model-contrast"))).to_be_visible()
    page.locator(sel("model-example-repeated-noun")).click()
    card(page, 1, 0).locator(sel("model-head-choose")).click()
    page.locator(sel("model-open-head")).click()
    expect(page.locator(sel("notice-action"))).to_have_text("back to the trained model")
    page.locator(sel("notice-action")).click()
    expect(page.locator(sel("model-open-head"))).to_be_in_viewport()
    card(page, 1, 1).locator(sel("model-head-choose")).click()
    page.locator(sel("model-open-head")).click()
    expect(page.locator(sel("scene-title"))).to_contain_text("(L1H1)")
    type_into(page, page.locator(sel("wq-cell", row=0, column=0)), "3")
    expect(page.locator(sel("model-edited"))).to_contain_text("L1H1 is edited")
    card(page, *PREVIOUS).locator(sel("model-knock-out")).check()
    card(page, *INDUCTION[0]).locator(sel("model-knock-out")).check()
    focus_position(page, 2)
    page.locator(sel("model-known-words")).locator("summary").click()
    page.locator(sel("model-words")).fill("the fox mett a crw")
    expect(page.locator(sel("model-error"))).to_be_visible()
    expect(page.locator(f'{sel("model-knock-out")}:checked')).to_have_count(2)
    assert page.evaluate(MODEL_PANEL_STATE) != FIRST_OPENED["state"]


def test_the_next_test_finds_the_model_panel_as_it_first_opened(model_page):
    page = model_page
    expect(page.locator(f'{sel("model-knock-out")}:checked')).to_have_count(0)
    expect(page.locator(sel("model-words"))).to_have_value(REPEATED_RUN)
    expect(card(page, 1, 0).locator(sel("model-head-choose"))).to_have_attribute("aria-pressed", "true")
    expect(page.locator(sel("model-error"))).to_be_hidden()
    expect(page.locator(sel("model-edited"))).to_be_hidden()
    wait_for_predictions(page, native_run(REPEATED_RUN)["predictions"][len(REPEATED_RUN.split())])
    assert page.evaluate("window.attentionPlayground.getScene()") == preset_scene(DEFAULT_PRESET_ID)
    assert page.evaluate(MODEL_PANEL_STATE) == FIRST_OPENED["state"]
