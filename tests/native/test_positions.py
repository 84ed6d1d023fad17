"""Positional encoding: the formula, the scene key, and what it does to the shuffle."""

import math

import numpy as np
import pytest

from attention_playground import SceneError, compute, load_preset
from attention_playground.positions import POSITION_ENCODINGS, position_rows, sinusoidal_positions


def reference_encoding(n_tokens, n_features):
    """The formula written out cell by cell, independent of the vectorized version."""
    table = []
    for pos in range(n_tokens):
        row = []
        for k in range(n_features):
            pair = k // 2
            angle = pos / 10000 ** (2 * pair / n_features)
            row.append(math.sin(angle) if k % 2 == 0 else math.cos(angle))
        table.append(row)
    return np.array(table)


@pytest.mark.parametrize(("n_tokens", "n_features"), [(1, 1), (3, 2), (10, 6), (7, 11), (64, 64)])
def test_sinusoidal_matches_the_formula(n_tokens, n_features):
    got = sinusoidal_positions(n_tokens, n_features)
    assert got.shape == (n_tokens, n_features)
    np.testing.assert_allclose(got, reference_encoding(n_tokens, n_features), rtol=0, atol=1e-12)


def test_position_zero_is_sin_0_cos_0_and_every_position_differs():
    encoding = sinusoidal_positions(16, 8)
    assert encoding[0].tolist() == [0, 1] * 4
    assert len({tuple(row) for row in encoding.round(12)}) == 16


def test_none_adds_nothing_and_unknown_names_are_refused():
    assert POSITION_ENCODINGS == ("none", "sinusoidal")
    assert not position_rows("none", 4, 3).any()
    with pytest.raises(ValueError, match="unknown positional encoding"):
        position_rows("learned", 4, 3)


def test_compute_adds_the_positions_to_X_and_echoes_the_key():
    scene = load_preset("dog-bites-man")
    plain = compute(scene)
    assert plain["positions"] == "none" and plain["X"] == scene["X"]
    scene["positions"] = "sinusoidal"
    result = compute(scene)
    assert result["positions"] == "sinusoidal"
    expected_X = np.array(scene["X"]) + reference_encoding(3, 2)
    np.testing.assert_allclose(result["X"], expected_X, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result["heads"][0]["stages"]["Q"], expected_X @ np.array(scene["heads"][0]["Wq"]),
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("bad", ["learned", "", 1, None, True, ["sinusoidal"]])
def test_a_bad_positions_value_names_the_field(bad):
    scene = load_preset("dog-bites-man")
    scene["positions"] = bad
    with pytest.raises(SceneError) as raised:
        compute(scene)
    assert raised.value.field == "positions"
    assert '"none" or "sinusoidal"' in raised.value.message


def shuffled(scene, order):
    moved = dict(scene, tokens=[scene["tokens"][i] for i in order], X=[scene["X"][i] for i in order])
    return moved


def moved_row_difference(scene, order):
    """Largest |difference| between each token's output before and after the tokens are put in `order`."""
    before = np.array(compute(scene)["output"])  # (n, d_v)
    after = np.array(compute(shuffled(scene, order))["output"])  # (n, d_v)
    return np.abs(after - before[order]).max()


def test_without_positions_outputs_move_with_their_tokens_and_with_them_they_do_not():
    scene = load_preset("dog-bites-man")
    order = [2, 1, 0]  # "man bites dog"
    assert moved_row_difference(scene, order) == 0
    scene["positions"] = "sinusoidal"
    assert moved_row_difference(scene, order) > 0.01
