"""A tiny attention-only transformer: its parameters and its forward pass, one named stage at a time.

    tokens ──► W_E[token] + W_pos[position] ──► resid_pre[0]
    for each layer:  resid_pre ──► every head: attention_stages(resid_pre, W_Q, W_K, W_V) ──► z
                     attn_out = Σ over heads of z @ W_O          (a knocked-out head adds nothing)
                     resid_pre of the next layer = resid_pre + attn_out
    logits = resid_final @ W_U + b_U          (one score per vocabulary word: what comes next)

There is no MLP: everything the model does, it does with attention, so every head's work can be seen in its
weights. The story-world model has no LayerNorm either; a model made with `layer_norm` (the English one) gives its
heads and its unembedding the stream LayerNorm-ed (`head_input`), and one made with `tied_embeddings` scores the
next token with W_E's transpose (`unembedding`). The names are TransformerLens's (`resid_pre`, `pattern`/weights, `z`,
`attn_out`, `logits`; a head is addressed as (layer, head)).

Every head is run by the playground's own `attention_stages` (causal mask, ÷√d_head, unless the config
switches one off: see TrainConfig), so the stages the page shows are the ones the model computed. Training uses a batched copy of this forward pass with its backward pass
written out (gradients.py); a test checks the two agree to 1e-10.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..attention_maths import AttentionStages, attention_stages, softmax
from .config import TrainConfig
from .errors import ModelInputError, check_head, check_knocked_out, check_words

#: The parameters, in the order a forward pass uses them. Per-head matrices are stacked (layer, head, ...).
#: A model without LayerNorm has no ln_*; one with tied embeddings no W_U (see `param_shapes`).
PARAM_NAMES = ("W_E", "W_pos", "ln_gain", "ln_bias", "W_Q", "W_K", "W_V", "W_O", "W_U", "b_U")

#: Added to the variance before its square root, so that a constant row does not divide by 0.
LN_EPS = 1e-5


def param_shapes(config: TrainConfig, d_vocab: int) -> dict[str, tuple[int, ...]]:
    """The shape of every parameter."""
    L, H, d, dh = config.n_layers, config.n_heads, config.d_model, config.d_head
    shapes = {
        "W_E": (d_vocab, d),  # one row per word: the word's starting vector
        "W_pos": (config.n_ctx, d),  # one row per position, added to the word's vector
        "ln_gain": (L + 1, d),  # per layer, then before the unembedding: each normalised feature's scale
        "ln_bias": (L + 1, d),  # ... and its offset
        "W_Q": (L, H, d, dh),  # per head: residual stream -> query
        "W_K": (L, H, d, dh),  # per head: residual stream -> key
        "W_V": (L, H, d, dh),  # per head: residual stream -> value
        "W_O": (L, H, dh, d),  # per head: value blend z -> what the head writes to the residual stream
        "W_U": (d, d_vocab),  # residual stream -> one score per word
        "b_U": (d_vocab,),  # how common each word is, before any context
    }
    if not config.layer_norm:
        del shapes["ln_gain"], shapes["ln_bias"]
    if config.tied_embeddings:
        del shapes["W_U"]
    return shapes


def init_params(config: TrainConfig, d_vocab: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Random starting weights: normal noise with std init_scale / sqrt(rows), so products start O(1)."""
    params = {}
    for name, shape in param_shapes(config, d_vocab).items():
        if name in ("b_U", "ln_bias"):
            params[name] = np.zeros(shape)
        elif name == "ln_gain":
            params[name] = np.ones(shape)
        else:
            rows = shape[-2]
            params[name] = rng.normal(0.0, config.init_scale / np.sqrt(rows), size=shape)
    return params


@dataclass(frozen=True, eq=False)  # compared by identity: its parameters are arrays
class Model:
    """A trained model: its config, its parameters (float64 arrays, see `param_shapes`) and its vocabulary.

    `loss_curve` is the training loss at every step and `steps` the number of steps taken. Treat a Model
    as read-only; `with_head_weights` makes an edited copy.
    """

    config: TrainConfig
    params: dict[str, np.ndarray]
    vocabulary: tuple[str, ...]
    steps: int = 0
    loss_curve: tuple[float, ...] = field(default=(), repr=False)

    @property
    def heads(self) -> list[tuple[int, int]]:
        """Every head as a (layer, head) pair, layer by layer."""
        return [(layer, head) for layer in range(self.config.n_layers) for head in range(self.config.n_heads)]


def vocabulary(model: Model) -> list[str]:
    """The words the model knows; index 0 is `<bos>`, which `run` puts in front of every sentence."""
    return list(model.vocabulary)


@dataclass(frozen=True)
class Run:
    """Everything one forward pass computed, for n tokens (`<bos>` and the words).

    - `tokens`: the n tokens, `<bos>` first; `ids`: their indices in the vocabulary, (n,)
    - `resid_pre[layer]`: (n, d_model), the residual stream before the layer (for layer 0: W_E[ids] + W_pos[:n])
    - `head_input[layer]`: (n, d_model), what the layer's heads read: resid_pre itself, or LayerNorm-ed
    - `stages[layer][head]`: the head's `AttentionStages` (Q, K, V, scores, scaled, masked, weights, output);
      `output` is the head's z, (n, d_head)
    - `attn_out[layer]`: (n, d_model), what the layer adds to the residual stream
    - `resid_final`: (n, d_model); `logits`: (n, d_vocab), row i scores every word as the one after token i
    - `knocked_out`: the (layer, head) pairs whose output was zeroed
    """

    tokens: list[str]
    ids: np.ndarray
    resid_pre: list[np.ndarray]
    head_input: list[np.ndarray]
    stages: list[list[AttentionStages]]
    attn_out: list[np.ndarray]
    resid_final: np.ndarray
    logits: np.ndarray
    knocked_out: frozenset[tuple[int, int]]

    @property
    def weights(self) -> list[list[np.ndarray]]:
        """`weights[layer][head]`: the head's (n, n) attention pattern; row i is where token i read from."""
        return [[stages.weights for stages in layer] for layer in self.stages]

    @property
    def probabilities(self) -> np.ndarray:
        """(n, d_vocab): softmax of the logits (the playground's own, attention.softmax); row i is the model's
        guess at the word after token i."""
        return softmax(self.logits, axis=-1)  # (n, d_vocab)


def layer_norm(x: np.ndarray, gain: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Each row of x (..., d) shifted to mean 0 and scaled to variance 1, then times gain plus bias, per feature."""
    centred = x - x.mean(axis=-1, keepdims=True)
    return centred / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + LN_EPS) * gain + bias


def normalised(params: dict, config: TrainConfig, x: np.ndarray, at: int) -> np.ndarray:
    """What reads the stream x at `at` (a layer, or n_layers for the unembedding) sees: x, or x LayerNorm-ed."""
    return layer_norm(x, params["ln_gain"][at], params["ln_bias"][at]) if config.layer_norm else x


def unembedding(params: dict, config: TrainConfig) -> np.ndarray:
    """(d_model, V): the matrix that scores every token as the next one; W_E's transpose (a view) when tied."""
    return params["W_E"].T if config.tied_embeddings else params["W_U"]


def key_weights(params: dict, config: TrainConfig):
    """Every head's key matrix, (L, H, d_model, d_head): W_K, or W_Q itself when queries and keys are tied."""
    return params["W_Q"] if config.tied_qk else params["W_K"]


def embed(model: Model, ids: np.ndarray) -> np.ndarray:
    """Each token's starting vector: its word's row of W_E plus its position's row of W_pos (unless the model
    was built without positions: then a word's vector is the same wherever it stands)."""
    words = model.params["W_E"][ids]  # (n, d_model)
    if not model.config.positions:
        return words
    return words + model.params["W_pos"][: len(ids)]  # (n, d_model)


def head_stages(model: Model, resid_pre: np.ndarray, layer: int, head: int) -> AttentionStages:
    """One head, run by the playground's own attention, with the model's choices: causal mask and scores
    ÷ √d_head as shipped (see TrainConfig's scale, causal_mask and tied_qk)."""
    p, config = model.params, model.config
    return attention_stages(resid_pre, p["W_Q"][layer, head], key_weights(p, config)[layer, head],
                            p["W_V"][layer, head], scale=config.scale,
                            mask="causal" if config.causal_mask else None)


def attention_layer(model: Model, resid_pre: np.ndarray, layer: int, knocked_out=frozenset()):
    """Run every head of one layer; returns (stages per head, attn_out (n, d_model)).

    A knocked-out head is still run (its pattern can be looked at), but what it writes is replaced by 0.
    """
    stages = [head_stages(model, resid_pre, layer, head) for head in range(model.config.n_heads)]
    attn_out = np.zeros_like(resid_pre)  # (n, d_model)
    for head, head_run in enumerate(stages):
        if (layer, head) not in knocked_out:
            attn_out = attn_out + head_run.output @ model.params["W_O"][layer, head]  # (n, d_model)
    return stages, attn_out


def unembed(model: Model, resid_final: np.ndarray) -> np.ndarray:
    """Scores for the next word at every position."""
    p, config = model.params, model.config
    return normalised(p, config, resid_final, config.n_layers) @ unembedding(p, config) + p["b_U"]  # (n, d_vocab)


def forward(model: Model, ids: Sequence[int], knocked_out=frozenset()) -> Run:
    """The forward pass on token indices (`<bos>` included, no checks); see `run` for words."""
    ids = np.asarray(ids, dtype=np.int64)  # (n,)
    resid = embed(model, ids)  # (n, d_model)
    resid_pre, head_input, all_stages, attn_outs = [], [], [], []
    for layer in range(model.config.n_layers):
        resid_pre.append(resid)
        head_input.append(normalised(model.params, model.config, resid, layer))
        stages, attn_out = attention_layer(model, head_input[-1], layer, knocked_out)
        all_stages.append(stages)
        attn_outs.append(attn_out)
        resid = resid + attn_out  # (n, d_model)
    return Run(
        tokens=[model.vocabulary[i] for i in ids.tolist()],
        ids=ids,
        resid_pre=resid_pre,
        head_input=head_input,
        stages=all_stages,
        attn_out=attn_outs,
        resid_final=resid,
        logits=unembed(model, resid),
        knocked_out=frozenset(knocked_out),
    )


def encode(model: Model, words: str | Sequence[str]) -> np.ndarray:
    """`<bos>` and the words as vocabulary indices, (n,); ModelInputError for unknown words or a long text."""
    words = check_words(words, model.vocabulary, model.config.max_words)
    index = {word: i for i, word in enumerate(model.vocabulary)}
    return np.array([0] + [index[word] for word in words], dtype=np.int64)  # (n,)


def run(model: Model, words: str | Sequence[str], knocked_out: Sequence[tuple[int, int]] = ()) -> Run:
    """Run the model on a sentence (text or a list of words); `<bos>` is put in front.

    `knocked_out` lists (layer, head) pairs whose output is zeroed. Returns a `Run`: the tokens,
    `weights[layer][head]` as (n, n) arrays, the logits (n, d_vocab) and every stage of every head.
    Raises ModelInputError (a SceneError) for unknown words, an empty or too long sentence, or a
    head that does not exist.
    """
    ids = encode(model, words)
    pairs = check_knocked_out(knocked_out, model.config.n_layers, model.config.n_heads)
    return forward(model, ids, pairs)


def with_head_weights(model: Model, layer: int, head: int, Wq=None, Wk=None, Wv=None) -> Model:
    """A copy of the model with one head's W_Q, W_K and/or W_V replaced (each (d_model, d_head)).

    This is how an edited head feeds back into the predictions: edit the matrices in the head's scene,
    then `run` the new model. The original model is left as it was.
    """
    layer, head = check_head(layer, head, model.config.n_layers, model.config.n_heads)
    params = dict(model.params)
    expected = (model.config.d_model, model.config.d_head)
    for name, new in (("W_Q", Wq), ("W_K", Wk), ("W_V", Wv)):
        if new is None:
            continue
        new = np.asarray(new, dtype=np.float64)
        if new.shape != expected or not np.isfinite(new).all():
            raise ModelInputError(
                f"{name} of layer {layer}, head {head} must be {expected[0]} × {expected[1]} finite numbers; "
                f"got shape {new.shape}",
                {"W_Q": "Wq", "W_K": "Wk", "W_V": "Wv"}[name],
            )
        stacked = params[name].copy()
        stacked[layer, head] = new
        params[name] = stacked
    return replace(model, params=params)
