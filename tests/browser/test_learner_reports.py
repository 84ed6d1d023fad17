"""What a learner and a course author ran into, done again as they did it: a position read in three numbers, two
words of the same name, verdict words against their numbers, a sentence typed under an example's heading, an edit
typed while Python starts, and the small things (the theme button, the head cards, a typed setting, a tap on a
phone, the even rows of the default example)."""

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_playground import compute
from attention_playground.model import load_model, run
from attention_playground.model import requests as model_requests
from page_helpers import open_live, preset_scene, scene_link_hash, sel, type_into, wait_live
from sharing_helpers import maker_page  # noqa: F401  (a fixture)

EXAMPLES = {example["id"]: example["words"] for example in model_requests.EXAMPLES}
REPEATED_NOUN = EXAMPLES["repeated-noun"]          # "the fox met a crow and the fox smiled"
#: The shipped model's heads, one card each.
HEAD_COUNT = len(load_model().heads)
PHONE = {"width": 390, "height": 844}  # the phone the learner used (2× pixels, touch)


def open_model(page, url):
    open_live(page, url)
    page.locator(sel("model-open")).click()
    expect(page.locator(sel("model-head-card"))).to_have_count(HEAD_COUNT, timeout=60_000)
    expect(page.locator(sel("model-prediction")).first).to_be_visible(timeout=60_000)


def pick(page, preset_id):
    scene = preset_scene(preset_id)
    page.locator(sel("preset-picker")).select_option(preset_id)
    expect(page.locator(sel("scene-title"))).to_have_text(scene["title"])
    page.wait_for_function("(n) => window.attentionPlayground.result()?.tokens.length === n", arg=len(scene["tokens"]))


def import_module(page, path):
    """Evaluate `path`'s exports in the page (the site serves js/ as written)."""
    return f"import(new URL({path!r}, document.baseURI).href)"


# ---- 1. one word, one number --------------------------------------------------------------------------------


def test_the_second_fox_is_word_8_wherever_a_learner_reads_its_position(page, site_url):
    open_model(page, f"{site_url}/")
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


# ---- 2. two "fox"es told apart ------------------------------------------------------------------------------


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


# ---- 3. verdict words from thresholds stated once -----------------------------------------------------------


def test_verdict_words_change_exactly_at_their_thresholds(live_page):
    page = live_page
    words = page.evaluate(f"""async () => {{
      const v = await {import_module(page, "js/ui/shared/verdicts.js")};
      const at = (x) => v.effectWord(x);
      const below = (x) => x - Number.EPSILON * 4;
      return {{
        barely: v.BARELY_BELOW, aLot: v.A_LOT_FROM, most: v.MOST_WEIGHT_FROM,
        words: [at(0), at(below(v.BARELY_BELOW)), at(v.BARELY_BELOW), at(below(v.A_LOT_FROM)), at(v.A_LOT_FROM), at(1)],
        most: [v.isMostWeight(below(v.MOST_WEIGHT_FROM)), v.isMostWeight(v.MOST_WEIGHT_FROM)],
      }};
    }}""")
    assert words["words"] == ["barely", "barely", "somewhat", "somewhat", "a lot", "a lot"]
    assert words["most"] == [False, True]
    # A total variation shift of 0.32, as the learner saw, is "a lot": no sentence may call it "only".
    sentences = page.evaluate(f"""async () => {{
      const w = await {import_module(page, "js/ui/model/weight-effect.js")};
      const view = (busyEffect) => ({{
        tokens: ["<bos>", "a", "b"], labels: [["L0H0", "L0H1"]], knockedOut: [], focus: 2,
        weights: [[[[1, 0, 0], [1, 0, 0], [0.002, 0.998, 0]], [[1, 0, 0], [0.5, 0.5, 0], [0.4, 0.3, 0.3]]]],
        effects: [[[0, 0, busyEffect], [0, 0, 0.6]]],
      }});
      return [0.32, 0.0499, 0.05].map((effect) => w.weightAgainstEffect(view(effect)).contrast);
    }}""")
    assert sentences[0] is None, sentences[0]
    assert "barely moves the prediction (0.05)" in sentences[1] and "moves it a lot (0.60)" in sentences[1]
    assert sentences[2] is None


def test_the_guided_contrast_says_barely_and_a_lot_only_of_numbers_that_are(page, site_url):
    open_model(page, f"{site_url}/")
    page.locator(sel("model-guided")).click()
    contrast = page.locator(sel("model-contrast"))
    expect(contrast).to_be_visible()
    text = contrast.inner_text()
    small, large = (float(x) for x in re.findall(r"\((\d\.\d\d)\)", text))
    thresholds = page.evaluate(f"{import_module(page, 'js/ui/shared/verdicts.js')}.then((v) => [v.BARELY_BELOW, v.A_LOT_FROM])")
    assert "barely moves" in text and small < thresholds[0], text
    assert "a lot" in text and large >= thresholds[1], text
    assert "only" not in text


# ---- 4. a sentence of the learner's own --------------------------------------------------------------------


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


# ---- 5. an edit typed while Python starts ---------------------------------------------------------------------


def test_an_edit_typed_while_python_starts_is_said_to_wait_beside_the_grid(page, site_url):
    held = []
    page.context.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(f"{site_url}/")
    expect(page.locator(sel("heatmap-cell", row=7, column=1))).to_be_visible()
    page.wait_for_function("() => document.querySelector('[data-testid=\"playground\"]').dataset.drawn === 'true'")
    pronoun = preset_scene("it-animal-noun")["features"].index("pronoun")
    type_into(page, page.locator(sel("wq-cell", row=pronoun, column=0)), "8")
    waiting = page.locator(sel("waiting-note"))
    expect(waiting).to_be_visible()
    expect(waiting).to_contain_text("waiting for Python")
    assert page.locator(sel("playground")).get_attribute("data-status") == "preview"
    page.wait_for_function("() => true")  # let the route arrive
    for route in held:
        route.continue_()
    page.context.unroute("**/pyodide.asm.wasm")
    wait_live(page)
    expect(waiting).to_be_hidden()
    # It caught up: the weights are those of the scene as typed.
    scene = preset_scene("it-animal-noun")
    scene["heads"][0]["Wq"][pronoun][0] = 8
    want = compute(scene)["heads"][0]["weights"][7][1]
    page.wait_for_function("(w) => Math.abs(window.attentionPlayground.result().heads[0].weights[7][1] - w) < 1e-12", arg=want)


# ---- 9. small things ----------------------------------------------------------------------------------------


def test_the_theme_button_says_what_it_does_and_whether_it_is_on(live_page):
    page = live_page  # as a fresh visitor finds it: the system's colour scheme light, no pick remembered
    toggle = page.locator(sel("theme-toggle"))
    expect(toggle).to_have_text("Dark mode: off")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    expect(toggle).to_have_text("Dark mode: on")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    # And off again (the shared page's next test finds it so).
    toggle.click()
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    expect(toggle).to_have_text("Dark mode: off")
    expect(toggle).to_have_attribute("aria-pressed", "false")


def test_a_heads_role_has_one_name_and_its_scores_never_split(page, site_url):
    open_model(page, f"{site_url}/")
    heads = model_requests.model_info({})["heads"]
    first_token = next(h for h in heads if h["role"] == "first-token")
    card = page.locator(sel("model-head-card", layer=first_token["layer"], head=first_token["head"]))
    role = card.locator(".model-head-role").inner_text()
    card.locator(sel("model-head-choose")).click()
    expect(page.locator(".model-chosen-title")).to_have_text(f"{first_token['label']}: {role}")
    for scores in page.locator(".model-head-scores").all_text_contents():
        assert re.fullmatch(r"prev\u00a0\d\.\d\d · induction\u00a0\d\.\d\d · <bos>\u00a0\d\.\d\d", scores), scores


def test_a_training_setting_that_is_not_a_number_is_quoted_back(page, site_url):
    open_model(page, f"{site_url}/")
    steps = page.locator(sel("model-setting-steps"))
    steps.fill("abc")
    page.locator(sel("model-train")).click()
    status = page.locator(sel("model-training-status"))
    expect(status).to_contain_text("“abc” is not a number")
    trainable = model_requests.model_info({})["trainable"]["steps"]
    expect(status).to_contain_text(f"a whole number from {trainable['min']} to {trainable['max']}")
    expect(status).not_to_contain_text("None")


def test_the_default_examples_even_rows_are_explained(live_page):
    page = live_page
    scene = preset_scene("it-animal-noun")
    Q = np.array(compute(scene)["heads"][0]["stages"]["Q"])
    zero = int((np.abs(Q).sum(axis=1) == 0).sum())
    assert 0 < zero < len(scene["tokens"])
    expect(page.locator(sel("zero-query-note"))).to_have_text(re.compile(
        f"^{zero} of {len(scene['tokens'])} words ask with a query of all zeros .*: every key scores 0 against such a query, so their rows spread evenly"))


@pytest.fixture
def phone(phone_at):
    return phone_at(PHONE["width"], PHONE["height"])


def test_a_tap_on_a_heatmap_cell_shows_its_score_on_a_phone(phone, site_url):
    open_live(phone, f"{site_url}/")
    phone.locator(sel("heatmap-cell", row=7, column=1)).tap()
    tooltip = phone.locator(sel("heatmap-tooltip"))
    expect(tooltip).to_be_visible()
    expect(tooltip).to_contain_text("weight 0.920")


def test_on_a_phone_the_panels_line_up_and_what_is_in_them_fits(phone, site_url):
    open_live(phone, f"{site_url}/")
    phone.locator(sel("step-view")).wait_for(state="attached")
    phone.wait_for_function("() => document.querySelector('[data-testid=\"experiments\"] h2') !== null")
    lefts = {name: phone.locator(sel(name)).bounding_box()["x"] for name in ["heatmap-panel", "feature-editor", "experiments", "model-panel"]}
    rights = {name: (lambda box: box["x"] + box["width"])(phone.locator(sel(name)).bounding_box()) for name in lefts}
    assert len({round(x) for x in lefts.values()}) == 1, lefts
    assert len({round(x) for x in rights.values()}) == 1, rights
    # A knock-out's table: each word's change is a bar with its number beside it on the same line (the largest
    # bar pushed its number below it), and the table ends inside the panel.
    phone.locator(sel("experiment-tab-knockout")).click()
    phone.locator(sel("knockout-run")).click()
    expect(phone.locator(sel("knockout-row")).first).to_be_visible()
    lines = phone.eval_on_selector_all(sel("knockout-change"), """cells => cells.map((cell) => {
      const [bar, number] = [cell.querySelector(".knockout-bar"), cell.lastElementChild].map((e) => e.getBoundingClientRect());
      return [bar.width, Math.abs((bar.top + bar.bottom) / 2 - (number.top + number.bottom) / 2) < number.height / 2];
    })""")
    assert max(width for width, _ in lines) > 0 and all(same_line for _, same_line in lines), lines
    panel = phone.locator(sel("experiments")).bounding_box()
    table = phone.locator(".knockout-table").bounding_box()
    assert table["x"] + table["width"] <= panel["x"] + panel["width"], (table, panel)
    # A sentence of the learner's own: the notice's offer is read across the bar, under its text, not squeezed
    # beside it into a column a word wide.
    type_into(phone, phone.locator(sel("sentence-input")), REPEATED_NOUN)
    action = phone.locator(sel("notice-action"))
    expect(action).to_contain_text("or open the example")
    text_box, action_box, bar_box = (phone.locator(sel(name)).bounding_box() for name in ("notice-text", "notice-action", "notice"))
    assert action_box["y"] >= text_box["y"] + text_box["height"] - 1, (text_box, action_box)
    assert action_box["width"] > bar_box["width"] / 2, (action_box, bar_box)
    # The trained model: each layer's name stands above its cards, which line up in columns (beside the name, the
    # first card stood apart from the rest), and the weight-against-effect table ends inside the panel.
    phone.locator(sel("model-open")).click()
    expect(phone.locator(sel("model-head-card"))).to_have_count(HEAD_COUNT, timeout=60_000)
    expect(phone.locator(sel("weight-effect-row"))).to_have_count(HEAD_COUNT, timeout=60_000)
    cards = phone.eval_on_selector_all(sel("model-head-card"), "cards => cards.map((c) => c.getBoundingClientRect().x)")
    assert len({round(x) for x in cards}) <= 2 and round(cards[0]) == round(min(cards)), cards
    panel = phone.locator(sel("model-panel")).bounding_box()
    table = phone.locator(".weight-effect-table").bounding_box()
    assert table["x"] + table["width"] <= panel["x"] + panel["width"], (table, panel)


# ---- 6. where did it go? -------------------------------------------------------------------------------------


def test_opening_a_head_in_the_playground_takes_the_learner_to_it_and_back(page, site_url):
    open_model(page, f"{site_url}/")
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


def test_a_link_says_where_it_opens(page, fresh_page, site_url):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    open_model(page, f"{site_url}/")
    page.locator(sel("model-example-repeated-noun")).click()
    page.locator(sel("link-opens-at")).select_option("model")
    page.locator(sel("copy-link")).click()
    expect(page.locator(sel("share-status"))).to_contain_text("copied")
    link = page.locator(sel("share-link")).input_value()
    # Opened on another computer: the page goes to the trained model, and says how to get back up.
    fresh_page.goto(link)
    wait_live(fresh_page)
    expect(fresh_page.locator(sel("model-words"))).to_have_value(REPEATED_NOUN, timeout=60_000)
    expect(fresh_page.locator(sel("model-panel"))).to_have_attribute("data-revealed", re.compile(r"\d+"))
    expect(fresh_page.locator("#model-panel-title")).to_be_in_viewport()
    expect(fresh_page.locator(sel("notice-text"))).to_contain_text("This link opens at the trained model")
    fresh_page.locator(sel("notice-action")).click()
    expect(fresh_page.locator(sel("scene-title"))).to_be_in_viewport()
    # A link that opens at the top but set the model up says what waits below.
    page.locator(sel("link-opens-at")).select_option("")
    page.locator(sel("copy-link")).click()
    expect(page.locator(sel("share-link"))).not_to_have_value(link)
    fresh_page.goto(page.locator(sel("share-link")).input_value())
    wait_live(fresh_page)
    expect(fresh_page.locator(sel("notice-text"))).to_contain_text("This link also set up the trained model")
    expect(fresh_page.locator(sel("scene-title"))).to_be_in_viewport()


# ---- 7. the embed code's options, and frames that follow their host's theme --------------------------------


def author_page(context, snippet, html_theme=None):
    author = context.new_page()
    theme = f' data-theme="{html_theme}"' if html_theme else ""
    author.set_content(f"<!doctype html><html{theme}><body><h1>My lesson</h1>{snippet}</body></html>")
    frame = author.locator("iframe").element_handle().content_frame()
    frame.wait_for_function("() => window.attentionPlayground !== undefined")
    frame.evaluate("window.attentionPlayground.ready")
    return author, frame


def test_the_embed_code_offers_panels_locks_and_the_theme_button(maker_page, site_url):
    page = maker_page  # the code is made on the shared page; each frame boots in a course page of its own
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    page.locator(sel("copy-embed-code")).click()
    expect(page.locator(sel("embed-code-status"))).to_contain_text("Copied")
    plain = page.locator(sel("embed-code")).input_value()
    assert "panels=" not in plain and "lock=" not in plain and "theme-toggle" not in plain
    page.locator(sel("embed-panels-bars")).uncheck()
    page.locator(sel("embed-locks-Wq")).check()
    expect(page.locator(sel("embed-code"))).to_have_value(re.compile("lock=Wq"))
    snippet = page.locator(sel("embed-code")).input_value()
    assert re.search(r"panels=[a-z,]+", snippet) and "bars" not in re.search(r"panels=([a-z,]+)", snippet).group(1)
    assert page.evaluate("navigator.clipboard.readText()") == snippet
    author, frame = author_page(page.context, snippet)
    expect(frame.locator(sel("bars-panel"))).to_be_hidden()
    expect(frame.locator(sel("heatmap-panel"))).to_be_visible()
    expect(frame.locator(sel("wq-cell", row=2, column=0))).to_have_attribute("aria-label", re.compile("locked by this page"))
    # Without the theme button asked for, the frame has none; asked for, it has one.
    expect(frame.locator(sel("theme-toggle"))).to_be_hidden()
    author.close()
    page.locator(sel("embed-theme-toggle")).check()
    expect(page.locator(sel("embed-code"))).to_have_value(re.compile("theme-toggle"))
    author, frame = author_page(page.context, page.locator(sel("embed-code")).input_value())
    expect(frame.locator(sel("theme-toggle"))).to_be_visible()
    author.close()


def test_a_frame_follows_the_theme_of_the_page_around_it(maker_page):
    page = maker_page
    page.emulate_media(color_scheme="light")
    page.locator(sel("copy-embed-code")).click()
    expect(page.locator(sel("embed-code"))).to_have_value(re.compile("<iframe"))
    snippet = page.locator(sel("embed-code")).input_value()
    author, frame = author_page(page.context, snippet, html_theme="dark")
    frame.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    # The course page's own switch: the frame follows it.
    author.evaluate("document.documentElement.dataset.theme = 'light'")
    frame.wait_for_function("() => document.documentElement.dataset.theme === 'light'")
    author.evaluate("document.querySelector('iframe').dataset.theme = 'dark'")
    frame.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    author.close()


def test_a_frame_draws_its_example_while_python_starts(phone_at, site_url, artifacts):
    """An author's frame of an example as shipped (the embed code's `#preset=<id>`, or a copied link of it) draws
    the example's numbers while Python starts, as the page draws its first example: no grid of empty cells."""
    scene = preset_scene("repeated-noun")
    weights = compute(scene)["heads"][0]["weights"]
    n = len(scene["tokens"])
    copied_link = scene_link_hash({"scene": scene, "preset": "repeated-noun", "edited": False, "view": {"focus": None, "head": 0}})
    for theme, address in [("light", "#preset=repeated-noun"), ("dark", copied_link)]:
        frame = phone_at(PHONE["width"], PHONE["height"])
        frame.emulate_media(color_scheme=theme)
        held = []  # Python's WebAssembly, held back: the frame is certainly still starting
        frame.context.route("**/pyodide.asm.wasm", lambda route: held.append(route))
        frame.goto(f"{site_url}/index.html?embed{address}")
        expect(frame.locator(sel("preview-badge"))).to_be_visible()
        expect(frame.locator(sel("heatmap-cell"))).to_have_count(n * n)
        # The last word may read every word under the causal mask: its row is the example's, number for number.
        last_row = frame.locator(f'{sel("heatmap-cell", row=n - 1)} + text').all_text_contents()
        assert last_row == [f"{weight:.3f}" for weight in weights[n - 1]], last_row
        expect(frame.locator(sel("heatmap-cell", row=n - 1, column=0))).not_to_have_class(re.compile("pending"))
        expect(frame.locator(sel("playground"))).to_have_attribute("data-status", "preview")
        frame.screenshot(path=str(artifacts / f"frame-starting-{theme}-390.png"))


# ---- 8. Stop, again and again, on a plain host --------------------------------------------------------------

LOOP = "def softmax(x, axis=-1):\n    while True:\n        pass\n"


def test_three_stops_in_a_row_on_a_plain_host_find_spares_ready(page, plain_site_url):
    from page_helpers import page_constant, paste_code

    spares = page_constant("service/exercise-runner.js", "SPARES_WANTED")
    page.goto(f"{plain_site_url}/")
    wait_live(page)
    assert page.evaluate("self.crossOriginIsolated") is False
    page.locator(sel("exercise-open")).click()
    page.locator(sel("exercise-tab-softmax")).click(timeout=90_000)
    status = page.locator(sel("exercise-status"))
    # A learner reading the exercise gives the spares time to boot, once.
    expect(status).to_have_attribute("data-spares-ready", str(spares), timeout=180_000)
    page.locator(sel("exercise-show-solution")).click()
    for stop in range(3):
        paste_code(page, LOOP)
        page.locator(sel("exercise-run")).click()
        expect(status).to_have_attribute("data-outcome", "running", timeout=90_000)
        page.wait_for_timeout(1500)
        page.locator(sel("exercise-stop")).click()
        expect(status).to_have_attribute("data-outcome", "stopped", timeout=90_000)
        # Each Stop finds a spare that booted while the learner read: none waits for a boot. (With one spare the
        # second Stop waited for the spare booting since the first; with two, the third did, 5 to 7 s on a busy
        # machine.)
        assert stop < spares and status.get_attribute("data-stopped-by") == "spare", f"Stop {stop + 1} waited for a Python to boot"
        page.locator(sel("exercise-use-solution")).click()
        page.locator(sel("exercise-run")).click()
        expect(status).to_have_attribute("data-outcome", "passed", timeout=90_000)
