"""What the model refuses, and how: one clear message in the shape of a SceneError."""

import numpy as np
import pytest

from attention_playground import SceneError
from attention_playground.model import ModelInputError, head_scene, run, with_head_weights
from attention_playground.model.corpus import RELATED_WORDS, VOCABULARY

KEYS = {"type", "message", "field", "row", "column", "row_index", "column_index"}


def refusal(call, *args, **kwargs) -> dict:
    with pytest.raises(ModelInputError) as caught:
        call(*args, **kwargs)
    assert isinstance(caught.value, SceneError)
    error = caught.value.to_dict()
    assert set(error) == KEYS and error["type"] == "SceneError"
    return error


@pytest.mark.parametrize("call", [run, lambda model, words: head_scene(model, words, 1, 0)])
def test_unknown_words_are_named_with_their_positions_and_close_words(shipped_model, call):
    error = refusal(call, shipped_model, "the foxx met a crwo and the zebra smiled")
    assert error["field"] == "words" and error["row"] == "foxx" and error["row_index"] == 1
    message = error["message"]
    assert "'foxx' (word 2) (did you mean 'fox'?)" in message
    assert "'crwo' (word 5) (did you mean 'crow'?)" in message
    assert "'zebra' (word 8) (did you mean 'horse'" in message  # close in meaning
    unmatched = refusal(call, shipped_model, "the qxzv")["message"]
    assert "'qxzv' (word 2)" in unmatched and "(did" not in unmatched
    assert "these words" in message and f"It knows {len(VOCABULARY) - 1} words" in message


def test_capitals_are_lowered_and_punctuation_split_off(shipped_model):
    typed = run(shipped_model, "The Cat sat on the mat.")
    assert typed.tokens == ["<bos>", *"the cat sat on the mat .".split()]
    assert np.array_equal(typed.logits, run(shipped_model, "the cat sat on the mat .".split()).logits)
    assert run(shipped_model, ["The", "CAT"]).tokens == ["<bos>", "the", "cat"]


def test_an_unknown_word_gets_words_close_in_meaning_before_words_close_in_spelling(shipped_model):
    message = refusal(run, shipped_model, "the kitten sat on the carpet")["message"]
    assert "'kitten' (word 2) (did you mean 'cat'" in message
    assert "'carpet' (word 6) (did you mean 'rug' or 'mat'" in message


def test_words_close_in_meaning_are_known_words_for_unknown_ones():
    known = set(VOCABULARY[1:])
    for word, close in RELATED_WORDS.items():
        assert word not in known and close and set(close) <= known, word


def test_bos_is_not_a_word_to_type(shipped_model):
    error = refusal(run, shipped_model, ["<bos>", "the", "cat"])
    assert error["row"] == "<bos>" and error["row_index"] == 0 and "this word" in error["message"]


def test_an_empty_sentence_is_refused(shipped_model):
    for empty in ("", "   ", []):
        error = refusal(run, shipped_model, empty)
        assert error["field"] == "words" and "empty" in error["message"]


def test_a_sentence_longer_than_the_context_is_refused(shipped_model):
    words = ["the"] * 35
    error = refusal(head_scene, shipped_model, words, 0, 0)
    assert error["message"] == ("the sentence has 35 words, but the model reads at most 32 (after the <bos> it adds "
                                "itself); shorten it by 3")
    assert error["row_index"] == 32
    run(shipped_model, ["the"] * 32)  # exactly T words is fine


def test_words_must_be_text(shipped_model):
    assert refusal(run, shipped_model, [1, 2])["field"] == "words"


@pytest.mark.parametrize(("layer", "head", "field", "message"), [
    (2, 0, "layer", "layer 2 does not exist; the model has 2 layers, numbered 0 to 1"),
    (-1, 0, "layer", "layer -1 does not exist; the model has 2 layers, numbered 0 to 1"),
    (0, 5, "head", "head 5 does not exist; the model has 4 heads in each layer, numbered 0 to 3"),
    ("1", 0, "layer", "layer '1' does not exist; the model has 2 layers, numbered 0 to 1"),
])
def test_a_head_out_of_range_names_the_valid_range(shipped_model, layer, head, field, message):
    error = refusal(head_scene, shipped_model, "the cat", layer, head)
    assert error["field"] == field and error["message"] == message
    assert refusal(run, shipped_model, "the cat", [(layer, head)])["message"] == message


def test_knocked_out_must_be_pairs(shipped_model):
    assert refusal(run, shipped_model, "the cat", [1])["field"] == "knocked_out"
    assert refusal(run, shipped_model, "the cat", "L0H1")["field"] == "knocked_out"


def test_a_replaced_head_matrix_must_have_the_heads_shape(shipped_model):
    error = refusal(with_head_weights, shipped_model, 0, 1, Wq=np.zeros((3, 3)))
    c = shipped_model.config
    assert error["field"] == "Wq" and f"{c.d_model} × {c.d_head}" in error["message"]
    assert refusal(with_head_weights, shipped_model, 0, 9, Wq=np.zeros((c.d_model, c.d_head)))["field"] == "head"
