"""The trained model's forward pass: against an independent NumPy reference, against the batched training
forward, and the training pass's gradient against finite differences."""

import math

import numpy as np
import pytest

from attention_playground.model import Run, run, vocabulary, with_head_weights
from attention_playground.model.corpus import BOS, VOCABULARY
from attention_playground.model.transformer import forward

SENTENCE = "the cat sat on the mat because it was tired"


def reference_logits(params, ids, knocked_out=()):
    """The model written out from its definition, token by token, with its own softmax (no shared code)."""
    n = len(ids)
    resid = np.array([params["W_E"][i] + params["W_pos"][t] for t, i in enumerate(ids)])  # (n, d_model)
    n_layers, n_heads, _, d_head = params["W_Q"].shape
    for layer in range(n_layers):
        added = np.zeros_like(resid)
        for head in range(n_heads):
            if (layer, head) in knocked_out:
                continue
            Q = resid @ params["W_Q"][layer, head]
            K = resid @ params["W_K"][layer, head]
            V = resid @ params["W_V"][layer, head]
            for t in range(n):  # token t reads tokens 0..t only
                scores = [float(Q[t] @ K[s]) / math.sqrt(d_head) for s in range(t + 1)]
                top = max(scores)
                exps = [math.exp(score - top) for score in scores]
                weights = [e / sum(exps) for e in exps]
                z = sum(w * V[s] for s, w in enumerate(weights))
                added[t] += z @ params["W_O"][layer, head]
        resid = resid + added
    return resid @ params["W_U"] + params["b_U"]  # (n, d_vocab)


def test_vocabulary_starts_with_bos_and_holds_the_tutorials_words(shipped_model):
    words = vocabulary(shipped_model)
    assert words[0] == BOS and words == list(VOCABULARY) and len(set(words)) == len(words)
    tutorial = "the cat sat on mat because it was tired dog bites man fox crow met smiled a and".split()
    assert set(tutorial) <= set(words)


def test_run_gives_tokens_weights_logits_and_stages(shipped_model):
    result = run(shipped_model, SENTENCE)
    assert isinstance(result, Run)
    n = len(SENTENCE.split()) + 1
    assert result.tokens == [BOS, *SENTENCE.split()]
    c = shipped_model.config
    assert len(result.weights) == c.n_layers and all(len(layer) == c.n_heads for layer in result.weights)
    for layer in result.weights:
        for weights in layer:
            assert weights.shape == (n, n)
            assert np.allclose(weights.sum(axis=1), 1.0)
            assert (np.triu(weights, k=1) == 0).all()  # causal
    assert result.logits.shape == (n, len(VOCABULARY))
    assert result.stages[1][0].output.shape == (n, c.d_head)
    assert np.allclose(result.probabilities.sum(axis=1), 1.0)
    # A list of words and the same text give the same run.
    assert np.array_equal(run(shipped_model, SENTENCE.split()).logits, result.logits)


@pytest.mark.parametrize("knocked_out", [(), ((0, 1),), ((1, 0), (1, 1)), ((0, 0), (0, 1), (1, 0), (1, 1))])
def test_the_forward_pass_matches_an_independent_reference(shipped_model, knocked_out):
    result = run(shipped_model, SENTENCE, knocked_out)
    expected = reference_logits(shipped_model.params, result.ids.tolist(), set(knocked_out))
    assert np.allclose(result.logits, expected, rtol=0, atol=1e-10)


def test_resid_pre_is_the_embedding_and_then_the_sum_of_what_the_layers_wrote(shipped_model):
    result = run(shipped_model, SENTENCE)
    p = shipped_model.params
    n = len(result.tokens)
    assert np.array_equal(result.resid_pre[0], p["W_E"][result.ids] + p["W_pos"][:n])
    assert np.allclose(result.resid_pre[1], result.resid_pre[0] + result.attn_out[0], rtol=0, atol=1e-12)
    assert np.allclose(result.resid_final, result.resid_pre[1] + result.attn_out[1], rtol=0, atol=1e-12)


def test_a_knocked_out_head_still_shows_its_pattern_but_writes_nothing(shipped_model):
    intact, knocked = run(shipped_model, SENTENCE), run(shipped_model, SENTENCE, [(1, 1)])
    assert np.array_equal(intact.weights[1][1], knocked.weights[1][1])
    head_write = intact.stages[1][1].output @ shipped_model.params["W_O"][1, 1]  # (n, d_model)
    assert np.allclose(knocked.attn_out[1], intact.attn_out[1] - head_write, rtol=0, atol=1e-12)


def test_the_training_forward_equals_the_display_forward(shipped_model):
    from attention_playground.model.corpus import WORD_INDEX
    from attention_playground.model.gradients import batched_logits

    sentences = [SENTENCE.split(), "the fox met a crow and the fox smiled".split(),
                 "owl red sat queen fox owl red sat queen fox owl red".split()]
    for words in sentences:
        ids = np.array([0] + [WORD_INDEX[w] for w in words])  # (n,)
        batched = batched_logits(shipped_model.params, ids[None], shipped_model.config)
        assert np.allclose(batched[0], forward(shipped_model, ids).logits, rtol=0, atol=1e-10)
    # A whole batch of full-length sequences at once.
    from attention_playground.model.evaluation import model_evaluation_set

    sequences = model_evaluation_set(shipped_model)[:8]
    ids = np.array([sequence.ids[:-1] for sequence in sequences])  # (8, n_ctx)
    batched = batched_logits(shipped_model.params, ids, shipped_model.config)
    for row, sequence_ids in zip(batched, ids, strict=True):
        assert np.allclose(row, forward(shipped_model, sequence_ids).logits, rtol=0, atol=1e-10)
    # With heads knocked out (how evaluation measures a knock-out): the same as the display forward's.
    knocked = frozenset({(0, 3), (1, 2)})
    batched = batched_logits(shipped_model.params, ids, shipped_model.config, knocked)
    for row, sequence_ids in zip(batched, ids, strict=True):
        assert np.allclose(row, forward(shipped_model, sequence_ids, knocked).logits, rtol=0, atol=1e-10)
    assert not np.allclose(batched, batched_logits(shipped_model.params, ids, shipped_model.config), atol=1e-6)


GRADIENT_CHOICES = [{}, {"scale": False}, {"positions": False}, {"causal_mask": False}, {"tied_qk": True},
                    {"layer_norm": True}, {"tied_embeddings": True}, {"layer_norm": True, "tied_embeddings": True}]


def params_for(model, config, seed=0):
    """The model's parameters as `config` has them: LayerNorm gains and biases added (not 1 and 0, so that a
    wrong gradient of either shows), W_U dropped when the embeddings are tied."""
    from attention_playground.model.transformer import param_shapes

    rng = np.random.default_rng(seed)
    params = {}
    for name, shape in param_shapes(config, len(model.vocabulary)).items():
        if name in model.params:
            params[name] = model.params[name].copy()
        else:
            params[name] = (1.0 if name == "ln_gain" else 0.0) + 0.3 * rng.normal(size=shape)
    return params


def test_with_layer_norm_and_tied_embeddings_the_training_forward_equals_the_display_forward(shipped_model):
    """The English model's two choices: both forward passes LayerNorm what the heads and the unembedding read,
    and score the next token with W_E's transpose."""
    from dataclasses import replace

    from attention_playground.model.corpus import WORD_INDEX
    from attention_playground.model.gradients import batched_logits
    from attention_playground.model.transformer import Model, layer_norm

    config = replace(shipped_model.config, layer_norm=True, tied_embeddings=True)
    model = Model(config, params_for(shipped_model, config), shipped_model.vocabulary)
    ids = np.array([0] + [WORD_INDEX[w] for w in SENTENCE.split()])  # (n,)
    shown = forward(model, ids)
    assert np.allclose(batched_logits(model.params, ids[None], config)[0], shown.logits, rtol=0, atol=1e-10)
    p = model.params
    assert np.allclose(shown.head_input[1], layer_norm(shown.resid_pre[1], p["ln_gain"][1], p["ln_bias"][1]), atol=1e-12)
    final = layer_norm(shown.resid_final, p["ln_gain"][2], p["ln_bias"][2])
    assert np.allclose(shown.logits, final @ p["W_E"].T + p["b_U"], rtol=0, atol=1e-10)
    assert "W_U" not in p


def test_the_gradient_is_the_same_computed_the_way_pyodide_does_it(shipped_model, monkeypatch):
    """Without BLAS (in Pyodide) a few products are einsums rather than matmuls (gradients.WITHOUT_BLAS): both
    ways give the same loss and gradient, here and there."""
    from attention_playground.model import gradients
    from attention_playground.model.corpus import WORD_INDEX

    words = "king frog red hill sang owl then king frog red hill sang owl then king frog red".split()
    ids = np.array([[0] + [WORD_INDEX[word] for word in words]] * 3)  # (3, n + 1)
    inputs, targets = ids[:, :-1], ids[:, 1:]
    ways = {}
    for without_blas in (False, True):
        monkeypatch.setattr(gradients, "WITHOUT_BLAS", without_blas)
        ways[without_blas] = gradients.loss_and_gradients(shipped_model.params, inputs, targets, shipped_model.config)
    assert ways[True][0] == pytest.approx(ways[False][0], abs=1e-12)
    for name, value in ways[False][1].items():
        assert np.allclose(ways[True][1][name], value, rtol=0, atol=1e-12), name
    # The products themselves, each way (in Pyodide the two that sum along rows are equal to the bit).
    rng = np.random.default_rng(1)
    tokens, wide, weights = rng.normal(size=(40, 8)), rng.normal(size=(40, 30)), rng.normal(size=(8, 30))
    for product, a, b, matmul in ((gradients.token_sum_product, tokens, wide, tokens.T @ wide),
                                  (gradients.wide_product, tokens, weights, tokens @ weights),
                                  (gradients.rows_product, wide, weights, wide @ weights.T)):
        for without_blas in (False, True):
            assert np.allclose(product(a, b, without_blas=without_blas), matmul, rtol=0, atol=1e-12), product
    monkeypatch.undo()
    if gradients.WITHOUT_BLAS:  # this NumPy's own matmul is the plain loop: same sums, same order
        assert np.array_equal(gradients.token_sum_product(tokens, wide), tokens.T @ wide)
        assert np.array_equal(gradients.wide_product(tokens, weights), tokens @ weights)


@pytest.mark.parametrize("choices", GRADIENT_CHOICES, ids=lambda c: "+".join(c) or "as-shipped")
def test_the_gradient_matches_finite_differences(shipped_model, choices):
    """Every parameter's gradient, along a random direction of its own, against the loss's central difference:
    the written-out backward pass must agree with the forward pass it differentiates, with each choice switched."""
    from dataclasses import replace

    from attention_playground.model.corpus import WORD_INDEX
    from attention_playground.model.gradients import loss_and_gradients, loss_of

    config = replace(shipped_model.config, **choices)
    sentences = ["the fox met a crow and the fox smiled .", "the cat sat on the mat because it was tired ."]
    ids = np.array([[0] + [WORD_INDEX[w] for w in words.split()][:10] for words in sentences])  # (2, n + 1)
    inputs, targets = ids[:, :-1], ids[:, 1:]
    params = params_for(shipped_model, config)
    loss, gradient = loss_and_gradients(params, inputs, targets, config)
    assert loss == pytest.approx(loss_of(params, inputs, targets, config), abs=1e-12)
    assert set(gradient) == set(params)
    rng = np.random.default_rng(0)
    h = 1e-6 if config.layer_norm else 1e-5  # LayerNorm curves sharply: a central difference needs a smaller step
    for name, value in params.items():
        direction = rng.normal(size=value.shape)
        plus, minus = dict(params), dict(params)
        plus[name], minus[name] = value + h * direction, value - h * direction
        numeric = (loss_of(plus, inputs, targets, config) - loss_of(minus, inputs, targets, config)) / (2 * h)
        assert float(np.sum(gradient[name] * direction)) == pytest.approx(numeric, rel=1e-6, abs=1e-9), name
    if choices.get("tied_qk"):
        assert not gradient["W_K"].any()  # the key matrix is W_Q's: W_K itself is never used
    if choices.get("positions") is False:
        assert not gradient["W_pos"].any()


def test_with_head_weights_replaces_one_head_and_leaves_the_model_alone(shipped_model):
    c = shipped_model.config
    before = run(shipped_model, SENTENCE)
    Wk = np.zeros((c.d_model, c.d_head))  # every score 0: the head spreads its weight evenly
    edited = with_head_weights(shipped_model, 1, 0, Wk=Wk)
    after = run(edited, SENTENCE)
    n = len(after.tokens)
    expected = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    assert np.allclose(after.weights[1][0], expected)
    assert np.array_equal(after.weights[1][1], before.weights[1][1])  # the other head reads as before
    assert not np.allclose(after.logits, before.logits)  # and the prediction changed
    assert np.array_equal(run(shipped_model, SENTENCE).logits, before.logits)  # the original is untouched
    same = with_head_weights(shipped_model, 1, 0, Wq=shipped_model.params["W_Q"][1, 0])
    assert np.array_equal(run(same, SENTENCE).logits, before.logits)


# --- The design choices a claim's test switches off (TrainConfig's scale, positions, causal_mask, tied_qk) ----


def reference_logits_with(params, ids, scale=True, positions=True, causal_mask=True, tied_qk=False):
    """The model written out from its definition, token by token, with each design choice switchable."""
    n = len(ids)
    resid = np.array([params["W_E"][i] + (params["W_pos"][t] if positions else 0) for t, i in enumerate(ids)])
    n_layers, n_heads, _, d_head = params["W_Q"].shape
    for layer in range(n_layers):
        added = np.zeros_like(resid)
        for head in range(n_heads):
            Q = resid @ params["W_Q"][layer, head]
            K = resid @ params["W_Q" if tied_qk else "W_K"][layer, head]
            V = resid @ params["W_V"][layer, head]
            for t in range(n):
                readable = range(t + 1) if causal_mask else range(n)
                scores = [float(Q[t] @ K[s]) / (math.sqrt(d_head) if scale else 1.0) for s in readable]
                top = max(scores)
                exps = [math.exp(score - top) for score in scores]
                z = sum(e / sum(exps) * V[s] for s, e in zip(readable, exps, strict=True))
                added[t] += z @ params["W_O"][layer, head]
        resid = resid + added
    return resid @ params["W_U"] + params["b_U"]  # (n, d_vocab)


CHOICES = [{"scale": False}, {"positions": False}, {"causal_mask": False}, {"tied_qk": True},
           {"scale": False, "positions": False, "causal_mask": False, "tied_qk": True}]


@pytest.mark.parametrize("choices", CHOICES, ids=lambda c: "+".join(c))
def test_each_design_choice_is_obeyed_alike_by_both_forward_passes(shipped_model, choices):
    from dataclasses import replace

    from attention_playground.model.corpus import WORD_INDEX
    from attention_playground.model.gradients import batched_logits

    model = replace(shipped_model, config=replace(shipped_model.config, **choices))
    ids = np.array([0] + [WORD_INDEX[w] for w in SENTENCE.split()])  # (n,)
    display = forward(model, ids).logits  # (n, d_vocab)
    assert np.allclose(display, reference_logits_with(model.params, ids.tolist(), **choices), rtol=0, atol=1e-10)
    batched = batched_logits(model.params, ids[None], model.config)
    assert np.allclose(batched[0], display, rtol=0, atol=1e-10)
    # Switching a choice changes what the model computes (the test would pass if the switch were ignored).
    assert not np.allclose(display, forward(shipped_model, ids).logits, rtol=0, atol=1e-6)


def test_without_positions_a_token_cannot_tell_the_order_of_what_came_before(shipped_model):
    from dataclasses import replace

    from attention_playground.model.corpus import WORD_INDEX

    words = "the fox met a crow and the".split()
    swapped = "the crow met a fox and the".split()  # "fox" and "crow" change places
    ids = lambda ws: np.array([0] + [WORD_INDEX[w] for w in ws])  # noqa: E731
    # One layer: a token's output is then a blend of what it read, and a blend does not depend on order.
    # (In a second layer the tokens it reads have themselves read different prefixes, so one swap shows.)
    one_layer = {name: value[:1] if name in ("W_Q", "W_K", "W_V", "W_O") else value
                 for name, value in shipped_model.params.items()}
    unordered = replace(shipped_model, params=one_layer,
                        config=replace(shipped_model.config, n_layers=1, positions=False))
    assert np.allclose(forward(unordered, ids(words)).logits[-1], forward(unordered, ids(swapped)).logits[-1],
                       rtol=0, atol=1e-12)
    ordered = replace(unordered, config=replace(unordered.config, positions=True))
    assert not np.allclose(forward(ordered, ids(words)).logits[-1], forward(ordered, ids(swapped)).logits[-1],
                           rtol=0, atol=1e-6)
