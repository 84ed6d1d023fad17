#!/usr/bin/env python3
"""How fast and how light the playground page is, measured in real Chromium against a bare Pyodide page.

    python3 bench/page.py                 # build, measure, print a table, write bench/results.json
    python3 bench/page.py --runs 3 --updates 50 --no-build
    python3 bench/page.py --site source   # the sources as build.py serve serves them, instead of dist/
    python3 bench/page.py --author-runs 0 # without the course author's series (author_series.py)

The bare page (bench/bare/) does the least the playground could do: a module worker loads Pyodide and NumPy
from the same vendored files with the same options, and computes one softmax. Both pages are served by
build.py's own request handler on 127.0.0.1 (page_server.py) and loaded alternately, each time in a fresh
browser context, so the HTTP cache is cold. Medians over the runs are reported next to the targets:

  first heatmap   navigation start until the preview heatmap's cells are in the DOM
  time to live    navigation start until `attentionPlayground.ready` resolves (bare: the softmax is back)
  update latency  an edit typed into a Wq cell, or a `setScene` call, until the new weights are in the
                  heatmap's DOM and until that frame is painted, timed inside the page
                  (instruments/update-latency.js), for the 10-token default scene and for a 64 tokens x 64
                  features x 64 dims scene; p50 and p95. And `await setScene(...)` as a course page's script
                  waits for it: from the call until its promise resolves. The step view is open for all of
                  them, so the heatmap, the grids, the bars and every worked step are drawn; the worked steps
                  catch up once the updates pause while they are far from the screen (state/redraw-schedule.js),
                  so one more series times setScene at 64 tokens with them scrolled into view
  bytes           what the server sent for the files asked for before the page was live: the runtime (vendor/)
                  and everything else (our own files); what was asked for after is counted apart
  memory          after going live and a garbage collection: the page's JS heap, the worker's JS heap, the
                  worker's WebAssembly memory, and the renderer process (page_probes.py says how)
  author series   `await setScene(...)` as a course page's script waits for it, on a plain static host (no
                  isolation headers) and an isolated one side by side: right after `ready` and warm, a
                  64x64x64 scene with Wv null set again and again, an unchanged scene set again, a big edit
                  typed until painted, 600 training steps against the same steps natively, and each load's
                  first contentful paint (author_series.py says how)

Not a test: nothing here asserts. The machine is shared and noisy, so read ratios and medians, and the load
average printed with them.
"""

import argparse
import gzip
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from page_probes import (
    BARE_PAGE_SETTLED,
    LARGE_EDIT,
    LARGE_SIZE,
    OUR_PAGE_SETTLED,
    PAGE_MARKS_SCRIPT,
    SMALL_EDIT,
    UPDATE_LATENCY_FUNCTION,
    WorkerProbe,
    busiest_renderer,
    page_heap,
    page_renderer_memory,
    percentile,
    renderer_cpu_times,
    wait_for_json,
    waterfall,
    with_cell,
)
from page_server import ByteLedger, start_server
from browser_bench import launch_chromium
from author_series import author_series, print_author_table, summarise

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))
from attention_playground.presets import random_scene  # noqa: E402  (the module lives in py/)

RESULTS_PATH = ROOT / "bench" / "results.json"
#: The playground as learners get it (dist/: bundled and minified) or as it is edited (the sources).
SITE_PATHS = {"dist": "/dist/", "source": "/"}
BARE_PATH = "/bench/bare/"
#: The runtime's files, under the repository root or under dist/.
RUNTIME_FOLDER = "/vendor/pyodide/"
LIVE_TIMEOUT_MS = 180_000
VIEWPORT = {"width": 1280, "height": 900}


#: The targets of the table the page is held to; latencies are judged at p95, as painted where a frame counts. The
#: first view's are the page's as it was before the lessons came (first heatmap 229 ms, 207 KB of our own files
#: before live), and live within 1.10 times the bare runtime.
TARGETS = {
    "first_heatmap_ms": 229,
    "live_ratio": 1.10,
    "large_edit_painted_p95_ms": 33,
    "large_setscene_painted_p95_ms": 45,
    "small_await_p95_ms": 8,
    "large_await_p95_ms": 50,
    "own_bytes": 207 * 1024,
    "memory_ratio": 1.2,
}


# --- one cold load ------------------------------------------------------------------------------------------


def is_runtime(path):
    return RUNTIME_FOLDER in path


def split_at_live(requests, files, live_ms):
    """The server's requests split into those asked for before the page was live and those asked for after.

    The server counts a file when it has sent it, and the driver notices "live" a moment late, so the split goes
    by when the page (or a worker) asked for each file (`files`, the waterfall). A file the waterfall does not
    show counts as before.
    """
    asked_at = {}
    for row in files:
        asked_at.setdefault(row["name"], row["start"])
    before = [r for r in requests if asked_at.get(r["path"], 0) <= live_ms]
    after = [r for r in requests if asked_at.get(r["path"], 0) > live_ms]
    return before, after


def cold_load(browser, browser_session, base_url, our_path, kind, ledger, settle_ms):
    """Load one page ("ours" or "bare") in a fresh context; measure it until, and just after, it is live."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        context.add_init_script(path=str(PAGE_MARKS_SCRIPT))
        page = context.new_page()
        console_errors = []
        page.on("console", lambda message: console_errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: console_errors.append(str(error)))
        session = context.new_cdp_session(page)
        session.send("Performance.enable")
        workers = WorkerProbe(page, session)
        ledger.take()
        cpu_before = renderer_cpu_times(browser_session)
        page.goto(base_url + (our_path if kind == "ours" else BARE_PATH), wait_until="commit")
        if kind == "ours":
            marks = wait_for_json(page, session, OUR_PAGE_SETTLED, LIVE_TIMEOUT_MS / 1000)
            if marks["readyError"]:
                raise RuntimeError(f"the playground did not go live: {marks['readyError']}")
            live_ms = marks["liveMs"]
        else:
            status = wait_for_json(page, session, BARE_PAGE_SETTLED, LIVE_TIMEOUT_MS / 1000)
            if status["state"] != "live":
                raise RuntimeError(f"the bare page failed: {status['text']}")
            marks = status["marks"]
            live_ms = float(status["liveMs"])
        requests = ledger.take()
        # CPU time, unlike wall time, barely depends on what else the machine is doing.
        _, cpu_to_live_s = busiest_renderer(browser_session, cpu_before)
        first_contentful_paint = page.evaluate(
            "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
        files = waterfall(page)
        # What it took to go live; what was asked for after (while the driver was noticing) is counted apart.
        requests, asked_after_live = split_at_live(requests, files, live_ms)

        # Memory "after going live": let the page finish what going live set off, then collect garbage.
        page.wait_for_timeout(settle_ms)
        page_heap_bytes = page_heap(session)
        worker_heap_bytes, wasm_bytes = workers.memory()
        renderer = page_renderer_memory(browser_session, cpu_before)
        requests_after_live = asked_after_live + ledger.take()
        return {
            "kind": kind,
            "live_ms": live_ms,
            "renderer_cpu_to_live_ms": cpu_to_live_s * 1000 if cpu_to_live_s is not None else None,
            "first_heatmap_ms": marks["firstHeatmapMs"],
            "first_heatmap_frame_ms": marks["firstHeatmapFrameMs"],
            "live_at_first_heatmap": marks["liveAtFirstHeatmap"],
            "first_contentful_paint_ms": first_contentful_paint,
            "page_heap_bytes": page_heap_bytes,
            "worker_heap_bytes": worker_heap_bytes,
            "wasm_memory_bytes": wasm_bytes,
            "memory_total_bytes": page_heap_bytes + worker_heap_bytes + wasm_bytes,
            "renderer_pss_bytes": renderer["pss"] if renderer else None,
            "renderer": renderer,
            "workers": len(workers.workers),
            "runtime_bytes": sum(r["bytes"] for r in requests if is_runtime(r["path"])),
            "own_bytes": sum(r["bytes"] for r in requests if not is_runtime(r["path"])),
            "requests": requests,
            "bytes_after_live": sum(r["bytes"] for r in requests_after_live),
            "requests_after_live": requests_after_live,
            "waterfall": files,
            "console_errors": console_errors,
        }
    finally:
        context.close()


# --- update latency -----------------------------------------------------------------------------------------


def summarise_samples(run):
    if "awaitMs" in run["samples"][0]:
        waited = [sample["awaitMs"] for sample in run["samples"]]
        return {"count": len(waited), "p50_ms": percentile(waited, 0.5), "p95_ms": percentile(waited, 0.95),
                "max_ms": max(waited), "samples_ms": [round(value, 2) for value in waited]}
    dom = [sample["domMs"] for sample in run["samples"]]
    painted = [sample["paintedMs"] for sample in run["samples"]]
    return {
        "count": len(dom),
        "p50_ms": percentile(dom, 0.5), "p95_ms": percentile(dom, 0.95), "max_ms": max(dom),
        "painted_p50_ms": percentile(painted, 0.5), "painted_p95_ms": percentile(painted, 0.95),
        "probe": run["probe"], "final_matches": run["finalMatches"],
        "samples_ms": [round(value, 2) for value in dom],
    }


def update_latencies(browser, base_url, our_path, count, warmup):
    """The latency series (10-token and 64x64x64 scenes; by edit, by setScene, awaiting setScene), in one warm page."""
    context = browser.new_context(viewport=VIEWPORT)
    results = {}
    try:
        page = context.new_page()
        page.goto(base_url + our_path)
        page.wait_for_function("window.attentionPlayground !== undefined", timeout=LIVE_TIMEOUT_MS)
        page.evaluate("window.attentionPlayground.ready")
        # Every view a learner may have open redraws at each update: the step view is the one that is closed
        # until asked for.
        page.locator('[data-testid="step-toggle"]').check()
        small = page.evaluate("window.attentionPlayground.getScene()")
        large = random_scene(LARGE_SIZE, digits=2) | {"title": f"{LARGE_SIZE} tokens x {LARGE_SIZE} features x {LARGE_SIZE} dims"}
        series = [
            ("small_edit", small, "edit", SMALL_EDIT),
            ("small_setscene", small, "setScene", SMALL_EDIT),
            ("large_edit", large, "edit", LARGE_EDIT),
            ("large_setscene", large, "setScene", LARGE_EDIT),
            ("small_await", small, "await", SMALL_EDIT),
            ("large_await", large, "await", LARGE_EDIT),
            # The worked steps catch up only once updates pause while they are far from the screen, and at 64
            # tokens they are thousands of pixels below the grids: this series watches them instead.
            ("large_setscene_steps_in_view", large, "setScene", LARGE_EDIT),
        ]
        for name, scene, mode, edit in series:
            try:
                if name.endswith("_steps_in_view"):
                    page.locator('[data-testid="step-view"]').scroll_into_view_if_needed()
                page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", scene)
                scenes = [with_cell(scene, edit, value) for value in edit["values"]]
                run = page.evaluate(UPDATE_LATENCY_FUNCTION, {"mode": mode, "count": count, "warmup": warmup,
                                                              "edit": edit, "scenes": scenes})
                results[name] = summarise_samples(run)
            except Exception as error:  # noqa: BLE001 -- one failing series still leaves the others to report
                results[name] = {"error": str(error).splitlines()[0]}
            print(f"  {name}: " + (f"p50 {results[name]['p50_ms']:.1f} ms, p95 {results[name]['p95_ms']:.1f} ms"
                                   if "error" not in results[name] else results[name]["error"]), flush=True)
    finally:
        context.close()
    return results


# --- the table ----------------------------------------------------------------------------------------------


def median_of(runs, key):
    values = [run[key] for run in runs if run.get(key) is not None]
    return statistics.median(values) if values else None


def spread(runs, key):
    """How far apart single cold loads fell: "lowest-highest ms over n loads" (a median alone hides it)."""
    values = [run[key] for run in runs if run.get(key) is not None]
    return f"{min(values):,.0f}-{max(values):,.0f} ms over {len(values)} loads" if values else ""


def pairwise_ratios(ours, bare, key):
    """Each load of ours against the bare page's load next to it (they alternate): lowest-highest ratio."""
    ratios = [a[key] / b[key] for a, b in zip(ours, bare) if a.get(key) and b.get(key)]
    return f"each load against its neighbour: {min(ratios):.2f}-{max(ratios):.2f}" if ratios else ""


def own_bytes_gzipped(requests):
    """What our own files would weigh from a host that gzips them (each path once, gzip level 6)."""
    total = 0
    for path in sorted({r["path"] for r in requests if not is_runtime(r["path"])}):
        file = ROOT / path.lstrip("/")
        if file.is_dir():
            file = file / "index.html"
        if file.is_file():
            total += len(gzip.compress(file.read_bytes(), 6))
    return total


def figure(name, ours, bare, target, unit, passes=None, note="", compare=True):
    """One row of the table. `passes(ours, ratio)` judges it against the target; `compare` False shows the
    bare page's figure without a ratio (where one would mean nothing)."""
    ratio = ours / bare if compare and ours is not None and bare not in (None, 0) else None
    verdict = passes(ours, ratio) if passes and ours is not None else None
    return {"figure": name, "ours": ours, "bare": bare, "ratio": ratio, "target": target, "unit": unit,
            "pass": verdict, "note": note}


def build_figures(cold, updates):
    ours = [run for run in cold if run["kind"] == "ours"]
    bare = [run for run in cold if run["kind"] == "bare"]

    def at_most(limit):
        return lambda value, ratio: value <= limit

    def ratio_at_most(limit):
        return lambda value, ratio: ratio is not None and ratio <= limit

    def both(key):
        return median_of(ours, key), median_of(bare, key)

    rows = [
        figure("first heatmap in DOM", median_of(ours, "first_heatmap_ms"), None, f"<= {TARGETS['first_heatmap_ms']} ms", "ms",
               at_most(TARGETS["first_heatmap_ms"]), note=spread(ours, "first_heatmap_ms")),
        figure("first contentful paint", *both("first_contentful_paint_ms"), "", "ms"),
        figure("time to live", *both("live_ms"), f"ratio <= {TARGETS['live_ratio']}", "ms",
               ratio_at_most(TARGETS["live_ratio"]),
               note=f"ours {spread(ours, 'live_ms')}, bare {spread(bare, 'live_ms')}; "
                    f"{pairwise_ratios(ours, bare, 'live_ms')}"),
        figure("renderer CPU time to live", *both("renderer_cpu_to_live_ms"), "", "ms"),
    ]

    def judged(limit):
        return (f"<= {TARGETS[limit]} ms", at_most(TARGETS[limit])) if limit else ("", None)

    # (series, label, target of its p95 in the DOM, target of its p95 painted)
    for name, label, dom_limit, painted_limit in [
        ("small_edit", "update 10 tokens, edit", None, None),
        ("small_setscene", "update 10 tokens, setScene", None, None),
        ("large_edit", "update 64x64x64, edit", None, "large_edit_painted_p95_ms"),
        ("large_setscene", "update 64x64x64, setScene", None, "large_setscene_painted_p95_ms"),
        ("small_await", "await setScene, 10 tokens", "small_await_p95_ms", None),
        ("large_await", "await setScene, 64x64x64", "large_await_p95_ms", None),
        ("large_setscene_steps_in_view", "update 64x64x64, setScene, worked steps on screen", None,
         "large_setscene_painted_p95_ms"),
    ]:
        series = updates.get(name, {"error": "not measured"})
        if "error" in series:
            target, _ = judged(dom_limit or painted_limit)
            rows.append(figure(f"{label} p95", None, None, target, "ms", note=series["error"]))
            continue
        dom_target, dom_passes = judged(dom_limit)
        rows += [
            figure(f"{label} p50", series["p50_ms"], None, "", "ms"),
            figure(f"{label} p95", series["p95_ms"], None, dom_target, "ms", dom_passes),
        ]
        if "painted_p95_ms" in series:
            painted_target, painted_passes = judged(painted_limit)
            rows.append(figure(f"{label} p95, painted", series["painted_p95_ms"], None, painted_target, "ms",
                               painted_passes))
    gzipped = f"{own_bytes_gzipped(ours[0]['requests']) / 1024:.1f} KB if the host gzips them" if ours else ""
    rows += [
        figure("bytes, own files", *both("own_bytes"), f"<= {TARGETS['own_bytes'] // 1024} KB", "bytes",
               at_most(TARGETS["own_bytes"]), note=gzipped, compare=False),
        figure("bytes, runtime (vendor/)", *both("runtime_bytes"), "", "bytes"),
        figure("bytes asked for after live (first second)", *both("bytes_after_live"), "", "bytes", compare=False),
        figure("memory, page JS heap", *both("page_heap_bytes"), "", "bytes"),
        figure("memory, worker JS heap", *both("worker_heap_bytes"), "", "bytes"),
        figure("memory, worker wasm", *both("wasm_memory_bytes"), "", "bytes"),
        figure("memory, page+worker+wasm", *both("memory_total_bytes"), "ratio <= 1.2", "bytes",
               ratio_at_most(TARGETS["memory_ratio"])),
        figure("memory, renderer PSS", *both("renderer_pss_bytes"), "ratio <= 1.2", "bytes",
               ratio_at_most(TARGETS["memory_ratio"])),
    ]
    return rows


def shown(value, unit):
    if value is None:
        return "-"
    if unit == "bytes":
        return f"{value / 1024:,.1f} KB" if value < 1024 * 1024 else f"{value / 1024 / 1024:,.1f} MB"
    return f"{value:,.1f} ms"


def print_largest_own_files(cold, count=8):
    """Where our bytes go: the largest of our own files in the first cold load of the playground."""
    ours = next((run for run in cold if run["kind"] == "ours"), None)
    if not ours:
        return
    own = sorted((r for r in ours["requests"] if not is_runtime(r["path"])), key=lambda r: -r["bytes"])
    print(f"our largest files ({len(own)} requests in all): "
          + ", ".join(f"{r['path']} {r['bytes'] / 1024:.1f} KB" for r in own[:count]))


def print_table(rows):
    header = ("figure", "ours", "bare", "ratio", "target", "result")
    verdicts = {True: "pass", False: "FAIL", None: "-"}
    lines = [(row["figure"], shown(row["ours"], row["unit"]), shown(row["bare"], row["unit"]),
              f"{row['ratio']:.2f}" if row["ratio"] is not None else "-", row["target"] or "-",
              verdicts[row["pass"]] if row["ours"] is not None or not row["target"] else "n/a")
             for row in rows]
    widths = [max(len(line[i]) for line in [header, *lines]) for i in range(len(header))]
    aligns = ["<", ">", ">", ">", "<", "<"]
    for line in [header, tuple("-" * width for width in widths), *lines]:
        print("  ".join(f"{cell:{align}{width}}" for cell, align, width in zip(line, aligns, widths, strict=True)).rstrip())
    for row in rows:
        if row["note"]:
            print(f"  {row['figure']}: {row['note']}")


# --- command line -------------------------------------------------------------------------------------------


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description="Benchmark the playground page against a bare Pyodide page.")
    parser.add_argument("--runs", type=int, default=5, help="cold loads of each page, alternating (default 5)")
    parser.add_argument("--updates", type=int, default=200, help="timed updates per latency series (default 200)")
    parser.add_argument("--warmup", type=int, default=10, help="untimed updates before each series (default 10)")
    parser.add_argument("--settle-ms", type=int, default=1000,
                        help="wait after going live before memory is read (default 1000)")
    parser.add_argument("--author-runs", type=int, default=3,
                        help="loads of each host for the course author's series, alternating (default 3; 0 skips it)")
    parser.add_argument("--warm-after", type=float, default=15,
                        help="seconds after the author's first series before the warm ones (default 15)")
    parser.add_argument("--training-steps", type=int, default=600,
                        help="steps trained in each author's load and natively beside it (default 600; 0 skips it)")
    parser.add_argument("--no-build", action="store_true", help="measure the site as last built")
    parser.add_argument("--site", choices=sorted(SITE_PATHS), default="dist",
                        help="the built site learners get (dist, the default) or the sources as served for editing")
    parser.add_argument("--out", type=Path, default=RESULTS_PATH, help="where to write the results (JSON)")
    return parser.parse_args(argv)


def run_build():
    """build.py in its own process (it may re-run itself in .venv to find NumPy)."""
    print("building the site: python3 build.py", flush=True)
    if subprocess.run([sys.executable, str(ROOT / "build.py")], cwd=ROOT, check=False).returncode != 0:
        raise SystemExit("the build failed (see above)")


def main(argv=None):
    arguments = parse_arguments(argv)
    if not arguments.no_build:
        run_build()
    missing = [path for path in ["index.html", "generated/preview.js", "vendor/pyodide/pyodide.mjs"]
               if not (ROOT / path).exists()]
    if missing:
        raise SystemExit(f"the site is not built (no {', '.join(missing)}): run python3 build.py")

    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()[0]
    ledger = ByteLedger()
    server, base_url = start_server(ledger)
    plain_server, plain_url = start_server(ByteLedger(), isolated=False)
    cold = []
    authors = None
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            browser_session = browser.new_browser_cdp_session()
            chromium_version = browser.version
            print(f"Chromium {chromium_version}, {os.cpu_count()} cores, serving {base_url}\n"
                  f"{arguments.runs} cold loads of each page, alternating:", flush=True)
            for index in range(arguments.runs):
                # Alternate which page goes first, so neither always gets the quieter moment.
                for kind in ["ours", "bare"] if index % 2 == 0 else ["bare", "ours"]:
                    run = cold_load(browser, browser_session, base_url, SITE_PATHS[arguments.site], kind, ledger, arguments.settle_ms)
                    cold.append(run)
                    heatmap = f", heatmap {run['first_heatmap_ms']:5.0f} ms" if run["first_heatmap_ms"] else ""
                    errors = f", {len(run['console_errors'])} console errors" if run["console_errors"] else ""
                    print(f"  {index + 1} {kind:4}  live {run['live_ms']:6.0f} ms{heatmap}{errors}", flush=True)
            print(f"update latency, {arguments.updates} updates per series after {arguments.warmup} untimed:",
                  flush=True)
            updates = update_latencies(browser, base_url, SITE_PATHS[arguments.site], arguments.updates, arguments.warmup)
            if arguments.author_runs > 0:
                print(f"await setScene as a course page's script waits for it, {arguments.author_runs} loads of each "
                      f"host, alternating (warm = {arguments.warm_after:g} s after the first series):", flush=True)
                authors = author_series(browser, {"plain": plain_url, "isolated": base_url}, SITE_PATHS[arguments.site],
                                        arguments.author_runs, arguments.warm_after, VIEWPORT, random_scene,
                                        report=lambda line: print(line, flush=True),
                                        training_steps=arguments.training_steps)
            browser.close()
    finally:
        server.shutdown()
        plain_server.shutdown()
    load_after = os.getloadavg()[0]

    rows = build_figures(cold, updates)
    print()
    print_table(rows)
    print_largest_own_files(cold)
    author_summary = summarise(authors) if authors else None
    if author_summary:
        print()
        print_author_table(author_summary)
    print(f"\nload average (1 min): {load_before:.1f} before, {load_after:.1f} after, on {os.cpu_count()} cores")
    results = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"cores": os.cpu_count(), "platform": platform.platform(), "chromium": chromium_version,
                    "load_average_before": load_before, "load_average_after": load_after},
        "runs_per_page": arguments.runs,
        "updates_per_series": arguments.updates,
        "targets": TARGETS,
        "figures": rows,
        "updates": updates,
        "cold_loads": cold,
        "author_series": {"summary": author_summary, "loads": authors, "warm_after_s": arguments.warm_after},
    }
    arguments.out.write_text(json.dumps(results, indent=1) + "\n")
    print(f"wrote {arguments.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
