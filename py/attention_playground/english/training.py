"""Training the English model: the model package's own NumPy training pass and Adam, on windows of Brown.

    trainer = EnglishTrainer(ENGLISH_CONFIG, tokenizer, brown_sentences("train"))
    while not trainer.done:
        loss = trainer.step()

The step's loss and gradient are model/gradients.py's (the story-world model's, with LayerNorm and tied
embeddings switched on); the learning rate warms up over the first steps and then falls along a cosine to a tenth,
as large models are trained, because a constant rate either starts unstable or ends noisy at this width.
The same config, tokenizer and corpus give the same model, bit for bit, on the same NumPy and BLAS.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np

from ..model.config import TrainConfig
from ..model.gradients import loss_and_gradients
from ..model.training import Adam
from ..model.transformer import Model, init_params
from .tokenizer import BOS, WORD_START, Tokenizer
from .windows import RANDOM_RUN_SHARE, Windows

#: The English model: 2 layers of 4 heads of 32, a 128-wide stream, 64 positions (`<bos>` and 63 tokens),
#: LayerNorm before each layer and the unembedding, one matrix for embedding and unembedding.
ENGLISH_CONFIG = TrainConfig(
    n_layers=2, n_heads=4, d_model=128, d_head=32, max_words=63,
    repeat_fraction=0.5,  # windows that carry a copied span (windows.py)
    seed=7, steps=6500, batch_size=32, lr=0.003, beta1=0.9, beta2=0.99,
    layer_norm=True, tied_embeddings=True,
)

#: Every matrix starts as normal noise of this standard deviation (GPT-2's), LayerNorm as the identity, b_U at 0.
#: The story-world model's 1/√rows would start W_O ten times larger than W_E, so that what the heads write at first
#: drowns which token is where, and the heads take far longer to form.
INIT_STD = 0.02

#: Steps over which the learning rate grows from 0 to config.lr.
WARMUP_STEPS = 200
#: Where the cosine ends, as a share of config.lr.
FINAL_LR_SHARE = 0.1


def learning_rate(config: TrainConfig, step: int) -> float:
    """The rate for step `step` (from 0): a linear warm-up, then a cosine from config.lr down to a tenth of it."""
    if step < WARMUP_STEPS:
        return config.lr * (step + 1) / WARMUP_STEPS
    progress = (step - WARMUP_STEPS) / max(1, config.steps - WARMUP_STEPS)
    return config.lr * (FINAL_LR_SHARE + (1 - FINAL_LR_SHARE) * 0.5 * (1 + math.cos(math.pi * min(1.0, progress))))


def english_init(config: TrainConfig, d_vocab: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Starting weights: every matrix N(0, INIT_STD²), LayerNorm's gain 1 and bias 0, b_U 0."""
    params = init_params(config, d_vocab, rng)
    for name, value in params.items():
        if name not in ("ln_gain", "ln_bias", "b_U"):
            params[name] = rng.normal(0.0, INIT_STD, size=value.shape)
    return params


class EnglishTrainer:
    """A training run, a step at a time."""

    def __init__(self, config: TrainConfig, tokenizer: Tokenizer, sentences: Sequence[str]):
        self.config, self.tokenizer = config, tokenizer
        self.params = english_init(config, len(tokenizer.vocabulary), np.random.default_rng(config.seed))
        words = [index for index, token in enumerate(tokenizer.vocabulary) if token.startswith(WORD_START)]
        self.windows = Windows([tokenizer.encode(sentence) for sentence in sentences], config.n_ctx,
                               tokenizer.id_of(BOS), config.repeat_fraction, RANDOM_RUN_SHARE, words)
        self._data_rng = np.random.default_rng(config.seed + 1)
        self._optimizer = Adam(self.params, config)
        self.losses: list[float] = []
        self.seconds = 0.0

    @property
    def steps(self) -> int:
        return len(self.losses)

    @property
    def done(self) -> bool:
        return self.steps >= self.config.steps

    @property
    def model(self) -> Model:
        return Model(self.config, self.params, self.tokenizer.vocabulary, self.steps, tuple(self.losses))

    def step(self) -> float:
        started = time.perf_counter()
        inputs, targets = self.windows.batch(self._data_rng, self.config.batch_size)
        loss, grads = loss_and_gradients(self.params, inputs, targets, self.config)
        self._optimizer.lr = learning_rate(self.config, self.steps)
        self.params = self._optimizer.step(self.params, grads)
        self.losses.append(float(loss))
        self.seconds += time.perf_counter() - started
        return float(loss)
