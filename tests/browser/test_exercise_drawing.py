"""The heatmap drawn with the learner's own function ("Draw the heatmap with my function"): an attention() that forgets
the scaling draws sharper weights, exactly its own; a drawing that failed is no longer reported once another
exercise is chosen; a softmax whose rows do not add up to 1 is said so in every caption instead of "100%".
"""

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_playground import compute
from attention_playground import attention as module_attention
from exercise_helpers import (  # noqa: F401  (exercise_page is a fixture)
    ATTENTION_WITHOUT_SCALING, PYTHON_TIMEOUT_MS, SOFTMAX_OVER_THE_WHOLE_MATRIX, check_item, exercise_page,
    open_exercises, run_checks)
from page_helpers import paste_code, sel

# On one worker with the other files that use the exercises on the shared page (exercise_page), whose Python is
# kept from one file to the next (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("exercises")


def test_the_heatmap_drawn_with_an_attention_that_forgets_the_scaling_shows_sharper_weights(exercise_page, artifacts):
    open_exercises(exercise_page, "attention")
    paste_code(exercise_page, ATTENTION_WITHOUT_SCALING)
    run_checks(exercise_page)
    expect(check_item(exercise_page, "scaling")).to_contain_text("Divide the scores by √d_k")

    scene = exercise_page.evaluate("window.attentionPlayground.getScene()")
    module_weights = np.array(compute(scene)["heads"][0]["weights"], dtype=float)
    exercise_page.locator(sel("exercise-draw")).check()
    warnings = exercise_page.locator(sel("result-warnings"))
    expect(warnings).to_contain_text("Drawn with your attention()", timeout=PYTHON_TIMEOUT_MS)
    expect(exercise_page.locator(sel("exercise-draw-note"))).to_contain_text("drawn with your attention()")
    drawn = exercise_page.evaluate("window.attentionPlayground.result()")
    assert drawn["drawn_with"] == "attention"
    drawn_weights = np.array(drawn["heads"][0]["weights"], dtype=float)
    # Exactly what attention gives without the division, and visibly not the module's weights.
    head = compute(scene)["heads"][0]["stages"]
    Q, K, V = (np.array(head[name], dtype=float) for name in ("Q", "K", "V"))
    _, unscaled = module_attention(Q, K, V, scale=False, mask=np.array(compute(scene)["mask"]))
    np.testing.assert_allclose(drawn_weights, unscaled, atol=1e-12)
    assert np.abs(drawn_weights - module_weights).max() > 0.05
    exercise_page.locator(sel("heatmap-panel")).screenshot(path=str(artifacts / "exercise-heatmap-from-learner.png"))

    exercise_page.locator(sel("exercise-draw")).uncheck()
    expect(warnings).not_to_contain_text("Drawn with your attention()")
    back = np.array(exercise_page.evaluate("window.attentionPlayground.result()")["heads"][0]["weights"], dtype=float)
    np.testing.assert_allclose(back, module_weights, atol=1e-12)


def test_a_failed_drawing_is_no_longer_reported_once_another_exercise_is_chosen(exercise_page):
    """The note under "Draw the heatmap with my function" said why the last exercise's code could not draw;
    once the learner picks another exercise, it spoke of code no longer in the editor."""
    open_exercises(exercise_page, "attention")
    paste_code(exercise_page, "import numpy as np\n\ndef attention(Q, K, V, scale=True, mask=None):\n    return W, W\n")
    # A click, not check(): the code fails at once and the page unticks the box again, maybe before
    # check() could see it ticked.
    exercise_page.locator(sel("exercise-draw")).click()
    note = exercise_page.locator(sel("exercise-draw-note"))
    expect(note).to_contain_text("Your code failed", timeout=PYTHON_TIMEOUT_MS)
    expect(exercise_page.locator(sel("exercise-draw"))).not_to_be_checked()
    exercise_page.locator(sel("exercise-tab-softmax")).click()
    expect(note).to_be_empty()
    expect(exercise_page.locator(sel("exercise-draw"))).not_to_be_checked()


def test_drawing_with_a_softmax_whose_rows_do_not_add_up_says_so_instead_of_claiming_100_percent(exercise_page):
    """The learner's softmax divides by the total of the whole matrix, not of each row: every row of the
    heatmap adds up to less than 1. The captions must say what the weights add up to, not what proper
    weights would ("the shares add up to 100%")."""
    open_exercises(exercise_page, "softmax")
    paste_code(exercise_page, SOFTMAX_OVER_THE_WHOLE_MATRIX)
    exercise_page.locator(sel("exercise-draw")).check()
    expect(exercise_page.locator(sel("result-warnings"))).to_contain_text("Drawn with your softmax()", timeout=PYTHON_TIMEOUT_MS)
    drawn = exercise_page.evaluate("window.attentionPlayground.result()")
    it = drawn["tokens"].index("it")
    total = sum(weight for weight in drawn["heads"][0]["weights"][it])
    assert total < 0.9

    bars_caption = exercise_page.locator(f'{sel("bars-panel")} .panel-note').first
    expect(bars_caption).to_contain_text(f"These shares add up to {total * 100:.1f}%, not 100%: they come from your softmax().")
    expect(bars_caption).not_to_contain_text("The shares add up to 100%")
    problem = drawn["drawn_with_problems"][0]
    assert "not 1" in problem
    expect(exercise_page.locator(sel("heatmap-panel")).locator(".heatmap-hint")).to_contain_text(problem)
    expect(exercise_page.locator(sel("heatmap-panel")).locator(".heatmap-hint")).not_to_contain_text("Each row adds up to 1")
    expect(exercise_page.locator(sel("weights-table")).locator("caption")).to_contain_text(problem)
    expect(exercise_page.locator(sel("result-warnings"))).to_contain_text(problem)

    # Back to the playground's own softmax: the usual, true captions.
    exercise_page.locator(sel("exercise-draw")).uncheck()
    expect(bars_caption).to_contain_text("The shares add up to 100%")
    expect(exercise_page.locator(sel("heatmap-panel")).locator(".heatmap-hint")).to_contain_text("Each row adds up to 1")
