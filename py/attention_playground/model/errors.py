"""Checking what a learner asks the model, with messages in the same shape as a scene's.

`ModelInputError` is a `SceneError`, so it crosses to the page as the same plain data
(`to_dict()`: type, message, field, row, column, row_index, column_index) and is shown the same way.
`field` is "words", "layer", "head" or "knocked_out"; for a word, `row` is the word and `row_index` its
0-based position among the words given (`<bos>` is not counted: it is added by the model).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from ..scene import SceneError
from .corpus import BOS, RELATED_WORDS

#: A word as a learner types it: letters (with an apostrophe inside), `<bos>`, or one punctuation mark.
WORD_PATTERN = re.compile(rf"{re.escape(BOS)}|[^\W_]+(?:'[^\W_]+)*|[^\w\s]")


class ModelInputError(SceneError):
    """A sentence, layer or head the trained model cannot take; the message says what it can take."""


def split_words(words: str | Sequence[str]) -> list[str]:
    """A sentence as a list of words, read as a learner types it: capitals lowered and punctuation split
    off, so "The Cat sat on the mat." is "the cat sat on the mat ." A list is taken word by word (each
    lowered and stripped, not split)."""
    if isinstance(words, str):
        return WORD_PATTERN.findall(words.lower())
    if not isinstance(words, Sequence) or not all(isinstance(word, str) for word in words):
        raise ModelInputError("words must be text or a list of words (text)", "words")
    return [word.strip().lower() if word.strip() != BOS else word.strip() for word in words]


def close_words(word: str, vocabulary: Sequence[str], n: int = 3) -> list[str]:
    """Known words close to an unknown one: first those close in meaning (corpus.RELATED_WORDS, e.g.
    "kitten" → "cat"), then those close in spelling ("crwo" → "crow"), at most n."""
    known = set(vocabulary[1:])
    by_meaning = [close for close in RELATED_WORDS.get(word, ()) if close in known]
    by_spelling = difflib.get_close_matches(word, vocabulary[1:], n=n, cutoff=0.6)
    return list(dict.fromkeys(by_meaning + by_spelling))[:n]


def check_words(words: str | Sequence[str], vocabulary: Sequence[str], max_words: int) -> list[str]:
    """The words, checked against the model's vocabulary and context length; raise ModelInputError if not."""
    words = split_words(words)
    if not words:
        raise ModelInputError("words is empty; give at least one word, such as \"the cat sat\"", "words")
    if len(words) > max_words:
        raise ModelInputError(
            f"the sentence has {len(words)} words, but the model reads at most {max_words} "
            f"(after the {BOS} it adds itself); shorten it by {len(words) - max_words}",
            "words", words[max_words], row_index=max_words,
        )
    known = set(vocabulary[1:])  # <bos> is the model's own: it always comes first and is added by run()
    unknown = [(i, word) for i, word in enumerate(words) if word not in known]
    if unknown:
        parts = []
        for i, word in unknown:
            close = close_words(word, vocabulary)
            hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
            parts.append(f"{word!r} (word {i + 1}){hint}")
        first_index, first_word = unknown[0]
        raise ModelInputError(
            f"the model does not know {'this word' if len(unknown) == 1 else 'these words'}: "
            f"{'; '.join(parts)}. It knows {len(vocabulary) - 1} words; vocabulary(model) lists them",
            "words", first_word, row_index=first_index,
        )
    return words


def check_head(layer: object, head: object, n_layers: int, n_heads: int) -> tuple[int, int]:
    """(layer, head) as ints, or ModelInputError naming the valid range."""
    for name, value, count in (("layer", layer, n_layers), ("head", head, n_heads)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
            things = "layers" if name == "layer" else "heads in each layer"
            raise ModelInputError(
                f"{name} {value!r} does not exist; the model has {count} {things}, numbered 0 to {count - 1}",
                name,
            )
    return layer, head


def check_knocked_out(knocked_out: object, n_layers: int, n_heads: int) -> frozenset[tuple[int, int]]:
    """The heads to knock out, as a set of (layer, head) pairs, each checked."""
    if isinstance(knocked_out, (str, bytes)) or not isinstance(knocked_out, (Sequence, set, frozenset)):
        raise ModelInputError("knocked_out must be a list of (layer, head) pairs", "knocked_out")
    pairs = set()
    for pair in knocked_out:
        if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
            raise ModelInputError(f"knocked_out: {pair!r} is not a (layer, head) pair", "knocked_out")
        pairs.add(check_head(pair[0], pair[1], n_layers, n_heads))
    return frozenset(pairs)
