"""What the model reads: a fixed vocabulary and a seeded generator of training sequences.

Every sequence starts with `<bos>` (the beginning-of-sequence token) and is one of two kinds:

- **a repeated run** (`repeat_fraction` of the sequences, 75% by default): a run of 5 to 15 distinct
  words drawn at random from the vocabulary, repeated until the sequence is full, e.g.

      <bos> owl red sat queen fox owl red sat queen fox owl red ...

  The first copy of the run cannot be predicted (any word may come next); from the second copy on every
  word can be predicted exactly, by looking back at what followed the same word last time. That is the
  job an *induction head* does, and this half of the data exists to make one worth growing.

- **sentences** from a small grammar, one after another with a "." after each, e.g.

      <bos> the fox met a crow and the fox smiled . the cat sat on the mat because it was tired . ...

  The grammar's nouns recur inside a sentence ("the fox ... the fox"), and so do short phrases
  ("the old owl ... the old owl"), so copying is useful here too, but only sometimes.

Words are drawn with Python's `random.Random(seed)`: one seed gives the same sequences on every machine,
and it is several times faster than NumPy's `choice` for many tiny draws.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

BOS = "<bos>"

NOUNS = ("cat", "dog", "fox", "crow", "man", "owl", "wolf", "bird", "frog", "mouse", "girl", "boy", "king",
         "queen", "horse", "bear")
PLACES = ("mat", "hill", "tree", "log", "rock")
TRANSITIVE = ("met", "saw", "chased", "helped", "bites", "liked", "found")
INTRANSITIVE = ("smiled", "slept", "ran", "sang", "laughed", "left")
ADJECTIVES = ("tired", "old", "big", "small", "red", "happy", "hungry")
FUNCTION_WORDS = ("the", "a", "and", "on", "because", "it", "was", "sat", "then", ".")

#: Every word the model knows, in a fixed order; index 0 is `<bos>`. The tutorials' words are all here.
VOCABULARY: tuple[str, ...] = (BOS, *FUNCTION_WORDS, *NOUNS, *PLACES, *TRANSITIVE, *INTRANSITIVE, *ADJECTIVES)
WORD_INDEX: dict[str, int] = {word: i for i, word in enumerate(VOCABULARY)}

#: The words a repeated run is drawn from: every word but `<bos>`.
RUN_WORDS: tuple[str, ...] = VOCABULARY[1:]

#: Shortest and longest run of a repeated-run sequence.
RUN_LENGTHS = (5, 15)


@dataclass(frozen=True)
class Sequence:
    """One training or evaluation sequence: word indices, `<bos>` first, and where the repeats start.

    `run_length` is the length L of the repeated run (0 for sentences): the words at positions 1..L are the
    first copy, and a word at position t > L has occurred before, at t - L.
    """

    ids: tuple[int, ...]
    run_length: int

    @property
    def is_repeated(self) -> bool:
        return self.run_length > 0


def repeated_run(rng: random.Random, n_tokens: int) -> Sequence:
    """`<bos>` and a run of 5-15 distinct random words, repeated until there are n_tokens tokens."""
    length = rng.randint(*RUN_LENGTHS)
    run = rng.sample(range(1, len(VOCABULARY)), length)  # distinct word indices, never <bos>
    ids = [0] + [run[i % length] for i in range(n_tokens - 1)]
    return Sequence(tuple(ids), length)


def sentence(rng: random.Random) -> list[str]:
    """One sentence of the grammar, ending in ".". Its nouns and phrases recur within the sentence."""
    noun, other = rng.sample(NOUNS, 2)
    kind = rng.randrange(4)
    if kind == 0:  # the fox met a crow and the fox smiled
        words = ["the", noun, rng.choice(TRANSITIVE), "a", other, "and", "the", noun, rng.choice(INTRANSITIVE)]
    elif kind == 1:  # the cat sat on the mat because it was tired
        words = ["the", noun, "sat", "on", "the", rng.choice(PLACES), "because", "it", "was",
                 rng.choice(ADJECTIVES)]
    elif kind == 2:  # the old owl saw the wolf then the old owl ran
        adjective = rng.choice(ADJECTIVES)
        words = ["the", adjective, noun, rng.choice(TRANSITIVE), "the", other, "then", "the", adjective, noun,
                 rng.choice(INTRANSITIVE)]
    else:  # the dog bites the man and the man bites the dog
        verb = rng.choice(TRANSITIVE)
        words = ["the", noun, verb, "the", other, "and", "the", other, verb, "the", noun]
    return words + ["."]


def sentences(rng: random.Random, n_tokens: int) -> Sequence:
    """`<bos>` and sentences, one after another, cut off at n_tokens tokens."""
    words = [BOS]
    while len(words) < n_tokens:
        words += sentence(rng)
    return Sequence(tuple(WORD_INDEX[word] for word in words[:n_tokens]), 0)


def draw_sequence(rng: random.Random, n_tokens: int, repeat_fraction: float) -> Sequence:
    """A repeated run with probability `repeat_fraction`, otherwise sentences."""
    if rng.random() < repeat_fraction:
        return repeated_run(rng, n_tokens)
    return sentences(rng, n_tokens)


def draw_batch(rng: random.Random, batch_size: int, n_tokens: int, repeat_fraction: float) -> list[Sequence]:
    """`batch_size` sequences of n_tokens tokens each."""
    return [draw_sequence(rng, n_tokens, repeat_fraction) for _ in range(batch_size)]
