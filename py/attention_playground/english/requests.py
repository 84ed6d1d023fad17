"""What the page asks of the English model, answered as dicts of arrays and numbers, in the shapes the story-world
model's answers have (model/requests.py), so that one panel shows both.

- `english_info`: the model as the panel introduces it: its shape, its heads with their scores and roles, the
  held-out loss beside the bigram baseline's, the example sentences;
- `english_run`: the model on the learner's text: the tokens as it reads them, every head's weights, the five
  likeliest next tokens at every position, and what knocking each head out would change.

Both raise ModelInputError (shown by the page like a scene's mistakes) for text the model cannot take.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

import numpy as np

from ..attention_maths import softmax
from ..model.errors import ModelInputError, check_knocked_out
from ..model.gradients import forward_batch, per_token, side_by_side, wide_product
from ..model.transformer import Model, normalised, unembedding
from .checkpoint import load_english, shipped_settings
from .tokenizer import BOS, WORD_START, load_tokenizer

#: How many next tokens the page lists at each position.
TOP_K = 5

#: Sentences the panel offers, each with the row to look at: (the word as the page writes it, which occurrence).
#: Those that say something twice are focused on the second mention, where an induction head reads what followed
#: the first.
EXAMPLES = (
    {"id": "mary-store", "label": "a name said twice", "words": "Mary went to the store and then Mary went home",
     "focus": ("mary", 2)},
    {"id": "old-farmer", "label": "a phrase said twice",
     "words": "The old farmer sold his horse, and the old farmer bought a cow.", "focus": ("old", 2)},
    {"id": "cat-mat", "label": "the tutorial's sentence: does \"it\" find the cat?",
     "words": "The cat sat on the mat because it was tired", "focus": ("it", 1)},
    {"id": "brown-news", "label": "the corpus's first sentence (a newspaper, 1961)",
     "words": "The Fulton County Grand Jury said Friday an investigation of Atlanta's recent primary election "
              "produced no evidence that any irregularities took place.", "focus": None},
)


@cache
def _english() -> Model:
    return load_english()


def shown(token: str) -> str:
    """A token as the page writes it: a word's first piece without its mark ("▁mary" -> "mary"), a piece inside a
    word after a "·" ("ore" -> "·ore"), punctuation, <bos> and bytes as they are."""
    if token.startswith(WORD_START):
        return token[len(WORD_START):] or WORD_START
    if token == BOS or token.startswith("<0x") or not token[0].isalnum():
        return token
    return "·" + token


def encode_text(text: Any, max_tokens: int) -> tuple[list[str], np.ndarray]:
    """The text's tokens and ids, `<bos>` first; ModelInputError for no text or too much."""
    if not isinstance(text, str):
        raise ModelInputError(f"words must be text, not {type(text).__name__}", "words")
    tokenizer = load_tokenizer()
    tokens = tokenizer.tokens(text)
    if not tokens:
        raise ModelInputError("type a sentence: the English model needs at least one word", "words")
    if len(tokens) > max_tokens:
        raise ModelInputError(f"the text is {len(tokens)} tokens long; the English model reads at most {max_tokens} "
                              f"(about {max_tokens * 3 // 4} words): shorten it", "words")
    return [BOS, *tokens], np.array([tokenizer.id_of(BOS), *(tokenizer.id_of(token) for token in tokens)])


def position_of(tokens: list[str], word: str, occurrence: int) -> int:
    """Where the `occurrence`-th token written `word` stands (counting <bos> as 0)."""
    found = [position for position, token in enumerate(tokens) if shown(token) == word]
    return found[occurrence - 1]


def examples() -> list[dict[str, Any]]:
    """The examples, each with the position to focus (`focus`), or none (the last token)."""
    listed = []
    for example in EXAMPLES:
        entry: dict[str, Any] = {key: value for key, value in example.items() if key != "focus"}
        if example["focus"]:
            entry["focus"] = position_of([BOS, *load_tokenizer().tokens(example["words"])], *example["focus"])
        listed.append(entry)
    return listed


class Pass(NamedTuple):
    """One forward pass on one text, as english_run and the effects need it."""

    weights: list[np.ndarray]  # per layer, (H, n, n): every head's pattern
    z: list[np.ndarray]  # per layer, (H, n, d_head): every head's blend of values (0 for a head knocked out)
    resid_pre: list[np.ndarray]  # per layer, (n, d_model): the stream before it
    attn_out: list[np.ndarray]  # per layer, (n, d_model): what its heads wrote
    probabilities: np.ndarray  # (len(guessed), V): the next-token guess after each token guessed at
    guessed: list[int]  # the positions guessed at: every one, or the focus alone
    knocked_out: frozenset

    def guess_at(self, position: int) -> np.ndarray:
        """(V,): the next-token guess after the token at `position` (one guessed at)."""
        return self.probabilities[self.guessed.index(position)]


def unembed_rows(model: Model, resid: np.ndarray) -> np.ndarray:
    """(m, V): the next-token scores of the final stream's rows `resid` (m, d_model). Without BLAS the rows meet the
    4,096 columns in einsum, which there is faster than matmul (gradients.wide_product)."""
    params, config = model.params, model.config
    return wide_product(normalised(params, config, resid, config.n_layers), unembedding(params, config)) + params["b_U"]


def forward_pass(model: Model, ids: np.ndarray, knocked_out: frozenset, guess_at: int | None = None) -> Pass:
    """The model on one text through the training's batched pass (gradients.forward_batch: one product per weight for
    every head, where transformer.forward runs each head's stages one by one; the tests hold both equal), which in a
    page without BLAS takes about half the time. Its next-token guesses after every token, or after the token at
    `guess_at` alone: the unembedding of a row is 4,096 products of 128 numbers, most of a pass's time in the page."""
    params = model.params
    every = guess_at is None
    logits, layers, final = forward_batch(params, ids[None], model.config, knocked_out, with_logits=every)
    resid = params["W_E"][ids] + params["W_pos"][:len(ids)]  # (n, d_model)
    resid_pre, attn_out = [], []
    for layer, run in enumerate(layers):
        resid_pre.append(resid)
        attn_out.append(per_token(run.z) @ params["W_O"][layer].reshape(-1, model.config.d_model))  # (n, d_model)
        resid = resid + attn_out[-1]
    if every:
        probabilities, guessed = softmax(logits[0], axis=-1), list(range(len(ids)))  # (n, V)
    else:
        row = final.x_rows[guess_at:guess_at + 1]  # (1, d_model), normalised already
        scores = wide_product(row, unembedding(params, model.config)) + params["b_U"]  # (1, V)
        probabilities, guessed = softmax(scores, axis=-1), [guess_at]
    return Pass([run.pattern[0] for run in layers], [run.z[0] for run in layers], resid_pre, attn_out,
                probabilities, guessed, knocked_out)


def knock_out_effects(model: Model, result: Pass, focus: int) -> list[list[float]]:
    """effects[layer][head]: at position `focus`, the total variation distance between the next-token guesses with
    and without the head (0 for a head already knocked out).

    The same numbers as running the model again without each head, for a fraction of the time: what a head wrote is
    subtracted from the stream it wrote to, and only the focused row is carried on from there (its query in each
    later layer, against every row's key and value); then every head's row meets the 4,096 scores in one product.
    The text answers as the learner types, and a page without BLAS pays for every row it unembeds, so this matters.
    """
    params, config = model.params, model.config
    heads, rows = [], []  # each live head, and the focused row of the final stream without it
    for layer in range(config.n_layers):
        for head in range(config.n_heads):
            if (layer, head) in result.knocked_out:
                continue
            write = result.z[layer][head][:focus + 1] @ params["W_O"][layer, head]  # (focus + 1, d_model)
            resid = result.resid_pre[layer][:focus + 1] + result.attn_out[layer][:focus + 1] - write
            for later in range(layer + 1, config.n_layers):
                resid = resid + layer_write_at_last(model, normalised(params, config, resid, later), later,
                                                    result.knocked_out)
            heads.append((layer, head))
            rows.append(resid[-1])
    effects = [[0.0] * config.n_heads for _ in range(config.n_layers)]
    if not heads:
        return effects
    without = softmax(unembed_rows(model, np.array(rows)), axis=-1)  # (live heads, V)
    distances = 0.5 * np.abs(without - result.guess_at(focus)).sum(axis=1)  # (live heads,)
    for (layer, head), distance in zip(heads, distances.tolist(), strict=True):
        effects[layer][head] = distance
    return effects


def layer_write_at_last(model: Model, read: np.ndarray, layer: int, knocked_out) -> np.ndarray:
    """What layer `layer` adds to the last row of the stream it reads (`read`, its rows up to that one, normalised as
    the layer reads them), every head at once: a (m, d_model) array, 0 but in its last row. The last row may read
    every row before it, so the causal mask leaves it nothing to hide. Scores are ÷ √d_head, as the English model's."""
    p, config = model.params, model.config
    H, m, d_head = config.n_heads, len(read), config.d_head
    query = (read[-1] @ side_by_side(p["W_Q"][layer])).reshape(H, d_head)  # (H, d_head)
    keys = (read @ side_by_side(p["W_K"][layer])).reshape(m, H, d_head)  # (m, H, d_head)
    values = (read @ side_by_side(p["W_V"][layer])).reshape(m, H, d_head)  # (m, H, d_head)
    scores = np.einsum("he,nhe->hn", query, keys) / np.sqrt(d_head)  # (H, m)
    weights = softmax(scores, axis=-1)  # (H, m)
    z = np.einsum("hn,nhe->he", weights, values)  # (H, d_head)
    live = [head for head in range(H) if (layer, head) not in knocked_out]
    written = np.zeros_like(read)
    written[-1] = z[live].reshape(-1) @ p["W_O"][layer][live].reshape(-1, config.d_model)  # (d_model,)
    return written


def top_tokens(probabilities: np.ndarray, vocabulary, k: int = TOP_K) -> list[list[list]]:
    """The k likeliest tokens after each row's position, likeliest first, as [token as the page writes it,
    probability]."""
    best = np.argpartition(-probabilities, k, axis=-1)[:, :k]  # (rows, k), in no order: a full sort costs far more
    listed = []
    for row, candidates in zip(probabilities, best):
        ordered = sorted(candidates.tolist(), key=lambda j: (-row[j], j))
        listed.append([[shown(vocabulary[j]), float(row[j])] for j in ordered])
    return listed


def check_focus(focus: Any, n: int) -> int:
    """The position to measure effects at: the last token when none is given, or when the text got shorter than it."""
    if focus is None:
        return n - 1
    if isinstance(focus, bool) or not isinstance(focus, int) or focus < 0:
        raise ModelInputError(f"focus must be a token's position (0 for <bos>, 1 for the first token); got {focus!r}",
                              "focus")
    return min(focus, n - 1)


def check_focus_only(focus_only: Any) -> bool:
    """`focus_only` as given: true or false."""
    if not isinstance(focus_only, bool):
        raise ModelInputError(f"focus_only must be true or false; got {focus_only!r}", "focus_only")
    return focus_only


def english_info(payload: dict) -> dict[str, Any]:
    """The English model as the panel introduces it (model_info's keys where they apply)."""
    settings = shipped_settings()
    summary = settings["summary"]
    model = _english()
    return {
        "model": "english",
        "config": settings["config"],
        "steps": settings["steps"],
        "vocabulary_size": len(model.vocabulary),
        "heads": summary["heads"],
        "role_thresholds": summary["role_thresholds"],
        "held_out_loss": summary["held_out_loss"],
        "bigram_loss": summary["bigram_loss"],
        "examples": examples(),
        "loss_curve": settings["loss_curve"],
        "loss_every": settings["loss_every"],
    }


def english_run(payload: dict) -> dict[str, Any]:
    """The English model on the learner's text, as model_run answers for the story-world model.

    Payload: {words, knocked_out?: [[layer, head], ...], focus?: position, focus_only?: bool}. The result: `tokens`
    as the page writes them (`pieces` as the tokenizer has them), `weights[layer][head]` (n × n), `predictions[i]`
    (the TOP_K likeliest next tokens after token i, as [token, probability]), `next_word[i]` (the probability of the
    text's own next token) and `effects[layer][head][i]` (model_run's: the total variation distance between the
    next-token guesses at i with and without the head) at i = `focus` (the last token unless given; None elsewhere:
    ask again with another focus). With `focus_only`, `predictions` and `next_word` too are given at the focus alone
    (None elsewhere): what the panel shows, for a third of the time in the page.
    """
    model = _english()
    pieces, ids = encode_text(payload.get("words", ""), model.config.max_words)
    knocked = check_knocked_out(payload.get("knocked_out", []), model.config.n_layers, model.config.n_heads)
    n = len(ids)
    focus = check_focus(payload.get("focus"), n)
    focus_only = check_focus_only(payload.get("focus_only", False))
    result = forward_pass(model, ids, knocked, guess_at=focus if focus_only else None)
    at_focus = knock_out_effects(model, result, focus)
    effects = [[[value if i == focus else None for i in range(n)] for value in layer] for layer in at_focus]
    guesses = dict(zip(result.guessed, top_tokens(result.probabilities, model.vocabulary), strict=True))
    return {
        "model": "english",
        "tokens": [shown(piece) for piece in pieces],
        "pieces": pieces,
        "knocked_out": sorted([list(pair) for pair in knocked]),
        "edited": False,
        "focus": focus,
        "weights": result.weights,  # [layer]: (H, n, n), read as [layer][head][i][j]
        "predictions": [guesses.get(i) for i in range(n)],
        "next_word": [float(result.guess_at(i)[ids[i + 1]]) if i in guesses else None for i in range(n - 1)],
        "effects": effects,
    }
