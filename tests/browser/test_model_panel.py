"""The trained model's panel, used as a learner uses it: the heads the analysis found, knock-outs, a head opened
in the playground and edited there, training in the browser, Stop, a word the model does not know, and a link
that brings it all back. Every number on screen is compared with the module run natively."""

import base64
import json
import zlib
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np

import pytest
from playwright.sync_api import expect

from attention_playground import DEFAULT_PRESET_ID
from attention_playground.model import TrainConfig, load_model, run, train, with_head_weights
from attention_playground.model import requests as model_requests
from attention_playground.model.checkpoint import shipped_checkpoint
from attention_playground.model.errors import ModelInputError
from attention_playground.model.loss_drop import find_loss_drop
from page_helpers import ANIMATIONS_ENDED, copy_link, open_live, preset_scene, sel, shown_bar_shares, type_into

EXAMPLES = {example["id"]: example["words"] for example in model_requests.EXAMPLES}
REPEATED_RUN = EXAMPLES["repeated-run"]
REPEATED_NOUN = EXAMPLES["repeated-noun"]
INFO = model_requests.model_info({})
N_HEADS = INFO["config"]["n_layers"] * INFO["config"]["n_heads"]
ROLES = {(h["layer"], h["head"]): h["role"] for h in INFO["heads"]}
(PREVIOUS,) = [pair for pair, role in ROLES.items() if role == "previous-token"]
INDUCTION = [pair for pair, role in ROLES.items() if role == "induction"]


@pytest.fixture(scope="module")
def model():
    return load_model()


def native_run(words, knocked_out=(), edited_head=None):
    payload = {"words": words, "knocked_out": [list(pair) for pair in knocked_out]}
    if edited_head:
        payload["edited_head"] = edited_head
    return model_requests.model_run(payload)


def open_model(page, url):
    open_live(page, url)
    page.locator(sel("model-open")).click()
    # The panel's first answer waits for Python to fetch and import the model: on a busy machine, seconds.
    expect(page.locator(sel("model-head-card"))).to_have_count(N_HEADS, timeout=60_000)
    expect(page.locator(sel("model-prediction")).first).to_be_visible(timeout=60_000)


def open_model_on_live_page(page):
    """Open the model's panel on the module's shared page, where an earlier test may have left it open (the
    shared page's reset puts the playground back, not the model's panel)."""
    button = page.locator(sel("model-open"))
    if button.is_visible():
        button.click()


def put_the_model_panel_back(page):
    """The model's panel on the module's shared page, open and as it first opens: the shipped model on the first
    example, no head knocked out, the default head chosen (L1H0), the last word focused, the known words folded,
    no error. Done as a learner would (the shared page's reset has already put the playground back, which sends
    a head opened there back to its trained weights); the panel stays open, so its model is not loaded again."""
    open_model_on_live_page(page)
    expect(page.locator(sel("model-head-card"))).to_have_count(N_HEADS, timeout=60_000)
    expect(page.locator(sel("model-summary"))).to_contain_text("The model that comes with the page")
    known = page.locator(sel("model-known-words"))
    if known.evaluate("(details) => details.open"):
        known.locator("summary").click()
    for box in page.locator(sel("model-knock-out")).all():
        if box.is_checked():
            box.uncheck()
    page.locator(sel(f"model-example-{model_requests.EXAMPLES[0]['id']}")).click()
    default = card(page, 1, 0).locator(sel("model-head-choose"))
    if default.get_attribute("aria-pressed") != "true":
        default.click()
    expect(default).to_have_attribute("aria-pressed", "true")
    expect(page.locator(sel("model-words"))).to_have_value(model_requests.EXAMPLES[0]["words"])
    wait_for_predictions(page, native_run(model_requests.EXAMPLES[0]["words"])["predictions"][-1])
    expect(page.locator(sel("model-error"))).to_be_hidden()
    expect(page.locator(sel("model-edited"))).to_be_hidden()
    page.evaluate("window.scrollTo(0, 0)")


# What a learner can see or a script can read of the model's panel, once nothing is moving any more.
MODEL_PANEL_STATE = """async () => {
""" + ANIMATIONS_ENDED + """  const panel = document.querySelector('[data-panel="model"]');
  const visible = (element) => element.checkVisibility();
  return {
    text: panel.innerText,
    shown: [...panel.querySelectorAll("[data-testid]")].filter(visible).map((element) => element.dataset.testid),
    controls: [...panel.querySelectorAll("input, button, details")].filter(visible).map((control) => ({
      testid: control.closest("[data-testid]")?.dataset.testid ?? null, value: control.value ?? null,
      checked: control.checked ?? null, pressed: control.getAttribute("aria-pressed"), open: control.open ?? null,
    })),
    scene: window.attentionPlayground.getScene(),
  };
}"""

#: The model's panel as put back on the module's page the first time it was opened there (model_page).
FIRST_OPENED = {}


@pytest.fixture
def model_page(live_page):
    """The module's shared page with the model's panel open and put back (put_the_model_panel_back): a test that
    only uses the panel pays for its own work, not for booting Python and loading the model."""
    first = live_page.locator(sel("model-open")).is_visible()
    put_the_model_panel_back(live_page)
    if first:
        FIRST_OPENED["state"] = live_page.evaluate(MODEL_PANEL_STATE)
    return live_page


def card(page, layer, head):
    return page.locator(sel("model-head-card", layer=layer, head=head))


def shown_predictions(page):
    """The panel's predictions at the focused position: [(word, probability)] with every digit it has."""
    return page.eval_on_selector_all(sel("model-prediction"), "items => items.map((i) => [i.dataset.word, Number(i.dataset.probability)])")


def wait_for_predictions(page, expected):
    page.wait_for_function(
        """(want) => {
          const got = [...document.querySelectorAll('[data-testid="model-prediction"]')].map((i) => [i.dataset.word, Number(i.dataset.probability)]);
          return got.length === want.length && got.every(([w, p], k) => w === want[k][0] && Math.abs(p - want[k][1]) <= 1e-9);
        }""",
        arg=expected,
    )


def focus_position(page, position):
    page.locator(sel("model-heatmap-row-label")).nth(position).click()


def test_the_shipped_models_heads_show_the_roles_the_analysis_measured(model_page, model, artifacts):
    expect(model_page.locator(sel("model-words"))).to_have_value(REPEATED_RUN)
    assert INDUCTION and all(layer == 1 for layer, _ in INDUCTION) and PREVIOUS[0] == 0
    names = {"induction": "induction head", "previous-token": "previous-token head", "first-token": "parks on <bos>"}
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


def test_training_in_the_browser_follows_native_training(page, site_url):
    open_model(page, f"{site_url}/")
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


def test_stop_ends_a_run_at_once_and_the_page_stays_live_while_it_trains(page, site_url):
    open_model(page, f"{site_url}/")
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


def test_a_quick_run_trains_on_repeated_runs_only_with_the_learners_seed(page, site_url):
    from attention_playground.model.requests import QUICK_RUN

    open_model(page, f"{site_url}/")
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


def test_a_link_keeps_the_sentence_the_knock_outs_the_head_and_its_edits(model_page, fresh_page, model):
    model_page.locator(sel("model-example-repeated-noun")).click()
    card(model_page, 0, 0).locator(sel("model-knock-out")).check()
    card(model_page, 1, 1).locator(sel("model-head-choose")).click()
    model_page.locator(sel("model-open-head")).click()
    expect(model_page.locator(sel("scene-title"))).to_contain_text("(L1H1)")
    type_into(model_page, model_page.locator(sel("wk-cell", row=3, column=2)), "2.5")
    expect(model_page.locator(sel("model-edited"))).to_contain_text("L1H1 is edited")
    Wk = np.array(model_page.evaluate("window.attentionPlayground.getScene().heads[0].Wk"))
    focus = len(REPEATED_NOUN.split())
    expected = native_run(REPEATED_NOUN, [(0, 0)], {"layer": 1, "head": 1, "Wk": Wk.tolist()})["predictions"][focus]
    wait_for_predictions(model_page, expected)
    link = copy_link(model_page)

    fresh_page.goto(link)
    expect(fresh_page.locator(sel("model-head-card"))).to_have_count(N_HEADS, timeout=60_000)
    expect(fresh_page.locator(sel("model-words"))).to_have_value(REPEATED_NOUN)
    expect(fresh_page.locator(sel("model-head-card", layer=0, head=0)).locator(sel("model-knock-out"))).to_be_checked()
    expect(fresh_page.locator(sel("model-head-card", layer=1, head=1)).locator(sel("model-head-choose"))).to_have_attribute("aria-pressed", "true")
    expect(fresh_page.locator(sel("model-edited"))).to_contain_text("L1H1 is edited")
    # The edited predictions arrive after the "edited" label, so both pages are compared with the native run.
    wait_for_predictions(fresh_page, expected)



def test_a_knock_out_made_last_is_kept_by_saved_work_and_back_after_a_reload(page, site_url):
    """The panel's state is saved from itself (there is no copy in the page's view to go stale): a knock-out made
    just before the reload, in a scene of the learner's own (a head opened in the playground), comes back."""
    open_model(page, f"{site_url}/")
    card(page, 1, 1).locator(sel("model-head-choose")).click()
    page.locator(sel("model-open-head")).click()
    expect(page.locator(sel("scene-title"))).to_contain_text("(L1H1)")
    card(page, 0, 2).locator(sel("model-knock-out")).check()
    expect(card(page, 0, 2).locator(sel("model-knock-out"))).to_be_checked()
    page.reload()
    expect(page.locator(sel("model-head-card"))).to_have_count(N_HEADS, timeout=60_000)
    expect(card(page, 0, 2).locator(sel("model-knock-out"))).to_be_checked()
    expect(card(page, 1, 1).locator(sel("model-head-choose"))).to_have_attribute("aria-pressed", "true")
    expect(page.locator(sel("model-edited"))).to_contain_text("L1H1 is open in the playground")


def test_a_link_opened_where_the_panel_is_open_runs_the_model_on_its_sentence(model_page):
    """A link pasted into the address of a page whose panel is already open, on another sentence."""
    model_page.locator(sel("model-example-repeated-noun")).click()
    card(model_page, 0, 1).locator(sel("model-knock-out")).check()
    expected = native_run(REPEATED_NOUN, [(0, 1)])["predictions"][len(REPEATED_NOUN.split())]
    wait_for_predictions(model_page, expected)
    link = copy_link(model_page)
    card(model_page, 0, 1).locator(sel("model-knock-out")).uncheck()
    model_page.locator(sel("model-example-repeated-run")).click()
    wait_for_predictions(model_page, native_run(REPEATED_RUN)["predictions"][len(REPEATED_RUN.split())])

    model_page.evaluate("(hash) => { location.hash = hash; }", "#" + urlsplit(link).fragment)
    expect(model_page.locator(sel("model-words"))).to_have_value(REPEATED_NOUN)
    wait_for_predictions(model_page, expected)


def test_a_link_made_with_the_first_model_opens_its_panel_on_todays_model(fresh_page, site_url):
    """fixtures/link-v4-first-model.txt is a format-4 link as the page wrote it when it shipped its first model
    (2 heads a layer of d_head 16, 52 words; made from that checkpoint with today's head_scene): the panel open on
    a sentence with L0H0 knocked out and L1H1 chosen, opened in the playground and edited there. Today's model
    has the same heads and knows the words, but its heads are 8 wide: the panel opens as the link left it, the
    playground keeps the link's scene, and the model runs with its own weights (a 16-wide head cannot be fed in)."""
    link = (Path(__file__).resolve().parent / "fixtures" / "link-v4-first-model.txt").read_text().strip()
    data = link.removeprefix("#s=4.")
    payload = json.loads(zlib.decompress(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)), -15))
    kept = payload["view"]["model"]
    assert len(payload["scene"]["heads"][0]["Wq"][0]) != INFO["config"]["d_head"]  # the old head's width
    open_live(fresh_page, f"{site_url}/{link}")
    expect(fresh_page.locator(sel("model-head-card"))).to_have_count(N_HEADS, timeout=60_000)
    expect(fresh_page.locator(sel("model-words"))).to_have_value(kept["words"])
    expect(card(fresh_page, 0, 0).locator(sel("model-knock-out"))).to_be_checked()
    expect(card(fresh_page, 1, 1).locator(sel("model-head-choose"))).to_have_attribute("aria-pressed", "true")
    wait_for_predictions(fresh_page, native_run(kept["words"], [(0, 0)])["predictions"][kept["focus"]])
    expect(fresh_page.locator(sel("model-error"))).to_be_hidden()
    expect(fresh_page.locator(sel("model-edited"))).not_to_contain_text("is edited")
    assert fresh_page.evaluate("window.attentionPlayground.getScene()") == payload["scene"]

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


# pytest runs a module's tests in the order they are written: the last two show that what one test does to the
# model's panel on the shared page is gone when the next one starts.

def test_a_test_leaves_the_model_panel_changed_every_way_it_can(model_page):
    page = model_page
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
