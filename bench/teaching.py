#!/usr/bin/env python3
"""How long the teaching views take in real Chromium: the Part 7 scaling experiment run from the page.

    python3 bench/teaching.py               # build, open the page, run the experiment --runs times
    python3 bench/teaching.py --runs 9 --no-build

The page times the experiment itself (a click on "run in the browser" until the answer is back from
Python: the request, 2 × 3 × 500 trials vectorized in NumPy, the reply), and shows it; this script
clicks the button again and again and reads that time. It also times the same call natively, for the
ratio. Not a test: nothing here asserts. Read the median and the load average printed with it.
"""

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))
import build  # noqa: E402  (build.py lives at the project's root)
from sitebuild import server as dev_server  # noqa: E402
from attention_playground import scaling_experiment  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from browser_bench import launch_chromium  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-build", action="store_true")
    args = parser.parse_args()
    if not args.no_build:
        build.build(report=lambda line: None)
    server = dev_server.make_server(0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    browser_ms = []
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page()
            page.goto(url)
            page.evaluate("window.attentionPlayground.ready")
            page.wait_for_selector('[data-testid="playground"][data-status="live"]')
            page.wait_for_timeout(1000)  # let the first computation settle
            page.click('[data-testid="experiment-tab-scaling"]')
            status = page.locator('[data-testid="scaling-time"]')
            for _ in range(args.runs):
                before = status.get_attribute("data-ms")
                page.click('[data-testid="scaling-run"]')
                page.wait_for_function(
                    "(old) => { const ms = document.querySelector('[data-testid=\"scaling-time\"]').dataset.ms;"
                    " return ms !== undefined && ms !== old && !document.querySelector('[data-testid=\"scaling-run\"]').disabled; }",
                    arg=before)
                browser_ms.append(float(status.get_attribute("data-ms")))
            browser.close()
    finally:
        server.shutdown()
    native_ms = []
    for _ in range(args.runs):
        started = time.perf_counter()
        scaling_experiment()
        native_ms.append((time.perf_counter() - started) * 1000)
    load = os.getloadavg()
    print(f"Part 7 scaling experiment (ds 4, 64, 512; 10 keys; 500 trials), {args.runs} runs, load {load[0]:.2f}")
    print(f"  in the page, click to answer: median {statistics.median(browser_ms):.0f} ms, "
          f"min {min(browser_ms):.0f} ms, max {max(browser_ms):.0f} ms (target < 1000 ms)")
    print(f"  native Python:                median {statistics.median(native_ms):.0f} ms")
    print(f"  ratio page / native:          {statistics.median(browser_ms) / statistics.median(native_ms):.1f}")


if __name__ == "__main__":
    main()
