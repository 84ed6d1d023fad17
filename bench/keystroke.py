#!/usr/bin/env python3
"""One keystroke's round trip at 64 tokens: a value typed into one cell of Wq until the heatmap shows it.

    python3 bench/keystroke.py                    # 5 runs of 20 keystrokes each, on dist/
    python3 bench/keystroke.py --runs 3 --keystrokes 30 --site source

The path timed is docs/architecture.md's "A keystroke's path": the cell's input event, the scene session's edit, the
client and the worker, Python's compute, the packed result back, and the heatmap's redraw. The scene is 64 tokens x 64 features x 64 dims (the limits), with the step view closed, as a learner
first meets the page. Each run is a fresh page that boots Python, shows the scene, and times `--keystrokes`
keystrokes inside the page (instruments/update-latency.js, mode "edit": from the input event until the new
weight is in the heatmap's DOM, and until that frame is painted). Printed: each run's median, and the median
of the runs.

Not a test: nothing here asserts. The machine is shared and noisy; the load average is printed beside.
"""

import argparse
import os
import statistics
import sys

from page_probes import LARGE_SIZE, UPDATE_LATENCY_FUNCTION
from browser_bench import fresh_page_runs, load_line
from page import LIVE_TIMEOUT_MS, SITE_PATHS, VIEWPORT
from attention_playground.presets import random_scene  # page.py put py/ on the path


#: The keystrokes: Wq's first cell, typed as 4 and -4 in turn. At 64 tokens the heatmap draws its colours only
#: (no numbers), and ±0.5 in one of 64 x 64 cells moves no weight far enough to change a colour.
EDIT = {"matrix": "wq-cell", "row": 0, "column": 0, "values": ["4", "-4"]}


def one_run(browser, url, keystrokes, warmup):
    """A fresh page: boot, show the 64-token scene, time the keystrokes; the medians in ms."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("window.attentionPlayground !== undefined", timeout=LIVE_TIMEOUT_MS)
        page.evaluate("window.attentionPlayground.ready")
        scene = random_scene(LARGE_SIZE, digits=2) | {"title": f"{LARGE_SIZE} tokens"}
        page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", scene)
        timed = page.evaluate(UPDATE_LATENCY_FUNCTION, {"mode": "edit", "count": keystrokes, "warmup": warmup,
                                                        "edit": EDIT, "scenes": []})
    finally:
        context.close()
    return {"dom_ms": statistics.median(sample["domMs"] for sample in timed["samples"]),
            "painted_ms": statistics.median(sample["paintedMs"] for sample in timed["samples"])}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh pages (default 5)")
    parser.add_argument("--keystrokes", type=int, default=20, help="timed keystrokes per page (default 20)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed keystrokes first (default 5)")
    parser.add_argument("--site", choices=sorted(SITE_PATHS), default="dist")
    arguments = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    runs = []
    for index, run in enumerate(fresh_page_runs(SITE_PATHS[arguments.site], arguments.runs,
                                                     lambda browser, url: one_run(browser, url, arguments.keystrokes, arguments.warmup))):
        runs.append(run)
        print(f"  run {index + 1}: median {run['dom_ms']:.1f} ms in the DOM, {run['painted_ms']:.1f} ms painted", flush=True)
    dom = statistics.median(run["dom_ms"] for run in runs)
    painted = statistics.median(run["painted_ms"] for run in runs)
    print(f"one keystroke at {LARGE_SIZE} tokens, median of {len(runs)} runs of {arguments.keystrokes}: "
          f"{dom:.1f} ms until the heatmap's DOM holds it, {painted:.1f} ms until painted")
    print(load_line(load_before))
    return 0


if __name__ == "__main__":
    sys.exit(main())
