"""The builds an author hosts: dist/ is a deployable folder (opened from a sub-path of a host, the page goes live
using only its own files, from its bundle, sitebuild/bundler.py, whose source maps lead back to the modules as
written), which works offline once its service worker has kept it; the offline zip, unpacked and served by
Python's own web server, goes live with only its own files; and the CDN build (`build.py --cdn`) loads the runtime
from the CDN's address.
"""

import http.server
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from attention_playground import compute
from embed_helpers import assert_same_weights
from page_helpers import await_ready, open_every_panel, preset_scene, sel
from sitebuild import csp, paths, runtime, server as dev_server, variants

ROOT = Path(__file__).resolve().parents[2]
DIST_PATH = "/dist/"


def test_dist_goes_live_from_a_sub_path_with_only_its_own_files_and_runs_its_bundle_mapped_to_the_sources(page, site_url):
    # The repository root is served, so dist/ sits at a sub-path, as in an upload to a course platform.
    paths = []
    page.on("request", lambda request: paths.append(urlsplit(request.url).path))
    page.goto(site_url + DIST_PATH + "index.html")
    page.wait_for_function("() => window.attentionPlayground !== undefined")
    await_ready(page)
    for needed in ("vendor/pyodide/pyodide.asm.wasm", "generated/attention_playground.zip", "js/runtime/worker.js"):
        assert DIST_PATH + needed in paths
    # Every panel open (the exercises' Python, the trained model, the lessons), still nothing from outside dist/.
    open_every_panel(page)
    outside = [path for path in paths if not path.startswith(DIST_PATH)]
    assert outside == [], "dist/ asked for files outside itself"
    scripts = [path.removeprefix(DIST_PATH) for path in paths if path.endswith(".js")]
    # The bundle, not the sources: the entry scripts, their chunks and the worker (CodeMirror is vendored).
    own = [path for path in scripts if not path.startswith("vendor/")]
    assert {"js/boot.js", "js/main.js", "js/runtime/worker.js"} <= set(own)
    assert all(path in {"js/boot.js", "js/main.js", "js/runtime/worker.js"} or path.startswith("js/chunks/") for path in own), own
    assert any(path.startswith("vendor/codemirror/") for path in scripts), "the exercise editor loaded"
    # Each bundle names its source map, and the map carries the modules as written, comments included.
    main = page.evaluate(f"fetch('{DIST_PATH}js/main.js').then((response) => response.text())")
    assert main.rstrip().endswith("//# sourceMappingURL=main.js.map")
    source_map = page.evaluate(f"fetch('{DIST_PATH}js/main.js.map').then((response) => response.json())")
    controller = next(index for index, source in enumerate(source_map["sources"]) if source.endswith("js/page/controller.js"))
    assert source_map["sourcesContent"][controller] == (ROOT / "js/page/controller.js").read_text(encoding="utf-8")


# --- offline: the service worker and the zip ----------------------------------------------------------------


def test_built_site_reloads_goes_live_and_trains_with_the_network_off(page, site_url):
    """Training starts a worker of its own (js/runtime/worker.js?for=training): offline, the service worker
    must answer that script from its cache though its address carries a query."""
    page.goto(f"{site_url}/dist/index.html")
    await_ready(page)
    # The service worker installs once the page is live and idle; `ready` resolves when it is active,
    # that is, when everything is in its cache.
    scope = page.evaluate("navigator.serviceWorker.ready.then((registration) => registration.scope)")
    assert scope == f"{site_url}/dist/"
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    cache_names = page.evaluate("caches.keys()")
    assert len(cache_names) == 1 and cache_names[0].startswith("attention-playground-pyodide-0.27.7-")

    page.context.set_offline(True)
    try:
        page.reload()
        await_ready(page)
        expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
        # Still computing offline: a new scene goes through Python.
        dog = preset_scene("dog-bites-man")
        result = page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", dog)
        assert_same_weights(result, compute(dog))
        trained = page.evaluate("() => window.attentionPlayground.model.train({seed: 1, steps: 2})")
        assert trained["status"] == "done" and trained["step"] == 2 and len(trained["losses"]) == 2
        # And an embedded frame of the same site works offline too.
        page.goto(f"{site_url}/dist/index.html?embed&panels=heatmap#preset=causal-exercise")
        await_ready(page)
        expect(page.locator(sel("heatmap-cell"))).to_have_count(36)
    finally:
        page.context.set_offline(False)


# The server fixture comes first so that it is torn down after the page: the page keeps loading the views it
# imports when idle, and a server gone under it would show up as console errors.
def test_offline_zip_unpacked_and_served_goes_live_with_only_its_own_files(unpacked_zip_server, page):
    paths = []
    page.on("request", lambda request: paths.append(urlsplit(request.url)))
    page.goto(unpacked_zip_server + "index.html")
    await_ready(page)
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    dog = preset_scene("dog-bites-man")
    assert_same_weights(page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", dog), compute(dog))
    base = urlsplit(unpacked_zip_server)
    assert all(url.netloc == base.netloc and url.path.startswith(base.path) for url in paths), "the zip's site asked for files outside itself"
    # Embed mode works from the zip too.
    page.goto(unpacked_zip_server + "index.html?embed&panels=heatmap,bars#preset=dog-bites-man")
    await_ready(page)
    expect(page.locator(sel("scene-title"))).to_have_text("dog bites man")


# --- the CDN build -------------------------------------------------------------------------------------------


@pytest.fixture
def cdn_site_url(built_site):
    """dist-cdn/, built as `build.py --cdn` builds it, served the way its README asks a static host to: with
    the response headers its `_headers` file lists (the worker's Content-Security-Policy)."""
    runtime_files = [path.name for path in runtime.VENDOR_DIR.iterdir() if path.is_file()]
    policy = csp.content_security_policy([variants.cdn_origin(runtime.CDN_URL)])
    variants.write_cdn_site(paths.DIST_DIR, paths.CDN_DIR, runtime.CDN_URL, runtime.PYODIDE_VERSION, runtime_files, header_policy=policy)
    headers_file = (paths.CDN_DIR / variants.HEADERS_FILE).read_text().splitlines()
    headers = [line.strip().split(": ", 1) for line in headers_file[1:] if line.strip()]

    class CdnSiteHandler(http.server.SimpleHTTPRequestHandler):
        extensions_map = dev_server.SiteRequestHandler.extensions_map

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(paths.CDN_DIR), **kwargs)

        def end_headers(self):
            for name, value in headers:
                self.send_header(name, value)
            super().end_headers()

        def log_message(self, *args):
            pass

    with dev_server.serving(CdnSiteHandler) as url:
        yield url + "/"


def test_cdn_build_loads_the_runtime_from_the_cdn_address(cdn_site_url, page, page_problems):
    # (cdn_site_url first: its server must outlive the page)
    # The CDN cannot be reached from here, so its address is answered with the same pinned files: what
    # this checks is that the CDN build asks for the runtime there, its policy lets it, and it goes live.
    served = []

    def from_the_pinned_copy(route):
        name = urlsplit(route.request.url).path.rsplit("/", 1)[-1]
        served.append(name)
        types = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json"}
        route.fulfill(
            status=200,
            path=runtime.VENDOR_DIR / name,  # read by the driver itself: 10 MB never cross from Python
            headers={"Content-Type": types.get(Path(name).suffix, "application/octet-stream"), "Access-Control-Allow-Origin": "*"},
        )

    page.context.route(runtime.CDN_URL + "**", from_the_pinned_copy)
    page.goto(cdn_site_url + "index.html")
    await_ready(page)
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    assert {"pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip"} <= set(served)
    assert any(name.startswith("numpy-") for name in served)
    # Its service worker installs too, keeping the CDN's files beside the site's own.
    page.evaluate("navigator.serviceWorker.ready")
    # The only requests that left 127.0.0.1 went to the CDN.
    assert page_problems.foreign_requests and all(url.startswith(runtime.CDN_URL) for url in page_problems.foreign_requests)
    page_problems.foreign_requests.clear()
