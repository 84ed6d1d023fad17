"""What the English model's heads do, measured: three scores per head, its role, and the model's loss.

- **previous-token**: on running text, the mean weight a token puts on the token just before it.
- **induction**: on a run of random tokens said twice, the mean weight a token of the second copy puts on the
  token after its first occurrence (where "what came next last time" is). Random tokens mean the head cannot
  have learned the pair: only copying explains the weight.
- **first-token** (the sink): on running text, the mean weight a token puts on `<bos>`: where a head parks
  attention it has no use for.

A head's role is the first of ROLE_THRESHOLDS it reaches (the tests hold the shipped model to them); the names are
the story-world model's (model/analysis.py), so the model panel shows both alike. The
held-out loss is the model's next-token cross-entropy on the held-out samples (brown.py), beside a bigram model's
on the same tokens (its smoothing chosen to be as good as it can on them): attention must beat reading one token
back.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..model.gradients import forward_batch
from ..model.transformer import Model
from .tokenizer import BOS, Tokenizer

#: A head's role: the first whose score it reaches. Spread evenly over what a row may read, a previous-token score
#: is about 0.1 and a sink score about 0.1 on 64 tokens; the thresholds are four and eight times that.
ROLE_THRESHOLDS: dict[str, tuple[str, float]] = {
    "induction": ("induction", 0.4),
    "previous-token": ("previous_token", 0.4),
    "first-token": ("first_token", 0.8),
}
DIFFUSE = "diffuse"

#: The repeated random runs: how many, and how long each copy is.
RANDOM_RUNS, RANDOM_RUN_TOKENS = 64, 24


def patterns(model: Model, ids: np.ndarray) -> np.ndarray:
    """Every head's attention pattern on a batch of token ids (B, n), <bos> first: (L, B, H, n, n)."""
    _, layers, _ = forward_batch(model.params, ids, model.config, with_logits=False)
    return np.stack([layer.pattern for layer in layers])


def text_scores(model: Model, windows: np.ndarray) -> dict[str, np.ndarray]:
    """Previous-token and first-token (sink) scores, (L, H) each, on windows of text (B, n), <bos> first."""
    weights = patterns(model, windows)  # (L, B, H, n, n)
    n = windows.shape[1]
    t = np.arange(2, n)  # from the second word: the first word's previous token is <bos> itself
    return {"previous_token": weights[..., t, t - 1].mean(axis=(1, 3)),
            "first_token": weights[..., 1:, 0].mean(axis=(1, 3))}


def random_runs(model: Model, tokenizer: Tokenizer, seed: int = 0) -> np.ndarray:
    """RANDOM_RUNS sequences of <bos> and a run of random whole-word tokens said twice: (B, 1 + 2 × run)."""
    rng = np.random.default_rng(seed)
    words = [index for index, token in enumerate(tokenizer.vocabulary) if token.startswith("▁") and len(token) > 2]
    runs = np.array([rng.choice(words, RANDOM_RUN_TOKENS, replace=False) for _ in range(RANDOM_RUNS)])
    bos = np.full((RANDOM_RUNS, 1), tokenizer.id_of(BOS))
    return np.concatenate([bos, runs, runs], axis=1)


def induction_scores(model: Model, tokenizer: Tokenizer, seed: int = 0) -> np.ndarray:
    """(L, H): on the repeated runs, the mean weight from each second-copy token (but the first) to the token after
    its first occurrence."""
    weights = patterns(model, random_runs(model, tokenizer, seed))  # (L, B, H, n, n)
    second = np.arange(RANDOM_RUN_TOKENS + 2, 2 * RANDOM_RUN_TOKENS + 1)  # the second copy, from its 2nd token
    return weights[..., second, second - RANDOM_RUN_TOKENS + 1].mean(axis=(1, 3))


def roles_reached(scores: dict[str, float]) -> list[str]:
    """Every role whose score the head reaches, in ROLE_THRESHOLDS's order; empty for a diffuse head."""
    return [name for name, (score, threshold) in ROLE_THRESHOLDS.items() if scores[score] >= threshold]


def head_table(model: Model, tokenizer: Tokenizer, windows: np.ndarray) -> list[dict]:
    """Every head's scores and role, layer by layer: [{layer, head, label, scores, role, roles}]."""
    scores = {**text_scores(model, windows), "induction": induction_scores(model, tokenizer)}
    table = []
    for layer in range(model.config.n_layers):
        for head in range(model.config.n_heads):
            mine = {name: round(float(values[layer, head]), 4) for name, values in scores.items()}
            reached = roles_reached(mine)
            table.append({"layer": layer, "head": head, "label": f"L{layer}H{head}", "scores": mine,
                          "role": reached[0] if reached else DIFFUSE, "roles": reached})
    return table


def mean_loss(model: Model, windows: np.ndarray, batch: int = 32) -> float:
    """Next-token cross-entropy (nats) over every position of the windows (B, n + 1): inputs and targets."""
    total, count = 0.0, 0
    for start in range(0, len(windows), batch):
        inputs, targets = windows[start:start + batch, :-1], windows[start:start + batch, 1:]
        logits, _, _ = forward_batch(model.params, inputs, model.config)
        logits = logits - logits.max(axis=-1, keepdims=True)
        log_p = logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True))
        total -= float(np.take_along_axis(log_p, targets[..., None], axis=-1).sum())
        count += targets.size
    return total / count


def bigram_loss(train: Sequence[Sequence[int]], windows: np.ndarray, vocabulary_size: int, bos: int,
                smoothings: Sequence[float] = (0.003, 0.01, 0.03, 0.1, 0.3, 1.0)) -> float:
    """The best loss a bigram model reaches on the windows (B, n + 1), over a few add-k smoothings: counts of each
    token after each token in the training sentences (token ids) run together, and of each sentence's first token
    after <bos>."""
    stream = np.fromiter((token for sentence in train for token in sentence), dtype=np.int64)
    firsts = np.array([sentence[0] for sentence in train if sentence], dtype=np.int64)
    pairs = np.concatenate([stream[:-1] * vocabulary_size + stream[1:], bos * vocabulary_size + firsts])
    codes, counts = np.unique(pairs, return_counts=True)  # each pair seen, and how often
    row_totals = np.bincount(codes // vocabulary_size, weights=counts, minlength=vocabulary_size)
    wanted = windows[:, :-1].ravel() * vocabulary_size + windows[:, 1:].ravel()
    at = np.minimum(np.searchsorted(codes, wanted), len(codes) - 1)
    seen = np.where(codes[at] == wanted, counts[at], 0)
    before = windows[:, :-1].ravel()
    return min(float(-np.mean(np.log((seen + k) / (row_totals[before] + k * vocabulary_size)))) for k in smoothings)


def text_windows(tokenizer: Tokenizer, sentences: Sequence[str], n_ctx: int, count: int | None = None,
                 seed: int = 0) -> np.ndarray:
    """Windows of `<bos>` and n_ctx tokens from the sentences' text (from a sentence's start, no copied spans):
    (count, n_ctx + 1); every one that fits when count is None."""
    from .windows import Windows

    windows = Windows([tokenizer.encode(sentence) for sentence in sentences], n_ctx, tokenizer.id_of(BOS), 0.0)
    if count is None:
        starts = windows.starts
    else:
        starts = np.sort(np.random.default_rng(seed).choice(windows.starts, count, replace=False))
    bos = np.full((len(starts), 1), tokenizer.id_of(BOS))
    return np.concatenate([bos, np.stack([windows.stream[start:start + n_ctx] for start in starts])], axis=1)


#: Held-out windows the summary's scores and loss are measured on.
HELD_OUT_WINDOWS = 400


def describe_english(model: Model, tokenizer: Tokenizer) -> dict:
    """The summary model.json keeps: every head's scores and role, the held-out loss and the bigram baseline's."""
    from .brown import brown_sentences

    n_ctx = model.config.n_ctx
    held_out = text_windows(tokenizer, brown_sentences("held-out"), n_ctx, HELD_OUT_WINDOWS)
    train = [tokenizer.encode(sentence) for sentence in brown_sentences("train")]
    return {
        "heads": head_table(model, tokenizer, held_out[:, :-1]),
        "role_thresholds": {name: {"score": score, "at_least": threshold}
                            for name, (score, threshold) in ROLE_THRESHOLDS.items()},
        "held_out_loss": round(mean_loss(model, held_out), 4),
        "bigram_loss": round(bigram_loss(train, held_out, len(tokenizer.vocabulary), tokenizer.id_of(BOS)), 4),
        "held_out_tokens": int(held_out[:, 1:].size),
        "parameters": int(sum(value.size for value in model.params.values())),
    }
