"""Cross-origin isolation, wherever the page is served: it is what lets Stop interrupt a learner's runaway code
(Pyodide's interrupt buffer is a SharedArrayBuffer) instead of ending its worker.

  - `build.py serve` sends the headers on every response;
  - dist/_headers asks a static host that reads it for the same headers;
  - on a host that sends none (here the offline zip served by `python3 -m http.server`), the service worker
    adds them, so from the second visit on the page is isolated too.

Where the page is not isolated (a plain host, the first visit), Stop ends the worker and a spare takes over:
test_exercise_runaway_code.py.
"""

import math

from playwright.sync_api import expect

from attention_playground import compute
from attention_playground.presets import random_scene
from page_helpers import await_ready, paste_code, sel
from sitebuild import csp

LOOP = "def softmax(x, axis=-1):\n    while True:\n        pass\n"


def open_softmax_exercise(page):
    page.locator(sel("exercise-open")).click()
    page.locator(sel("exercise-tab-softmax")).click(timeout=90_000)
    return page.locator(sel("exercise-status"))


def run_and_stop(page):
    """Run an endless loop in the open exercise, press Stop; the status once the page is back."""
    paste_code(page, LOOP)
    status = page.locator(sel("exercise-status"))
    page.locator(sel("exercise-run")).click()
    expect(status).to_have_attribute("data-outcome", "running", timeout=90_000)
    page.locator(sel("exercise-stop")).click()
    expect(status).to_have_attribute("data-outcome", "stopped", timeout=90_000)
    return status


def test_the_development_server_isolates_every_response(page, site_url):
    responses = []
    page.on("response", lambda response: responses.append(response))
    page.goto(f"{site_url}/")
    await_ready(page)
    assert page.evaluate("self.crossOriginIsolated") is True
    own = [response for response in responses if response.url.startswith(site_url)]
    assert any(response.url.endswith(".wasm") for response in own) and any("/js/" in response.url for response in own)
    for response in own:
        headers = response.all_headers()
        for name, value in csp.ISOLATION_HEADERS.items():
            assert headers.get(name.lower()) == value, f"{response.url} lacks {name}"


def test_on_a_host_that_sends_no_headers_the_service_worker_isolates_the_page_from_the_second_visit(unpacked_zip_server, page):
    # (the server fixture first: it must outlive the page)
    page.goto(unpacked_zip_server + "index.html")
    await_ready(page)
    assert page.evaluate("self.crossOriginIsolated") is False
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")

    page.reload()
    await_ready(page)
    assert page.evaluate("self.crossOriginIsolated") is True
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    # Isolated, the learner's loop is interrupted, not its worker ended.
    open_softmax_exercise(page)
    status = run_and_stop(page)
    expect(status).to_have_attribute("data-stopped-by", "interrupt")
    expect(status).to_contain_text("Python interrupted it")


def test_on_a_plain_host_the_built_page_shows_a_64_token_scene_with_one_hot_values_and_shows_it_again(page, plain_site_url):
    """What a course author hosts: dist/ with no isolation headers. Without SharedArrayBuffer the scene and its
    result cross to and from Python by message; a scene whose values are one-hot markers (Wv null, so its value
    dims are named after its 64 tokens) comes back whole, and the same scene set again gives the same result."""
    page.goto(f"{plain_site_url}/dist/")
    await_ready(page)
    assert page.evaluate("self.crossOriginIsolated") is False
    scene = random_scene(64, seed=11, digits=2, mask="causal")
    scene["heads"][0]["Wv"] = None
    native = compute(scene)
    first = page.evaluate("scene => window.attentionPlayground.setScene(scene)", scene)
    head, native_head = first["heads"][0], native["heads"][0]
    assert head["value_dims"] == native_head["value_dims"] == scene["tokens"]
    for got_matrix, want_matrix in [(head["weights"], native_head["weights"]), (first["output"], native["output"]),
                                     (head["stages"]["V"], native_head["stages"]["V"])]:
        for got_row, want_row in zip(got_matrix, want_matrix, strict=True):
            for got, want in zip(got_row, want_row, strict=True):
                assert (got is None) == (want is None)
                assert want is None or math.isclose(got, want, rel_tol=0, abs_tol=1e-12)
    expect(page.locator(sel("heatmap-cell"))).to_have_count(64 * 64)
    for _ in range(3):
        assert page.evaluate("scene => window.attentionPlayground.setScene(scene)", scene) == first
    assert page.evaluate("window.attentionPlayground.getScene()") == scene
