"""The runtime booting in real Chromium: the worker boots Pyodide, NumPy and the module, reporting every stage in
order, then answers; the module's parts are fetched only by the first request that needs them; a restart rejects
what is pending and boots again; and a worker that cannot load, or a runtime that cannot boot, settles every call.
The expected values come from the same entry point run natively, never from numbers written here.
"""

from runtime_helpers import HARNESS, native_result, request, start_client


BOOT_STAGES = ["downloading", "starting", "numpy", "module", "ready"]


def test_boot_reports_every_stage_in_order_then_answers(page, site_url):
    stages = start_client(page, site_url)
    assert [report["stage"] for report in stages] == BOOT_STAGES
    assert all(isinstance(report["detail"], str) and report["detail"] for report in stages)
    late = page.evaluate("""() => {
      const seen = [];
      window.runtimeTest.client.onProgress((progress) => seen.push(progress.stage));
      return { seen, stage: window.runtimeTest.client.stage };
    }""")
    assert late == {"seen": ["ready"], "stage": "ready"}, "a late subscriber is told the current stage at once"
    reply = request(page, "presets")
    assert reply == {"ok": True, "result": native_result("presets")}


def test_the_module_parts_are_fetched_only_by_the_first_request_that_needs_them(page, site_url, page_problems):
    from attention_playground import parts

    fetched = []
    page.on("request", lambda sent: fetched.append(sent.url.rsplit("/", 1)[-1]))
    start_client(page, site_url)

    def module_zips():
        return [name for name in fetched if name.startswith("attention_playground")]

    assert module_zips() == [parts.zip_name(None)], "booting fetches the core only"
    # The presets part goes missing: the request that needs it says so, and Python is fine.
    presets_zip = parts.zip_name("presets")
    page.route(f"**/generated/{presets_zip}", lambda route: route.fulfill(status=404, body="missing"))
    reply = request(page, "presets")
    assert reply["ok"] is False and reply["detail"]["type"] == "PartUnavailable"
    assert presets_zip in reply["message"]
    scene = native_result("preset", {"id": parts.DEFAULT_PRESET_ID})
    assert request(page, "compute", {"scene": scene})["ok"] is True
    # Back again, the next request fetches it, once, and later ones reuse it.
    page.unroute(f"**/generated/{presets_zip}")
    assert request(page, "presets") == {"ok": True, "result": native_result("presets")}
    assert request(page, "preset", {"id": "causal-exercise"})["ok"] is True
    assert module_zips() == [parts.zip_name(None), presets_zip, presets_zip]
    page_problems.console_errors.clear()  # the browser logs the 404 of the missing part, as it should


def test_restart_rejects_pending_requests_and_boots_again(client_page):
    # The restarted client is as the next test expects it: live, and answering.
    outcome = client_page.evaluate("""async () => {
      const { client } = window.runtimeTest;
      const pending = client.request("presets").then(() => "resolved", (error) => error.detail.type);
      client.restart();
      const settled = await pending;
      await client.ready;
      const presets = await client.request("presets");
      return { settled, stage: client.stage, count: presets.length };
    }""")
    assert outcome == {"settled": "RuntimeUnavailable", "stage": "ready", "count": len(native_result("presets"))}


def test_a_worker_that_cannot_load_settles_every_call(page, site_url, page_problems):
    page.goto(site_url + HARNESS)
    outcome = page.evaluate("""async () => {
      const { createClient } = await import("/js/runtime/client.js");
      const client = createClient({ workerUrl: "/js/runtime/no-such-worker.js" });
      const ready = await client.ready.then(() => "resolved", (error) => error instanceof Error);
      const request = await client.request("presets").then(() => "resolved", (error) => error.detail.type);
      return { ready, request };
    }""")
    assert outcome == {"ready": True, "request": "RuntimeUnavailable"}
    page_problems.console_errors.clear()  # the browser logs the 404 of the missing script, as it should


def test_a_runtime_that_cannot_boot_rejects_ready_and_every_request(page, site_url):
    # The module's zip goes missing: the worker must report a fatal boot failure, not hang.
    page.route("**/generated/attention_playground.zip", lambda route: route.fulfill(status=404, body="missing"))
    page.goto(site_url + HARNESS)
    outcome = page.evaluate("""async () => {
      const { createClient } = await import("/js/runtime/client.js");
      const client = createClient();
      const early = client.request("presets").then(() => "resolved", (error) => error.detail.type);
      const ready = await client.ready.then(() => "resolved", (error) => error.message);
      const late = await client.request("presets").then(() => "resolved", (error) => error.detail.type);
      return { ready, early: await early, late };
    }""")
    assert "attention_playground.zip" in outcome["ready"]
    assert outcome["early"] == outcome["late"] == "RuntimeUnavailable"
