"""Training: a batched forward pass written with autograd, next-token cross-entropy, and Adam.

autograd works out the gradients from the forward pass itself (no backward pass is written by hand).
It is imported here only, so the rest of the model (loading, running, analysing) needs nothing but NumPy.

    model = train(TrainConfig(seed=3), on_step=lambda step, loss, elapsed: print(step, loss))

`on_step(step, loss, elapsed)` is called after every step (step counts from 1; elapsed is seconds since
training began). Returning False, or raising `StopTraining`, ends the run there and `train` returns the
model as it is. The same config gives the same parameters, bit for bit, on the same NumPy.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import autograd.numpy as anp
import numpy as np
from autograd import value_and_grad
from autograd.tracer import getval

from .config import TrainConfig
from .corpus import VOCABULARY, Sequence, draw_batch
from .evaluation import evaluate
from .transformer import Model, init_params, key_weights

OnStep = Callable[[int, float, float], "bool | None"]


class StopTraining(Exception):  # noqa: N818 (a signal, not an error)
    """Raise from `on_step` to end training early; `train` returns the model trained so far."""


def one_hot(ids: np.ndarray, depth: int) -> np.ndarray:
    """(..., depth) array with a 1 at each id."""
    return (ids[..., None] == np.arange(depth)).astype(np.float64)  # (..., depth)


def batch_arrays(batch: list[Sequence], d_vocab: int) -> tuple[np.ndarray, np.ndarray]:
    """The batch as one-hot inputs (B, n, d_vocab) and one-hot targets (B, n, d_vocab)."""
    ids = np.array([sequence.ids for sequence in batch])  # (B, n + 1)
    return one_hot(ids[:, :-1], d_vocab), one_hot(ids[:, 1:], d_vocab)


def softmax(x):
    """Softmax over the last axis. The row max is subtracted without a gradient: it cancels anyway."""
    e = anp.exp(x - getval(anp.max(x, axis=-1, keepdims=True)))
    return e / anp.sum(e, axis=-1, keepdims=True)


def log_softmax(x):
    shifted = x - getval(anp.max(x, axis=-1, keepdims=True))
    return shifted - anp.log(anp.sum(anp.exp(shifted), axis=-1, keepdims=True))


def batched_logits(params: dict, inputs: np.ndarray, config: TrainConfig):
    """The same forward pass as transformer.forward, for a whole batch at once: (B, n, d_vocab), with the
    same design choices switched on or off by the config (scale, positions, causal_mask, tied_qk).

    Every head of every sequence is one slice of a batched matmul (`@` on stacked arrays), which is
    several times faster than einsum. (Putting the heads side by side in one big 2-D matmul was slower
    here: NumPy hands a matrix that size to several threads, and on a busy machine they wait on each other.)
    """
    B, n, d_vocab = inputs.shape
    blocked = np.triu(np.ones((n, n), dtype=bool), k=1)  # (n, n): True where a token may not read
    W_K = key_weights(params, config)  # (L, H, d_model, d_head): W_Q itself when tied
    resid = inputs @ params["W_E"]  # (B, n, d_model)
    if config.positions:
        resid = resid + params["W_pos"][:n]  # (B, n, d_model)
    for layer in range(config.n_layers):
        x = resid[:, None]  # (B, 1, n, d_model): shared by every head
        Q = x @ params["W_Q"][layer]  # (B, H, n, d_head)
        K = x @ W_K[layer]  # (B, H, n, d_head)
        V = x @ params["W_V"][layer]  # (B, H, n, d_head)
        scores = Q @ anp.swapaxes(K, -1, -2)  # (B, H, n, n)
        scaled = scores / np.sqrt(config.d_head) if config.scale else scores  # (B, H, n, n)
        pattern = softmax(anp.where(blocked, -np.inf, scaled) if config.causal_mask else scaled)  # (B, H, n, n)
        z = pattern @ V  # (B, H, n, d_head)
        attn_out = anp.sum(z @ params["W_O"][layer], axis=1)  # (B, n, d_model)
        resid = resid + attn_out  # (B, n, d_model)
    return resid @ params["W_U"] + params["b_U"]  # (B, n, d_vocab)


def loss_fn(params: dict, inputs: np.ndarray, targets: np.ndarray, config: TrainConfig):
    """Mean next-token cross-entropy in nats over every position of the batch."""
    logp = log_softmax(batched_logits(params, inputs, config))  # (B, n, d_vocab)
    return -anp.sum(logp * targets) / (targets.shape[0] * targets.shape[1])


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
        self._d_vocab = len(VOCABULARY)
        self.params = init_params(config, self._d_vocab, np.random.default_rng(config.seed))
        self._data_rng = random.Random(config.seed)
        self._optimizer = Adam(self.params, config)
        self._loss_and_grads = value_and_grad(loss_fn)
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
        inputs, targets = batch_arrays(draw_batch(self._data_rng, config.batch_size, config.n_ctx + 1,
                                                  config.repeat_fraction), self._d_vocab)
        loss, grads = self._loss_and_grads(self.params, inputs, targets, config)
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
