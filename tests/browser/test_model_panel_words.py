"""The trained model's panel says what its words mean where they stand, and the lab's second exercise leads to the
row it asks about. A learner opens the panel and reads the key beside the cards (the start, the attention sink, the
induction head, the scores), finds the pronoun head named for both its jobs, then clicks the example with a noun
mentioned again and reads what the second mention reads, and why. Every number is the module's, run natively."""

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_playground.model import requests as model_requests
from attention_playground.model.analysis import ROLE_THRESHOLDS
from model_panel_helpers import INFO, card, model_page  # noqa: F401  (model_page is a fixture)
from page_helpers import sel

# On one worker with the other files that use the trained model's panel on the shared page (model_page).
pytestmark = pytest.mark.xdist_group("model-panel")

EXAMPLES = {example["id"]: example for example in INFO["examples"]}


def described(layer, head):
    (entry,) = [entry for entry in INFO["heads"] if (entry["layer"], entry["head"]) == (layer, head)]
    return entry


def test_every_word_on_the_cards_is_defined_beside_them(model_page, artifacts):
    page = model_page
    legend = page.locator(sel("model-legend"))
    expect(legend).to_be_visible()
    assert legend.evaluate("(details) => details.open")  # open on a wide screen: the words are read where they stand
    expect(page.locator(sel("model-legend-start"))).to_contain_text("<bos>")
    expect(page.locator(sel("model-legend-start"))).to_contain_text("the start")
    roles = {role for entry in INFO["heads"] for role in [entry["role"], *entry["roles"]]}
    assert {"first-token", "induction", "previous-token", "diffuse"} <= roles
    for role in roles:
        expect(page.locator(sel(f"model-legend-{role}"))).to_be_visible()
    # Each role's rule is the analysis's own threshold.
    for role in roles - {"diffuse"}:
        _, at_least = ROLE_THRESHOLDS[role]
        expect(page.locator(sel(f"model-legend-{role}"))).to_contain_text(f"≥ {at_least:.1f}")
    # The lab's own term for a head that parks its weight on the first token, on the cards and in the key.
    expect(page.locator(sel("model-legend-first-token"))).to_contain_text("attention sink")
    expect(page.locator(sel("model-legend-first-token"))).to_contain_text("nothing to find")
    for entry in INFO["heads"]:
        if entry["role"] == "first-token":
            expect(card(page, entry["layer"], entry["head"]).locator(".model-head-role")).to_have_text("attention sink")
    expect(page.locator(sel("model-legend-diffuse"))).to_contain_text("spread out")
    scores = page.locator(sel("model-legend-scores"))
    for word in ("prev", "induction", "<bos>", "the word just before", "earlier copy"):
        expect(scores).to_contain_text(word)
    page.locator(sel("model-panel")).screenshot(path=str(artifacts / "model-panel-legend.png"))


def test_the_pronoun_head_is_named_for_both_its_jobs_with_both_scores(model_page):
    page = model_page
    layer, head = INFO["pronoun"]["head"]
    entry = described(layer, head)
    label = entry["label"]
    assert entry["role"] == "induction" and "pronoun" in entry["roles"]  # measured: both jobs
    pronoun, induction = entry["scores"]["pronoun"], entry["scores"]["induction"]
    expect(card(page, layer, head).locator(".model-head-role")).to_have_text("induction head")
    expect(card(page, layer, head).locator(sel("model-head-also"))).to_have_text(f"also a pronoun head (pronoun\u00a0{pronoun:.2f})")
    # Designed against learned presents it as the head that finds "cat": it says both are true.
    text = page.locator(sel("model-designed-text"))
    expect(text).to_contain_text(f"Its card calls {label} an induction head (induction {induction:.2f}), and both are true")
    expect(text).to_contain_text(f"at “it” it finds the cat (pronoun {pronoun:.2f})")
    card(page, layer, head).locator(sel("model-head-choose")).click()
    expect(page.locator(".model-chosen-title")).to_have_text(f"{label}: induction head, also a pronoun head (pronoun\u00a0{pronoun:.2f})")
    # A head with one job has no second line.
    (single,) = [other for other in INFO["heads"] if other["role"] == "previous-token"]
    expect(card(page, single["layer"], single["head"]).locator(sel("model-head-also"))).to_be_hidden()


def test_a_noun_mentioned_again_focuses_the_second_mention_and_says_what_it_reads(model_page, artifacts):
    page = model_page
    example = EXAMPLES["second-mention"]
    page.locator(sel("model-example-second-mention")).click()
    expect(page.locator(sel("model-words"))).to_have_value(example["words"])
    tokens = ["<bos>", *example["words"].split()]
    first, second = [i for i, token in enumerate(tokens) if token == "fox"]
    # The row of the second "fox" is the one in focus, not the sentence's last word.
    expect(page.locator(sel("model-heatmap-row-label")).nth(second)).to_have_attribute("aria-pressed", "true")
    expect(page.locator(sel("model-bars-heading"))).to_contain_text(f"“fox” (word {second})")
    native = model_requests.model_run({"words": example["words"]})
    weights = np.array(native["weights"])  # (layers, heads, n, n)
    on_first = weights[:, :, second, first]  # (layers, heads)
    on_after = weights[:, :, second, first + 1]
    reader = np.unravel_index(int(np.argmax(on_first)), on_first.shape)
    copier = np.unravel_index(int(np.argmax(on_after)), on_after.shape)
    # Measured first: no head reads the first mention; one reads the word after it (the induction route).
    assert on_first.max() < 0.1 and on_after.max() >= 0.5
    note = page.locator(sel("model-repeat-note"))
    expect(note).to_contain_text(
        f"At the second “fox” (word {second}), no head reads the first “fox” (word {first}) itself (the most any "
        f"head puts there: {on_first.max():.2f}, L{reader[0]}H{reader[1]})")
    expect(note).to_contain_text(
        f"L{copier[0]}H{copier[1]} puts {on_after.max():.2f} on “{tokens[first + 1]}” (word {first + 1}), the word right "
        f"after the first “fox” (word {first}): the induction route")
    effect = native["effects"][copier[0]][copier[1]][second]
    expect(note).to_contain_text(f"Knocking L{copier[0]}H{copier[1]} out moves the prediction here by {effect:.2f}")
    word, probability = native["predictions"][second][0]
    expect(note).to_contain_text(f"The model expects “{word}” ({probability:.2f})")
    # The lab's picture is of larger models; this one's, measured over its stories.
    expect(note).to_contain_text("a second mention reading the first (a duplicate-token head), is of larger trained models")
    expect(note).to_contain_text(f"no head puts more than {np.max(INFO['second_mention']['first_mention']):.2f} on the first")
    # A word said once has no such note.
    page.locator(sel("model-heatmap-row-label")).nth(first).click()
    expect(note).to_be_hidden()
    page.locator(sel("model-panel")).screenshot(path=str(artifacts / "model-panel-second-mention.png"))

