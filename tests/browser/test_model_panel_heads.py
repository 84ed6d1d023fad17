"""The trained model's heads in its panel, as a learner reads them: each card names the role the analysis measured,
a head's role has one name and its scores never split, a knock-out changes the predictions as the native run
says, the hand-made head and the learned head stand side by side with their stages at "it", and the loss curve
marks the sudden drop Python finds. Every number on screen is compared with the module run natively.
"""

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_playground.model import run
from attention_playground.model import requests as model_requests
from attention_playground.model.checkpoint import shipped_checkpoint
from attention_playground.model.loss_drop import find_loss_drop
from model_panel_helpers import (  # noqa: F401  (model and model_page are fixtures)
    INDUCTION, INFO, PREVIOUS, REPEATED_RUN, ROLES, card, focus_position, model, model_page, native_run,
    wait_for_predictions)
from page_helpers import sel, shown_bar_shares

# On one worker with the other files that use the trained model's panel on the shared page (model_page), kept
# open from one file to the next (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("model-panel")


def test_the_shipped_models_heads_show_the_roles_the_analysis_measured(model_page, model, artifacts):
    expect(model_page.locator(sel("model-words"))).to_have_value(REPEATED_RUN)
    assert INDUCTION and all(layer == 1 for layer, _ in INDUCTION) and PREVIOUS[0] == 0
    names = {"induction": "induction head", "previous-token": "previous-token head", "first-token": "attention sink"}
    for (layer, head), role in ROLES.items():
        expect(card(model_page, layer, head).locator(".model-head-role")).to_have_text(names.get(role, role))
    # At the second "frog", an induction head reads the word that followed the first "frog".
    words = ["<bos>", *REPEATED_RUN.split()]
    second_frog = words.index("frog", words.index("frog") + 1)
    layer, head = INDUCTION[0]
    card(model_page, layer, head).locator(sel("model-head-choose")).click()
    read = int(np.argmax(run(model, REPEATED_RUN).weights[layer][head][second_frog]))
    assert words[read - 1] == "frog" and read < second_frog
    focus_position(model_page, second_frog)
    top = model_page.locator(sel("model-bar-row")).first
    expect(top.locator(".bar-label")).to_have_text(words[read])
    expect(top.locator(".bar-position")).to_have_text(str(read))  # its word number: <bos> is the start, word 1 follows
    predicted = native_run(REPEATED_RUN)["predictions"][second_frog]
    wait_for_predictions(model_page, predicted)
    # Each prediction's bar is drawn to its probability, the most likely word's across the whole track.
    drawn = [share for _, share in shown_bar_shares(model_page, "model-prediction")]
    assert len(drawn) == len(predicted)
    for share, (_, probability) in zip(drawn, predicted):
        assert share == pytest.approx(probability / predicted[0][1], abs=0.01)
    model_page.locator(sel("model-panel")).screenshot(path=str(artifacts / "model-panel.png"))


def test_a_knock_out_changes_the_predictions_as_native_run_says(model_page):
    focus = len(REPEATED_RUN.split())
    wait_for_predictions(model_page, native_run(REPEATED_RUN)["predictions"][focus])
    card(model_page, *PREVIOUS).locator(sel("model-knock-out")).check()
    knocked = native_run(REPEATED_RUN, [PREVIOUS])
    assert knocked["predictions"][focus][0][0] != native_run(REPEATED_RUN)["predictions"][focus][0][0]
    wait_for_predictions(model_page, knocked["predictions"][focus])
    expect(model_page.locator(sel("model-metrics"))).to_contain_text(f"copying accuracy {knocked['metrics']['repeat_accuracy']:.3f}")
    # The weight-against-effect table shows the head as knocked out, and what the others' removal would do.
    expect(model_page.locator(sel("weight-effect-row", head=f"L{PREVIOUS[0]}H{PREVIOUS[1]}"))).to_contain_text("knocked out")
    layer, head = INDUCTION[0]
    effect = knocked["effects"][layer][head][focus]
    expect(model_page.locator(sel("weight-effect-row", head=f"L{layer}H{head}"))).to_contain_text(f"{effect:.2f}")
    card(model_page, *PREVIOUS).locator(sel("model-knock-out")).uncheck()
    wait_for_predictions(model_page, native_run(REPEATED_RUN)["predictions"][focus])


def test_a_heads_role_has_one_name_and_its_scores_never_split(model_page):
    page = model_page
    heads = model_requests.model_info({})["heads"]
    first_token = next(h for h in heads if h["role"] == "first-token")
    card = page.locator(sel("model-head-card", layer=first_token["layer"], head=first_token["head"]))
    role = card.locator(".model-head-role").inner_text()
    card.locator(sel("model-head-choose")).click()
    expect(page.locator(".model-chosen-title")).to_have_text(f"{first_token['label']}: {role}")
    for scores in page.locator(".model-head-scores").all_text_contents():
        assert re.fullmatch(r"prev\u00a0\d\.\d\d · induction\u00a0\d\.\d\d · <bos>\u00a0\d\.\d\d", scores), scores


def test_the_hand_made_head_and_the_learned_head_side_by_side(model_page):
    designed, pronoun = INFO["designed"], INFO["pronoun"]
    expect(model_page.locator(sel("model-designed-hand"))).to_contain_text(f"{designed['cat']:.2f}")
    expect(model_page.locator(sel("model-designed-learned"))).to_contain_text(
        f"{pronoun['tutorial']['cat']:.2f}")
    expect(model_page.locator(sel("model-designed-text"))).to_contain_text(
        f"from {pronoun['knock_outs'][0]['intact']:.2f} to {pronoun['knock_outs'][0]['knocked']:.2f}")
    model_page.locator(sel("model-designed-show")).click()
    expect(model_page.locator(sel("model-words"))).to_have_value(designed["words"])
    layer, head = pronoun["head"]
    expect(card(model_page, layer, head).locator(sel("model-head-choose"))).to_have_attribute("aria-pressed", "true")
    it = designed["words"].split().index("it") + 1  # counted from 1, as the sentence's chips count
    expect(model_page.locator(sel("model-focus-sentence"))).to_contain_text(f"At “it” (word {it})")
    expect(model_page.locator(sel("model-focus-sentence"))).to_contain_text("“cat”")


def shown_stage_row(page, column, stage):
    """One stage of one head's column in the designed-against-learned view: [(word, number as shown)]."""
    return page.eval_on_selector(
        f'{sel(column)} figure[data-stage="{stage}"]',
        """(figure) => [...figure.querySelectorAll("th.column-head")].map((th, j) =>
             [th.textContent, Number(figure.querySelector(`td[data-row="0"][data-column="${j}"]`).textContent.replace("−", "-"))])""")


def test_both_heads_stages_at_it_are_drawn_side_by_side_with_the_models_numbers(model_page, model):
    from attention_playground.model import pronoun_head
    from attention_playground.model.analysis import TUTORIAL_SENTENCE

    live_page = model_page
    learned = live_page.locator(sel("model-designed-stages-learned"))
    layer, head = pronoun_head(model)
    # The panel's first answer waits for Python to fetch and import the model: on a busy machine, seconds.
    expect(learned.locator("h4")).to_have_text(f"L{layer}H{head} at “it”", timeout=60_000)
    expect(learned.locator("figure[data-stage]")).to_have_count(5)  # Q, K, scores, ÷√d, softmax
    native = run(model, TUTORIAL_SENTENCE)
    it = native.tokens.index("it")
    on_cat = native.weights[layer][head][it, native.tokens.index("cat")]
    shown = shown_stage_row(live_page, "model-designed-stages-learned", "weights")
    assert [word for word, _ in shown] == native.tokens[: it + 1]  # the words "it" may read
    assert dict(shown)["cat"] == pytest.approx(on_cat, abs=5e-5)  # drawn to four decimals
    scores = shown_stage_row(live_page, "model-designed-stages-learned", "scores")
    assert dict(scores)["cat"] == pytest.approx(native.stages[layer][head].scores[it, native.tokens.index("cat")], abs=5e-3)
    hand = shown_stage_row(live_page, "model-designed-stages-hand", "weights")
    assert dict(hand)["cat"] == pytest.approx(INFO["designed"]["cat"], abs=5e-5)


def test_the_shipped_models_loss_curve_marks_the_sudden_drop_python_finds(model_page):
    curve = shipped_checkpoint()["loss_curve"]
    drop = find_loss_drop(curve)  # the shipped curve has one (tests/native/test_model_loss_drop.py)
    live_page = model_page
    mark = live_page.locator(sel("model-loss-drop-mark"))
    expect(mark).to_have_attribute("data-start", str(drop.start), timeout=60_000)
    expect(mark).to_have_attribute("data-end", str(drop.end))
    expect(live_page.locator(sel("model-loss-curve"))).to_have_attribute("data-points", str(len(curve)))
    expect(live_page.locator(sel("model-loss-drop"))).to_contain_text(
        f"The model that comes with the page: the loss fell suddenly between steps {drop.start} and {drop.end}, "
        f"from {drop.before:.2f} (the mean of the {drop.window} steps before) to {drop.after:.2f}")
