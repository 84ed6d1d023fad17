"""The one place the model's sizes and the training run's settings are written down."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides a trained model: its shape, its data and its training run.

    The defaults are the shipped model's. Training is deterministic: the same config (seed included) on
    the same NumPy gives the same numbers, bit for bit.
    """

    # The model: attention only, no MLP and no LayerNorm, so every head's effect is visible.
    n_layers: int = 2
    n_heads: int = 4  # heads per layer
    d_model: int = 32  # width of the residual stream
    d_head: int = 8  # query/key and value size of one head (n_heads × d_head = d_model)
    max_words: int = 32  # T: the model reads <bos> and up to T words, so it has T + 1 positions

    # The data (see corpus.py).
    repeat_fraction: float = 0.5  # share of sequences that are a repeated random run; the rest are sentences

    # The training run.
    seed: int = 3  # seeds both the initial weights and the data
    steps: int = 1500  # the most steps to take (a callback or `stop_at_accuracy` can stop sooner)
    batch_size: int = 16  # sequences per step; time per step grows linearly with it without BLAS
    lr: float = 0.02  # Adam's step size
    beta1: float = 0.9  # Adam's decay of the running mean of the gradient
    beta2: float = 0.99  # Adam's decay of the running mean of the squared gradient
    init_scale: float = 1.0  # each matrix starts as normal noise of std init_scale / sqrt(rows)

    # Early stopping (used by the benchmark and the across-seeds test; None trains all `steps`).
    stop_at_accuracy: float | None = None  # stop once repeated-part accuracy reaches this
    check_every: int = 25  # how often (in steps) to measure it

    # The design choices the tutorials explain, each one a switch so that a model can be trained without it
    # (claims.py). Both forward passes (transformer.forward and the batched training pass) obey them.
    scale: bool = True  # divide each score by √d_head before the softmax
    positions: bool = True  # add a learned vector per position (W_pos) to each word's vector
    causal_mask: bool = True  # a token reads only itself and the tokens before it
    tied_qk: bool = False  # one matrix for queries and keys: every head's W_K is its W_Q

    # Two choices larger models make, off for the story-world model (whose heads read the residual stream as it
    # is) and on for the English one (english/): with 4,096 tokens, one matrix serves as both ends (its size
    # halves) and a normalised stream keeps the tied ends from echoing the current token back as the next.
    layer_norm: bool = False  # each layer's heads, and the unembedding, read the stream LayerNorm-ed (pre-LN)
    tied_embeddings: bool = False  # W_U is W_E's transpose: a token's vector in is its score vector out

    @property
    def n_ctx(self) -> int:
        """Positions the model has: `<bos>` plus max_words words."""
        return self.max_words + 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrainConfig:
        known = {field.name for field in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})
