"""The learner's runaway code: an endless loop stopped by the time limit and by Stop (on a plain host the stopped
worker is ended and a spare takes over; on the isolated development server Python is interrupted), three Stops in
a row that each find a spare ready, and an allocation too large for WebAssembly, each coming back as a message
with Python live again.
"""

import json

import pytest
from playwright.sync_api import expect

from exercise_helpers import (  # noqa: F401  (exercise_page is a fixture)
    PYTHON_TIMEOUT_MS, check_item, exercise_page, open_exercises, run_checks)
from page_helpers import editor_text, page_constant, paste_code, sel

# On one worker with the other files that use the exercises on the shared page (exercise_page), whose Python is
# kept from one file to the next (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("exercises")


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
    """No isolation, so the stopped worker is ended and a spare, booted while the learner read, takes over; three
    Stops in a row each find one ready."""
    page.goto(f"{plain_site_url}/")
    assert page.evaluate("self.crossOriginIsolated") is False
    open_exercises(page, "softmax")
    # Once the exercise worker is live, a spare boots beside it (while the learner reads and types).
    expect(page.locator(sel("exercise-status"))).to_have_attribute("data-spare-ready", "true", timeout=PYTHON_TIMEOUT_MS)
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
    expect(status).to_contain_text("A fresh Python took over and is ready")
    assert status.get_attribute("data-stopped-by") == "spare"
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

    # Three Stops in a row, each finding a spare ready: a learner reading the solution gives the spares time to
    # boot again, once.
    spares = page_constant("service/exercise-runner.js", "SPARES_WANTED")
    expect(status).to_have_attribute("data-spares-ready", str(spares), timeout=180_000)
    for stop in range(3):
        paste_code(page, loop)
        page.locator(sel("exercise-run")).click()
        expect(status).to_have_attribute("data-outcome", "running", timeout=PYTHON_TIMEOUT_MS)
        page.wait_for_timeout(1500)
        page.locator(sel("exercise-stop")).click()
        expect(status).to_have_attribute("data-outcome", "stopped", timeout=PYTHON_TIMEOUT_MS)
        # Each Stop finds a spare that booted while the learner read: none waits for a boot. (With one spare the
        # second Stop waited for the spare booting since the first; with two, the third did, 5 to 7 s on a busy
        # machine.)
        assert stop < spares and status.get_attribute("data-stopped-by") == "spare", f"Stop {stop + 1} waited for a Python to boot"
        page.locator(sel("exercise-use-solution")).click()
        expect(run_checks(page)).to_have_attribute("data-outcome", "passed")


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
