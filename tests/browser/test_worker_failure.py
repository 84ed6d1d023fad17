"""When Python cannot start, the page says so plainly, keeps showing the preview, and Retry starts a fresh worker
that goes live once the files are there again.

Each failure is made with Playwright's routing: a runtime file missing (404) or corrupted, the NumPy wheel
altered (its sha256 no longer matches the lockfile), the worker script replaced by one that throws, and the
worker started without WebAssembly.
"""

from pathlib import Path

import pytest
from playwright.sync_api import expect
from page_helpers import sel

ROOT = Path(__file__).resolve().parents[2]
WORKER_SOURCE = (ROOT / "js" / "runtime" / "worker.js").read_text(encoding="utf-8")


def missing(route):
    route.fulfill(status=404, body="not here")


def corrupted(route):
    route.fulfill(status=200, content_type="application/wasm", body=b"\x00asm\x01\x00\x00\x00 this is not a module")


def altered_wheel(route):
    body = route.fetch().body()
    route.fulfill(status=200, content_type="application/zip", body=body[:-100] + b"\x00" * 100)


def throwing_worker(route):
    route.fulfill(response=route.fetch(), body='throw new Error("the worker broke on purpose");')


def worker_without_webassembly(route):
    # The real worker, with WebAssembly taken away before its first line runs.
    # The real response's headers are kept: on the isolated page a worker must come with them.
    route.fulfill(response=route.fetch(), body="delete globalThis.WebAssembly;\n" + WORKER_SOURCE)


FAILURES = {
    "wasm-missing": ("**/vendor/pyodide/pyodide.asm.wasm", missing, "Python could not start"),
    "wasm-corrupted": ("**/vendor/pyodide/pyodide.asm.wasm", corrupted, "Python could not start"),
    "numpy-wrong-hash": ("**/vendor/pyodide/numpy-*.whl", altered_wheel, "Python could not start"),
    "worker-throws": ("**/js/runtime/worker.js", throwing_worker, "the Python worker failed"),
    "no-webassembly": ("**/js/runtime/worker.js", worker_without_webassembly, "does not run WebAssembly"),
}


@pytest.mark.parametrize("failure", list(FAILURES))
def test_a_failed_start_is_reported_and_retry_recovers(page, site_url, page_problems, artifacts, failure):
    pattern, handler, words = FAILURES[failure]
    page.route(pattern, handler)
    page.goto(f"{site_url}/")

    playground = page.locator(sel("playground"))
    expect(playground).to_have_attribute("data-status", "failed", timeout=120_000)
    status = page.locator(sel("boot-stage"))
    expect(status).to_contain_text(words)
    expect(status).to_contain_text("saved preview")
    # The preview stays: a full heatmap and its title.
    expect(page.locator(sel("heatmap-cell"))).to_have_count(100)
    expect(page.locator(sel("preview-badge"))).to_have_text("preview — Python could not start")
    retry = page.get_by_role("button", name="Retry")
    expect(retry).to_be_visible()
    if failure == "wasm-missing":
        page.screenshot(path=str(artifacts / "worker-failed.png"), full_page=False)

    # The file is back: Retry starts a fresh worker, and the page goes live without a reload.
    page.unroute(pattern)
    page.evaluate("window.__sameDocument = true")
    retry.click()
    expect(playground).to_have_attribute("data-status", "live", timeout=120_000)
    expect(status).to_contain_text("Python is live")
    expect(retry).to_be_hidden()
    assert page.evaluate("window.__sameDocument") is True, "Retry reloaded the page"
    tokens = page.evaluate(
        """() => window.attentionPlayground.setScene({title: "after retry", tokens: ["a", "b"], features: ["f"],
             X: [[1], [0]], heads: [{name: "h", dims: ["d"], Wq: [[1]], Wk: [[1]], Wv: null}], mask: "none", scale: true})
           .then((result) => result.tokens)"""
    )
    assert tokens == ["a", "b"]
    expect(page.locator(sel("heatmap-cell"))).to_have_count(4)

    # The browser logs the refused or broken download, and the worker's own error; nothing on the page threw.
    assert page_problems.page_errors == []
    page_problems.clear()


def test_retry_while_still_broken_fails_again_plainly(page, site_url, page_problems):
    page.route("**/vendor/pyodide/pyodide.asm.wasm", missing)
    page.goto(f"{site_url}/")
    playground = page.locator(sel("playground"))
    expect(playground).to_have_attribute("data-status", "failed", timeout=120_000)
    page.get_by_role("button", name="Retry").click()
    expect(playground).to_have_attribute("data-status", "failed", timeout=120_000)
    expect(page.locator(sel("boot-stage"))).to_contain_text("Python could not start")
    outcome = page.evaluate(
        "() => window.attentionPlayground.setScene({}).then(() => 'resolved', (error) => error.message)"
    )
    assert outcome.startswith("Python could not start"), outcome
    assert page_problems.page_errors == []
    page_problems.clear()
