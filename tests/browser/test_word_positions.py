"""A word's position, read the same wherever a learner reads it, and two words of the same name told apart: the
second "fox" is word 8 in the model's sentence, its grid, its bars, the playground and the knock-out picker, and
knocking out the first "fox" names which fox is meant, with the weight the native module gives.
"""

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_playground import compute
from attention_playground.model import load_model, run
from model_panel_helpers import EXAMPLES, REPEATED_NOUN, model_page  # noqa: F401  (model_page is a fixture)
from page_helpers import preset_scene, sel

# On one worker with the other files that use the trained model's panel on the shared page (model_page), kept
# open from one file to the next (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("model-panel")


def pick(page, preset_id):
    scene = preset_scene(preset_id)
    page.locator(sel("preset-picker")).select_option(preset_id)
    expect(page.locator(sel("scene-title"))).to_have_text(scene["title"])
    page.wait_for_function("(n) => window.attentionPlayground.result()?.tokens.length === n", arg=len(scene["tokens"]))


def test_the_second_fox_is_word_8_wherever_a_learner_reads_its_position(model_page):
    page = model_page
    # The panel opens on a repeated run at its last word; the word the chosen head reads most there comes back in
    # the run, so the sentence under the bars names it with its number too.
    run_words = EXAMPLES["repeated-run"].split()
    tokens = ["<bos>", *run_words]
    chosen = page.locator(f'{sel("model-head-card")}:has({sel("model-head-choose")}[aria-pressed="true"])')
    layer, head = int(chosen.get_attribute("data-layer")), int(chosen.get_attribute("data-head"))
    read = int(np.argmax(run(load_model(), EXAMPLES["repeated-run"]).weights[layer][head][-1]))
    assert read > 0 and run_words.count(tokens[read]) > 1, tokens[read]  # measured natively first
    expect(page.locator(sel("model-focus-sentence"))).to_contain_text(
        f"At “{run_words[-1]}” (word {len(run_words)}), L{layer}H{head} puts the most weight on “{tokens[read]}” (word {read}):")
    page.locator(sel("model-example-repeated-noun")).click()
    words = REPEATED_NOUN.split()
    second_fox = [i for i, word in enumerate(words) if word == "fox"][1]   # 0-based among the words: 7
    number = second_fox + 1                                                # what the learner counts: word 8
    # The sentence's chips count the words from 1.
    expect(page.locator(sel("model-word")).nth(second_fox)).to_have_attribute("title", f"word {number}")
    # The model's grid has <bos> first: the second "fox" is its row second_fox + 1.
    page.locator(sel("model-head-card", layer=1, head=0)).locator(sel("model-head-choose")).click()
    row_labels = page.locator(sel("model-heatmap-row-label"))
    expect(row_labels).to_have_count(len(words) + 1)  # the grid shows the new sentence, not the run before it
    expect(row_labels.nth(second_fox + 1)).to_have_attribute("aria-label", f"Show where “fox” (word {number}) pays attention")
    row_labels.nth(second_fox + 1).click()
    bars = page.locator(sel("model-chosen-head"))
    expect(bars).to_contain_text(f"“fox” (word {number})")
    expect(bars).not_to_contain_text("Row ")
    # The bars mark each word with the same number, and <bos> as the start.
    marks = dict(page.eval_on_selector_all(
        sel("model-bar-row"), "rows => rows.map((r) => [Number(r.dataset.tokenIndex), r.querySelector('.bar-position').textContent])"))
    assert marks[0] == "start"
    assert all(marks[i] == str(i) for i in range(1, len(words) + 1)), marks
    expect(page.locator(sel("model-weight-effect"))).to_contain_text(f"At “fox” (word {number})")
    expect(page.locator(sel("model-focus-sentence"))).to_contain_text(f"At “fox” (word {number}), L1H0 puts the most weight on")
    # Opened in the playground, the same word has the same number.
    page.locator(sel("model-open-head")).click()
    expect(page.locator(sel("scene-title"))).to_contain_text("L1H0")
    page.locator(sel("row-label")).nth(second_fox + 1).click()
    expect(page.locator(sel("bars-panel"))).to_contain_text(f"“fox” (word {number})")
    # And in the hand-set example without <bos>, the knock-out picker says the same.
    pick(page, "repeated-noun")
    page.locator(sel("experiment-tab-knockout")).click()
    expect(page.locator(f'{sel("knockout-token")} option[value="{second_fox}"]')).to_have_text(f"“fox” (word {number})")
    page.locator(sel("row-label")).nth(second_fox).click()
    expect(page.locator(sel("bars-panel"))).to_contain_text(f"“fox” (word {number})")


def test_knocking_out_the_first_fox_names_which_fox_is_meant(live_page):
    page = live_page
    pick(page, "repeated-noun")
    scene = preset_scene("repeated-noun")
    first_fox = scene["tokens"].index("fox")
    page.locator(sel("experiment-tab-knockout")).click()
    page.locator(sel("knockout-token")).select_option(str(first_fox))
    page.locator(sel("knockout-run")).click()
    expect(page.locator(sel("knockout-row"))).to_have_count(len(scene["tokens"]))
    names = page.locator(f'{sel("knockout-row")} th').all_inner_texts()
    fox_rows = [name for name in names if "fox" in name]
    assert len(fox_rows) == 2 and len(set(fox_rows)) == 2, fox_rows
    # The summary names the knocked-out word and any repeated word it mentions with its position.
    summary = page.locator(sel("knockout-summary")).inner_text()
    assert summary.startswith(f"With “fox” (word {first_fox + 1}) knocked out"), summary
    for mention in re.findall(r"“(\w+)”( \(word \d+\))?", summary):
        if scene["tokens"].count(mention[0]) > 1:
            assert mention[1], f"{mention[0]} is named without its position: {summary}"
    # The weight the summary quotes is the native module's, on the row it names.
    result = compute(scene)
    weights = [row[first_fox] if not result["mask"][i][first_fox] else -1 for i, row in enumerate(result["heads"][0]["weights"])]
    top = int(np.argmax(weights))
    named = f"“{scene['tokens'][top]}” (word {top + 1})" if scene["tokens"].count(scene["tokens"][top]) > 1 else f"“{scene['tokens'][top]}”"
    assert f"the row of {named} ({weights[top]:.3f})" in summary
