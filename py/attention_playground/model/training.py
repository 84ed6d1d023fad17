"""Training: next-token cross-entropy on fresh batches, and Adam.

The forward pass and the gradient are gradients.py's (written out, NumPy only).

    model = train(TrainConfig(seed=3), on_step=lambda step, loss, elapsed: print(step, loss))

`on_step(step, loss, elapsed)` is called after every step (step counts from 1; elapsed is seconds since
training began). Returning False, or raising `StopTraining`, ends the run there and `train` returns the
model as it is. The same config gives the same parameters, bit for bit, on the same NumPy.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from .config import TrainConfig
from .corpus import VOCABULARY, Sequence, draw_batch
from .evaluation import evaluate
from .gradients import loss_and_gradients
from .transformer import Model, init_params

OnStep = Callable[[int, float, float], "bool | None"]


class StopTraining(Exception):  # noqa: N818 (a signal, not an error)
    """Raise from `on_step` to end training early; `train` returns the model trained so far."""


def batch_ids(batch: list[Sequence]) -> tuple[np.ndarray, np.ndarray]:
    """The batch as token indices: the inputs (B, n) and, one place on, the words to predict (B, n)."""
    ids = np.array([sequence.ids for sequence in batch])  # (B, n + 1)
    return ids[:, :-1], ids[:, 1:]


class Adam:
    """Adam: each parameter moves by lr × (running mean of its gradient) / √(running mean of its square)."""

    def __init__(self, params: dict, config: TrainConfig, eps: float = 1e-8):
        self.lr, self.beta1, self.beta2, self.eps = config.lr, config.beta1, config.beta2, eps
        self.m = {name: np.zeros_like(value) for name, value in params.items()}
        self.v = {name: np.zeros_like(value) for name, value in params.items()}
        self.t = 0

    def step(self, params: dict, grads: dict) -> dict:
        self.t += 1
        correction1 = 1 - self.beta1**self.t  # early running means are biased towards 0: undo that
        correction2 = 1 - self.beta2**self.t
        new = {}
        for name, value in params.items():
            g = grads[name]
            self.m[name] = self.beta1 * self.m[name] + (1 - self.beta1) * g
            self.v[name] = self.beta2 * self.v[name] + (1 - self.beta2) * g * g
            m_hat, v_hat = self.m[name] / correction1, self.v[name] / correction2
            new[name] = value - self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
        return new


class Trainer:
    """A training run that can be taken a step at a time: what `train` does, in pieces.

    The page trains in a worker that must answer between steps (to report progress, or to be stopped), so
    it calls `step()` in short runs; `train` calls it in one loop. Either way the same config gives the same
    model, bit for bit.

        trainer = Trainer(TrainConfig(seed=3))
        while not trainer.done:
            loss = trainer.step()
        model = trainer.model
    """

    def __init__(self, config: TrainConfig = TrainConfig()):
        self.config = config
        self.params = init_params(config, len(VOCABULARY), np.random.default_rng(config.seed))
        self._data_rng = random.Random(config.seed)
        self._optimizer = Adam(self.params, config)
        self.losses: list[float] = []
        self.seconds = 0.0  # time spent in step(), summed
        self.reached_accuracy = False  # set once `config.stop_at_accuracy` is reached

    @property
    def steps(self) -> int:
        return len(self.losses)

    @property
    def done(self) -> bool:
        """True once every step is taken, or the early-stopping accuracy is reached."""
        return self.steps >= self.config.steps or self.reached_accuracy

    @property
    def model(self) -> Model:
        """The model as trained so far. With tied queries and keys its W_K is shown as the W_Q it uses."""
        params = self.params
        if self.config.tied_qk:
            params = {**params, "W_K": params["W_Q"]}
        return Model(self.config, params, VOCABULARY, self.steps, tuple(self.losses))

    def step(self) -> float:
        """Take one step of Adam on a fresh batch; returns its loss (before the step)."""
        config = self.config
        started = time.perf_counter()
        inputs, targets = batch_ids(draw_batch(self._data_rng, config.batch_size, config.n_ctx + 1,
                                               config.repeat_fraction))
        loss, grads = loss_and_gradients(self.params, inputs, targets, config)
        self.params = self._optimizer.step(self.params, grads)
        self.losses.append(float(loss))
        self.seconds += time.perf_counter() - started
        return float(loss)

    def check_accuracy(self) -> None:
        """With `config.stop_at_accuracy`, measure repeated-part accuracy every `check_every` steps."""
        config = self.config
        if config.stop_at_accuracy is not None and self.steps % config.check_every == 0:
            accuracy = evaluate(self.model, repeated_only=True).repeat_accuracy
            self.reached_accuracy = accuracy >= config.stop_at_accuracy


def train(config: TrainConfig = TrainConfig(), on_step: OnStep | None = None) -> Model:
    """Train a model from scratch with `config`; returns the `Model` (see the module docstring for on_step).

    With `config.stop_at_accuracy`, repeated-part accuracy on the evaluation set is measured every
    `config.check_every` steps and training stops once it reaches that value.
    """
    trainer = Trainer(config)
    started = time.perf_counter()
    while not trainer.done:
        loss = trainer.step()
        keep_going = True
        if on_step is not None:
            try:
                keep_going = on_step(trainer.steps, loss, time.perf_counter() - started) is not False
            except StopTraining:
                keep_going = False
        if not keep_going:
            break
        trainer.check_accuracy()
    return trainer.model
