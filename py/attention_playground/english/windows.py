"""The English model's training data: windows of the corpus's tokens, half of them carrying a copied span.

A window is `<bos>` and the n_ctx tokens that follow a sentence's start (the text runs on into the next
sentences), plus one more token to predict. Sentences are where a learner's own text starts, so windows start
there too.

Why the copies: an induction head (a token finds where it came before and reads what followed it) pays for itself
only when text repeats within the context, and in 64 tokens of Brown it rarely does: trained on plain text, a model
of this size grows a previous-token head and no induction head. So in `repeat_fraction` of the windows a span of
6-24 tokens is copied to a later place in the same window, as a name or a phrase recurs in longer text; the copy can
be predicted exactly by an induction head. Copied text can also be half guessed from the words before it, so a
tenth of the windows are a run of 6-24 random word tokens said again and again, which nothing but copying
predicts (as the story-world model's repeated runs): the induction head forms within the training run
(docs/model.md, "The English model").
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: The length of a copied span, in tokens: [shortest, longest].
SPAN_TOKENS = (6, 24)
#: The share of windows that are a run of random word tokens said again and again instead of text.
RANDOM_RUN_SHARE = 0.1


class Windows:
    """Draws training batches from a token stream: inputs (B, n_ctx) and targets (B, n_ctx), `<bos>` first."""

    def __init__(self, sentences: Sequence[Sequence[int]], n_ctx: int, bos: int, repeat_fraction: float,
                 random_run_share: float = 0.0, words: Sequence[int] = ()):
        self.stream = np.fromiter((token for sentence in sentences for token in sentence), dtype=np.int64)
        lengths = np.fromiter((len(sentence) for sentence in sentences), dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        self.starts = starts[starts + n_ctx <= len(self.stream)]  # a window must fit before the stream ends
        self.n_ctx, self.bos, self.repeat_fraction = n_ctx, bos, repeat_fraction
        self.random_run_share, self.words = random_run_share, np.asarray(words, dtype=np.int64)

    def window(self, rng: np.random.Generator) -> np.ndarray:
        """One window of n_ctx + 1 tokens: `<bos>` and the text after a sentence's start, maybe with a copy; or
        `<bos>` and a random run said again and again."""
        if self.random_run_share and rng.random() < self.random_run_share:
            return np.concatenate([[self.bos], random_run(self.words, self.n_ctx, rng)])
        start = self.starts[rng.integers(len(self.starts))]
        text = self.stream[start:start + self.n_ctx].copy()  # (n_ctx,)
        if rng.random() < self.repeat_fraction:
            copy_span(text, rng)
        return np.concatenate([[self.bos], text])

    def batch(self, rng: np.random.Generator, size: int) -> tuple[np.ndarray, np.ndarray]:
        windows = np.stack([self.window(rng) for _ in range(size)])  # (B, n_ctx + 1)
        return windows[:, :-1], windows[:, 1:]


def random_run(words: np.ndarray, length: int, rng: np.random.Generator) -> np.ndarray:
    """`length` tokens: a run of SPAN_TOKENS distinct random word tokens, said again and again."""
    run = rng.choice(words, int(rng.integers(SPAN_TOKENS[0], SPAN_TOKENS[1] + 1)), replace=False)
    return np.resize(run, length)


def copy_span(text: np.ndarray, rng: np.random.Generator) -> tuple[int, int, int]:
    """Copy a span of the text (in place) to a later place that does not overlap it; returns (source, copy,
    length)."""
    length = int(rng.integers(SPAN_TOKENS[0], SPAN_TOKENS[1] + 1))
    length = min(length, len(text) // 2)
    source = int(rng.integers(0, len(text) - 2 * length + 1))
    copy = int(rng.integers(source + length, len(text) - length + 1))
    text[copy:copy + length] = text[source:source + length]
    return source, copy, length
