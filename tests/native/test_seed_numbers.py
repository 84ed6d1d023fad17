"""Every number the two tutorials print, reproduced at the precision they print it.

Read this file next to the articles and tick the numbers off, part by part:
- "Attention from scratch: a step-by-step tutorial in NumPy" (Parts 1, 3, 6, 7, 8, common mistakes);
- "Self-Attention, Built From Scratch" (the causal exercise).

Numbers come from compute() on the presets wherever a scene exists, as the page would show them,
and are also checked against `reference`, which recomputes them with plain loops and `math`.
"""

import math

import numpy as np
import pytest

import reference
from attention_playground import (
    compute,
    load_preset,
    scaling_experiment,
    self_attention,
    shuffle_check,
    softmax,
)


def rounded(values, digits):
    return [round(v, digits) for v in values]


def preset_result(preset_id, **changes):
    scene = load_preset(preset_id)
    scene.update(changes)
    return compute(scene)


def stage(result, name, head=0):
    return result["heads"][head]["stages"][name]


def reference_for(preset_id, **changes):
    """The preset's (output, weights) from the independent reference."""
    scene = load_preset(preset_id)
    scene.update(changes)
    head = scene["heads"][0]
    return reference.self_attention(scene["X"], head["Wq"], head["Wk"], head["Wv"], scale=scene["scale"],
                                    causal=scene["mask"] == "causal")


def assert_matrix_close(actual, expected, tol=1e-12):
    assert len(actual) == len(expected)
    for actual_row, expected_row in zip(actual, expected, strict=True):
        assert actual_row == pytest.approx(expected_row, abs=tol)


# ---------------------------------------------------------------------------------------------
# Part 1: four tools you'll use


def test_part1_dot_products():
    # [1, 0]·[1, 0] = 1, [1, 0]·[0, 1] = 0, [1, 1]·[1, 1] = 2, [1, 0]·[-1, 0] = -1, read off the
    # unscaled score table of a scene whose queries and keys are the vectors themselves.
    identity = [[1, 0], [0, 1]]
    scene = {
        "title": "dot products", "tokens": ["a", "b", "c", "d"], "features": ["x", "y"],
        "X": [[1, 0], [0, 1], [1, 1], [-1, 0]],
        "heads": [{"name": "h", "dims": ["x", "y"], "Wq": identity, "Wk": identity, "Wv": identity}],
        "mask": "none", "scale": False,
    }
    scores = stage(compute(scene), "scores")
    assert scores[0][0] == 1  # same direction: a match
    assert scores[0][1] == 0  # unrelated: nothing
    assert scores[2][2] == 2  # same direction, and bigger
    assert scores[0][3] == -1  # opposite directions
    assert scores[0][3] == reference.dot([1, 0], [-1, 0])


def test_part1_x_times_x_transpose():
    X = load_preset("dog-bites-man")["X"]
    expected = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]
    assert stage(preset_result("dog-bites-man"), "scores") == expected
    assert reference.matmul(X, reference.transpose(X)) == expected


# ---------------------------------------------------------------------------------------------
# Part 3: one full pass, by hand ("dog bites man": Q = K = V = X)


def test_part3_step1_scores_table():
    assert stage(preset_result("dog-bites-man"), "scores") == [[1, 0, 1], [0, 1, 1], [1, 1, 2]]


def test_part3_step2_divided_by_sqrt_2():
    scaled = stage(preset_result("dog-bites-man"), "scaled")
    assert [rounded(row, 4) for row in scaled] == [
        [0.7071, 0, 0.7071],
        [0, 0.7071, 0.7071],
        [0.7071, 0.7071, 1.4142],
    ]
    assert scaled[2][2] == pytest.approx(2 / math.sqrt(2), abs=1e-15)


def test_part3_step3_man_row_exponentials():
    man_scaled = stage(preset_result("dog-bites-man"), "scaled")[2]
    exponentials = [math.exp(s) for s in man_scaled]
    assert rounded(exponentials, 4) == [2.0281, 2.0281, 4.1133]
    assert round(sum(exponentials), 4) == 8.1695
    assert rounded([e / sum(exponentials) for e in exponentials], 4) == [0.2483, 0.2483, 0.5035]


def test_part3_step3_weights_table():
    weights = preset_result("dog-bites-man")["heads"][0]["weights"]
    assert [rounded(row, 4) for row in weights] == [
        [0.4011, 0.1978, 0.4011],
        [0.1978, 0.4011, 0.4011],
        [0.2483, 0.2483, 0.5035],
    ]
    for row in weights:  # "Every row sums to 1."
        assert sum(row) == pytest.approx(1.0, abs=1e-15)
    assert_matrix_close(weights, reference_for("dog-bites-man")[1])


def test_part3_the_trap_without_the_shift_gives_nan():
    # np.exp(1000) is infinity; infinity / infinity is nan.
    assert np.isnan(softmax(np.array([1000.0, 1001.0, 1002.0]), shift=False)).all()
    result = preset_result("softmax-trap")
    assert stage(result, "scores") == [[1000, 1001, 1002]] * 3
    assert result["heads"][0]["weights"] == [[None, None, None]] * 3  # nan crosses to the page as null
    assert any("shift" in warning for warning in result["warnings"])


def test_part3_the_trap_with_the_shift():
    expected = [0.09, 0.2447, 0.6652]
    for row in preset_result("softmax-trap", shift=True)["heads"][0]["weights"]:
        assert rounded(row, 4) == expected
    assert rounded(softmax(np.array([0.0, 1.0, 2.0])).tolist(), 4) == expected  # same as softmax([0, 1, 2])
    assert rounded(reference.softmax_row([1000, 1001, 1002]), 4) == expected


def test_part3_step4_mans_output():
    result = preset_result("dog-bites-man")
    man_output = result["output"][2]
    assert rounded(man_output, 4) == [0.7517, 0.7517]  # every decimal kept
    weights = result["heads"][0]["weights"][2]
    values = stage(result, "V")
    from_rounded_weights = [sum(round(w, 4) * v[c] for w, v in zip(weights, values, strict=True)) for c in range(2)]
    assert rounded(from_rounded_weights, 4) == [0.7518, 0.7518]  # as worked by hand
    assert man_output == pytest.approx(reference_for("dog-bites-man")[0][2], abs=1e-15)


# ---------------------------------------------------------------------------------------------
# Part 6: make "it" look at "cat"

IT, CAT, MAT = 7, 1, 5  # positions in "the cat sat on the mat because it was tired"


def test_part6_scores_of_it():
    result = preset_result("it-animal-noun")
    assert result["tokens"][IT] == "it" and result["tokens"][CAT] == "cat" and result["tokens"][MAT] == "mat"
    assert stage(result, "Q")[IT] == [4, 4]  # it's query
    assert stage(result, "K")[CAT] == [1, 1] and stage(result, "K")[MAT] == [0, 1]
    scores = stage(result, "scores")[IT]
    assert scores[CAT] == 8 and scores[MAT] == 4
    assert [s for j, s in enumerate(scores) if j not in (CAT, MAT)] == [0] * 8


def test_part6_divided_by_sqrt_2():
    scaled = stage(preset_result("it-animal-noun"), "scaled")[IT]
    assert round(scaled[CAT], 3) == 5.657
    assert round(scaled[MAT], 3) == 2.828
    assert [s for j, s in enumerate(scaled) if j not in (CAT, MAT)] == [0] * 8


def test_part6_weights_of_it():
    result = preset_result("it-animal-noun")
    row = result["heads"][0]["weights"][IT]
    assert round(row[CAT], 3) == 0.920
    assert round(row[MAT], 3) == 0.054
    others = [w for j, w in enumerate(row) if j not in (CAT, MAT)]
    assert len(others) == 8 and rounded(others, 4) == [0.0032] * 8
    # One-hot values: the output of "it" repeats its weights.
    assert result["output"][IT] == pytest.approx(row, abs=1e-15)
    assert row == pytest.approx(reference_for("it-animal-noun")[1][IT], abs=1e-12)


@pytest.mark.parametrize(
    ("preset_id", "percent"),
    [
        ("it-animal-noun", 92.0),  # original design: query [4, 4]
        ("it-no-noun-match", 65.3),  # Wq[2, 1] = 0
        ("it-strength-1", 29.1),  # both strengths 1
        ("it-strength-5", 96.5),  # both strengths 5, the design in the video
        ("it-strength-8", 99.6),  # both strengths 8
    ],
)
def test_part6_try_changing_one_thing(preset_id, percent):
    row = preset_result(preset_id)["heads"][0]["weights"][IT]
    assert round(100 * row[CAT], 1) == percent
    assert max(row) == row[CAT]  # cat still ranks first
    assert round(100 * reference_for(preset_id)[1][IT][CAT], 1) == percent


# ---------------------------------------------------------------------------------------------
# Common mistakes: forgetting to divide by sqrt(d)


def test_common_mistake_unscaled_man_weights():
    man = preset_result("dog-bites-man", scale=False)["heads"][0]["weights"][2]
    assert rounded(man, 4) == [0.2119, 0.2119, 0.5761]
    assert rounded(reference_for("dog-bites-man", scale=False)[1][2], 4) == [0.2119, 0.2119, 0.5761]


# ---------------------------------------------------------------------------------------------
# Part 7: why divide by the square root of d?


def test_part7_softmax_of_small_and_large_gaps():
    assert rounded(softmax(np.array([1.0, 2.0, 3.0])).tolist(), 3) == [0.090, 0.245, 0.665]
    large = softmax(np.array([10.0, 20.0, 30.0])).tolist()
    assert round(large[0], 9) == 0.000000002
    assert rounded(large[1:], 6) == [0.000045, 0.999955]
    assert rounded(reference.softmax_row([10, 20, 30])[1:], 6) == [0.000045, 0.999955]


PART7_TABLE = {4: (0.501, 0.307), 64: (0.855, 0.317), 512: (0.958, 0.318)}


def test_part7_average_top_weight_table():
    result = scaling_experiment()
    assert [row["d"] for row in result["rows"]] == [4, 64, 512]
    for row in result["rows"]:
        assert (round(row["unscaled"], 3), round(row["scaled"], 3)) == PART7_TABLE[row["d"]]


def test_part7_matches_a_trial_by_trial_loop():
    # The article's way: one generator; per d, unscaled then scaled; per trial a query, then ten keys.
    rng = np.random.default_rng(3)
    expected = {}
    for d in (4, 64, 512):
        for scale in (False, True):
            tops = []
            for _ in range(500):
                query = rng.normal(size=(1, d))[0]
                keys = rng.normal(size=(10, d))
                scores = [float(np.dot(query, key)) / (math.sqrt(d) if scale else 1.0) for key in keys]
                tops.append(max(reference.softmax_row(scores)))
            expected[d, scale] = sum(tops) / len(tops)
    for row in scaling_experiment()["rows"]:
        assert row["unscaled"] == pytest.approx(expected[row["d"], False], abs=1e-12)
        assert row["scaled"] == pytest.approx(expected[row["d"], True], abs=1e-12)
        assert (round(expected[row["d"], False], 3), round(expected[row["d"], True], 3)) == PART7_TABLE[row["d"]]


# ---------------------------------------------------------------------------------------------
# Part 8: what this attention code doesn't know yet


def test_part8_shuffled_outputs_are_the_original_outputs_reordered():
    result = shuffle_check()
    assert result["equal"] is True
    # The same check with the reference, on the same draws.
    rng = np.random.default_rng(2)
    X, Wq, Wk, Wv = (rng.normal(size=shape).tolist() for shape in [(5, 8), (8, 4), (8, 4), (8, 4)])
    order = [4, 2, 0, 3, 1]
    output, _ = reference.self_attention(X, Wq, Wk, Wv)
    shuffled, _ = reference.self_attention([X[i] for i in order], Wq, Wk, Wv)
    assert_matrix_close(shuffled, [output[i] for i in order], tol=1e-12)
    assert_matrix_close(result["output"], output, tol=1e-12)


# ---------------------------------------------------------------------------------------------
# "Self-Attention, Built From Scratch": the causal exercise


def test_first_seed_causal_exercise_checks():
    result = preset_result("causal-exercise")
    weights = np.array(result["heads"][0]["weights"])  # (6, 6)
    output = np.array(result["output"])
    assert np.allclose(weights.sum(axis=-1), 1.0)  # every row sums to 1
    assert np.allclose(np.triu(weights, k=1), 0.0)  # nothing above the diagonal
    assert (np.triu(weights, k=1) == 0.0).all()  # ... exactly 0: exp(-inf) = 0
    assert output.shape == (6, 32)


def test_first_seed_causal_exercise_matches_reference(make_causal_exercise):
    X, Wq, Wk, Wv = make_causal_exercise.draw_matrices()
    expected_output, expected_weights = reference.self_attention(X.tolist(), Wq.tolist(), Wk.tolist(), Wv.tolist(),
                                                                 causal=True)
    output, weights = self_attention(X, Wq, Wk, Wv, causal=True)
    assert_matrix_close(weights.tolist(), expected_weights, tol=1e-9)
    assert_matrix_close(output.tolist(), expected_output, tol=1e-6)
    result = preset_result("causal-exercise")
    assert_matrix_close(result["output"], expected_output, tol=1e-6)
