"""Properties that must hold for every input, checked on many random ones with hypothesis."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import reference
from attention_playground import LIMITS, attention, attention_stages, compute, load_preset, softmax

# How big the random entries get, and why:
# - MODERATE keeps scores (sums of up to 6 × 6 products) below about 2e4. A float64 score that size
#   carries ~4e-12 of rounding, so two computations that add in a different order (as a permuted
#   matrix product may) agree to ~1e-11. With entries of 1e6 a score reaches ~1e14, where one unit
#   in the last place is 0.02, and exp() of that difference is a genuine 2% change in a weight: a
#   property of floating point, not a bug, and no tolerance could tell the two apart.
# - LARGE is far past anything typed into the page, yet safe from overflow: at the size limits a
#   score is at most 64 · (64 · LARGE²)² ≈ 3e32, nowhere near float64's 1.8e308. Up to there, finite
#   inputs must give finite weights and outputs.
MODERATE = 10.0
LARGE = 1e6


def entries(bound):
    return st.floats(-bound, bound, allow_nan=False, allow_infinity=False)


@st.composite
def head_inputs(draw, bound=MODERATE, max_tokens=8, max_size=6):
    """X and one head's Wq, Wk, Wv with random small sizes."""
    n_tokens = draw(st.integers(1, max_tokens))
    n_features = draw(st.integers(1, max_size))
    d_k = draw(st.integers(1, max_size))
    d_v = draw(st.integers(1, max_size))
    X = draw(arrays(np.float64, (n_tokens, n_features), elements=entries(bound)))
    Wq = draw(arrays(np.float64, (n_features, d_k), elements=entries(bound)))
    Wk = draw(arrays(np.float64, (n_features, d_k), elements=entries(bound)))
    Wv = draw(arrays(np.float64, (n_features, d_v), elements=entries(bound)))
    return X, Wq, Wk, Wv


@st.composite
def masks(draw, n_tokens):
    """None, "causal", or a random boolean matrix (which may block whole rows)."""
    kind = draw(st.sampled_from(["none", "causal", "matrix"]))
    if kind == "matrix":
        return draw(arrays(np.bool_, (n_tokens, n_tokens)))
    return None if kind == "none" else "causal"


@given(data=st.data(), inputs=head_inputs(bound=LARGE), scale=st.booleans())
def test_rows_sum_to_one_and_fully_masked_rows_read_nothing(data, inputs, scale):
    X, Wq, Wk, Wv = inputs
    mask = data.draw(masks(len(X)))
    stages = attention_stages(X, Wq, Wk, Wv, scale=scale, mask=mask)
    blocked = np.all(np.isneginf(stages.masked), axis=1)  # rows that may read nothing
    sums = stages.weights.sum(axis=1)
    assert np.allclose(sums[~blocked], 1.0, rtol=0, atol=1e-12)
    assert (stages.weights[blocked] == 0).all() and (stages.output[blocked] == 0).all()
    assert (stages.weights >= 0).all()


@given(inputs=head_inputs(bound=LARGE), scale=st.booleans())
def test_causal_mask_leaves_the_strictly_upper_triangle_exactly_zero(inputs, scale):
    X, Wq, Wk, Wv = inputs
    stages = attention_stages(X, Wq, Wk, Wv, scale=scale, mask="causal")
    assert (np.triu(stages.weights, k=1) == 0.0).all()
    assert np.isneginf(stages.masked[np.triu_indices(len(X), k=1)]).all()


@given(
    scores=arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 8)), elements=entries(100.0)),
    data=st.data(),
)
def test_softmax_is_unchanged_by_adding_a_constant_to_a_row(scores, data):
    # Constants up to 1e3 cost x + c about 2e-13 of rounding, so the weights agree to ~1e-12.
    constants = data.draw(arrays(np.float64, (len(scores), 1), elements=entries(1e3)))  # (n_rows, 1)
    assert np.allclose(softmax(scores + constants), softmax(scores), rtol=0, atol=1e-9)


@given(data=st.data(), inputs=head_inputs(bound=MODERATE), scale=st.booleans())
def test_without_a_mask_permuting_tokens_permutes_outputs(data, inputs, scale):
    X, Wq, Wk, Wv = inputs
    order = data.draw(st.permutations(range(len(X))))
    stages = attention_stages(X, Wq, Wk, Wv, scale=scale)
    shuffled = attention_stages(X[order], Wq, Wk, Wv, scale=scale)
    tolerance = 1e-9 * max(1.0, np.abs(stages.V).max())
    assert np.allclose(shuffled.output, stages.output[order], rtol=0, atol=tolerance)
    assert np.allclose(shuffled.weights, stages.weights[np.ix_(order, order)], rtol=0, atol=1e-9)


@given(inputs=head_inputs(bound=MODERATE), causal=st.booleans(), scale=st.booleans())
def test_matches_the_plain_loop_reference(inputs, causal, scale):
    X, Wq, Wk, Wv = inputs
    output, weights = attention(X @ Wq, X @ Wk, X @ Wv, scale=scale, mask="causal" if causal else None)
    expected_output, expected_weights = reference.self_attention(X.tolist(), Wq.tolist(), Wk.tolist(), Wv.tolist(),
                                                                 scale=scale, causal=causal)
    assert np.allclose(weights, expected_weights, rtol=0, atol=1e-9)
    assert np.allclose(output, expected_output, rtol=0, atol=1e-9 * max(1.0, np.abs(X @ Wv).max()))


@st.composite
def scenes_within_limits(draw):
    """A random scene anywhere up to the size limits, as the JSON-like dict the page sends."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    magnitude = draw(st.floats(1e-3, LARGE))
    n_tokens = draw(st.integers(1, LIMITS.tokens))
    n_features = draw(st.integers(1, LIMITS.features))
    features = [f"f{i}" for i in range(n_features)]

    def matrix(rows, columns):
        return (magnitude * rng.uniform(-1, 1, size=(rows, columns))).tolist()

    heads = []
    for h in range(draw(st.integers(1, LIMITS.heads))):
        d_k = draw(st.integers(1, LIMITS.dims))
        d_v = draw(st.one_of(st.none(), st.integers(1, LIMITS.value_dims)))
        heads.append({"name": f"head {h}", "dims": [f"d{i}" for i in range(d_k)],
                      "Wq": matrix(n_features, d_k), "Wk": matrix(n_features, d_k),
                      "Wv": None if d_v is None else matrix(n_features, d_v)})
    mask = draw(masks(n_tokens))
    return {
        "title": "random", "tokens": [f"t{i}" for i in range(n_tokens)], "features": features,
        "X": matrix(n_tokens, n_features), "heads": heads,
        "mask": "none" if mask is None else mask if isinstance(mask, str) else mask.tolist(),
        "scale": draw(st.booleans()),
    }


@settings(max_examples=40)
@given(scene=scenes_within_limits())
def test_finite_inputs_within_the_limits_give_no_nan_or_inf(scene):
    result = compute(scene)
    blocked = np.array(result["mask"])  # (n_tokens, n_tokens)
    for head in result["heads"]:
        for name, matrix in head["stages"].items():
            cells = np.array(matrix, dtype=object)
            if name == "masked":  # null exactly where the mask blocks a score
                assert ((cells == None) == blocked).all()  # noqa: E711  (elementwise test for null)
            else:
                assert not (cells == None).any(), name  # noqa: E711
                assert np.isfinite(cells.astype(float)).all(), name
    assert result["warnings"] == [] or result["fully_masked_rows"]
    assert np.isfinite(np.array(result["output"], dtype=float)).all()


@pytest.mark.parametrize("shift", [True, False])
def test_a_fully_masked_row_never_gives_a_silent_nan(shift):
    scores = np.array([[1.0, 2.0], [5.0, 6.0]])
    blocked = np.array([[False, False], [True, True]])
    output, weights = attention(scores, np.eye(2), np.eye(2), scale=False, mask=blocked, shift=shift)
    assert weights[1].tolist() == [0.0, 0.0] and output[1].tolist() == [0.0, 0.0]
    assert np.allclose(weights[0].sum(), 1.0)


def test_the_overflow_trap_is_quiet_and_explained():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any NumPy RuntimeWarning would fail the test
        assert np.isnan(softmax(np.array([[1000.0, 1001.0, 1002.0], [-1e4, -1e4, -1e4]]), shift=False)).all()
        scene = load_preset("softmax-trap")
        assert any("shift" in note for note in compute(scene)["warnings"])
        scene["X"] = [[1e200, 1e200]] * 3  # scores of 1e400 overflow even with the shift
        scene["shift"] = True
        result = compute(scene)
    assert any("larger than a float can hold" in note for note in result["warnings"])
    assert result["heads"][0]["stages"]["scores"][0] == [None, None, None]
