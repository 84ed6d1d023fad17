"""Where a 64-token edit's frame goes: the renderer's main thread traced over edits typed into a Wq cell, summed
by the phase of Chromium's rendering (a measurement, not a test).

    .venv/bin/python bench/edit_trace.py                     # 20 edits of the 64x64x64 scene, step view open
    .venv/bin/python bench/edit_trace.py --edits 40
    .venv/bin/python bench/edit_trace.py --css ".matrix { content-visibility: auto; }"   # try a style first

Besides the phases summed over the edits, it prints the median of each phase in the two frames an edit makes:
the keystroke's (the frame after the input event: the typed digit) and the result's (the frame after the reply
from Python is dispatched), so that what a change saves can be put on the frame it saves it in.

The page is served as `python3 build.py serve` serves the sources, set up as bench/page.py's large_edit series
sets it up (the step view open, a random 64 tokens x 64 features x 64 dims scene, the same cell edited back and
forth by bench/instruments/update-latency.js). Tracing slows the page, so the latencies printed with the table
are higher than bench/page.py's; compare the phases between runs, in one sitting. `--css` adds a style sheet
(the page's Content-Security-Policy is bypassed for it) to see what a change of style would save before making it.
"""

import argparse
import collections
import contextlib
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from attention_playground.presets import random_scene  # noqa: E402
from browser_bench import launch_chromium  # noqa: E402
from page import VIEWPORT  # noqa: E402
from page_probes import LARGE_EDIT, LARGE_SIZE, UPDATE_LATENCY_FUNCTION, percentile, with_cell  # noqa: E402
from sitebuild import server as dev_server  # noqa: E402

#: The phases of a rendered frame on the main thread (Chromium's trace event names), and the page's own code
#: (FunctionCall; it runs inside TimerFire and EventDispatch, which count it too).
PHASES = ("UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit", "HitTest", "FunctionCall",
          "TimerFire", "EventDispatch", "FireAnimationFrame")
#: Untimed edits at the start of the traced run (the trace holds them too, so each phase is shared out over them).
TRACED_WARMUP = 2
CATEGORIES = ["devtools.timeline", "blink", "disabled-by-default-devtools.timeline"]


#: The style sheet the page is given first: its text is the variant of the page's style being measured.
STYLE_SHEET_ID = "bench-variant"


@contextlib.contextmanager
def large_edit_page(css="", init_script=None):
    """The page set up for edits of the large scene, as bench/page.py's large_edit series sets it up, with a style
    sheet of `css` added first (the page's Content-Security-Policy bypassed for it; its id is STYLE_SHEET_ID).
    Yields (the browser, the page, the options for update-latency.js's edits), every view drawn at this size once."""
    with dev_server.serving(dev_server.SiteRequestHandler) as url, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = browser.new_context(viewport=VIEWPORT, bypass_csp=True).new_page()
            if init_script:
                page.add_init_script(init_script)
            page.goto(f"{url}/")
            page.evaluate("window.attentionPlayground.ready")
            page.locator('[data-testid="step-toggle"]').check()
            page.evaluate("([id, css]) => { const sheet = document.createElement('style'); sheet.id = id; "
                          "sheet.textContent = css; document.head.append(sheet); }", [STYLE_SHEET_ID, css])
            large = random_scene(LARGE_SIZE, digits=2)
            page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", large)
            scenes = [with_cell(large, LARGE_EDIT, value) for value in LARGE_EDIT["values"]]
            options = {"mode": "edit", "count": 5, "warmup": 5, "edit": LARGE_EDIT, "scenes": scenes}
            page.evaluate(UPDATE_LATENCY_FUNCTION, options)
            yield browser, page, options
        finally:
            browser.close()


def traced_edits(edits, css):
    """Edit the large scene `edits` times while tracing; returns (the samples, the trace's events)."""
    trace_path = Path(tempfile.mkdtemp()) / "edit-trace.json"
    with large_edit_page(css) as (browser, page, options):
        browser.start_tracing(page=page, path=str(trace_path), categories=CATEGORIES)
        run = page.evaluate(UPDATE_LATENCY_FUNCTION, {**options, "count": edits, "warmup": TRACED_WARMUP})
        browser.stop_tracing()
    events = json.loads(trace_path.read_text())
    return run["samples"], events["traceEvents"] if isinstance(events, dict) else events


def main_thread_phases(events):
    """Milliseconds and counts of each phase on the renderer's main thread."""
    main = {(event["pid"], event["tid"]) for event in events
            if event.get("name") == "thread_name" and event["args"].get("name") == "CrRendererMain"}
    total, count = collections.Counter(), collections.Counter()
    for event in events:
        if event.get("ph") == "X" and event.get("name") in PHASES and (event.get("pid"), event.get("tid")) in main:
            total[event["name"]] += event.get("dur", 0) / 1000
            count[event["name"]] += 1
    return total, count


#: The phases of a frame shown by kind of frame.
FRAME_PHASES = ("UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit")


def frames_by_kind(events):
    """The rendering phases of each frame on the main thread, by what came before it: {"keystroke"|"result": [..]}.

    A frame runs from its first phase to its Commit. It is the keystroke's if the last thing before it was an
    input event, the result's if it was the page hearing a message (Python's reply); other frames are left out.
    """
    main = {(event["pid"], event["tid"]) for event in events
            if event.get("name") == "thread_name" and event["args"].get("name") == "CrRendererMain"}
    timeline = sorted((event for event in events if event.get("ph") == "X" and (event.get("pid"), event.get("tid")) in main
                       and event.get("name") in (*FRAME_PHASES, "EventDispatch", "HandlePostMessage")),
                      key=lambda event: event["ts"])
    frames = {"keystroke": [], "result": []}
    after, frame = None, None
    for event in timeline:
        name = event["name"]
        if name == "EventDispatch":
            if event["args"].get("data", {}).get("type") == "input":
                after = "keystroke"
            continue
        if name == "HandlePostMessage":
            after = "result"
            continue
        if frame is None:
            frame = {"after": after, **{phase: 0.0 for phase in FRAME_PHASES}}
        frame[name] += event.get("dur", 0) / 1000
        if name == "Commit":
            if frame["after"] in frames:
                frames[frame["after"]].append(frame)
            frame, after = None, None
    return frames


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=20, help="timed edits while tracing (default 20)")
    parser.add_argument("--css", default="", help="a style sheet added to the page first")
    args = parser.parse_args(argv)
    samples, events = traced_edits(args.edits, args.css)
    painted = [sample["paintedMs"] for sample in samples]
    print(f"{len(samples)} edits of the {LARGE_SIZE}x{LARGE_SIZE}x{LARGE_SIZE} scene, traced: painted p50 "
          f"{percentile(painted, 0.5):.1f} ms, p95 {percentile(painted, 0.95):.1f} ms")
    total, count = main_thread_phases(events)
    print("\n| phase | ms in all | ms an edit | events |\n|---|---|---|---|")
    traced = len(samples) + TRACED_WARMUP
    for name, ms in total.most_common():
        print(f"| {name} | {ms:.1f} | {ms / traced:.1f} | {count[name]} |")
    print("\n| frame | frames | " + " | ".join(FRAME_PHASES) + " |\n|---|---|" + "---|" * len(FRAME_PHASES))
    for kind, frames in frames_by_kind(events).items():
        if frames:
            medians = [statistics.median(frame[phase] for frame in frames) for phase in FRAME_PHASES]
            print(f"| the {kind}'s | {len(frames)} | " + " | ".join(f"{ms:.1f}" for ms in medians) + " |")


if __name__ == "__main__":
    main()
