#!/usr/bin/env python3
"""Where a course page's `await setScene(...)` goes at 10 tokens: the renderer's main thread traced over the
author's small series (calls back to back, two scenes that differ in one Wq cell), on a plain static host, with
each call split by the page's messages to Python (a measurement, not a test).

    .venv/bin/python bench/await_trace.py            # dist/, 60 calls, 15 s after ready (as bench/page.py)
    .venv/bin/python bench/await_trace.py --calls 120 --warm-after 0

It prints, untraced, each call split into: until the request is posted to the worker, until its reply is
dispatched on the page, and until the promise resolves; then, traced, how busy the main thread was over the
series and with what (Chromium's rendering phases and the page's code, per call). A reply waits while the main
thread works: if the thread is busy the whole series, the calls are bound by the page's own work per result.
"""

import argparse
import collections
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from author_series import author_scenes  # noqa: E402
from attention_playground.presets import random_scene  # noqa: E402
from edit_trace import CATEGORIES, main_thread_phases  # noqa: E402
from browser_bench import launch_chromium  # noqa: E402
from page import VIEWPORT  # noqa: E402
from page_probes import AWAIT_SERIES_FUNCTION, percentile  # noqa: E402
from page_server import ByteLedger, start_server  # noqa: E402


# Installed before the page's scripts: the time of every request posted to Python and of every reply heard.
MESSAGE_LOG = """(() => {
  window.__messages = [];
  const log = (what) => window.__messages.push([what, performance.now()]);
  for (const prototype of [Worker.prototype, MessagePort.prototype]) {
    const post = prototype.postMessage;
    prototype.postMessage = function (...args) { if (args[0]?.kind) log("posted"); return post.apply(this, args); };
  }
  const listen = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (type === "message" && (this instanceof Worker || this instanceof MessagePort) && typeof listener === "function") {
      const heard = function (event) { if (event.data?.id !== undefined) log("replied"); return listener.call(this, event); };
      return listen.call(this, type, heard, options);
    }
    return listen.call(this, type, listener, options);
  };
})();"""

SPLIT_SERIES = """async ({ scenes, count }) => {
  const api = window.attentionPlayground;
  const calls = [];
  for (let i = 0; i < count; i += 1) {
    window.__messages = [];
    const started = performance.now();
    await api.setScene(scenes[i % scenes.length]);
    calls.push({ started, resolved: performance.now(), messages: window.__messages });
  }
  return calls;
}"""


def split(call):
    """(total, until posted, posted until the reply is heard, heard until resolved) in ms."""
    posted = [at for what, at in call["messages"] if what == "posted"]
    replied = [at for what, at in call["messages"] if what == "replied"]
    total = call["resolved"] - call["started"]
    if not posted or not replied:
        return total, None, None, None
    return total, posted[0] - call["started"], replied[-1] - posted[0], call["resolved"] - replied[-1]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=60)
    parser.add_argument("--warm-after", type=float, default=15, help="seconds after ready before the calls")
    args = parser.parse_args(argv)
    trace_path = Path(tempfile.mkdtemp()) / "await-trace.json"
    server, url = start_server(ByteLedger(), isolated=False)  # a plain static host: no isolation headers
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_context(viewport=VIEWPORT).new_page()
        page.add_init_script(MESSAGE_LOG)
        page.goto(f"{url}/dist/")
        page.evaluate("window.attentionPlayground.ready")
        scenes = author_scenes(page.evaluate("window.attentionPlayground.getScene()"), random_scene)["small"][0]
        page.wait_for_timeout(args.warm_after * 1000)
        calls = [split(call) for call in page.evaluate(SPLIT_SERIES, {"scenes": scenes, "count": args.calls})]
        browser.start_tracing(page=page, path=str(trace_path), categories=CATEGORIES)
        traced = page.evaluate(AWAIT_SERIES_FUNCTION, {"scenes": scenes, "count": args.calls})
        browser.stop_tracing()
        browser.close()
    server.shutdown()

    totals = [call[0] for call in calls]
    print(f"{args.calls} calls, untraced: p50 {percentile(totals, 0.5):.1f} ms, p95 {percentile(totals, 0.95):.1f} ms")
    parts = ("until posted", "posted until the reply is heard", "heard until resolved")
    for index, name in enumerate(parts, start=1):
        values = [call[index] for call in calls if call[index] is not None]
        print(f"  {name}: median {statistics.median(values):.1f} ms, p95 {percentile(values, 0.95):.1f} ms")
    slowest = sorted(calls, reverse=True)[: max(1, len(calls) // 20)]
    print("  the slowest 5%: " + "; ".join(
        f"{total:.1f} = {before:.1f} + {trip:.1f} + {after:.1f}" for total, before, trip, after in slowest
        if before is not None))

    events = json.loads(trace_path.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    main_thread = {(event["pid"], event["tid"]) for event in events
                   if event.get("name") == "thread_name" and event["args"].get("name") == "CrRendererMain"}
    busy = sum(event.get("dur", 0) for event in events if event.get("ph") == "X" and event.get("name") == "RunTask"
               and (event.get("pid"), event.get("tid")) in main_thread) / 1000
    print(f"\ntraced ({args.calls} calls, p50 {percentile(traced, 0.5):.1f} ms, p95 {percentile(traced, 0.95):.1f} ms, "
          f"{sum(traced):.0f} ms in all): the main thread ran tasks for {busy:.0f} ms of it")
    total, count = main_thread_phases(events)
    print("\n| phase | ms in all | ms a call | events |\n|---|---|---|---|")
    for name, ms in total.most_common():
        print(f"| {name} | {ms:.1f} | {ms / args.calls:.2f} | {count[name]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
