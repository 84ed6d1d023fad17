#!/usr/bin/env python3
"""From Stop to the next correct run's verdict: how long a learner whose code never ends waits to go on.

    python3 bench/exercise_recovery.py             # build, measure, print every row against its target
    python3 bench/exercise_recovery.py --runs 5 --no-build

A `while True: pass` in the exercise editor is run and stopped 1.5 s later; then the solution is run, and the
time from the Stop click to its verdict ("passed") is measured in the page (performance.now() at the click, and
when the status says "passed"). A learner who has this trouble has it again: each round is three Stops in a
row, with nothing waited for between them but the verdict, so the second and third Stop find whatever spare
Python the first left ready. Before a round the bench waits until a spare is ready (a learner reading the
exercise gives it that time). The hosts:

  build.py serve        the development server, cross-origin isolated: Stop interrupts Python
  plain host, 1st visit  no isolation headers: the stopped worker is ended and the spare, booted beforehand,
                        takes over
  plain host, 2nd visit  dist/ on the same plain host, once its service worker has made the page isolated

Also printed: the page's own recovery figure (data-recovery-ms: until Python answers again). Not a test:
nothing here asserts. The machine is shared and noisy, so read medians, with the load average beside them.
"""

import functools
import http.server
import os
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from sitebuild import paths, server as dev_server  # noqa: E402

from browser_bench import arguments_then_build, launch_chromium  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

LOOP = "def softmax(x, axis=-1):\n    while True:\n        pass\n"
TIMEOUT_MS = 120_000
TARGET_MS = 2000
STOPS_IN_A_ROW = 3
RUNAWAY_MS = 1500
SPARES_WANTED = "3"  # js/service/exercise-runner.js SPARES_WANTED

# The Stop click's time, and the moment the status first says "passed" after it.
WATCH_VERDICT = """() => {
  const status = document.querySelector('[data-testid="exercise-status"]');
  window.benchStop = { clicked: null, verdict: null };
  document.querySelector('[data-testid="exercise-stop"]').addEventListener("click", () => {
    window.benchStop.clicked = performance.now();
  }, { once: true });
  new MutationObserver((_, observer) => {
    if (window.benchStop.clicked !== null && status.dataset.outcome === "passed") {
      window.benchStop.verdict = performance.now();
      observer.disconnect();
    }
  }).observe(status, { attributes: true, attributeFilter: ["data-outcome"] });
}"""


class PlainHostHandler(http.server.SimpleHTTPRequestHandler):
    """A static host that sends no headers beyond the usual ones."""

    extensions_map = dev_server.SiteRequestHandler.extensions_map

    def log_message(self, *args):
        pass


def serve(handler):
    server = dev_server.SiteServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def paste(page, code):
    editor = page.locator('[data-testid="code-input"]')
    editor.click()
    page.keyboard.press("Control+a")
    editor.evaluate("""(editor, code) => {
        const clipboardData = new DataTransfer();
        clipboardData.setData("text/plain", code);
        editor.dispatchEvent(new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true }));
    }""", code)


def open_exercises(page, url):
    page.goto(url)
    page.evaluate("window.attentionPlayground.ready")
    page.click('[data-testid="exercise-open"]')
    page.click('[data-testid="exercise-tab-softmax"]', timeout=TIMEOUT_MS)
    page.click('[data-testid="exercise-show-solution"]')


def wait_for_spare(page):
    """Where code cannot be interrupted, the spares boot once the first worker is live: a learner reading the
    exercise gives them that time, so the bench does too (until every spare is ready, before each round)."""
    if not page.evaluate("self.crossOriginIsolated"):
        expect(page.locator('[data-testid="exercise-status"]')).to_have_attribute("data-spares-ready", SPARES_WANTED, timeout=TIMEOUT_MS)


def stop_then_pass(page):
    """Run the loop, Stop it after RUNAWAY_MS, run the solution: (Stop → verdict ms, the page's recovery ms, how
    it stopped)."""
    status = page.locator('[data-testid="exercise-status"]')
    paste(page, LOOP)
    page.click('[data-testid="exercise-run"]')
    expect(status).to_have_attribute("data-outcome", "running", timeout=TIMEOUT_MS)
    page.evaluate(WATCH_VERDICT)
    page.wait_for_timeout(RUNAWAY_MS)
    page.click('[data-testid="exercise-stop"]')
    expect(status).to_have_attribute("data-outcome", "stopped", timeout=TIMEOUT_MS)
    recovery = int(status.get_attribute("data-recovery-ms"))
    how = status.get_attribute("data-stopped-by")
    page.click('[data-testid="exercise-use-solution"]')
    page.click('[data-testid="exercise-run"]')
    expect(status).to_have_attribute("data-outcome", "passed", timeout=TIMEOUT_MS)
    marks = page.evaluate("window.benchStop")
    return round(marks["verdict"] - marks["clicked"]), recovery, how


def stops_in_a_row(page):
    """One round: a spare is waited for once, then STOPS_IN_A_ROW Stops follow one another."""
    wait_for_spare(page)
    return [stop_then_pass(page) for _ in range(STOPS_IN_A_ROW)]


def main(argv=None):
    arguments = arguments_then_build(__doc__.splitlines()[0], argv)
    dev, dev_url = serve(dev_server.SiteRequestHandler)
    plain, plain_url = serve(functools.partial(PlainHostHandler, directory=str(paths.DIST_DIR)))
    rows = {"build.py serve": [], "plain host, 1st visit": [], "plain host, 2nd visit": []}
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for name, url in (("build.py serve", dev_url), ("plain host, 1st visit", plain_url)):
                context = browser.new_context()
                page = context.new_page()
                open_exercises(page, url)
                for _ in range(arguments.runs):
                    rows[name].append(stops_in_a_row(page))
                if name.startswith("plain host"):
                    # The service worker installs once the page is idle; the next visit is isolated.
                    page.evaluate("navigator.serviceWorker.ready")
                    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
                    open_exercises(page, url)
                    assert page.evaluate("self.crossOriginIsolated"), "the service worker did not isolate the page"
                    for _ in range(arguments.runs):
                        rows["plain host, 2nd visit"].append(stops_in_a_row(page))
                context.close()
            browser.close()
    finally:
        dev.shutdown()
        plain.shutdown()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {arguments.runs} rounds of {STOPS_IN_A_ROW} Stops "
          f"in a row each; target ≤ {TARGET_MS} ms for every Stop")
    for name, rounds in rows.items():
        print(f"  {name}")
        for place in range(STOPS_IN_A_ROW):
            runs = [stops[place] for stops in rounds]
            verdicts = [verdict for verdict, _, _ in runs]
            median = statistics.median(verdicts)
            print(f"    Stop {place + 1} of {STOPS_IN_A_ROW}: Stop → verdict median {median:6.0f} ms, worst {max(verdicts):6.0f} ms "
                  f"{'meets' if max(verdicts) <= TARGET_MS else 'MISSES'} the target"
                  f"   (all: {verdicts}; Python back after {[recovery for _, recovery, _ in runs]} ms; by {sorted({how for _, _, how in runs})})")


if __name__ == "__main__":
    main()
