"""The exercises' checks, as a learner meets them: a softmax typed without the shift fails the check that says why,
the fix passes and is kept after a reload, hints come one at a time and the solution passes, an error points at
the learner's line, and the tutorial's attention() pasted as it is gets one message about its signature. Real
CodeMirror, real Pyodide, real Chromium.
"""

import json

import pytest
from playwright.sync_api import expect

from exercise_helpers import (  # noqa: F401  (exercise_page is a fixture)
    OUTCOME, STORAGE_KEY, check_item, exercise_page, open_exercises, replace_code_by_typing, run_checks)
from page_helpers import editor_text, paste_code, sel

# On one worker with the other files that use the exercises on the shared page (exercise_page), whose Python is
# kept from one file to the next (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("exercises")


BUGGY_SOFTMAX = [
    (0, "import numpy as np"),
    (0, ""),
    (0, "def softmax(x, axis=-1):"),
    (0, "e = np.exp(x)"),
    (0, "return e / np.sum(e, axis=axis, keepdims=True)"),
]


def test_a_learner_types_a_softmax_without_the_shift_sees_why_it_fails_fixes_it_and_finds_it_after_a_reload(
        page, site_url, artifacts):
    open_exercises(page, "softmax", f"{site_url}/")
    expect(page.locator(sel("exercise-text"))).to_contain_text("softmax(x, axis=-1)")
    replace_code_by_typing(page, BUGGY_SOFTMAX)
    assert editor_text(page) == (
        "import numpy as np\n\ndef softmax(x, axis=-1):\n    e = np.exp(x)\n"
        "    return e / np.sum(e, axis=axis, keepdims=True)"
    )

    status = run_checks(page)
    expect(status).to_have_attribute("data-outcome", "failed")
    expect(status).to_contain_text("1 of 6 checks fail")
    overflow = check_item(page, "overflow")
    expect(overflow).to_have_attribute("data-passed", "false")
    expect(overflow).to_contain_text("Large scores [1000, 1001, 1002] give weights, not nan")
    expect(overflow).to_contain_text("gave [nan, nan, nan]")
    expect(overflow).to_contain_text("Subtract the row's largest score before exp()")
    expect(check_item(page, "rows-sum-to-1")).to_have_attribute("data-passed", "true")
    page.locator(sel("exercise-panel")).screenshot(path=str(artifacts / "exercise-failing.png"))

    # The fix, typed where the bug is: at the end of the exp() line.
    page.locator(f'{sel("code-editor")} .cm-line', has_text="e = np.exp(x)").click()
    page.keyboard.press("End")
    page.keyboard.press("Backspace")
    page.keyboard.type(" - np.max(x, axis=axis, keepdims=True))")
    status = run_checks(page)
    expect(status).to_have_attribute("data-outcome", "passed")
    expect(status).to_contain_text("All 6 checks pass")
    assert page.locator(f'{sel("exercise-checks")} li[data-passed="true"]').count() == 6
    page.locator(sel("exercise-panel")).screenshot(path=str(artifacts / "exercise-passing.png"))
    fixed = editor_text(page)
    assert "e = np.exp(x - np.max(x, axis=axis, keepdims=True))" in fixed

    page.reload()
    open_exercises(page, "softmax")
    expect(page.locator(f'{sel("code-editor")} .cm-line', has_text="np.max(x, axis=axis")).to_be_visible()
    assert editor_text(page) == fixed
    saved = json.loads(page.evaluate(f"localStorage.getItem({json.dumps(STORAGE_KEY)})"))
    assert saved["code"]["softmax"] == fixed
    assert saved["selected"] == "softmax"

    # "Start again": the starter replaces the fix, in the editor and in what is kept.
    page.locator(sel("exercise-reset")).click()
    expect(page.locator(f'{sel("code-editor")} .cm-line', has_text="np.max(x, axis=axis")).to_have_count(0)
    starter = editor_text(page)
    saved = json.loads(page.evaluate(f"localStorage.getItem({json.dumps(STORAGE_KEY)})"))
    assert saved["code"]["softmax"] == starter != fixed


def test_hints_come_one_at_a_time_and_the_solution_passes(exercise_page):
    open_exercises(exercise_page, "attention")
    hints = exercise_page.locator(f'{sel("exercise-hints")} li')
    expect(hints).to_have_count(0)
    exercise_page.locator(sel("exercise-hint")).click()
    expect(hints).to_have_count(1)
    expect(hints.nth(0)).to_contain_text("np.sqrt(d_k)")
    exercise_page.locator(sel("exercise-hint")).click()
    expect(hints).to_have_count(2)
    expect(exercise_page.locator(sel("exercise-solution"))).to_be_hidden()
    exercise_page.locator(sel("exercise-show-solution")).click()
    expect(exercise_page.locator(sel("exercise-solution-code"))).to_contain_text("def attention(Q, K, V, scale=True, mask=None):")
    exercise_page.locator(sel("exercise-use-solution")).click()
    assert "scores = np.where(mask, -np.inf, scores)" in editor_text(exercise_page)
    status = run_checks(exercise_page)
    expect(status).to_have_attribute("data-outcome", "passed")
    expect(status).to_contain_text("All 8 checks pass")
    # Another exercise chosen: its status asks for code, no longer coloured by this one's outcome.
    exercise_page.locator(sel("exercise-tab-softmax")).click()
    expect(status).to_have_text("Write softmax() in the editor, then run the checks.")
    expect(status).not_to_have_attribute("data-outcome", OUTCOME)
    expect(exercise_page.locator(sel("exercise-solution"))).to_be_hidden()
    expect(exercise_page.locator(sel("exercise-show-solution"))).to_have_text("Show the solution")


def test_an_error_points_at_the_learners_line(exercise_page):
    open_exercises(exercise_page, "attention")
    paste_code(exercise_page, "import numpy as np\n\ndef attention(Q, K, V, scale=True, mask=None):\n    scores = Q @ K.T\n    return scores @ W, scores\n")
    run_checks(exercise_page)
    # The error is said once, above the checks, and every check it broke refers to it.
    expect(exercise_page.locator(sel("exercise-error"))).to_contain_text("line 5, in attention")
    expect(exercise_page.locator(sel("exercise-error"))).to_contain_text("NameError: name 'W' is not defined")
    assert exercise_page.locator(f'{sel("exercise-checks")} :text("NameError")').count() == 0
    expect(check_item(exercise_page, "shapes")).to_contain_text("Your code raised the error shown above.")
    expect(exercise_page.locator(sel("exercise-status"))).to_contain_text("your attention() raised an error")
    expect(exercise_page.locator(f'{sel("code-editor")} .cm-learner-error-line')).to_have_text("    return scores @ W, scores")


TUTORIAL_ATTENTION = """import numpy as np

def softmax(x, axis=-1):
    x = x - x.max(axis=axis, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)

def attention(X, Wq, Wk, Wv, causal=True):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv        # each (seq, d_k)
    scores = Q @ K.T / np.sqrt(Q.shape[-1])  # (seq, seq)
    if causal:
        mask = np.triu(np.ones_like(scores), k=1).astype(bool)
        scores[mask] = -np.inf               # a position may not read the future
    weights = softmax(scores)                # (seq, seq), rows sum to 1
    return weights @ V, weights
"""


def test_the_tutorials_attention_pasted_as_it_is_gets_one_message_about_the_signature(exercise_page):
    open_exercises(exercise_page, "attention")
    paste_code(exercise_page, TUTORIAL_ATTENTION)
    status = run_checks(exercise_page)
    expect(status).to_have_text("The checks cannot call your function: see why below.")
    message = exercise_page.locator(sel("exercise-error"))
    expect(message).to_contain_text("The checks call attention(Q, K, V, scale=True, mask=None)")
    expect(message).to_contain_text("like the tutorial's")
    # Not eight TypeErrors: no check ran.
    assert exercise_page.locator(f'{sel("exercise-checks")} :text("TypeError")').count() == 0
    expect(exercise_page.locator(f'{sel("exercise-checks")} li[data-passed="none"]')).to_have_count(8)
    expect(exercise_page.locator(f'{sel("code-editor")} .cm-learner-error-line')).to_have_text("def attention(X, Wq, Wk, Wv, causal=True):")
