"""Fixtures for the browser tests: the built site, served on 127.0.0.1, opened in Debian's Chromium.

Every test in tests/browser/ is marked `browser` (run only these with `pytest -m browser`, skip them with
`-m "not browser"`).

    site_url   the repository root served from a thread on 127.0.0.1 (built once per session), as
               `build.py serve` serves it: cross-origin isolated
    plain_site_url  the same, without the isolation headers (most static hosts)
    unpacked_zip_server  the offline zip unpacked and served by `python3 -m http.server` (no headers at all)
    browser    Chromium through Playwright's sync API
    page       a page as a first-time visitor finds it (nothing saved, no service worker, no permission), that
               must end with no console error, no page error and no request to any host but this machine (checked
               at teardown; see `page_problems` to allow one on purpose). It opens in `warm_context`, so it
               boots Python from a warm HTTP cache (see there)
    warm_context  one browser profile of its own per test process, whose HTTP cache (with the compiled
               WebAssembly Chromium keeps beside it) outlives each test, and where a page of the runtime's own
               stays live (keep_runtime_compiled), so a new tab finds the runtime compiled in its renderer:
               booting Python there costs about 2 s of CPU instead of 5.5 in a context that starts empty, and
               the suite boots Python some 300 times. Everything else a site can keep (storage, service
               workers, the Cache API, cookies, permissions, routes, offline) is gone before the next test
               starts, for every origin it touched
    cold_page  a fresh context of its own in `browser` (empty HTTP cache), guarded like `page`: for a test
               about a first visit's downloads, or that needs the browser's own CDP session
    live_page  the page at site_url, already live, shared by the tests of a test process and put back before
               each as a fresh visitor finds it (page_helpers.reset_to_default_example); guarded like `page`; it
               lives in a warm profile of its own (`warm_shared_context`)
    fresh_page a page as a first-time visitor finds it in a third warm profile (`warm_fresh_context`): a link
               opened on someone else's computer, beside a `page` or a shared page
    embed_page a new page in a context where an embedded page keeps one Python live (a SharedWorker, as the
               frames of a course page share), one per test process: its frames join it, none boots Python
    client_page  the harness page (tests/browser/harness.html) with the runtime's client started, one per
               test process, for tests that only send it requests (runtime_helpers.py)
    claims_page  the page with the model's panel open and "Test a claim" ready, one per test process, for the
               claim tests that start their own run (their pairs' training workers boot once)
    artifacts  the folder for screenshots, tests/artifacts/

Booting Python costs seconds of CPU, so a test that only reads or edits a scene takes `live_page` and starts
at once: no goto, no open_live. It may type, click, open the step view or the weights table, pick an
experiment tab, change the window size or the colour scheme, set a scene through the API: the next test finds
none of it (tests/browser/test_shared_page.py checks this). A test about booting, reloading, saved work after
a reload, a fresh visitor, a link opened elsewhere, storage that fails, dark mode's remembered toggle, training
in the page, or another address (dist/, the zip, a plain host) takes `page` (or a context of its own) instead.
The exercise and model panels keep Python state of their own: their tests' fixtures put the panel back too before
each test that shares the page (and files check that nothing leaks), and a module whose fixtures do not gets a
page booted again. The page itself is `shared_page`, one per test process (pytest-xdist runs a file, or a group
of files, to a worker: a file split in two costs no second boot); after a failed test it is booted again rather
than reset, so one failure does not cascade.
"""

import os
import socket
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from page_helpers import FRESH_VIEWPORT, await_ready, open_live, reset_to_default_example, sel  # noqa: E402
from runtime_helpers import start_client  # noqa: E402
from sitebuild import chromium, paths, server as dev_server, variants  # noqa: E402

# A new tab of a site shares the renderer of the site's other tabs in the profile, as Chromium does once it has many:
# with the runtime kept live in each warm profile (`keep_runtime_compiled`), V8 then has the runtime's WebAssembly
# compiled already, NumPy's included, and tiered up by the tests before (it keeps what a page of its process still
# uses), and a test's boot costs a quarter less CPU.
PER_SITE = "--process-per-site"


def chromium_flags(playwright_driver):
    """How the tests start Chromium: as the benchmarks do (sitebuild/chromium.py), a renderer per site."""
    return [*chromium.flags(playwright_driver), PER_SITE]


LOCAL_HOST = "127.0.0.1"
#: The names of this machine a page may ask: its address, and `localhost`, by which the tests reach a course page of
#: their own as another site than the playground's (course_pages.py).
THIS_MACHINE = {LOCAL_HOST, "localhost"}
# Seconds a single Playwright call may take; booting Python on a busy 2-core machine takes a few.
DEFAULT_TIMEOUT_MS = 60_000

BROWSER_TESTS_DIR = Path(__file__).resolve().parent


#: Tests that install real third-party programs from PyPI into virtualenvs of their own run only when asked (CI
#: asks for both, in a run of their own after the everyday one: .ci/run): the course sites' generators (marked
#: `sites`, test_built_course_sites.py) and the course platforms (marked `lms`, test_real_lms.py). The everyday run
#: should not wait for them or depend on them.
ASKED = {"sites": os.environ.get("ATTENTION_PLAYGROUND_SITES") == "1", "lms": os.environ.get("ATTENTION_PLAYGROUND_LMS") == "1"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if BROWSER_TESTS_DIR in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.browser)
    not_asked = [marker for marker, asked in ASKED.items() if not asked]
    left_out = [item for item in items if any(item.get_closest_marker(marker) for marker in not_asked)]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in left_out]


class RunSiteHandler(dev_server.SiteRequestHandler):
    """`python3 build.py serve`'s server, but the browser may keep what it fetched for the length of the run.

    The dev server asks the browser to revalidate every file, so that an edit shows on reload; in a test run
    nothing is edited after the build (`built_site`), so each revalidation would only cost a request: some 150
    per boot of the page (its modules one by one), a tenth of a boot's CPU between the browser and this server.
    The profiles that keep the HTTP cache live only as long as the run, and a test that routes a request gets it
    (Playwright turns the cache off for a page with routes).
    """

    cache_control = "max-age=86400"


@pytest.fixture(scope="session")
def site_url(built_site):
    """The repository root, served as `python3 build.py serve` serves it (cross-origin isolated), but cached by
    the browser for the run (RunSiteHandler)."""
    with dev_server.serving(RunSiteHandler) as url:
        yield url


class PlainHostHandler(RunSiteHandler):
    """A static host that sends no cross-origin isolation headers (most of them, and course platforms)."""

    isolated = False


@pytest.fixture(scope="session")
def plain_site_url(built_site):
    """The repository root served without the isolation headers: no SharedArrayBuffer, so runaway code is
    stopped by ending its worker."""
    with dev_server.serving(PlainHostHandler) as url:
        yield url


@pytest.fixture(scope="session")
def playwright_driver():
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_driver):
    launched = playwright_driver.chromium.launch(executable_path=chromium.CHROMIUM, args=chromium_flags(playwright_driver))
    yield launched
    launched.close()


#: What `page` wipes after each test, for every origin the test touched: all a site can keep but the HTTP
#: cache (Storage.clearDataForOrigin's names).
SITE_DATA = "cookies,file_systems,indexeddb,local_storage,websql,service_workers,cache_storage,shared_storage,storage_buckets"


def launch_warm_context(playwright_driver, profile):
    """A browser of its own with a persistent profile in the folder `profile`, with no page open."""
    context = playwright_driver.chromium.launch_persistent_context(
        str(profile), executable_path=chromium.CHROMIUM, args=chromium_flags(playwright_driver))
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    for blank in list(context.pages):
        blank.close()
    return context


#: The pages that keep the runtime live in each warm profile: by context, then by the site's address (None until opened).
KEEPERS = {}


def keep_runtime_compiled(context):
    """Keep pages in `context` with the runtime live, one at each site KEEPERS names for it: the test harness with a
    client started, a dedicated worker that no page can join, which keeps nothing in storage and asks for nothing once
    live. While one lives, each new tab of its site (and each frame from it) boots Python from WebAssembly its
    renderer has compiled already (`--process-per-site`). A page isolated cross-origin and one that is not never
    share a renderer, so the site served isolated and the site served as a plain host have a keeper each. A keeper
    is no tab of any test's (`tabs_opened_by_tests`, close_every_page), and is opened again if it was closed or
    crashed."""
    keepers = KEEPERS.get(context, {})
    for site, keeper in keepers.items():
        if keeper is not None and not keeper.is_closed() and not getattr(keeper, "crashed", False):
            continue
        keeper = context.new_page()
        keeper.on("crash", lambda crashed: setattr(crashed, "crashed", True))
        keepers[site] = keeper
        start_client(keeper, site)


def tabs_opened_by_tests(context):
    """The pages of `context` that tests opened: all but those keeping the runtime compiled."""
    kept = [keeper for keeper in KEEPERS.get(context, {}).values() if keeper is not None]
    return [open_page for open_page in context.pages if all(open_page is not keeper for keeper in kept)]


def warm_profile(playwright_driver, tmp_path_factory, sites, name):
    """A warm profile (launch_warm_context) with the runtime kept compiled in it for each of `sites`; closed at the
    session's end."""
    context = launch_warm_context(playwright_driver, tmp_path_factory.mktemp(name))
    KEEPERS[context] = dict.fromkeys(sites)
    keep_runtime_compiled(context)
    yield context
    KEEPERS.pop(context)
    context.close()


@pytest.fixture(scope="session")
def warm_context(playwright_driver, tmp_path_factory, site_url, plain_site_url):
    """A persistent browser profile for `page` (conftest's header says why)."""
    yield from warm_profile(playwright_driver, tmp_path_factory, (site_url, plain_site_url), "browser-profile")


@pytest.fixture(scope="session")
def warm_shared_context(playwright_driver, tmp_path_factory, site_url, plain_site_url):
    """Another, for the shared page (`live_page`): it lives while the `page` tests run, and what it keeps must not
    reach them (nor their wipes it). Its tests also open pages around frames of the playground (an author's page
    with an embed code), which are not isolated: the runtime is kept compiled for the plain host too."""
    yield from warm_profile(playwright_driver, tmp_path_factory, (site_url, plain_site_url), "shared-page-profile")


@pytest.fixture(scope="session")
def warm_fresh_context(playwright_driver, tmp_path_factory, site_url):
    """A third, for `fresh_page`: the computer a link is opened on, while the test's `page` or shared page is
    the one it was made on."""
    yield from warm_profile(playwright_driver, tmp_path_factory, (site_url,), "fresh-page-profile")


def origin_of(url):
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else None


def close_every_page(context):
    """Close every page the tests opened in `context` (each writes what it still owes to storage as it goes), and put
    back what the context itself holds: its routes, the network, permissions and cookies."""
    for open_page in tabs_opened_by_tests(context):
        open_page.close()
    context.unroute_all(behavior="ignoreErrors")
    context.set_offline(False)
    context.clear_permissions()
    context.clear_cookies()


def forget_site_data(page, origins):
    """Forget what the sites at `origins` kept, the HTTP cache aside, through `page` (any page of the context)."""
    session = page.context.new_cdp_session(page)
    try:
        for origin in sorted(origins):
            session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": SITE_DATA})
    finally:
        session.detach()


def wipe_site_data(context, origins):
    """Close every page of `context`, then forget what the sites at `origins` kept, the HTTP cache aside."""
    close_every_page(context)
    cleaner = context.new_page()
    try:
        forget_site_data(cleaner, origins)
    finally:
        cleaner.close()


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


class ForwardedProblems:
    """Where a shared page records its problems: the PageProblems of the test that holds the page now."""

    def __init__(self):
        self.target = PageProblems()

    def __getattr__(self, name):
        return getattr(self.target, name)


def guarded_page(browser, problems):
    """A fresh context and page whose console errors, uncaught errors and requests off 127.0.0.1 are recorded
    in `problems`. The page's worker is covered too: its console and its requests are the page's."""
    context = browser.new_context()
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    return context, guard(context, problems)


def guard(context, problems, origins=None):
    """Open a page in `context` that records its problems in `problems` (and, if given, adds the origin of
    every request the context makes to the set `origins`). Returns the page; `unguard` stops the recording."""

    def record_request(request):
        if urlsplit(request.url).hostname not in THIS_MACHINE and not request.url.startswith(("data:", "blob:")):
            problems.foreign_requests.append(request.url)
        if origins is not None and (origin := origin_of(request.url)):
            origins.add(origin)

    def record_console(message):
        if message.type == "error":
            problems.console_errors.append(message.text)

    context.on("request", record_request)
    new_page = context.new_page()
    new_page.on("console", record_console)
    new_page.on("pageerror", lambda error: problems.page_errors.append(str(error)))
    # A crashed page leaves its test waiting for a timeout; this names the cause in the test's report.
    new_page.on("crash", lambda crashed: problems.page_errors.append(f"the page at {crashed.url} crashed"))
    new_page.unguard = lambda: context.remove_listener("request", record_request)
    return new_page


def assert_no_problems(problems):
    assert problems.console_errors == [], "console errors"
    assert problems.page_errors == [], "uncaught errors on the page"
    assert problems.foreign_requests == [], f"requests to hosts other than {sorted(THIS_MACHINE)}"


@pytest.fixture
def page(warm_context, site_url, page_problems):
    """A page as a first-time visitor finds it, in `warm_context`; it must end with no console error, no page
    error and no request to another host. Every page the test opened in its context is closed at the end, and
    what the sites it visited kept is wiped."""
    yield from first_visit_page(warm_context, site_url, page_problems)


def first_visit_page(context, site_url, problems):
    """`page` and `fresh_page`: a guarded page in the warm profile `context`. Once the test is done its pages are
    closed (then its problems are checked); what the sites it visited kept is forgotten through the next test's page,
    blank until then, before it goes anywhere: a page opened only to wipe cost a renderer, 0.3 s of CPU a test."""
    origins = {site_url}
    keep_runtime_compiled(context)
    new_page = guard(context, problems, origins)
    forget_site_data(new_page, SITES_VISITED.pop(context, set()))
    try:
        yield new_page
    finally:
        new_page.unguard()
        close_every_page(context)
        SITES_VISITED[context] = origins
    assert_no_problems(problems)


#: The origins the last test in each warm profile visited, whose data the next test's page forgets (first_visit_page).
SITES_VISITED = {}


@pytest.fixture
def cold_page(browser, site_url, page_problems):
    """A fresh page in a context of its own (empty HTTP cache); guarded like `page`."""
    context, new_page = guarded_page(browser, page_problems)
    yield new_page
    context.close()
    assert_no_problems(page_problems)


#: What the shared page shows once put back, by where it is: the elements on show in the trained model's panel, in
#: the exercises' panel, and everywhere else.
AS_BOOTED = """() => {
  const shown = (within) => [...document.querySelectorAll("[data-testid]")]
    .filter((element) => element.checkVisibility() && element.closest('[data-panel="model"], [data-panel="exercise"]') === within)
    .map((element) => element.dataset.testid);
  return { page: shown(null), model: shown(document.querySelector('[data-panel="model"]')),
           exercise: shown(document.querySelector('[data-panel="exercise"]')) };
}"""

#: What a test's fixture puts back itself on the shared page, so that the page may differ there from a fresh one
#: when the test gets it: the model's panel (model_panel_helpers.model_page: it stays open once opened), and the
#: exercises' panel with the Python that runs the learner's code (exercise_helpers.exercise_page).
PUT_BACK_BY = {"model_page": {"model"}, "exercise_page": {"exercise", "workers"}}


def as_booted(page):
    """What the shared page runs and shows once put back, to compare with how it was after its boot: the workers (each
    a Python) and the elements on show (AS_BOOTED)."""
    return {"workers": len(page.workers), **page.evaluate(AS_BOOTED)}


def same_as_booted(shared, fixturenames):
    """Whether the shared page, put back, runs and shows what it did after its boot, but for what the fixtures
    named (a test's) put back themselves (PUT_BACK_BY)."""
    now, booted = as_booted(shared["page"]), shared["booted"]
    put_back = set().union(*(PUT_BACK_BY.get(name, set()) for name in fixturenames))
    return all(now[part] == booted[part] for part in booted if part not in put_back)


@pytest.fixture(scope="session")
def shared_page(warm_shared_context, site_url):
    """One guarded page per test process, live at site_url, in `warm_shared_context`; `live_page` lends it to
    each test. Yields {"page", "problems" (a ForwardedProblems), "broken" (boot it again before the next test),
    "module" (the test module that used it last), "booted" (as_booted once put back after its boot)}. At the
    session's end its pages close and what the sites kept is wiped, as after a `page` test."""
    problems = ForwardedProblems()
    origins = {site_url}
    new_page = guard(warm_shared_context, problems, origins)
    shared = {"page": new_page, "problems": problems, "broken": True, "module": None, "booted": None}
    try:
        yield shared
    finally:
        problems.target = PageProblems()  # what the page does while it closes belongs to no test
        new_page.unguard()
        wipe_site_data(warm_shared_context, origins)


def boot_shared_page(shared, site_url):
    keep_runtime_compiled(shared["page"].context)
    open_live(shared["page"], f"{site_url}/")
    reset_to_default_example(shared["page"])
    shared["booted"] = as_booted(shared["page"])
    shared["broken"] = False


@pytest.fixture
def live_page(request, shared_page, site_url, page_problems):
    """The shared page, live and put back as a fresh visitor finds it; guarded like `page` (its problems go to
    this test's `page_problems`). After a failed test the page is booted again, not reset, so one failure cannot
    cascade. The tests of one module may leave a panel open for the next (the exercise and model panels' files
    put them back themselves); the first test of another module gets the page only if, put back, it runs and
    shows what it did after its boot (but for what its own fixtures put back: PUT_BACK_BY), else a page booted
    again."""
    shared_page["problems"].target = page_problems
    live = shared_page["page"]
    failures_before = request.session.testsfailed
    try:
        if shared_page["broken"]:
            boot_shared_page(shared_page, site_url)
        else:
            reset_to_default_example(live)
            if shared_page["module"] is not request.module and not same_as_booted(shared_page, request.fixturenames):
                boot_shared_page(shared_page, site_url)
        shared_page["module"] = request.module
    except (AssertionError, PlaywrightError):
        shared_page["broken"] = True
        raise
    yield live
    shared_page["problems"].target = PageProblems()
    if request.session.testsfailed > failures_before or page_problems.console_errors or page_problems.page_errors:
        shared_page["broken"] = True
    assert_no_problems(page_problems)


#: The embedded page that keeps the shared Python live while the tests open and close theirs.
KEEPER = "/index.html?embed&panels=heatmap#preset=causal-exercise"


@pytest.fixture(scope="session")
def shared_python(browser, site_url):
    """One guarded context per test process in which an embedded page (KEEPER) stays open, so that every embedded
    page opened there joins its Python instead of booting one. Booted again after a test failed in it."""
    shared = {"context": None, "keeper": None, "problems": ForwardedProblems(), "broken": True, "site_url": site_url}
    yield shared
    shared["problems"].target = PageProblems()  # what the pages do while they close belongs to no test
    if shared["context"]:
        shared["context"].close()


def open_keeper(shared, browser):
    if shared["context"]:
        shared["context"].close()
    shared["context"], shared["keeper"] = guarded_page(browser, shared["problems"])
    shared["keeper"].goto(shared["site_url"] + KEEPER)
    await_ready(shared["keeper"])
    shared["broken"] = False


def page_sharing_python(shared):
    """A new page in the shared context, guarded like the context's others. The storage every page of the
    site shares there is emptied first: a page finds nothing the last one saved."""
    shared["keeper"].evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    new_page = shared["context"].new_page()
    problems = shared["problems"]
    new_page.on("console", lambda message: problems.console_errors.append(message.text) if message.type == "error" else None)
    new_page.on("pageerror", lambda error: problems.page_errors.append(str(error)))
    return new_page


@pytest.fixture
def embed_page(request, shared_python, browser, page_problems):
    """A new page (no address yet) whose embedded playgrounds join the shared live Python; guarded like
    `page` (its problems, and the keeper's, go to this test's `page_problems`)."""
    shared_python["problems"].target = page_problems
    failures_before = request.session.testsfailed
    try:
        if shared_python["broken"]:
            open_keeper(shared_python, browser)
        new_page = page_sharing_python(shared_python)
    except (AssertionError, PlaywrightError):
        shared_python["broken"] = True
        raise
    yield new_page
    new_page.close()  # it writes what it still owed to storage now, which the next page's set-up empties
    shared_python["problems"].target = PageProblems()
    if request.session.testsfailed > failures_before or page_problems.console_errors or page_problems.page_errors:
        shared_python["broken"] = True
    assert_no_problems(page_problems)


def shared_page_slot():
    """A scoped fixture's body for the holder of a page kept across tests (its context, the page, where its problems
    go, and whether it must be opened again): yields the holder, to pass to `using_shared_page`, and closes its page
    once the fixture's scope ends."""
    shared = {"context": None, "page": None, "problems": ForwardedProblems(), "broken": True}
    yield shared
    shared["problems"].target = PageProblems()  # what the page does while it closes belongs to no test
    if shared["context"]:
        shared["context"].close()


def using_shared_page(request, shared, browser, page_problems, open_page, put_back=None):
    """A fixture's body for a page kept in `shared` (shared_page_slot): opened by `open_page(page)` the first time and
    after a failed test, else put back by `put_back(page)`; yields the page, guarded like `page` (its problems go to
    this test's `page_problems`)."""
    shared["problems"].target = page_problems
    failures_before = request.session.testsfailed
    try:
        if shared["broken"]:
            if shared["context"]:
                shared["context"].close()
            shared["context"], shared["page"] = guarded_page(browser, shared["problems"])
            open_page(shared["page"])
            shared["broken"] = False
        elif put_back:
            put_back(shared["page"])
    except (AssertionError, PlaywrightError):
        shared["broken"] = True
        raise
    yield shared["page"]
    shared["problems"].target = PageProblems()
    if request.session.testsfailed > failures_before or page_problems.console_errors or page_problems.page_errors:
        shared["broken"] = True
    assert_no_problems(page_problems)


@pytest.fixture(scope="session")
def client_harness(browser):  # noqa: ARG001  (asked for so that its context closes before the browser does)
    """One harness page per test process with a started client (runtime_helpers.start_client), for `client_page`."""
    yield from shared_page_slot()


@pytest.fixture
def client_page(request, client_harness, browser, site_url, page_problems):
    """The harness page with a started client, shared by the tests that only send it requests (a request leaves
    nothing behind in Python), restart it (it is live again after) or soak it, so that they pay for one boot;
    guarded like `page` (its problems go to this test's `page_problems`). Started again after a failed test."""
    yield from using_shared_page(request, client_harness, browser, page_problems, lambda page: start_client(page, site_url))


@pytest.fixture(scope="session")
def claims_harness(browser):  # noqa: ARG001  (asked for so that its context closes before the browser does)
    """One page per test process with the model's panel open and its claims ready, for `claims_page`."""
    yield from shared_page_slot()


@pytest.fixture
def claims_page(request, claims_harness, browser, site_url, page_problems):
    """The page with the model's panel open and "Test a claim" ready, shared by the claim tests of a test process
    (their files are one group): a pair trains in two training workers, which boot once for them all. Each test
    chooses its claim and steps and starts its own run (a run starts from a cleared claim state); before it the
    window is put back to its fresh size. Opened again after a failed test; guarded like `page`."""
    def open_claims(page):
        open_live(page, f"{site_url}/")
        page.locator(sel("model-open")).click()
        # The claims are asked for once the model panel opens: on a busy machine, seconds.
        expect(page.locator(sel("claim-picker"))).to_be_visible(timeout=60_000)

    yield from using_shared_page(request, claims_harness, browser, page_problems, open_claims,
                                 lambda page: page.set_viewport_size(FRESH_VIEWPORT))


@pytest.fixture
def phone_at(browser, site_url, page_problems):
    """`phone_at(width, height)`: a page on a touch screen of that many CSS pixels (2 device pixels each) in a
    context of its own; an uncaught error on it fails the test at teardown."""
    contexts = []

    def open_phone(width, height):
        context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=2,
                                      is_mobile=True, has_touch=True)
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        contexts.append(context)
        phone = context.new_page()
        phone.on("pageerror", lambda error: page_problems.page_errors.append(str(error)))
        return phone

    yield open_phone
    for context in contexts:
        context.close()
    assert page_problems.page_errors == []


@pytest.fixture
def fresh_page(warm_fresh_context, site_url):
    """A page in another browser profile, as if a link were opened on someone else's computer: it shares
    nothing a site keeps with `page` or the shared pages, and finds what a first visit finds, as `page` does
    (the HTTP cache aside, which changes how fast a page boots, not what it shows); guarded like `page`."""
    yield from first_visit_page(warm_fresh_context, site_url, PageProblems())


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
