#!/usr/bin/env python3
"""How long the page takes to be live again after the learner's runaway code is stopped.

    python3 bench/exercise_recovery.py             # build, measure, print medians
    python3 bench/exercise_recovery.py --runs 5 --no-build

Three ways a `while True: pass` in the exercise editor ends, each measured by the page itself (the
exercise status's data-recovery-ms: from the stop until the exercise worker's Python answers again):

  stop at once     Stop pressed right away: the worker is ended and a fresh one boots (no spare yet)
  time limit       the 5 s limit ends the run; a spare worker started booting 1 s into it and takes over
  interrupt        on a cross-origin isolated page: Stop writes SIGINT into Pyodide's interrupt buffer

Not a test: nothing here asserts. The machine is shared and noisy, so read medians, with the load average
printed beside them.
"""

import argparse
import os
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (build.py lives at the project's root)
from sitebuild import server as dev_server  # noqa: E402

from playwright.sync_api import expect, sync_playwright  # noqa: E402

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOOP = "def softmax(x, axis=-1):\n    while True:\n        pass\n"
TIMEOUT_MS = 120_000


class IsolatedHandler(dev_server.SiteRequestHandler):
    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def serve(handler):
    server = dev_server.SiteServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def open_exercises(page, url):
    page.goto(url)
    page.evaluate("window.attentionPlayground.ready")
    page.click('[data-testid="exercise-open"]')
    page.click('[data-testid="exercise-tab-softmax"]', timeout=TIMEOUT_MS)
    editor = page.locator('[data-testid="code-input"]')
    editor.click()
    page.keyboard.press("Control+a")
    editor.evaluate("""(editor, code) => {
        const clipboardData = new DataTransfer();
        clipboardData.setData("text/plain", code);
        editor.dispatchEvent(new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true }));
    }""", LOOP)


def one_stop(page, press_stop):
    """Run the loop, stop it (Stop, or wait for the time limit); the page's own recovery time in ms."""
    status = page.locator('[data-testid="exercise-status"]')
    page.click('[data-testid="exercise-run"]')
    expect(status).to_have_attribute("data-outcome", "running", timeout=TIMEOUT_MS)
    if press_stop:
        page.click('[data-testid="exercise-stop"]')
    expect(status).to_have_attribute("data-outcome", "stopped", timeout=TIMEOUT_MS)
    return int(status.get_attribute("data-recovery-ms"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-build", action="store_true")
    arguments = parser.parse_args(argv)
    if not arguments.no_build:
        build.build(report=lambda line: None)
    plain, plain_url = serve(dev_server.SiteRequestHandler)
    isolated, isolated_url = serve(IsolatedHandler)
    times = {"stop at once": [], "time limit": [], "interrupt": []}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
            page = browser.new_page()
            open_exercises(page, plain_url)
            for _ in range(arguments.runs):
                times["stop at once"].append(one_stop(page, press_stop=True))
                times["time limit"].append(one_stop(page, press_stop=False))
            page.close()
            page = browser.new_page()
            open_exercises(page, isolated_url)
            for _ in range(arguments.runs):
                times["interrupt"].append(one_stop(page, press_stop=True))
            browser.close()
    finally:
        plain.shutdown()
        isolated.shutdown()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {arguments.runs} runs each")
    for name, values in times.items():
        print(f"  {name:13s} median {statistics.median(values):7.0f} ms   (all: {values})")


if __name__ == "__main__":
    main()
