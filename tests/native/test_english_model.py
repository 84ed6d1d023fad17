"""The English model as shipped: its tokenizer reads any text, its heads are what the docs name them, it beats a
bigram model on text it never saw, and the page's answers about it are the forward pass's.

Run natively and again inside Pyodide, but for the tests marked `reads_the_corpus`: they fetch the Brown corpus
(kept in the download cache) to check that the shipped tokenizer is what the corpus teaches and that model.json's
held-out figures are measured on it.
"""

import gzip
import importlib.util
import sys
from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_playground.english import load_english, load_tokenizer
from attention_playground.english import requests as english_requests
from attention_playground.english.analysis import (
    ROLE_THRESHOLDS,
    induction_scores,
    text_scores,
)
from attention_playground.english.checkpoint import (
    SETTINGS_NAME,
    WEIGHTS_NAME,
    float16_weights,
    shipped_settings,
    weights_text,
)
from attention_playground.english.tokenizer import BOS, TOKENIZER_NAME, WORD_START, pre_tokens
from attention_playground.model.errors import ModelInputError
from attention_playground.model.gradients import batched_logits
from attention_playground.model.transformer import forward

ROOT = Path(__file__).resolve().parents[2]

#: Running English of our own, for the scores that need text: the Brown corpus is not fetched inside Pyodide.
PROSE = (
    "The river ran past the old mill, and the miller watched it from his door every morning. "
    "In the spring the water rose, and he worried that the wheel would break before the summer came. "
    "His daughter said that the village would help him, as it had helped her grandfather years before. "
    "When the rain stopped at last, the men of the village came down the hill with ropes and timber. "
    "They worked until dark, and by the end of the week the wheel was turning again."
)


@pytest.fixture(scope="module")
def english():
    return load_english()


@pytest.fixture(scope="module")
def tokenizer():
    return load_tokenizer()


def prose_windows(tokenizer):
    """The prose's sentences, each from <bos>, as one batch padded by running on into the next sentence."""
    ids = tokenizer.encode(PROSE)
    return np.array([[tokenizer.id_of(BOS), *ids[:63]]])


def test_common_words_stay_whole_and_rare_ones_split(tokenizer):
    for word in ("the", "cat", "sat", "mat", "dog", "mary", "went", "store"):
        assert tokenizer.tokens(word) == [WORD_START + word], word
    pieces = tokenizer.tokens("chased")
    assert len(pieces) > 1 and pieces[0].startswith(WORD_START) and not pieces[1].startswith(WORD_START)
    assert "".join(pieces) == WORD_START + "chased"
    # Punctuation is never marked as a word's start, wherever it stands.
    assert tokenizer.tokens("Mary went home , then left.") == ["▁mary", "▁went", "▁home", ",", "▁then", "▁left", "."]
    assert pre_tokens("Café “Zoë” isn’t") == ["▁cafe", '"', "▁zoe", '"', "▁isn", "'", "▁t"]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80))
def test_any_printable_text_tokenizes_and_runs(text):
    tokenizer = load_tokenizer()
    tokens = tokenizer.tokens(text)
    ids = tokenizer.encode(text)
    assert [tokenizer.vocabulary[i] for i in ids] == tokens  # no unknown token: every piece is in the vocabulary
    if not tokens:  # white space (and what plain() drops, as a lone accent) reads as no text
        with pytest.raises(ModelInputError, match="type a sentence"):
            english_requests.english_run({"words": text})
        return
    if len(tokens) <= 63:
        result = english_requests.english_run({"words": text})
        assert len(result["tokens"]) == len(tokens) + 1
        assert all(abs(sum(row) - 1) < 1e-9 for layer in result["weights"] for head in layer for row in head)


def test_a_text_too_long_is_refused_with_its_length_and_the_limit():
    with pytest.raises(ModelInputError, match=r"is 80 tokens long; the English model reads at most 63") as error:
        english_requests.english_run({"words": "the " * 80})
    assert error.value.field == "words"


def test_the_weights_are_float16_and_the_files_fit_the_budget(english):
    folder = files("attention_playground.english")
    stored = float16_weights((folder / WEIGHTS_NAME).read_text(encoding="ascii"))
    assert {name: stored[name].dtype for name in stored} == dict.fromkeys(english.params, np.dtype(np.float16))
    # Read back, the model is those float16 numbers exactly, and writing it again gives the same text.
    assert all(np.array_equal(stored[name].astype(np.float64), english.params[name]) for name in english.params)
    assert weights_text(english) == (folder / WEIGHTS_NAME).read_text(encoding="ascii")
    assert shipped_settings()["summary"]["parameters"] == sum(value.size for value in english.params.values())
    together = sum(len(gzip.compress((folder / name).read_bytes(), 9))
                   for name in (WEIGHTS_NAME, TOKENIZER_NAME, SETTINGS_NAME))
    assert together < 1.5e6, together


def test_the_heads_reach_what_the_docs_name_them(english, tokenizer):
    """On our own prose and on random tokens said twice (no corpus needed): a previous-token head, an induction
    head and a sink, each at its threshold."""
    scores = {**text_scores(english, prose_windows(tokenizer)), "induction": induction_scores(english, tokenizer)}
    assert scores["previous_token"].max() >= ROLE_THRESHOLDS["previous-token"][1]
    assert scores["induction"].max() >= ROLE_THRESHOLDS["induction"][1]
    assert scores["first_token"].max() >= ROLE_THRESHOLDS["first-token"][1]
    # model.json's roles are the same heads' (measured on held-out Brown).
    shipped = {(head["layer"], head["head"]): head["role"] for head in shipped_settings()["summary"]["heads"]}
    for role, score in (("previous-token", "previous_token"), ("induction", "induction")):
        best = np.unravel_index(int(np.argmax(scores[score])), scores[score].shape)
        assert shipped[tuple(int(i) for i in best)] == role


def test_the_induction_score_is_measured_again_as_model_json_gives_it(english, tokenizer):
    scores = induction_scores(english, tokenizer)
    for head in shipped_settings()["summary"]["heads"]:
        assert head["scores"]["induction"] == pytest.approx(scores[head["layer"], head["head"]], abs=1e-4)


def test_the_second_mary_reads_the_word_after_the_first_above_every_other_word(english):
    example = next(example for example in english_requests.examples() if example["id"] == "mary-store")
    run = english_requests.english_run({"words": example["words"]})
    focus = example["focus"]
    assert run["tokens"][focus] == "mary" and run["tokens"][:focus].count("mary") == 1
    follower = run["tokens"].index("mary") + 1
    rows = np.array(run["weights"])[:, :, focus, :]  # (L, H, n)
    layer, head = np.unravel_index(int(np.argmax(rows[:, :, follower])), rows.shape[:2])
    row = rows[layer, head]
    assert row[follower] == row[1:].max()  # above every word but <bos>
    assert english_requests.EXAMPLES[0]["focus"] == ("mary", 2)


def test_the_runs_effects_are_those_of_running_the_model_again_without_each_head(english, tokenizer):
    words = "The old farmer sold his horse, and the old farmer bought a cow."
    for knocked, focus in (([], None), ([[0, 1]], 5), ([[1, 2]], 99)):
        result = english_requests.english_run({"words": words, "knocked_out": knocked, "focus": focus})
        ids = np.array([tokenizer.id_of(piece) for piece in result["pieces"]])
        at = result["focus"]
        assert at == (len(ids) - 1 if focus is None else min(focus, len(ids) - 1))
        pairs = {tuple(pair) for pair in knocked}
        base = forward(english, ids, pairs).probabilities
        for layer in range(2):
            for head in range(4):
                without = forward(english, ids, pairs | {(layer, head)}).probabilities
                effect = result["effects"][layer][head]
                assert effect[at] == pytest.approx(0.5 * np.abs(without[at] - base[at]).sum(), abs=1e-12)
                assert all(value is None for i, value in enumerate(effect) if i != at)
        best = np.argsort(-base, axis=-1, kind="stable")[:, :5]
        for position, listed in enumerate(result["predictions"]):
            assert [token for token, _ in listed] == [english_requests.shown(english.vocabulary[j]) for j in best[position]]
        # What the panel asks: the same answer, but the guesses too at the focus alone.
        panels = english_requests.english_run({"words": words, "knocked_out": knocked, "focus": focus, "focus_only": True})
        assert np.array_equal(np.array(panels["weights"]), np.array(result["weights"]))
        assert np.allclose([head[at] for layer in panels["effects"] for head in layer],
                           [head[at] for layer in result["effects"] for head in layer], rtol=0, atol=1e-12)
        for guesses, full in ((panels["predictions"], result["predictions"]), (panels["next_word"], result["next_word"])):
            assert all(value is None for i, value in enumerate(guesses) if i != at)
        assert [token for token, _ in panels["predictions"][at]] == [token for token, _ in result["predictions"][at]]
        assert np.allclose([p for _, p in panels["predictions"][at]], [p for _, p in result["predictions"][at]], rtol=0, atol=1e-12)
        if at < len(ids) - 1:
            assert panels["next_word"][at] == pytest.approx(result["next_word"][at], abs=1e-12)


def test_focus_only_must_be_true_or_false():
    with pytest.raises(ModelInputError, match="focus_only must be true or false") as refused:
        english_requests.english_run({"words": "the cat sat", "focus_only": "yes"})
    assert refused.value.field == "focus_only"


def test_the_training_forward_pass_is_the_display_one_on_the_english_model(english, tokenizer):
    ids = np.array([tokenizer.id_of(BOS), *tokenizer.encode(PROSE)[:40]])
    assert np.allclose(batched_logits(english.params, ids[None], english.config)[0], forward(english, ids).logits,
                       rtol=0, atol=1e-9)


def test_pieces_inside_a_word_are_marked_for_the_page():
    assert english_requests.shown("▁mary") == "mary"
    assert english_requests.shown("ased") == "·ased"
    assert english_requests.shown(",") == ","
    assert english_requests.shown("<0xC3>") == "<0xC3>"
    assert english_requests.shown(BOS) == BOS


@pytest.mark.reads_the_corpus
def test_the_shipped_tokenizer_is_what_the_corpus_teaches(tokenizer):
    from attention_playground.english.bpe import learn_tokenizer
    from attention_playground.english.brown import brown_sentences

    learned = learn_tokenizer(brown_sentences("all"), len(tokenizer.vocabulary))
    assert learned.vocabulary == tokenizer.vocabulary


@pytest.mark.reads_the_corpus
def test_on_held_out_text_the_model_beats_a_bigram_model_as_model_json_says(english, tokenizer):
    from attention_playground.english.analysis import describe_english

    measured = describe_english(english, tokenizer)
    summary = shipped_settings()["summary"]
    assert measured["held_out_loss"] == pytest.approx(summary["held_out_loss"], abs=1e-4)
    assert measured["bigram_loss"] == pytest.approx(summary["bigram_loss"], abs=1e-4)
    assert measured["held_out_loss"] < measured["bigram_loss"]
    for mine, shipped in zip(measured["heads"], summary["heads"], strict=True):
        assert mine["role"] == shipped["role"]
        for name, value in mine["scores"].items():
            assert value == pytest.approx(shipped["scores"][name], abs=1e-4)
    assert measured["held_out_tokens"] == summary["held_out_tokens"] > 10_000


def test_the_model_page_holds_the_english_reports_current_output():
    spec = importlib.util.spec_from_file_location("english_report", ROOT / "tools" / "english_report.py")
    tool = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = tool
    spec.loader.exec_module(tool)
    text = (ROOT / "docs" / "model.md").read_text(encoding="utf-8")
    assert text.count(tool.START_MARKER) == 1 and text.count(tool.END_MARKER) == 1
    assert tool.report_in_page(text) == tool.english_report()
    assert text.index("## The English model") < text.index(tool.START_MARKER)


def test_the_english_preset_is_what_its_script_makes_now_and_its_weights_are_the_models(english):
    import json

    from attention_playground.presets import load_preset
    from attention_playground import compute

    spec = importlib.util.spec_from_file_location(
        "make_english_repeated_name", ROOT / "py" / "attention_playground" / "presets" / "make_english_repeated_name.py")
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    scene = load_preset(maker.PRESET_ID)
    made_now = json.loads(maker._scene_json()(maker.english_repeated_name_scene()))
    assert made_now["tokens"] == scene["tokens"] and made_now["description"] == scene["description"]
    assert np.allclose(np.array(made_now["X"]), np.array(scene["X"]), rtol=0, atol=1e-9)
    layer, head = maker.induction_head()
    assert scene["heads"][0]["name"] == f"L{layer}H{head}"
    run = english_requests.english_run({"words": maker.SENTENCE})
    assert scene["tokens"] == run["tokens"]
    computed = np.array(compute(scene)["heads"][0]["weights"])
    assert np.allclose(computed, np.array(run["weights"][layer][head]), rtol=0, atol=1e-9)


def test_the_labs_real_english_steps_ask_of_the_induction_head_and_knock_it_out():
    """Seed 000's second exercise on the English model: the lab predicts what the second "mary" reads (computed:
    the word after the first), then opens the model's panel there with the same head knocked out."""
    from attention_playground.lessons.compile import compile_lesson
    from attention_playground.lessons.questions import expected
    from attention_playground.presets import load_preset

    _, lesson = compile_lesson((ROOT / "lessons" / "self-attention-lab.md").read_text(encoding="utf-8"), "self-attention-lab")
    steps = {step["id"]: step for step in lesson["steps"]}
    predict, knock = steps["real-english-a-name-said-twice"], steps["real-english-knock-the-head-out"]
    answer = expected(predict["question"], load_preset(predict["scene"]["preset"]))
    assert load_preset(predict["scene"]["preset"])["tokens"][answer["value"]] == "went"
    heads = shipped_settings()["summary"]["heads"]
    induction = max(heads, key=lambda head: head["scores"]["induction"])["label"]
    assert knock["model"]["name"] == "english"
    assert knock["model"]["head"] == induction and knock["model"]["knocked_out"] == [induction]
    tokens = english_requests.english_run({"words": knock["model"]["words"]})["tokens"]
    assert tokens[knock["model"]["focus"]] == "mary" and tokens[:knock["model"]["focus"]].count("mary") == 1


def test_a_window_carries_a_copied_span_later_in_itself_or_is_a_random_run_said_again():
    from attention_playground.english.windows import SPAN_TOKENS, Windows, copy_span, random_run

    rng = np.random.default_rng(0)
    for _ in range(200):
        text = np.arange(100, 164)
        source, copy, length = copy_span(text, rng)
        assert SPAN_TOKENS[0] <= length <= SPAN_TOKENS[1] and source + length <= copy and copy + length <= 64
        assert np.array_equal(text[copy:copy + length], np.arange(100 + source, 100 + source + length))
        run = random_run(np.arange(1000, 1100), 64, rng)
        period = next(p for p in range(1, 65) if np.array_equal(run[p:], run[:-p]))
        assert SPAN_TOKENS[0] <= period <= SPAN_TOKENS[1] and len(set(run[:period].tolist())) == period
    # Windows start at a sentence's start, <bos> first; the same seed draws the same batch.
    windows = Windows([[5, 6, 7]] * 40, 16, 0, 0.5, 0.1, list(range(10, 50)))
    first, targets = windows.batch(np.random.default_rng(3), 8)
    again, _ = windows.batch(np.random.default_rng(3), 8)
    assert np.array_equal(first, again) and (first[:, 0] == 0).all()
    assert np.array_equal(first[:, 1:], targets[:, :-1])


def test_no_head_links_it_to_the_cat_as_the_docs_and_the_panel_say():
    run = english_requests.english_run({"words": "The cat sat on the mat because it was tired"})
    tokens = run["tokens"]
    it, cat = tokens.index("it"), tokens.index("cat")
    for layer in run["weights"]:
        for head in layer:
            row = np.array(head[it])
            assert row[cat] < 0.1 and int(np.argmax(row[1:])) + 1 != cat
