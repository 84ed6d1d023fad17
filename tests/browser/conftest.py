"""Fixtures for the browser tests: the built site, served on 127.0.0.1, opened in Debian's Chromium.

Every test in tests/browser/ is marked `browser` (run only these with `pytest -m browser`, skip them with
`-m "not browser"`).

    site_url   the repository root served from a thread on 127.0.0.1 (built once per session), as
               `build.py serve` serves it: cross-origin isolated
    plain_site_url  the same, without the isolation headers (most static hosts)
    unpacked_zip_server  the offline zip unpacked and served by `python3 -m http.server` (no headers at all)
    browser    Chromium through Playwright's sync API
    page       a fresh context and page that must end with no console error, no page error and no request
               to any host but 127.0.0.1 (checked at teardown; see `page_problems` to allow one on purpose)
    fresh_page another such page in a context of its own (a link opened on someone else's computer)
    artifacts  the folder for screenshots, tests/artifacts/
"""

import socket
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (build.py lives at the project's root)
from sitebuild import paths, server as dev_server, variants  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCAL_HOST = "127.0.0.1"
# Seconds a single Playwright call may take; booting Python on a busy 2-core machine takes a few.
DEFAULT_TIMEOUT_MS = 60_000

BROWSER_TESTS_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    for item in items:
        if BROWSER_TESTS_DIR in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def built_site():
    """Build once per session, so the browser sees generated/ made from the Python module as it is now."""
    build.build(report=lambda line: None)
    return ROOT


@pytest.fixture(scope="session")
def site_url(built_site):
    """The repository root, served exactly as `python3 build.py serve` serves it (cross-origin isolated)."""
    with dev_server.serving(dev_server.SiteRequestHandler) as url:
        yield url


class PlainHostHandler(dev_server.SiteRequestHandler):
    """A static host that sends no cross-origin isolation headers (most of them, and course platforms)."""

    isolated = False


@pytest.fixture(scope="session")
def plain_site_url(built_site):
    """The repository root served without the isolation headers: no SharedArrayBuffer, so runaway code is
    stopped by ending its worker."""
    with dev_server.serving(PlainHostHandler) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@dataclass
class PageProblems:
    """What a page did that a learner's page must never do. A test that provokes one clears it."""

    console_errors: list = field(default_factory=list)
    page_errors: list = field(default_factory=list)
    foreign_requests: list = field(default_factory=list)

    def clear(self):
        self.console_errors.clear()
        self.page_errors.clear()
        self.foreign_requests.clear()


@pytest.fixture
def page_problems():
    return PageProblems()


def guarded_page(browser, problems):
    """A fresh context and page whose console errors, uncaught errors and requests off 127.0.0.1 are recorded
    in `problems`. The page's worker is covered too: its console and its requests are the page's."""
    context = browser.new_context()
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)

    def record_request(request):
        if urlsplit(request.url).hostname != LOCAL_HOST and not request.url.startswith(("data:", "blob:")):
            problems.foreign_requests.append(request.url)

    def record_console(message):
        if message.type == "error":
            problems.console_errors.append(message.text)

    context.on("request", record_request)
    new_page = context.new_page()
    new_page.on("console", record_console)
    new_page.on("pageerror", lambda error: problems.page_errors.append(str(error)))
    return context, new_page


def assert_no_problems(problems):
    assert problems.console_errors == [], "console errors"
    assert problems.page_errors == [], "uncaught errors on the page"
    assert problems.foreign_requests == [], f"requests to hosts other than {LOCAL_HOST}"


@pytest.fixture
def page(browser, site_url, page_problems):
    """A fresh page that must end with no console error, no page error and no request to another host."""
    context, new_page = guarded_page(browser, page_problems)
    yield new_page
    context.close()
    assert_no_problems(page_problems)


@pytest.fixture
def fresh_page(browser, site_url):
    """Another browser context, as if a link were opened on someone else's computer; guarded like `page`."""
    problems = PageProblems()
    context, new_page = guarded_page(browser, problems)
    yield new_page
    context.close()
    assert_no_problems(problems)


@pytest.fixture(scope="session")
def artifacts():
    folder = ROOT / "tests" / "artifacts"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def unpacked_zip_server(built_site, tmp_path):
    """The offline zip, made from dist/ as `build.py --zip` makes it, unpacked and served by
    `python3 -m http.server` (what its README.txt tells an author to run)."""
    archive = tmp_path / variants.ZIP_NAME
    variants.write_zip(paths.DIST_DIR, archive)
    with zipfile.ZipFile(archive) as unpacked:
        unpacked.extractall(tmp_path / "unpacked")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=tmp_path / "unpacked", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/{variants.ZIP_FOLDER}/"
    finally:
        server.terminate()
        server.wait(timeout=10)
