"""The exercises: the solutions pass every check, each classic mistake fails the check that names it, and an
error points at the learner's own line. Everything goes through the entry point, as the worker sends it."""

import json

import numpy as np
import pytest

from attention_playground import compute, handle, load_preset
from attention_playground.exercises import EXERCISES, RAISED_ABOVE, seed_data
from attention_playground.learner_program import LearnerError, run_learner_code


def send(kind, payload):
    reply = json.loads(handle(json.dumps({"kind": kind, "payload": payload})))
    return reply


def run(exercise_id, code, scene=None):
    payload = {"exercise_id": exercise_id, "code": code}
    if scene is not None:
        payload["scene"] = scene
    reply = send("run_exercise", payload)
    assert reply["ok"], reply
    return reply["result"]


def failing(result):
    """{check id: message} of the checks that failed."""
    return {check["id"]: check["message"] for check in result["checks"] if check["passed"] is False}


SOFTMAX_WITHOUT_SHIFT = """import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
"""

SOFTMAX_OVER_EVERYTHING = """import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x))
    return e / np.sum(e)
"""

ATTENTION_TEMPLATE = """import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)

def attention(Q, K, V, scale=True, mask=None):
    scores = Q @ K.T
{body}
"""

ATTENTION_WITHOUT_SCALING = ATTENTION_TEMPLATE.format(body="""    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    weights = softmax(scores)
    return weights @ V, weights""")

ATTENTION_MASKING_AFTER_SOFTMAX = ATTENTION_TEMPLATE.format(body="""    if scale:
        scores = scores / np.sqrt(Q.shape[-1])
    weights = softmax(scores)
    if mask is not None:
        weights = np.where(mask, 0.0, weights)
    return weights @ V, weights""")

ATTENTION_IGNORING_MASK = ATTENTION_TEMPLATE.format(body="""    if scale:
        scores = scores / np.sqrt(Q.shape[-1])
    weights = softmax(scores)
    return weights @ V, weights""")

ATTENTION_RETURNING_WEIGHTS_ONLY = ATTENTION_TEMPLATE.format(body="""    weights = softmax(scores / np.sqrt(Q.shape[-1]))
    return weights""")


def test_the_exercises_list_says_what_the_page_shows():
    reply = send("exercises", {})
    assert reply["ok"]
    ids = [exercise["id"] for exercise in reply["result"]]
    assert ids == ["softmax", "attention"]
    for exercise in reply["result"]:
        assert exercise["starter"] and exercise["solution"] and exercise["hints"] and exercise["checks"]
        assert f"def {exercise['function']}(" in exercise["solution"]


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_the_solution_passes_every_check(exercise_id):
    result = run(exercise_id, EXERCISES[exercise_id].solution)
    assert result["error"] is None
    assert [check["passed"] for check in result["checks"]] == [True] * len(EXERCISES[exercise_id].checks)
    assert result["passed"] is True


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_the_starter_code_runs_but_does_not_pass(exercise_id):
    result = run(exercise_id, EXERCISES[exercise_id].starter)
    assert result["error"] is None
    assert result["passed"] is False
    assert failing(result)


def test_the_solution_agrees_on_every_preset_scene():
    for preset_id in ("it-animal-noun", "dog-bites-man"):
        scene = load_preset(preset_id)
        for exercise_id in EXERCISES:
            assert run(exercise_id, EXERCISES[exercise_id].solution, scene)["passed"], (preset_id, exercise_id)


def test_softmax_without_the_shift_fails_only_the_overflow_check_and_says_why():
    result = run("softmax", SOFTMAX_WITHOUT_SHIFT)
    failed = failing(result)
    assert list(failed) == ["overflow"]
    assert "[nan, nan, nan]" in failed["overflow"]
    assert "Subtract the row's largest score" in failed["overflow"]


def test_softmax_over_the_whole_matrix_fails_the_rows_check():
    failed = failing(run("softmax", SOFTMAX_OVER_EVERYTHING))
    assert "rows-sum-to-1" in failed
    assert "Row 1 adds up to" in failed["rows-sum-to-1"] and "not 1" in failed["rows-sum-to-1"]
    assert "overflow" not in failed


def test_attention_without_scaling_fails_the_scaling_check_by_name():
    failed = failing(run("attention", ATTENTION_WITHOUT_SCALING))
    assert "scaling" in failed
    assert "Divide the scores by √d_k" in failed["scaling"]
    assert "scene" in failed  # the preset scales, so the heatmap would differ too
    assert "rows-sum-to-1" not in failed and "causal-zeros" not in failed


def test_masking_after_the_softmax_leaves_zeros_but_rows_that_do_not_add_up():
    failed = failing(run("attention", ATTENTION_MASKING_AFTER_SOFTMAX))
    assert "rows-sum-to-1" in failed and "causal-zeros" not in failed
    assert "before the softmax" in failed["rows-sum-to-1"]


def test_ignoring_the_mask_fails_the_exact_zeros_check():
    failed = failing(run("attention", ATTENTION_IGNORING_MASK))
    assert "causal-zeros" in failed
    assert "weights[0, 1]" in failed["causal-zeros"] and "exactly 0" in failed["causal-zeros"]


def test_returning_only_the_weights_is_named():
    failed = failing(run("attention", ATTENTION_RETURNING_WEIGHTS_ONLY))
    assert "(output, weights)" in failed["returns-pair"]


def test_the_shape_check_uses_the_tutorials_six_by_thirty_two_data():
    Q, K, V = seed_data()
    assert Q.shape == K.shape == V.shape == (6, 32)
    transposed = ATTENTION_TEMPLATE.format(body="""    weights = softmax(scores / np.sqrt(Q.shape[-1]))
    return (weights @ V).T, weights""")
    failed = failing(run("attention", transposed))
    assert failed["shapes"] == "The output (one row per token, one column per value dim) has shape 32 × 6, but it should be 6 × 32."


def test_an_exception_in_the_learners_function_points_at_their_line_once():
    code = "import numpy as np\n\ndef softmax(x, axis=-1):\n    total = undefined_name + 1\n    return x\n"
    result = run("softmax", code)
    # Said once, with the line it points at; every check it broke refers to it instead of repeating it.
    assert result["raised"]["summary"] == "line 4: NameError: name 'undefined_name' is not defined"
    assert result["raised"]["line"] == 4
    assert set(failing(result).values()) == {RAISED_ABOVE}
    assert len(failing(result)) == len(EXERCISES["softmax"].checks)
    assert result["passed"] is False and result["error"] is None


def test_a_different_error_in_another_check_is_said_there():
    code = ("import numpy as np\n\ndef softmax(x, axis=-1):\n    if np.ndim(x) == 1:\n        raise ValueError('one row')\n"
            "    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n    return e / np.sum(e, axis=axis, keepdims=True)\n")
    result = run("softmax", code)
    assert result["raised"]["summary"] == "line 5: ValueError: one row"
    assert failing(result) == {"overflow": RAISED_ABOVE}


def test_the_tutorials_attention_gets_one_message_about_how_the_checks_call_it():
    """The first tutorial's attention(X, Wq, Wk, Wv, causal=True), pasted as it is: the checks call
    attention(Q, K, V, scale=..., mask=...), so every one would fail with the same TypeError. One message
    says how they call it and why, pointing at the def line, and no check runs."""
    code = ("import numpy as np\n\ndef softmax(x, axis=-1):\n    x = x - x.max(axis=axis, keepdims=True)\n"
            "    e = np.exp(x)\n    return e / e.sum(axis=axis, keepdims=True)\n\n"
            "def attention(X, Wq, Wk, Wv, causal=True):\n    Q, K, V = X @ Wq, X @ Wk, X @ Wv\n"
            "    scores = Q @ K.T / np.sqrt(Q.shape[-1])\n    weights = softmax(scores)\n    return weights @ V, weights\n")
    result = run("attention", code)
    error = result["error"]
    assert error["kind"] == "signature" and error["line"] == 8
    assert error["summary"].startswith("line 8: The checks call attention(Q, K, V, scale=True, mask=None): Q, K and V are")
    assert "Yours takes attention(X, Wq, Wk, Wv, causal=True), like the tutorial's" in error["summary"]
    assert all(check["passed"] is None for check in result["checks"])
    assert result["raised"] is None and result["passed"] is False


def test_a_softmax_that_needs_two_arguments_is_told_how_it_is_called():
    result = run("softmax", "def softmax(x, axis):\n    return x\n")
    assert result["error"]["kind"] == "signature"
    assert result["error"]["summary"].startswith("line 1: The checks call softmax(x): x is an array of scores")
    assert "Yours takes softmax(x, axis): give it the parameters above." in result["error"]["summary"]


def test_a_traceback_lists_only_the_learners_frames():
    code = "def helper(x):\n    return x / 0\n\ndef softmax(x, axis=-1):\n    return helper(1)\n"
    program = run_learner_code(code)
    with pytest.raises(LearnerError) as caught:
        program.function("softmax")(np.zeros(3))
    error = caught.value
    assert error.line == 2
    assert error.summary == "line 2: ZeroDivisionError: division by zero"
    assert "line 5, in softmax" in error.traceback and "line 2, in helper" in error.traceback
    assert "attention_playground" not in error.traceback and ".py" not in error.traceback


def test_a_syntax_error_points_at_the_line():
    result = run("attention", "import numpy as np\n\ndef attention(Q, K, V:\n    pass\n")
    assert result["error"]["line"] == 3
    assert result["error"]["summary"].startswith("line 3: SyntaxError")
    assert all(check["passed"] is None for check in result["checks"])
    assert result["passed"] is False


def test_an_error_at_the_top_level_and_a_missing_function_are_reported():
    top_level = run("softmax", "x = 1\ny = [1, 2][5]\n")
    assert top_level["error"]["summary"] == "line 2: IndexError: list index out of range"
    missing = run("softmax", "def soft_max(x):\n    return x\n")
    assert "does not define softmax()" in missing["error"]["summary"]


def test_a_memory_error_comes_back_as_a_message():
    result = run("softmax", "def softmax(x, axis=-1):\n    raise MemoryError()\n")
    assert result["raised"]["summary"] == "line 2: MemoryError: the code asked for more memory than the browser can give"
    assert set(failing(result).values()) == {RAISED_ABOVE}


def test_an_interrupt_stops_the_checks_and_says_so():
    result = run("softmax", "def softmax(x, axis=-1):\n    raise KeyboardInterrupt\n")
    assert result["interrupted"] is True
    assert "stopped" in result["error"]["summary"]
    assert [check["passed"] for check in result["checks"]][1:] == [None] * (len(result["checks"]) - 1)


def test_printed_output_is_returned():
    result = run("softmax", "print('hello')\n" + EXERCISES["softmax"].solution)
    assert result["printed"] == "hello\n"


def test_bad_requests_are_refused_plainly():
    assert send("run_exercise", {"exercise_id": "nope", "code": ""})["error"]["field"] == "exercise_id"
    assert send("run_exercise", {"exercise_id": "softmax", "code": 3})["error"]["field"] == "code"
    assert send("run_exercise", {"exercise_id": "softmax"})["error"]["type"] == "RequestError"


def test_learner_compute_with_the_solution_gives_the_modules_result():
    scene = load_preset("it-animal-noun")
    expected = compute(scene)
    reply = send("learner_compute", {"exercise_id": "attention", "code": EXERCISES["attention"].solution, "scene": scene})
    result = reply["result"]["result"]
    assert result["drawn_with"] == "attention"
    np.testing.assert_allclose(result["heads"][0]["weights"], expected["heads"][0]["weights"], atol=1e-12)
    np.testing.assert_allclose(result["output"], expected["output"], atol=1e-12)
    assert result["warnings"][0].startswith("Drawn with your attention()")


def test_learner_compute_shows_a_bug_as_different_weights():
    scene = load_preset("it-animal-noun")
    expected = np.array(compute(scene)["heads"][0]["weights"])
    for exercise_id, code in (("attention", ATTENTION_WITHOUT_SCALING), ("softmax", SOFTMAX_OVER_EVERYTHING)):
        reply = send("learner_compute", {"exercise_id": exercise_id, "code": code, "scene": scene})
        weights = np.array(reply["result"]["result"]["heads"][0]["weights"], dtype=float)
        assert not np.allclose(weights, expected), exercise_id


def test_learner_compute_with_broken_code_returns_the_error_not_a_result():
    scene = load_preset("it-animal-noun")
    reply = send("learner_compute", {"exercise_id": "attention", "code": "def attention(Q, K, V, scale=True, mask=None):\n    return 1 / 0\n", "scene": scene})
    assert reply["ok"] and reply["result"]["result"] is None
    assert reply["result"]["error"]["summary"] == "line 2: ZeroDivisionError: division by zero"


def test_learner_compute_names_what_is_wrong_with_the_learners_weights():
    """A softmax that divides by the whole matrix's total: its rows add up to less than 1, and the result says
    so (the page shows it in place of "the shares add up to 100%"). Proper weights give no problem."""
    scene = load_preset("it-animal-noun")
    reply = send("learner_compute", {"exercise_id": "softmax", "code": SOFTMAX_OVER_EVERYTHING, "scene": scene})
    result = reply["result"]["result"]
    weights = np.array(result["heads"][0]["weights"], dtype=float)
    totals = weights.sum(axis=-1)
    assert np.all(totals < 0.99)  # the bug the problem must name: no row makes 100%
    problems = result["drawn_with_problems"]
    assert problems == [
        f"With your softmax(), the weights of row “the” (and {len(totals) - 1} other rows) add up to "
        f"{totals[0]:.4g}, not 1: the shares no longer make 100%."
    ]
    assert result["warnings"][1:1 + len(problems)] == problems  # shown among the warnings, after the note

    solution = send("learner_compute", {"exercise_id": "softmax", "code": EXERCISES["softmax"].solution, "scene": scene})
    assert solution["result"]["result"]["drawn_with_problems"] == []


def test_weight_problems_name_negative_masked_and_nan_weights():
    from attention_playground.learner_drawing import weight_problems

    tokens = ["a", "b"]
    causal = np.array([[False, True], [False, False]])
    assert weight_problems(np.array([[1.0, 0.0], [0.3, 0.7]]), causal, tokens, "softmax") == []
    leaked = weight_problems(np.array([[0.8, 0.2], [0.3, 0.7]]), causal, tokens, "softmax")
    assert leaked == ["Your softmax() gave “a” weight 0.2 on “b”, which the mask forbids: a masked read must get exactly 0."]
    negative = weight_problems(np.array([[1.0, 0.0], [-0.2, 1.2]]), causal, tokens, "attention")
    assert negative == ["Your attention() gave “b” a negative weight on “a” (-0.2): exponentials are never negative."]
    not_a_number = weight_problems(np.array([[np.nan, 0.0], [0.5, 0.5]]), causal, tokens, "softmax")
    assert not_a_number[0].startswith("Your softmax() gave nan as the weight of “a” on “a”")
    assert any("add up to nan" in problem for problem in not_a_number)


def test_drawing_with_the_tutorials_attention_says_how_the_checks_call_it():
    code = "def attention(X, Wq, Wk, Wv, causal=True):\n    return X, X\n"
    reply = send("learner_compute", {"exercise_id": "attention", "code": code, "scene": load_preset("it-animal-noun")})
    assert reply["result"]["result"] is None
    assert reply["result"]["error"]["kind"] == "signature"
    assert "The checks call attention(Q, K, V, scale=True, mask=None)" in reply["result"]["error"]["summary"]
