#!/usr/bin/env python3
"""What the service worker buys: time to live on a first visit (cold) against a second visit served from
the service worker's cache (warm), and a second visit with the network off (offline).

    python3 bench/offline.py              # build, then 5 runs; prints a table, writes bench/offline-results.json
    python3 bench/offline.py --runs 9 --no-build
    python3 bench/offline.py --network 30     # as over a 30 Mbit/s line with 40 ms round trips

Each run opens dist/ (the built site, which installs the service worker) in a fresh browser context, so
the first visit starts with empty caches, and measures:

  cold     navigation start until `attentionPlayground.ready` resolves, nothing cached
  warm     the same, in a new tab of the same context once the service worker is active (every file,
           Python runtime included, comes from its cache)
  offline  the same again with the context offline

By default the server is on the loopback interface, where downloading 17 MB costs little; `--network
MBITS` throttles every visit (Chromium's own network emulation, 40 ms round trips) to show what a
school's broadband would see. What the service worker answers is not throttled: it never reaches the
network.

It also counts the requests that reached the server during each visit. Time to live is taken on the page's
own clock (performance.now() when `ready` resolves, polled from an init script as bench/page.py does).

Not a test: nothing here asserts. The machine is shared and noisy: read the medians and the ratio, and
the load average printed with them.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from sitebuild import server as dev_server  # noqa: E402
from browser_bench import launch_chromium  # noqa: E402

RESULTS_PATH = ROOT / "bench" / "offline-results.json"  # (ignored by git, like results.json)
SITE_PATH = "/dist/index.html"
TIMEOUT_MS = 180_000
ROUND_TRIP_MS = 40  # with --network

# Runs before the page's scripts: notes when `attentionPlayground.ready` resolves, on the page's clock.
LIVE_MARK = """(() => {
  const mark = { liveMs: null, error: null };
  Object.defineProperty(window, Symbol.for("offline-bench"), { value: mark });
  const watch = () => {
    const api = window.attentionPlayground;
    if (!api) return void setTimeout(watch, 1);
    api.ready.then(() => { mark.liveMs = performance.now(); }, (error) => { mark.error = String(error); });
  };
  watch();
})();"""
READ_MARK = "() => window[Symbol.for('offline-bench')]"


class CountingHandler(dev_server.SiteRequestHandler):
    """build.py's own handler, counting the requests that reach it."""

    requests = []
    lock = threading.Lock()

    def send_response(self, code, message=None):
        with self.lock:
            self.requests.append((self.path, code))
        super().send_response(code, message)


def take_requests():
    with CountingHandler.lock:
        taken, CountingHandler.requests[:] = list(CountingHandler.requests), []
    return taken


def visit(page, url, mbits=None):
    """Open `url` in `page`; milliseconds from navigation start until Python is live."""
    if mbits:
        session = page.context.new_cdp_session(page)
        session.send("Network.enable")
        session.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": ROUND_TRIP_MS,
            "downloadThroughput": mbits * 1e6 / 8, "uploadThroughput": mbits * 1e6 / 8,
        })
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => { const m = window[Symbol.for('offline-bench')]; return m && (m.liveMs !== null || m.error !== null); }",
                           timeout=TIMEOUT_MS)
    mark = page.evaluate(READ_MARK)
    if mark["error"]:
        raise RuntimeError(f"the page did not go live: {mark['error']}")
    return mark["liveMs"]


def one_run(browser, base_url, mbits=None):
    context = browser.new_context()
    context.add_init_script(LIVE_MARK)
    try:
        take_requests()
        first = context.new_page()
        cold = visit(first, base_url + SITE_PATH, mbits)
        # The service worker installs once the page is live and idle; active means all is cached.
        first.evaluate("navigator.serviceWorker.ready.then(() => undefined)")
        first.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS)
        cold_requests = len(take_requests())
        first.close()

        second = context.new_page()
        warm = visit(second, base_url + SITE_PATH, mbits)
        warm_requests = len(take_requests())
        second.close()

        context.set_offline(True)
        third = context.new_page()
        offline = visit(third, base_url + SITE_PATH)
        third.close()
        context.set_offline(False)
        return {"cold_ms": cold, "warm_ms": warm, "offline_ms": offline,
                "cold_requests": cold_requests, "warm_requests": warm_requests}
    finally:
        context.close()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-build", action="store_true", help="use dist/ as it is")
    parser.add_argument("--network", type=float, metavar="MBITS", help="throttle visits to this many Mbit/s (40 ms round trips)")
    arguments = parser.parse_args(argv)
    if not arguments.no_build:
        subprocess.run([sys.executable, str(ROOT / "build.py")], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)

    server = dev_server.SiteServer(("127.0.0.1", 0), CountingHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}"
    runs = []
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                for index in range(arguments.runs):
                    run = one_run(browser, base_url, arguments.network)
                    runs.append(run)
                    print(f"run {index + 1}: cold {run['cold_ms']:.0f} ms ({run['cold_requests']} requests), "
                          f"warm {run['warm_ms']:.0f} ms ({run['warm_requests']} requests), offline {run['offline_ms']:.0f} ms",
                          flush=True)
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()

    median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    summary = {
        "runs": runs,
        "median": median,
        "warm_over_cold": median["warm_ms"] / median["cold_ms"],
        "offline_over_cold": median["offline_ms"] / median["cold_ms"],
        "network_mbits": arguments.network,
        "load_average": os.getloadavg(),
    }
    print()
    print(f"{'':10}{'median ms':>12}{'requests':>10}")
    print(f"{'cold':10}{median['cold_ms']:>12.0f}{median['cold_requests']:>10.0f}")
    print(f"{'warm':10}{median['warm_ms']:>12.0f}{median['warm_requests']:>10.0f}")
    print(f"{'offline':10}{median['offline_ms']:>12.0f}{0:>10}")
    print(f"warm / cold = {summary['warm_over_cold']:.2f}, offline / cold = {summary['offline_over_cold']:.2f}"
          f"   (load average {summary['load_average'][0]:.1f}, {len(runs)} runs, "
          f"{'loopback' if not arguments.network else f'{arguments.network:g} Mbit/s'})")
    RESULTS_PATH.write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
