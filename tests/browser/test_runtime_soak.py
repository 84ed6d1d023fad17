"""The runtime soaked: 2000 compute requests, alternating a small scene sent as JSON and a 64-token one sent packed,
each with an edited cell; every reply's weights are rows of probabilities, the last ones equal the native
results, and the worker's heap, the page's heap and the renderers' resident memory stay bounded.
"""

import json
import time

from attention_playground.presets import random_scene
from runtime_helpers import SIZE_LIMIT, assert_close, native_result


SOAK_REQUESTS = 2000
SOAK_CHUNK = 250
# Growth allowed between the first measurement (after one chunk, once everything is warm) and the last.
# A leak of one result per request would be hundreds of MB; this bound is generous to GC timing.
MAX_WORKER_HEAP_GROWTH = 32e6
MAX_PAGE_HEAP_GROWTH = 16e6
MAX_RENDERER_GROWTH = 96e6


# Send `count` compute requests one after another, alternating the small and the large scene, each with one
# edited cell (as a learner's edit would be), and check every reply's weights are rows of probabilities. The
# small scene travels as JSON, the large one packed (its matrices in one Float64Array), as the page sends a scene
# of numbers: both ways in and out of the worker are soaked.
SOAK_CHUNK_JS = """async ([small, large, start, count]) => {
  const { client } = window.runtimeTest;
  let last = {};
  for (let i = start; i < start + count; i++) {
    const scene = i % 2 === 0 ? small : large;
    scene.X[i % scene.X.length][0] = ((i * 7) % 11) - 5;
    const result = scene === large ? await client.requestScene("compute", scene) : await client.request("compute", { scene });
    for (const row of result.heads[0].weights) {
      const total = row.reduce((sum, weight) => sum + weight, 0);
      if (!(Math.abs(total - 1) < 1e-9)) throw new Error(`request ${i}: a weights row sums to ${total}`);
    }
    last[i % 2 === 0 ? "small" : "large"] = { scene: structuredClone(scene), result };
  }
  return last;
}"""


# How long to wait for the worker to answer the DevTools protocol.
INSPECTOR_TIMEOUT_SECONDS = 60


class WorkerInspector:
    """Chromium's DevTools protocol, spoken to the page's worker (to read its heap without touching its code)."""

    def __init__(self, page):
        self.page = page
        self.session = page.context.new_cdp_session(page)
        self.replies = {}
        self.worker_session = None
        self.next_id = 1
        self.session.on("Target.attachedToTarget", self._attached)
        self.session.on("Target.receivedMessageFromTarget", self._received)
        self.session.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": False})
        self._wait_for(lambda: self.worker_session is not None, "the worker to be attached")

    def _attached(self, event):
        if event["targetInfo"]["type"] == "worker":
            self.worker_session = event["sessionId"]

    def _received(self, event):
        message = json.loads(event["message"])
        if "id" in message:
            self.replies[message["id"]] = message

    def _wait_for(self, condition, what):
        deadline = time.monotonic() + INSPECTOR_TIMEOUT_SECONDS
        while not condition():
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            self.page.wait_for_timeout(20)  # lets Playwright deliver the protocol's events

    def call(self, method, params=None):
        message_id = self.next_id
        self.next_id += 1
        message = json.dumps({"id": message_id, "method": method, "params": params or {}})
        self.session.send("Target.sendMessageToTarget", {"sessionId": self.worker_session, "message": message})
        self._wait_for(lambda: message_id in self.replies, method)
        reply = self.replies.pop(message_id)
        assert "error" not in reply, reply
        return reply["result"]

    def memory(self):
        """The worker's JS heap in use after a garbage collection."""
        self.call("HeapProfiler.collectGarbage")
        return self.call("Runtime.getHeapUsage")["usedSize"]

    def page_heap(self):
        self.session.send("HeapProfiler.collectGarbage")
        metrics = {metric["name"]: metric["value"] for metric in self.session.send("Performance.getMetrics")["metrics"]}
        return metrics["JSHeapUsedSize"]


def renderer_memory(browser_session):
    """Resident memory of Chromium's renderer processes, which hold the page and its worker, including the
    worker's WebAssembly memory (where Python and every Python object live: it grows and never shrinks, so
    a leak in Python shows here; DevTools cannot read it from inside a worker without crashing the page)."""
    processes = browser_session.send("SystemInfo.getProcessInfo")["processInfo"]
    return sum(resident_bytes(process["id"]) for process in processes if process["type"] == "renderer")


def resident_bytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def test_soak_of_2000_updates_stays_alive_and_bounded(client_page, artifacts):
    """A fatal error would reject a request and so fail the chunk that saw it; memory is sampled per chunk.
    (The shared client's page: what the tests before left there is counted in the first sample, not as growth.)"""
    page = client_page
    inspector = WorkerInspector(page)
    inspector.session.send("Performance.enable")
    browser_session = page.context.browser.new_browser_cdp_session()
    small = native_result("preset", {"id": native_result("presets")[0]["id"]})
    large = random_scene(SIZE_LIMIT, digits=6)

    samples = []
    for start in range(0, SOAK_REQUESTS, SOAK_CHUNK):
        last = page.evaluate(SOAK_CHUNK_JS, [small, large, start, SOAK_CHUNK])
        samples.append({
            "requests": start + SOAK_CHUNK,
            "worker_heap": inspector.memory(),
            "page_heap": inspector.page_heap(),
            "renderer_resident": renderer_memory(browser_session),
        })
        small, large = last["small"]["scene"], last["large"]["scene"]

    # Still computing correctly at the end: the last replies equal the native results.
    for name in ("small", "large"):
        assert_close(last[name]["result"], native_result("compute", {"scene": last[name]["scene"]}), f"last {name}")

    (artifacts / "soak-memory.json").write_text(json.dumps(samples, indent=2))
    print("\nsoak memory (bytes):", *(json.dumps(sample) for sample in samples), sep="\n  ")
    first, final = samples[0], samples[-1]
    assert final["worker_heap"] - first["worker_heap"] < MAX_WORKER_HEAP_GROWTH, samples
    assert final["page_heap"] - first["page_heap"] < MAX_PAGE_HEAP_GROWTH, samples
    assert final["renderer_resident"] - first["renderer_resident"] < MAX_RENDERER_GROWTH, samples
