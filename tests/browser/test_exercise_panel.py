"""The exercises as a learner uses them: open the panel, type into the code editor, run the checks, read
which fail and why, fix the code, reveal hints and the solution, draw the heatmap with their own function,
and survive their own runaway code. Real CodeMirror, real Pyodide, real Chromium.
"""

import json
import re

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_playground import compute
from attention_playground import attention as module_attention
from attention_playground.exercises.catalogue import EXERCISES
from page_helpers import ANIMATIONS_ENDED, editor_text, paste_code, sel


# Seconds: booting the exercise worker's Python, or restarting it, on a busy 2-core machine.
PYTHON_TIMEOUT_MS = 90_000
STORAGE_KEY = "attention-playground.exercises.v1"
OUTCOME = re.compile(r"^(passed|failed|stopped)$")


def open_exercises(page, exercise_id, url=None):
    """Open the page at `url` if given (else it is open already), wait until live, open the exercise panel, and
    pick an exercise."""
    if url:
        page.goto(url)
    page.evaluate("window.attentionPlayground.ready")
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

#: The exercise panel as put back on the module's page the first time it was opened there (exercise_page).
FIRST_OPENED = {}


def put_the_exercises_back(page):
    """The exercise panel on the module's shared page as a fresh visitor first opens it, then closed again, so
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
    """The module's shared page with the exercise panel put back and closed (put_the_exercises_back): a test
    that only uses the exercises pays for its own work, not for booting two Pythons."""
    put_the_exercises_back(live_page)
    return live_page


BUGGY_SOFTMAX = [
    (0, "import numpy as np"),
    (0, ""),
    (0, "def softmax(x, axis=-1):"),
    (0, "e = np.exp(x)"),
    (0, "return e / np.sum(e, axis=axis, keepdims=True)"),
]

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


SOFTMAX_OVER_THE_WHOLE_MATRIX = """import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x))
    return e / np.sum(e)
"""


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


# Records every text the exercise status shows from the moment Stop is pressed, with the time since the press
# and whether Stop was disabled then.
RECORD_STATUS_AFTER_STOP = """() => {
  const status = document.querySelector('[data-testid="exercise-status"]');
  const stop = document.querySelector('[data-testid="exercise-stop"]');
  window.statusAfterStop = [];
  let pressed = null;
  stop.addEventListener("click", () => { pressed = performance.now(); }, { capture: true, once: true });
  new MutationObserver(() => {
    if (pressed === null) return;
    const last = window.statusAfterStop.at(-1);
    if (last && last.text === status.textContent && last.outcome === status.dataset.outcome) return;
    window.statusAfterStop.push({ text: status.textContent, outcome: status.dataset.outcome,
                                  stopDisabled: stop.disabled, ms: performance.now() - pressed });
  }).observe(status, { childList: true, characterData: true, subtree: true, attributes: true });
}"""


def test_on_a_plain_host_an_endless_loop_is_stopped_and_python_comes_back_with_the_code_kept(page, plain_site_url, artifacts):
    """No isolation, so the stopped worker is ended and the spare, booted while the learner read, takes over."""
    page.goto(f"{plain_site_url}/")
    assert page.evaluate("self.crossOriginIsolated") is False
    open_exercises(page, "softmax")
    loop = "def softmax(x, axis=-1):\n    while True:\n        pass\n"
    paste_code(page, loop)
    status = page.locator(sel("exercise-status"))
    page.locator(sel("exercise-run")).click()
    expect(status).to_contain_text("it will be stopped in", timeout=PYTHON_TIMEOUT_MS)
    expect(page.locator(sel("exercise-stop"))).to_be_enabled()
    # While the learner's loop runs, the heatmap's own Python still answers.
    live = page.evaluate("window.attentionPlayground.setScene(window.attentionPlayground.getScene()).then(() => 'live')")
    assert live == "live"
    expect(status).to_have_attribute("data-outcome", "stopped", timeout=PYTHON_TIMEOUT_MS)
    expect(status).to_contain_text("Your code ran too long, so it was stopped")
    expect(status).to_contain_text("Your code and the scene are kept")
    recovery_ms = int(status.get_attribute("data-recovery-ms"))
    page.locator(sel("exercise-panel")).screenshot(path=str(artifacts / "exercise-stopped.png"))
    assert editor_text(page) == loop

    # Stop by hand, this time.
    page.locator(sel("exercise-run")).click()
    expect(status).to_have_attribute("data-outcome", "running", timeout=PYTHON_TIMEOUT_MS)
    page.evaluate(RECORD_STATUS_AFTER_STOP)
    page.locator(sel("exercise-stop")).click()
    expect(status).to_have_attribute("data-outcome", "stopped", timeout=PYTHON_TIMEOUT_MS)
    expect(status).to_contain_text("You stopped your code")
    stop_recovery_ms = int(status.get_attribute("data-recovery-ms"))
    # The Stop was heard at once: "stopping…" and a disabled button, no countdown after it, then the outcome.
    seen = page.evaluate("window.statusAfterStop")
    assert seen[0]["text"] == "Stopping your code…" and seen[0]["stopDisabled"], seen
    assert seen[0]["ms"] < 100, f"the status took {seen[0]['ms']:.0f} ms to say the code is stopping"
    assert not any("will be stopped in" in entry["text"] for entry in seen), seen
    assert seen[-1]["text"].startswith("You stopped your code.") and seen[-1]["outcome"] == "stopped", seen

    # Python is live again: the solution runs and passes.
    page.locator(sel("exercise-show-solution")).click()
    page.locator(sel("exercise-use-solution")).click()
    expect(run_checks(page)).to_have_attribute("data-outcome", "passed")
    (artifacts / "exercise-recovery.json").write_text(json.dumps({"time_limit_recovery_ms": recovery_ms, "stop_button_recovery_ms": stop_recovery_ms}))
    print(f"recovery after the time limit: {recovery_ms} ms; after Stop: {stop_recovery_ms} ms")


@pytest.mark.parametrize("allocation, message", [
    ("np.ones((10**6, 10**6))", "array is too big"),
    # 1 GiB at a time, more than WebAssembly's 4 GiB can hold: a genuine MemoryError.
    ("[np.empty(2**30, dtype=np.uint8) for _ in range(6)]", "MemoryError"),
])
def test_a_huge_allocation_comes_back_as_a_message(exercise_page, allocation, message):
    open_exercises(exercise_page, "softmax")
    paste_code(exercise_page, f"import numpy as np\n\ndef softmax(x, axis=-1):\n    big = {allocation}\n    return x\n")
    status = run_checks(exercise_page)
    expect(status).to_have_attribute("data-outcome", "failed")
    expect(exercise_page.locator(sel("exercise-error"))).to_contain_text("line 4, in softmax")
    expect(exercise_page.locator(sel("exercise-error"))).to_contain_text(message)
    expect(check_item(exercise_page, "shape")).to_contain_text("Your code raised the error shown above.")
    # The exercise_page and its Python are fine: the heatmap still computes.
    assert exercise_page.evaluate("window.attentionPlayground.setScene(window.attentionPlayground.getScene()).then(() => 'live')") == "live"


def test_on_the_isolated_development_server_stop_interrupts_python_without_a_restart(exercise_page):
    assert exercise_page.evaluate("self.crossOriginIsolated") is True
    open_exercises(exercise_page, "softmax")
    loop = "def softmax(x, axis=-1):\n    total = 0\n    while True:\n        total += 1\n"
    paste_code(exercise_page, loop)
    status = exercise_page.locator(sel("exercise-status"))
    exercise_page.locator(sel("exercise-run")).click()
    expect(status).to_have_attribute("data-outcome", "running", timeout=PYTHON_TIMEOUT_MS)
    exercise_page.locator(sel("exercise-stop")).click()
    expect(status).to_have_attribute("data-outcome", "stopped", timeout=PYTHON_TIMEOUT_MS)
    expect(status).to_contain_text("You stopped your code. Python interrupted it and is ready again")
    assert editor_text(exercise_page) == loop
    print(f"recovery after an interrupt: {status.get_attribute('data-recovery-ms')} ms")
    exercise_page.locator(sel("exercise-show-solution")).click()
    exercise_page.locator(sel("exercise-use-solution")).click()
    expect(run_checks(exercise_page)).to_have_attribute("data-outcome", "passed")


# pytest runs a module's tests in the order they are written: the last two show that what one test does to the
# exercises on the shared page is gone when the next one starts.

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
