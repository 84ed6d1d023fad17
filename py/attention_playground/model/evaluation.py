"""How well the model does, measured on a fixed evaluation set.

The evaluation set is drawn once, from its own seed (`EVAL_SEED`, not the training seed), so every model
is measured on the same sequences: `EVAL_REPEATED` repeated runs and `EVAL_SENTENCES` sequences of
sentences, each of the model's full length (`<bos>` + max_words words, and the word after that as the
last target).

In a repeated run of length L (`<bos>` at position 0, the first copy at 1..L), position t predicts the
token at t + 1:

- the **repeated part** is every position t > L: the token there has occurred before, at t - L, so the
  next token can be copied from what followed it then. Copying is the only way to predict it.
- the **first run** is every position t < L: the next token is a fresh random word, so the best possible
  accuracy is chance (about 1 in 160, the words but `<bos>`, less what the model can rule out, such as a word
  already in the run).
- position L (the last word of the first copy) is in neither: nothing has repeated yet, yet the next token
  is the run's first word again, which the model has no way to know.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from functools import cache

import numpy as np

from .corpus import (
    ANIMAL_SOUNDS,
    BOS,
    PEOPLE,
    PLACES,
    PRONOUN_ORDERS,
    Sequence,
    pronoun_sentence,
    repeated_run,
    second_mention_story,
    sentences,
)
from .gradients import batched_logits
from .transformer import Model

EVAL_SEED = 20_240_601
EVAL_REPEATED = 64
EVAL_SENTENCES = 32
EVAL_PRONOUN_PER_ORDER = 24  # pronoun sentences per word order
EVAL_STORIES = 48  # second-mention stories


@cache
def evaluation_set(n_tokens: int) -> tuple[Sequence, ...]:
    """The fixed evaluation sequences of n_tokens tokens: the repeated runs first, then the sentences."""
    rng = random.Random(EVAL_SEED)
    repeated = [repeated_run(rng, n_tokens) for _ in range(EVAL_REPEATED)]
    prose = [sentences(rng, n_tokens) for _ in range(EVAL_SENTENCES)]
    return tuple(repeated + prose)


@dataclass(frozen=True)
class PronounSentence:
    """One sentence of the pronoun evaluation set, read on its own after `<bos>`.

    Positions count `<bos>` as 0: `pronoun` is where "it" stands, `animal` the animal it refers to, `others`
    the other nouns (the place, and the person if there is one); `sound` is the animal's word, which follows "it".
    """

    order: str
    words: tuple[str, ...]
    pronoun: int
    animal: int
    others: tuple[int, ...]
    sound: str


@cache
def pronoun_evaluation_set() -> tuple[PronounSentence, ...]:
    """`EVAL_PRONOUN_PER_ORDER` pronoun sentences in each word order of the corpus, from the evaluation seed."""
    rng = random.Random(EVAL_SEED + 1)
    found = []
    for order in PRONOUN_ORDERS:
        for _ in range(EVAL_PRONOUN_PER_ORDER):
            words = tuple(pronoun_sentence(rng, order))
            found.append(pronoun_facts(words, order))
    return tuple(found)


def pronoun_facts(words, order: str = "") -> PronounSentence:
    """Where "it", its animal and the other nouns stand in `words` (positions count `<bos>` as 0)."""
    tokens = [BOS, *words]
    pronoun = tokens.index("it")
    animal = max(i for i in range(pronoun) if tokens[i] in ANIMAL_SOUNDS)  # the nearest animal before "it"
    others = tuple(i for i in range(pronoun) if tokens[i] in PLACES or tokens[i] in PEOPLE)
    return PronounSentence(order, tuple(words), pronoun, animal, others, ANIMAL_SOUNDS[tokens[animal]])


@dataclass(frozen=True)
class SecondMention:
    """A story in which a noun is named again; positions count `<bos>` as 0.

    `second` is the second mention of the noun, `first` its first mention; `following` is the word after the
    first mention (where an induction head reads), `next_word` the word after the second ("left").
    """

    words: tuple[str, ...]
    first: int
    second: int
    following: int
    next_word: str


@cache
def second_mention_set() -> tuple[SecondMention, ...]:
    """`EVAL_STORIES` second-mention stories (corpus.second_mention_story) that do name a noun twice."""
    rng = random.Random(EVAL_SEED + 2)
    found = []
    while len(found) < EVAL_STORIES:
        words = tuple(second_mention_story(rng))
        tokens = [BOS, *words]
        nouns = [i for i in range(2, len(tokens), 4)]  # "the NOUN came/left ." from position 1 on
        repeats = [i for i in nouns if tokens[i] in {tokens[j] for j in nouns if j < i}]
        if repeats:
            second = repeats[0]
            first = next(j for j in nouns if tokens[j] == tokens[second])
            found.append(SecondMention(words, first, second, first + 1, tokens[second + 1]))
    return tuple(found)


def model_evaluation_set(model: Model) -> tuple[Sequence, ...]:
    """The evaluation set at the model's length: its inputs fill all n_ctx positions, plus one target."""
    return evaluation_set(model.config.n_ctx + 1)


def repeated_positions(sequence: Sequence, n_inputs: int) -> np.ndarray:
    """The input positions t whose token has occurred before (t > L): the repeated part."""
    return np.arange(sequence.run_length + 1, n_inputs)


def first_run_positions(sequence: Sequence) -> np.ndarray:
    """The input positions t < L, where the next token is a fresh random word."""
    return np.arange(0, sequence.run_length)


def log_probabilities(logits: np.ndarray) -> np.ndarray:
    """log softmax of each row, (n, d_vocab)."""
    shifted = logits - logits.max(axis=-1, keepdims=True)  # (n, d_vocab)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))  # (n, d_vocab)


@dataclass(frozen=True)
class Metrics:
    """Next-token cross-entropy (in nats) and argmax accuracy on the evaluation set.

    - `loss`: mean over every position of every sequence
    - `repeat_loss`, `repeat_accuracy`: over the repeated part of the repeated runs
    - `first_run_accuracy`: over the first run of the repeated runs (near chance for any model)
    - `sentence_loss`: mean over every position of the sentence sequences
    """

    loss: float
    repeat_loss: float
    repeat_accuracy: float
    first_run_accuracy: float
    sentence_loss: float

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


def per_position_batch(model: Model, sequences: list[Sequence], knocked_out=frozenset()) -> tuple[np.ndarray, np.ndarray]:
    """(loss, correct) at every input position of sequences of one length, each (B, n_ctx): one batched
    forward pass (gradients.py's, which a test holds equal to transformer.forward's to 1e-10)."""
    ids = np.array([sequence.ids for sequence in sequences])  # (B, n_ctx + 1)
    inputs, targets = ids[:, :-1], ids[:, 1:]  # (B, n_ctx) each
    logits = batched_logits(model.params, inputs, model.config, frozenset(knocked_out))  # (B, n_ctx, d_vocab)
    loss = -np.take_along_axis(log_probabilities(logits), targets[..., None], axis=-1)[..., 0]  # (B, n_ctx)
    correct = logits.argmax(axis=-1) == targets  # (B, n_ctx)
    return loss, correct


def evaluate(model: Model, knocked_out=frozenset(), repeated_only: bool = False) -> Metrics:
    """The model's `Metrics` on the evaluation set, optionally with heads knocked out (their output zeroed).

    `repeated_only` skips the sentences (their losses come back as nan): quicker, for early stopping.
    """
    all_loss, repeat_loss, repeat_correct, first_correct, sentence_loss = [], [], [], [], []
    sequences = [sequence for sequence in model_evaluation_set(model) if sequence.is_repeated or not repeated_only]
    losses, corrects = per_position_batch(model, sequences, knocked_out)
    for sequence, loss, correct in zip(sequences, losses, corrects, strict=True):
        all_loss.append(loss)
        if sequence.is_repeated:
            repeated = repeated_positions(sequence, len(loss))
            first = first_run_positions(sequence)
            repeat_loss.append(loss[repeated])
            repeat_correct.append(correct[repeated])
            first_correct.append(correct[first])
        else:
            sentence_loss.append(loss)
    mean = lambda parts: float(np.concatenate(parts).mean()) if parts else float("nan")  # noqa: E731
    return Metrics(
        loss=mean(all_loss) if not repeated_only else float("nan"),
        repeat_loss=mean(repeat_loss),
        repeat_accuracy=mean(repeat_correct),
        first_run_accuracy=mean(first_correct),
        sentence_loss=mean(sentence_loss),
    )
