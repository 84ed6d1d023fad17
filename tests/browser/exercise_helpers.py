"""What the tests of the exercises (test_exercise_*.py) share: opening the panel on an exercise, typing and
running code as a learner does, the learner's code the tests type, and the panel on the shared page put back as a
fresh visitor first opens it (`exercise_page`).

The exercises keep Python state of their own (a Python for the learner's code, and what the panel shows of its last
run): `exercise_page` puts the panel back too, as a learner would, before each test. test_exercise_put_back.py
shows that the next test finds it as it first opened; a test of another module gets a page booted again
(conftest.py's `live_page`).
"""

import re

import pytest
from playwright.sync_api import expect

from page_helpers import ANIMATIONS_ENDED, await_ready, sel

# Seconds: booting the exercise worker's Python, or restarting it, on a busy 2-core machine.
PYTHON_TIMEOUT_MS = 90_000
STORAGE_KEY = "attention-playground.exercises.v1"
OUTCOME = re.compile(r"^(passed|failed|stopped)$")


def open_exercises(page, exercise_id, url=None):
    """Open the page at `url` if given (else it is open already), wait until live, open the exercise panel, and
    pick an exercise."""
    if url:
        page.goto(url)
    await_ready(page)
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    page.locator(sel("exercise-open")).click()
    tab = page.locator(sel(f"exercise-tab-{exercise_id}"))
    expect(tab).to_be_visible(timeout=PYTHON_TIMEOUT_MS)
    tab.click()
    expect(tab).to_have_attribute("aria-pressed", "true")
    return page.locator(sel("code-input"))


def replace_code_by_typing(page, lines):
    """Clear the editor and type `lines` key by key. The editor indents after a colon by itself, as a
    learner would see, so each line is typed without its leading spaces; `dedent` lines start with
    Backspaces (one per indent level) to step out of a block."""
    editor = page.locator(sel("code-input"))
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    for index, (dedent, text) in enumerate(lines):
        if index:
            page.keyboard.press("Enter")
        for _ in range(dedent):
            page.keyboard.press("Backspace")
        page.keyboard.type(text)


def run_checks(page):
    """Press Run and wait for the outcome (the first run also waits for the exercise worker's Python)."""
    status = page.locator(sel("exercise-status"))
    page.locator(sel("exercise-run")).click()
    expect(status).to_have_attribute("data-outcome", OUTCOME, timeout=PYTHON_TIMEOUT_MS)
    return status


def check_item(page, check_id):
    return page.locator(f'{sel("exercise-checks")} li[data-check-id="{check_id}"]')


# What a learner can see or a script can read of the exercise panel and what it drew, once nothing is moving.
EXERCISE_PANEL_STATE = """async () => {
""" + ANIMATIONS_ENDED + """  const panel = document.querySelector('[data-panel="exercise"]');
  const visible = (element) => element.checkVisibility();
  const status = panel.querySelector('[data-testid="exercise-status"]');
  return {
    text: panel.innerText,
    shown: [...panel.querySelectorAll("[data-testid]")].filter(visible).map((element) => element.dataset.testid),
    controls: [...panel.querySelectorAll("input, button")].filter(visible).map((control) => ({
      testid: control.dataset.testid ?? null, checked: control.checked ?? null, disabled: control.disabled,
      pressed: control.getAttribute("aria-pressed"), expanded: control.getAttribute("aria-expanded"),
    })),
    status: { ...status?.dataset },
    marked: panel.querySelectorAll(".cm-learner-error-line").length,
    drawn_with: window.attentionPlayground.result()?.drawn_with ?? null,
    warnings: document.querySelector('[data-testid="result-warnings"]').innerText,
  };
}"""


#: The exercise panel as put back on the shared page the first time it was opened there (exercise_page).
FIRST_OPENED = {}


def put_the_exercises_back(page):
    """The exercise panel on the shared page as a fresh visitor first opens it, then closed again, so
    a test opens it as on a fresh page. The shared page's reset has cleared the browser's storage (the learner's
    kept code) and closed the panel; the learner's Python stays booted. As a learner would: the heatmap is no
    longer drawn with their function, and each exercise is chosen again (choosing one puts its kept code, here
    the starter, in the editor, and clears its hints, solution, checks, error and status), the first last."""
    toggle = page.locator(sel("exercise-open"))
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    tabs = page.locator(f'{sel("exercise-tabs")} button')
    expect(tabs.first).to_be_visible(timeout=PYTHON_TIMEOUT_MS)
    draw = page.locator(sel("exercise-draw"))
    if draw.is_checked():
        draw.uncheck()
    expect(page.locator(sel("result-warnings"))).not_to_contain_text("Drawn with your")
    for tab in reversed(tabs.all()):
        tab.click()
        expect(tab).to_have_attribute("aria-pressed", "true")
    expect(page.locator(sel("exercise-status"))).to_have_text(re.compile(r"^Write \w+\(\) in the editor"))
    expect(page.locator(sel("exercise-run"))).to_be_enabled()
    if "state" not in FIRST_OPENED:
        FIRST_OPENED["state"] = page.evaluate(EXERCISE_PANEL_STATE)
    toggle.click()
    expect(page.locator(sel("exercise-body"))).to_be_hidden()
    page.evaluate("window.scrollTo(0, 0)")


@pytest.fixture
def exercise_page(live_page):
    """The shared page with the exercise panel put back and closed (put_the_exercises_back): a test
    that only uses the exercises pays for its own work, not for booting two Pythons."""
    put_the_exercises_back(live_page)
    return live_page


# The learner's code that the tests type or paste.

ATTENTION_WITHOUT_SCALING = """import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)

def attention(Q, K, V, scale=True, mask=None):
    scores = Q @ K.T
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    weights = softmax(scores)
    return weights @ V, weights
"""


SOFTMAX_OVER_THE_WHOLE_MATRIX = """import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x))
    return e / np.sum(e)
"""
