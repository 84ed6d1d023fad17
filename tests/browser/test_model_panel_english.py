"""The English model in the model's panel: a learner chooses it, types their own sentence, and reads every head on it.

The page fetches the English model's part only once it is chosen; the tokens are drawn as the model reads them
(pieces marked); the example with a name said twice shows a head whose second "mary" reads the word that followed the
first above every other word but <bos>; the switch that hides <bos> renormalises what is left; a knock-out changes the
predictions as natively; and a link keeps the choice. Every number is the module's, run natively.
"""

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_playground.english import requests as english_requests
from page_helpers import copy_link, open_live, sel

INFO = english_requests.english_info({})
EXAMPLES = {example["id"]: example for example in INFO["examples"]}
N_HEADS = INFO["config"]["n_layers"] * INFO["config"]["n_heads"]


def choose_english(page, site_url):
    open_live(page, site_url)
    page.locator(sel("model-open")).click()
    expect(page.locator(sel("model-head-card")).first).to_be_visible(timeout=60_000)
    page.locator(sel("model-choice-select")).select_option("english")
    expect(page.locator(sel("model-summary"))).to_contain_text("The English model", timeout=60_000)
    expect(page.locator(sel("model-token")).first).to_be_visible(timeout=60_000)


def type_words(page, words):
    box = page.locator(sel("model-words"))
    box.fill(words)


def second_mention_reader(words, focus):
    """The head whose row at `focus` puts the most weight on the token after the first mention, natively."""
    run = english_requests.english_run({"words": words})
    follower = english_requests.position_of(run["pieces"], run["tokens"][focus], 1) + 1
    best = max(((layer, head) for layer in range(2) for head in range(4)),
               key=lambda pair: run["weights"][pair[0]][pair[1]][focus][follower])
    return run, best, follower


def test_the_english_model_is_fetched_only_once_chosen_reads_any_text_and_answers_the_api(page, site_url, artifacts):
    fetched = []
    page.on("request", lambda request: fetched.append(request.url))
    open_live(page, site_url)
    page.locator(sel("model-open")).click()
    expect(page.locator(sel("model-head-card"))).to_have_count(N_HEADS, timeout=60_000)
    assert not [url for url in fetched if "english" in url]  # the first view and the story world's model: none of it
    page.locator(sel("model-choice-select")).select_option("english")
    expect(page.locator(sel("model-summary"))).to_contain_text("The English model", timeout=60_000)
    assert [url for url in fetched if url.endswith("attention_playground-english.zip")]
    expect(page.locator(sel("model-english-note"))).to_contain_text("no head links a pronoun")
    expect(page.locator(sel("model-known-words"))).to_be_hidden()

    words = "Zoë chased the quokka across the café’s floor!"
    type_words(page, words)
    expected = english_requests.english_run({"words": words})
    tokens = page.locator(sel("model-token"))
    expect(tokens).to_have_count(len(expected["tokens"]) - 1, timeout=30_000)
    assert tokens.all_inner_texts() == expected["tokens"][1:]
    assert any(token.startswith("·") for token in expected["tokens"])  # a rare word in pieces
    expect(page.locator(".model-piece").first).to_be_visible()
    expect(page.locator(sel("model-error"))).to_be_hidden()
    expect(page.locator(sel("model-head-card"))).to_have_count(N_HEADS)
    page.locator(sel("model-panel")).screenshot(path=str(artifacts / "model-panel-english.png"))

    # The JS API runs it as natively, and refuses no text with the module's words.
    api_run = page.evaluate("""async () => window.attentionPlayground.model.run({words: 'the cat sat', model: 'english'})""")
    native = english_requests.english_run({"words": "the cat sat"})
    assert api_run["tokens"] == native["tokens"]
    assert np.allclose(np.array(api_run["weights"]), np.array(native["weights"]), atol=1e-12)
    refused = page.evaluate("""async () => window.attentionPlayground.model.run({words: '   ', model: 'english'})
        .then(() => null, (error) => error.message)""")
    assert refused and re.search(r"type a sentence", refused)


def test_hiding_bos_renormalises_every_row_a_link_keeps_it_and_the_second_mary_reads_went(page, fresh_page, site_url):
    choose_english(page, site_url)
    example = EXAMPLES["mary-store"]
    page.locator(sel("model-example-mary-store")).click()
    expect(page.locator(sel("model-token"))).to_have_count(len(english_requests.load_tokenizer().tokens(example["words"])),
                                                           timeout=30_000)
    page.locator(sel("model-hide-start")).check()
    link = copy_link(page)
    # The chosen head (L1H0, the panel's first) at the second "mary": no share on <bos>, the rest renormalised.
    run = english_requests.english_run({"words": example["words"]})
    row = np.array(run["weights"][1][0][example["focus"]])
    expected = row[1:] / row[1:].sum()
    bars = page.locator(f"{sel('model-chosen-head')} {sel('model-bar-row')}")
    expect(bars).to_have_count(len(row))
    shown = {int(bar.get_attribute("data-token-index")): bar.locator(sel("model-bar-value")).inner_text() for bar in bars.all()}
    def percent(text):
        return 0.0 if text.startswith("<") else float(text.rstrip("%"))

    assert percent(shown[0]) == 0
    for position, share in enumerate(expected, start=1):
        if position <= example["focus"]:
            assert percent(shown[position]) == pytest.approx(100 * share, abs=0.06), position

    fresh_page.goto(link)
    expect(fresh_page.locator(sel("model-summary"))).to_contain_text("The English model", timeout=60_000)
    expect(fresh_page.locator(sel("model-choice-select"))).to_have_value("english")
    expect(fresh_page.locator(sel("model-hide-start"))).to_be_checked()
    expect(fresh_page.locator(sel("model-words"))).to_have_value(example["words"])

    # The second "mary": a head reads "went", the word after the first, above every other word but <bos>; knocked
    # out, the guesses there are the model's without it.
    run, (layer, head), follower = second_mention_reader(example["words"], example["focus"])
    assert run["tokens"][follower] == "went"
    row = np.array(run["weights"][layer][head][example["focus"]])
    # Above every other word but <bos>: measured natively, then seen on the page.
    assert row[follower] == row[1:].max()
    card = page.locator(f"{sel('model-head-card')}[data-layer='{layer}'][data-head='{head}']")
    card.locator(sel("model-head-choose")).click()
    # The head parks most of the row on <bos>: hidden (the switch is on), the rest renormalised, "went" is what the row
    # reads most.
    expect(page.locator(sel("model-focus-sentence"))).to_contain_text(f"puts the most weight on “went”", timeout=30_000)

    # Knock the head out: the five likeliest next tokens at the second "mary" are the model's without it.
    card.locator(sel("model-knock-out")).check()
    knocked = english_requests.english_run({"words": example["words"], "knocked_out": [[layer, head]],
                                            "focus": example["focus"]})
    first_guess = knocked["predictions"][example["focus"]][0][0]
    expect(page.locator(sel("model-predictions"))).to_contain_text(first_guess, timeout=30_000)

    # Another word focused: the panel asks for the guesses there (it is given them at its focus alone).
    page.locator(sel("model-heatmap-row-label")).nth(1).click()
    there = english_requests.english_run({"words": example["words"], "knocked_out": [[layer, head]], "focus": 1})
    guesses = page.locator(sel("model-prediction"))
    expect(page.locator(sel("model-predictions"))).to_contain_text("After “mary”", timeout=30_000)
    expect(guesses).to_have_count(5)
    assert [guess.get_attribute("data-word") for guess in guesses.all()] == [word for word, _ in there["predictions"][1]]
