"""dist/ is a deployable folder: opened from a sub-path of a host, the page goes live using only its own files,
from its bundle (sitebuild/bundler.py), whose source maps lead back to the modules as written."""

from pathlib import Path
from urllib.parse import urlsplit

from page_helpers import open_every_panel

ROOT = Path(__file__).resolve().parents[2]
DIST_PATH = "/dist/"


def test_dist_goes_live_from_a_sub_path_with_only_its_own_files(page, site_url):
    # The repository root is served, so dist/ sits at a sub-path, as in an upload to a course platform.
    paths = []
    page.on("request", lambda request: paths.append(urlsplit(request.url).path))
    page.goto(site_url + DIST_PATH + "index.html")
    page.wait_for_function("() => window.attentionPlayground !== undefined")
    page.evaluate("() => window.attentionPlayground.ready")
    assert paths, "the page made requests"
    outside = [path for path in paths if not path.startswith(DIST_PATH)]
    assert outside == [], "dist/ asked for files outside itself"
    for needed in ("vendor/pyodide/pyodide.asm.wasm", "generated/attention_playground.zip", "js/runtime/worker.js"):
        assert DIST_PATH + needed in paths


def test_dist_runs_its_bundle_with_every_panel_open_and_maps_back_to_the_sources(page, site_url):
    paths = []
    page.on("request", lambda request: paths.append(urlsplit(request.url).path))
    page.goto(site_url + DIST_PATH + "index.html")
    open_every_panel(page)
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


def test_offline_the_model_trains_from_what_the_service_worker_kept(page, site_url):
    """Training starts a worker of its own (js/runtime/worker.js?for=training): offline, the service worker
    must answer that script from its cache though its address carries a query."""
    page.goto(site_url + DIST_PATH + "index.html")
    page.evaluate("() => window.attentionPlayground.ready")
    page.evaluate("() => navigator.serviceWorker.ready")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    try:
        trained = page.evaluate("() => window.attentionPlayground.model.train({seed: 1, steps: 2})")
    finally:
        page.context.set_offline(False)
    assert trained["status"] == "done" and trained["step"] == 2 and len(trained["losses"]) == 2
