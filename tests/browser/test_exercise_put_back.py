"""The exercises on the shared page (`exercise_page`, exercise_helpers.py) leak nothing from one test into the next:
the first test leaves the panel changed every way it can, the second finds it as a fresh visitor first opens it
(pytest runs a module's tests in the order they are written).
"""

import json

import pytest
from playwright.sync_api import expect

from attention_playground.exercises.catalogue import EXERCISES
from exercise_helpers import (  # noqa: F401  (exercise_page is a fixture)
    ATTENTION_WITHOUT_SCALING, EXERCISE_PANEL_STATE, FIRST_OPENED, OUTCOME, PYTHON_TIMEOUT_MS,
    SOFTMAX_OVER_THE_WHOLE_MATRIX, STORAGE_KEY, exercise_page, open_exercises, run_checks)
from page_helpers import editor_text, paste_code, sel

# On one worker with the other files that use the exercises on the shared page (exercise_page), whose Python is
# kept from one file to the next (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("exercises")


def test_a_test_leaves_the_exercises_changed_every_way_it_can(exercise_page):
    page = exercise_page
    open_exercises(page, "softmax")
    paste_code(page, SOFTMAX_OVER_THE_WHOLE_MATRIX)
    page.locator(sel("exercise-draw")).check()
    expect(page.locator(sel("result-warnings"))).to_contain_text("Drawn with your softmax()", timeout=PYTHON_TIMEOUT_MS)
    assert page.evaluate("window.attentionPlayground.result().drawn_with") == "softmax"
    expect(run_checks(page)).to_have_attribute("data-outcome", "failed")
    page.locator(sel("exercise-hint")).click()
    page.locator(sel("exercise-show-solution")).click()
    expect(page.locator(sel("exercise-solution"))).to_be_visible()
    page.locator(sel("exercise-tab-attention")).click()
    paste_code(page, ATTENTION_WITHOUT_SCALING)
    saved = json.loads(page.evaluate(f"localStorage.getItem({json.dumps(STORAGE_KEY)})"))
    assert saved["code"] == {"softmax": SOFTMAX_OVER_THE_WHOLE_MATRIX, "attention": ATTENTION_WITHOUT_SCALING}
    expect(page.locator(sel("exercise-draw"))).to_be_checked()


def test_the_next_test_finds_the_exercises_as_they_first_opened(exercise_page):
    page = exercise_page
    assert page.evaluate("window.attentionPlayground.result().drawn_with ?? null") is None
    expect(page.locator(sel("result-warnings"))).not_to_contain_text("Drawn with your")
    open_exercises(page, "softmax")
    assert editor_text(page) == EXERCISES["softmax"].starter
    saved = json.loads(page.evaluate(f"localStorage.getItem({json.dumps(STORAGE_KEY)})"))
    assert SOFTMAX_OVER_THE_WHOLE_MATRIX not in saved["code"].values()
    assert ATTENTION_WITHOUT_SCALING not in saved["code"].values()
    expect(page.locator(f'{sel("exercise-hints")} li')).to_have_count(0)
    expect(page.locator(sel("exercise-solution"))).to_be_hidden()
    expect(page.locator(sel("exercise-draw"))).not_to_be_checked()
    expect(page.locator(f'{sel("exercise-checks")} li[data-passed="none"]')).to_have_count(6)
    expect(page.locator(sel("exercise-status"))).not_to_have_attribute("data-outcome", OUTCOME)
    assert page.evaluate(EXERCISE_PANEL_STATE) == FIRST_OPENED["state"]
    page.locator(sel("exercise-tab-attention")).click()
    assert editor_text(page) == EXERCISES["attention"].starter
