"""What the browser benchmarks share: how Chromium is started, and the command line `--runs N --no-build`."""

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from sitebuild import chromium  # noqa: E402


def launch_chromium(playwright):
    """Chromium as the tests start it (sitebuild/chromium.py)."""
    return playwright.chromium.launch(executable_path=chromium.CHROMIUM, args=chromium.flags(playwright))


def arguments_then_build(description, argv=None, runs=3):
    """Parse `--runs` and `--no-build`; unless told not to, build the site first. Returns the arguments."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--no-build", action="store_true")
    arguments = parser.parse_args(argv)
    if not arguments.no_build:
        import build  # noqa: PLC0415  (build.py lives at the project's root)

        build.build(report=lambda line: None)
    return arguments


def fresh_page_runs(site_path, runs, one_run):
    """Serve the site, start Chromium, and call `one_run(browser, url)` `runs` times (each call opens the pages it
    needs, in contexts of its own); yields each run's figures as it comes."""
    from page_server import ByteLedger, start_server  # noqa: PLC0415
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    if not (ROOT / "vendor/pyodide/pyodide.mjs").exists():
        raise SystemExit("the site is not built: run python3 build.py")
    server, base_url = start_server(ByteLedger())
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for _ in range(runs):
                yield one_run(browser, base_url + site_path)
            browser.close()
    finally:
        server.shutdown()


@contextmanager
def live_page(browser, url, viewport, timeout_ms):
    """A fresh context's page at `url`, once Python is live there; the context is closed afterwards."""
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("window.attentionPlayground !== undefined", timeout=timeout_ms)
        page.evaluate("window.attentionPlayground.ready")
        yield page
    finally:
        context.close()


def load_line(load_before):
    """The line each bench ends with: the machine's load average before and now, beside its figures."""
    import os  # noqa: PLC0415

    return f"load average (1 min): {load_before:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores"
