#!/usr/bin/env python3
"""How many Pythons a course page boots, and the memory they take: one shared by its frames, against one each.

    python3 bench/course_page.py            # build, measure, print a table
    python3 bench/course_page.py --runs 3 --no-build

examples/course-page.html (two embedded playgrounds) is opened in a fresh browser, twice per run:

  shared     as the page ships: the frames' Python is one SharedWorker
  one each   the same page where the browser has no SharedWorker (it is removed before the page's scripts
             run), so each frame boots a worker of its own, as every frame did before sharing

Boots are counted by the server (requests for the module's core zip, which every boot fetches once); memory
is the proportional set size of all the browser's renderer processes, read from /proc once every frame is
live and a second has passed. Not a test: nothing here asserts; read medians beside the load average.
"""

import os
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from sitebuild import server as dev_server  # noqa: E402

from browser_bench import arguments_then_build, launch_chromium  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

COURSE_PAGE = "examples/course-page.html"
CORE_ZIP = "/generated/attention_playground.zip"
NO_SHARED_WORKER = "delete globalThis.SharedWorker;"
# Every frame on the page has shown a result computed by Python (not the shipped preview).
ALL_FRAMES_LIVE = """() => [...document.querySelectorAll("iframe")].every((frame) => {
  const playground = frame.contentWindow?.attentionPlayground;
  return frame.contentDocument?.querySelector('[data-testid="playground"]')?.dataset.status === "live" && playground;
})"""


class CountingHandler(dev_server.SiteRequestHandler):
    asked = []

    def do_GET(self):
        CountingHandler.asked.append(urlsplit(self.path).path)
        super().do_GET()

    def log_message(self, *args):
        pass


def renderer_pss(browser_session):
    """Bytes of proportional set size over every renderer process of the browser."""
    processes = browser_session.send("SystemInfo.getProcessInfo")["processInfo"]
    total = 0
    for process in processes:
        if process["type"] != "renderer":
            continue
        try:
            with open(f"/proc/{process['id']}/smaps_rollup") as rollup:
                total += next(int(line.split()[1]) * 1024 for line in rollup if line.startswith("Pss:"))
        except (OSError, StopIteration):
            pass  # a process that ended meanwhile
    return total


def one_load(playwright, url, shared):
    browser = launch_chromium(playwright)
    try:
        context = browser.new_context(viewport={"width": 1100, "height": 2400})  # every frame on screen
        if not shared:
            context.add_init_script(NO_SHARED_WORKER)
        page = context.new_page()
        CountingHandler.asked = []
        started = time.perf_counter()
        page.goto(url)
        page.wait_for_function(ALL_FRAMES_LIVE, timeout=180_000, polling=100)
        live_s = time.perf_counter() - started
        frames = page.evaluate("document.querySelectorAll('iframe').length")
        page.wait_for_timeout(1000)
        memory = renderer_pss(browser.new_browser_cdp_session())
        return {"frames": frames, "boots": CountingHandler.asked.count(CORE_ZIP), "live_s": live_s, "pss": memory}
    finally:
        browser.close()


def main(argv=None):
    arguments = arguments_then_build(__doc__.splitlines()[0], argv)
    server = dev_server.make_server(0, CountingHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/{COURSE_PAGE}"
    rows = {"shared": [], "one each": []}
    try:
        with sync_playwright() as playwright:
            for _ in range(arguments.runs):
                for name in rows:  # alternating, so neither always gets the quieter moment
                    rows[name].append(one_load(playwright, url, shared=name == "shared"))
    finally:
        server.shutdown()
    print(f"{COURSE_PAGE}: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, {arguments.runs} runs")
    print(f"  {'':9s} {'frames':>6s} {'Pythons booted':>15s} {'all frames live':>16s} {'renderer memory (PSS)':>22s}")
    for name, loads in rows.items():
        print(f"  {name:9s} {loads[0]['frames']:6d} {statistics.median(load['boots'] for load in loads):15.0f}"
              f" {statistics.median(load['live_s'] for load in loads):14.1f} s"
              f" {statistics.median(load['pss'] for load in loads) / 1e6:19.0f} MB")
    shared, separate = (statistics.median(load["pss"] for load in rows[name]) for name in rows)
    print(f"  memory, shared / one each: {shared / separate:.2f}")


if __name__ == "__main__":
    main()
