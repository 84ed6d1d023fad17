"""Sentences typed into the trained model's panel: a word it does not know is named in place and the last good result
stays, its known words can be clicked into the sentence and capitals are fine, and in a word order no example
shows the pronoun head still reads the animal, which a knock-out shows it needs.
"""

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_playground.model import run
from attention_playground.model.errors import ModelInputError
from model_panel_helpers import (  # noqa: F401  (model and model_page are fixtures)
    INFO, card, focus_position, model, model_page, native_run, shown_predictions, wait_for_predictions)
from page_helpers import sel

# On one worker with the other files that use the trained model's panel on the shared page (model_page), kept
# open from one file to the next (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("model-panel")


def test_an_unknown_word_is_named_in_place_and_the_last_good_result_stays(model_page):
    before = shown_predictions(model_page)
    with pytest.raises(ModelInputError) as raised:
        native_run("the fox mett a crw")
    model_page.locator(sel("model-words")).fill("the fox mett a crw")
    expect(model_page.locator(sel("model-error"))).to_have_text(str(raised.value))
    assert "'mett' (word 3) (did you mean 'met'?)" in str(raised.value)
    expect(model_page.locator(sel("model-unknown-word"))).to_have_text(["mett", "crw"])
    assert shown_predictions(model_page) == before
    # The model_page is live: the model answers the corrected sentence.
    model_page.locator(sel("model-words")).fill("the fox met a crow")
    expect(model_page.locator(sel("model-error"))).to_be_hidden()
    wait_for_predictions(model_page, native_run("the fox met a crow")["predictions"][5])


def test_the_known_words_can_be_clicked_into_the_sentence_and_capitals_are_fine(model_page):
    model_page.locator(sel("model-words")).fill("The Cat sat on the mat.")
    expect(model_page.locator(sel("model-error"))).to_be_hidden()
    expect(model_page.locator(sel("model-word"))).to_have_text("the cat sat on the mat .".split())
    model_page.locator(sel("model-known-words")).locator("summary").click()
    model_page.locator(sel("model-known-word")).filter(has_text="purred").first.click()
    expect(model_page.locator(sel("model-words"))).to_have_value("The Cat sat on the mat. purred")
    model_page.locator(sel("model-words")).fill("the kitten sat")
    expect(model_page.locator(sel("model-error"))).to_contain_text("did you mean 'cat'", timeout=20_000)  # a loaded machine
    expect(model_page.locator(sel("model-last-shown"))).to_contain_text("still show the last sentence")


def test_a_sentence_typed_in_a_new_word_order_the_pronoun_head_reads_the_animal_and_a_knock_out_shows_why(model_page, model):
    typed = "Near the log, the fox waited and it yelped."  # capitals, commas and an order no example shows
    model_page.locator(sel("model-words")).fill(typed)
    tokens = ["<bos>", *"near the log , the fox waited and it yelped .".split()]
    expect(model_page.locator(sel("model-word"))).to_have_text(tokens[1:])
    expect(model_page.locator(sel("model-error"))).to_be_hidden()
    layer, head = INFO["pronoun"]["head"]
    it = tokens.index("it")
    card(model_page, layer, head).locator(sel("model-head-choose")).click()
    focus_position(model_page, it)
    row = run(model, typed).weights[layer][head][it]
    read = int(np.argmax(row))
    assert tokens[read] == "fox"  # measured natively first: the learned head reads the animal here too
    expect(model_page.locator(sel("model-bar-row")).first.locator(".bar-label")).to_have_text("fox")
    expect(model_page.locator(sel("model-focus-sentence"))).to_contain_text(f"puts the most weight on “fox”: {row[read]:.2f}")
    intact = native_run(typed)
    wait_for_predictions(model_page, intact["predictions"][it])
    # Knock out every head that reads the animal (the pronoun head is one): "yelped" loses its place.
    readers = [tuple(pair) for pair in INFO["pronoun"]["knock_outs"][-1]["heads"]]
    for pair in readers:
        card(model_page, *pair).locator(sel("model-knock-out")).check()
    knocked = native_run(typed, readers)
    yelped = lambda answer: dict(answer["predictions"][it]).get("yelped", 0.0)  # noqa: E731
    assert yelped(knocked) < yelped(intact) - 0.5
    wait_for_predictions(model_page, knocked["predictions"][it])
