"""dist/ is a deployable folder: opened from a sub-path of a host, the page goes live using only its own files."""

from urllib.parse import urlsplit

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
