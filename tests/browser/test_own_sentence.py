"""A sentence of the learner's own, typed under an example's heading, is theirs: the heading and the description say
so, the notice says what changed (new words start at 0) and offers the example built for a repeated word; and the
rows that spread evenly because their words ask with a query of zeros are explained where they are drawn.
"""

import re

import numpy as np
from playwright.sync_api import expect

from attention_playground import compute
from model_panel_helpers import REPEATED_NOUN
from page_helpers import preset_scene, sel


def test_a_typed_sentence_is_the_learners_own_and_the_page_says_what_changed(live_page, artifacts):
    page = live_page
    original = preset_scene("it-animal-noun")
    expect(page.locator(sel("scene-title"))).to_have_text(original["title"])
    sentence = page.locator(sel("sentence-input"))
    sentence.click()
    sentence.press("Control+a")
    sentence.press_sequentially(REPEATED_NOUN)
    page.wait_for_function("(n) => window.attentionPlayground.result()?.tokens.length === n", arg=len(REPEATED_NOUN.split()))
    expect(page.locator(sel("scene-title"))).not_to_have_text(original["title"])
    expect(page.locator(sel("scene-title"))).to_have_text("your own sentence")
    expect(page.locator(sel("preset-description"))).not_to_contain_text("92%")
    expect(page.locator(sel("preset-description"))).to_contain_text(original["title"])
    notice = page.locator(sel("notice-text"))
    expect(notice).to_contain_text("New words start with every feature at 0")
    expect(notice).to_contain_text("“fox”")
    # The flat grid is explained where it is drawn.
    expect(page.locator(sel("zero-query-note"))).to_contain_text("Every word asks with a query of all zeros")
    page.screenshot(path=str(artifacts / "own-sentence-light-1280.png"))
    # The sentence repeats a word: the example built for that is offered, and opens.
    page.locator(sel("notice-action")).click()
    expect(page.locator(sel("scene-title"))).to_have_text(preset_scene("repeated-noun")["title"])


def test_the_default_examples_even_rows_are_explained(live_page):
    page = live_page
    scene = preset_scene("it-animal-noun")
    Q = np.array(compute(scene)["heads"][0]["stages"]["Q"])
    zero = int((np.abs(Q).sum(axis=1) == 0).sum())
    assert 0 < zero < len(scene["tokens"])
    expect(page.locator(sel("zero-query-note"))).to_have_text(re.compile(
        f"^{zero} of {len(scene['tokens'])} words ask with a query of all zeros .*: every key scores 0 against such a query, so their rows spread evenly"))
