"""The runtime in real Chromium: the worker boots Pyodide, NumPy and the module, and the client talks to it.

Each test opens tests/browser/harness.html (an empty page of the site) and imports js/runtime/client.js into
it, so the runtime is tested on its own, without the page's UI; the tests that only send requests, restart
the client (which leaves it live again) or soak it share one such page (`client_page`). The expected values
come from the same entry point run natively, never from numbers written here.
"""

import json
import math
import time

import pytest

from attention_playground.entry import handle
from attention_playground.presets import random_scene
from conftest import PageProblems, assert_no_problems, guarded_page

HARNESS = "/tests/browser/harness.html"
BOOT_STAGES = ["downloading", "starting", "numpy", "module", "ready"]
TOLERANCE = 1e-12
# How long to wait for the worker to answer the DevTools protocol.
INSPECTOR_TIMEOUT_SECONDS = 60

# Start a client, keep it on the harness page for later calls, and record every progress report.
START_CLIENT = """async () => {
  const { createClient } = await import("/js/runtime/client.js");
  const client = createClient();
  const stages = [];
  client.onProgress(({ stage, detail }) => stages.push({ stage, detail }));
  window.runtimeTest = { client, stages };
  await client.ready;
  return stages;
}"""

# Send one request through the kept client; a rejection comes back as data so the test can inspect it.
REQUEST = """async ([kind, payload]) => {
  try {
    return { ok: true, result: await window.runtimeTest.client.request(kind, payload) };
  } catch (error) {
    return { ok: false, isError: error instanceof Error, message: error.message, detail: error.detail ?? null };
  }
}"""


def native(kind, payload=None):
    """The reply of the module's entry point run natively, with the same request the worker sends."""
    return json.loads(handle(json.dumps({"kind": kind, "payload": payload or {}})))


def native_result(kind, payload=None):
    reply = native(kind, payload)
    assert reply["ok"], reply
    return reply["result"]


def assert_close(actual, expected, path="result"):
    """Equal structure and strings; numbers equal to TOLERANCE (relative, or absolute near zero)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict) and actual.keys() == expected.keys(), f"{path}: keys differ"
        for key in expected:
            assert_close(actual[key], expected[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{path}: lengths differ"
        for index, (a, e) in enumerate(zip(actual, expected)):
            assert_close(a, e, f"{path}[{index}]")
    elif isinstance(expected, (int, float)) and not isinstance(expected, bool):
        assert isinstance(actual, (int, float)) and not isinstance(actual, bool), f"{path}: {actual!r} is not a number"
        assert math.isclose(actual, expected, rel_tol=TOLERANCE, abs_tol=TOLERANCE), f"{path}: {actual!r} != {expected!r}"
    else:
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"


def start_client(page, site_url):
    page.goto(site_url + HARNESS)
    return page.evaluate(START_CLIENT)


def request(page, kind, payload=None):
    return page.evaluate(REQUEST, [kind, payload or {}])


@pytest.fixture(scope="module")
def client_page(browser, site_url):
    """One harness page with a started client, shared by the tests that only send it requests (a request leaves
    nothing behind in Python), restart it (it is live again after) or soak it, so they pay for one boot;
    guarded like `page`, checked when the module ends."""
    problems = PageProblems()
    context, shared = guarded_page(browser, problems)
    start_client(shared, site_url)
    yield shared
    context.close()
    assert_no_problems(problems)


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


def test_every_preset_computes_as_natively(client_page):
    presets = native_result("presets")
    assert presets, "the module has presets"
    for preset in presets:
        scene = request(client_page, "preset", {"id": preset["id"]})
        assert scene["ok"], scene
        assert_close(scene["result"], native_result("preset", {"id": preset["id"]}), f"preset {preset['id']}")
        computed = request(client_page, "compute", {"scene": scene["result"]})
        assert computed["ok"], computed
        assert_close(computed["result"], native_result("compute", {"scene": scene["result"]}), f"compute({preset['id']})")


def test_a_bad_scene_rejects_with_the_modules_message(client_page):
    scene = native_result("preset", {"id": native_result("presets")[0]["id"]})
    scene["X"][0][0] = "abc"
    expected = native("compute", {"scene": scene})
    assert not expected["ok"]
    reply = request(client_page, "compute", {"scene": scene})
    assert reply["ok"] is False and reply["isError"] is True
    assert reply["message"] == expected["error"]["message"]
    assert reply["detail"] == expected["error"]
    # The worker is still fine afterwards.
    assert request(client_page, "presets")["ok"] is True


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


# --- packed replies: exact to the bit -----------------------------------------------------------------------

# The reference: the module's own handle(), run by a second Pyodide on the page itself. Pyodide's NumPy can
# differ from the native one in the last bit of a float (its exp() is another build), so "exact" is judged
# against the same runtime the worker runs, never against the native numbers.
START_REFERENCE = """async () => {
  const { loadPyodide } = await import("/vendor/pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: "/vendor/pyodide/", packages: ["numpy"] });
  const zip = await (await fetch("/generated/attention_playground.zip")).arrayBuffer();
  pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/reference" });
  window.referenceHandle = pyodide.runPython(`
import sys
sys.path.insert(0, "/home/pyodide/reference")
from attention_playground.entry import handle
handle
`);
}"""

# Compare, inside the page, what the client resolves with to the reference's JSON reply parsed as the page
# parses JSON. Numbers must be the same float64 (Object.is: -0 is not 0), arrays and objects plain.
# Returns null, or the path of the first difference.
FIRST_DIFFERENCE_JS = """
function firstDifference(actual, expected, path) {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || Object.getPrototypeOf(actual) !== Array.prototype) {
      return `${path}: not a plain array`;
    }
    if (actual.length !== expected.length) return `${path}: length ${actual.length}, expected ${expected.length}`;
    for (let i = 0; i < expected.length; i++) {
      const found = firstDifference(actual[i], expected[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Object.getPrototypeOf(actual) !== Object.prototype) {
      return `${path}: not a plain object`;
    }
    const keys = Object.keys(expected);
    if (JSON.stringify(Object.keys(actual)) !== JSON.stringify(keys)) return `${path}: keys differ`;
    for (const key of keys) {
      const found = firstDifference(actual[key], expected[key], `${path}.${key}`);
      if (found) return found;
    }
    return null;
  }
  return Object.is(actual, expected) ? null : `${path}: ${actual} (${typeof actual}), expected ${expected}`;
}
"""

COMPARE_WITH_REFERENCE = """async (scene) => {
  %s
  const reply = JSON.parse(window.referenceHandle(JSON.stringify({ kind: "compute", payload: { scene } })));
  if (!reply.ok) return `the reference failed: ${reply.error.message}`;
  const actual = await window.runtimeTest.client.request("compute", { scene });
  return firstDifference(actual, reply.result, "result");
}""" % FIRST_DIFFERENCE_JS


def overflowing_scene():
    """Numbers too large for a float: inf in Q and nan in the weights, which arrive as null."""
    scene = native_result("preset", {"id": "dog-bites-man"})
    scene["X"][2] = [1e200, -1e200]
    scene["heads"][0]["Wq"] = [[1e200, 0], [0, 1]]
    return scene


def two_head_scene():
    """Two heads of different sizes (one with one-hot markers as values) and a row that reads nothing."""
    scene = native_result("preset", {"id": "it-animal-noun"})
    n_features, n_tokens = len(scene["features"]), len(scene["tokens"])
    scene["heads"].append({"name": "markers", "dims": ["m0", "m1", "m2"], "Wq": [[0.5, -1, 2]] * n_features,
                           "Wk": [[1, 0.25, -3]] * n_features, "Wv": None})
    scene["mask"] = [[j > i or i == 1 for j in range(n_tokens)] for i in range(n_tokens)]
    return scene


def test_compute_results_equal_the_modules_json_to_the_bit(client_page):
    """The worker ships matrices as float64 bytes; what the client rebuilds must be what handle() would give."""
    client_page.evaluate(START_REFERENCE)
    scenes = {preset["id"]: native_result("preset", {"id": preset["id"]}) for preset in native_result("presets")}
    scenes["64 tokens"] = random_scene(SIZE_LIMIT, seed=5, digits=6)
    scenes["overflow"] = overflowing_scene()
    scenes["two heads"] = two_head_scene()
    for name, scene in scenes.items():
        assert client_page.evaluate(COMPARE_WITH_REFERENCE, scene) is None, name


# Talk to the worker directly, without the client, to see the replies as they travel.
RAW_WORKER_REPLIES = """async (scene) => {
  const worker = new Worker("/js/runtime/worker.js", { type: "module" });
  const replies = new Map();
  const ready = new Promise((resolve) => {
    worker.addEventListener("message", ({ data }) => {
      if (data.type === "progress" && data.stage === "ready") resolve();
      if (data.id !== undefined) replies.get(data.id)(data);
    });
  });
  const send = (id, kind, payload, matrices) => new Promise((resolve) => {
    replies.set(id, resolve);
    worker.postMessage(matrices === undefined ? { id, kind, payload } : { id, kind, payload, matrices });
  });
  await ready;
  const compute = await send(1, "compute", { scene });
  const presets = await send(2, "presets", {});
  const bad = await send(3, "compute", { scene: { ...scene, tokens: [] } });
  // The same scene packed as the page sends it, and a packed request whose numbers are not a Float64Array.
  const { packScene, unpackMatrices, withInputsSent } = await import("/js/runtime/client.js");
  const { payload, matrices, sent } = packScene(scene);
  const packedCompute = await send(4, "compute", payload, matrices);
  const badNumbers = await send(5, "compute", payload, [1, 2, 3]);
  // The page keeps what it sent: the packed reply leaves out the inputs the request sent packed, and the client
  // puts them back; what it then holds is the plain request's result, to the bit.
  const readBack = (reply) => unpackMatrices(structuredClone(reply.result), reply.matrices);
  worker.terminate();
  // Every number the same to the bit (-0 is not 0), walking both results in step.
  const sameNumbers = (a, b) => (typeof a === "number" ? Object.is(a, b) : a === null || typeof a !== "object" ? a === b
    : Object.keys(a).length === Object.keys(b ?? {}).length && Object.keys(a).every((key) => sameNumbers(a[key], b[key])));
  const stages = compute.result.heads[0].stages;
  const descriptors = [];
  JSON.stringify(compute.result, (key, value) => {
    if (key === "$matrix") descriptors.push(value);
    return value;
  });
  return {
    matricesType: Object.prototype.toString.call(compute.matrices),
    matricesLength: compute.matrices.length,
    descriptors,
    weights: stages.weights,
    headWeights: compute.result.heads[0].weights,
    output: compute.result.output,
    mask: compute.result.mask,
    presetsHaveMatrices: "matrices" in presets,
    badHasMatrices: "matrices" in bad,
    badType: bad.error.type,
    packedSentNumbers: matrices instanceof Float64Array && JSON.stringify(payload).includes("$matrix"),
    packedLeftOutWhatItSent: !("X" in packedCompute.result) && !("Wq" in packedCompute.result.heads[0]),
    packedSameResult: JSON.stringify(withInputsSent(readBack(packedCompute), sent)) === JSON.stringify(readBack(compute)),
    packedSameNumbers: sameNumbers(withInputsSent(readBack(packedCompute), sent), readBack(compute)),
    badNumbersType: badNumbers.error.type,
  };
}"""


def test_the_worker_packs_compute_replies_only(page, site_url):
    page.goto(site_url + HARNESS)
    scene = native_result("preset", {"id": "dog-bites-man"})
    raw = page.evaluate(RAW_WORKER_REPLIES, scene)
    n_tokens = len(scene["tokens"])
    plain = native_result("compute", {"scene": scene})
    assert raw["matricesType"] == "[object Float64Array]"
    assert raw["weights"] == raw["headWeights"] == {"$matrix": [raw["weights"]["$matrix"][0], n_tokens, n_tokens]}
    assert raw["output"]["$matrix"][1:] == [n_tokens, len(plain["output_dims"])]
    assert len(raw["descriptors"]) > 8, "every stage and more"
    assert raw["matricesLength"] == max(offset + rows * cols for offset, rows, cols in raw["descriptors"])
    assert raw["mask"] == plain["mask"], "the mask (booleans) travels as it is"
    assert raw["presetsHaveMatrices"] is False and raw["badHasMatrices"] is False
    assert raw["badType"] == "SceneError"
    # A packed request is answered as the plain one, less the inputs it sent, which the client puts back: then
    # exactly as the plain one. Numbers of the wrong type are refused.
    assert raw["packedSentNumbers"] and raw["packedLeftOutWhatItSent"]
    assert raw["packedSameResult"] and raw["packedSameNumbers"]
    assert raw["badNumbersType"] == "BadRequest"


PACK_CASES = """async () => {
  const { packScene } = await import("/js/runtime/client.js");
  const { MATRIX_KEY } = await import("/js/runtime/protocol.js");
  const scene = {
    title: "t", X: [[1, -0], [2.5, 3]], mask: [[false, true], [false, false]],
    heads: [{ Wq: [[1], [2]], Wk: [[0.5], ["typed"]], Wv: null }, { Wq: [[1, 2], [3]], Wk: [], Wv: [[NaN], [1]] }],
  };
  const before = JSON.stringify(scene);
  const { payload, matrices } = packScene(scene);
  const packed = payload.scene;
  const nothing = packScene({ title: "t", X: [["a"]], heads: [] });
  return {
    unchanged: JSON.stringify(scene) === before,
    X: packed.X, Wq: packed.heads[0].Wq, Wk: packed.heads[0].Wk, Wv: packed.heads[0].Wv,
    others: [packed.heads[1].Wq, packed.heads[1].Wk, packed.heads[1].Wv].map((m) => MATRIX_KEY in Object(m)),
    mask: packed.mask,
    numbers: Array.from(matrices, (value) => (Object.is(value, -0) ? "-0" : value)),
    nothing: nothing.matrices === null && nothing.payload.scene.X[0][0] === "a",
    notAScene: packScene("text").payload.scene === "text" && packScene("text").matrices === null,
  };
}"""


def test_a_scene_is_packed_where_its_matrices_are_all_numbers(page, site_url):
    page.goto(site_url + HARNESS)
    outcome = page.evaluate(PACK_CASES)
    assert outcome == {
        "unchanged": True,
        "X": {"$matrix": [0, 2, 2]},
        "Wq": {"$matrix": [4, 2, 1]},
        "Wk": [[0.5], ["typed"]],  # typed text stays, for Python to name the cell
        "Wv": None,
        "others": [False, False, False],  # ragged, empty, not finite: left as they are
        "mask": [[False, True], [False, False]],
        "numbers": [1, "-0", 2.5, 3, 1, 2],
        "nothing": True,
        "notAScene": True,
    }


UNPACK_CASES = """async () => {
  const { unpackMatrices } = await import("/js/runtime/client.js");
  const { MATRIX_KEY } = await import("/js/runtime/protocol.js");
  const values = new Float64Array([9, -0, NaN, -Infinity, Infinity, 5e-324, 1.7976931348623157e308, -1.5, 7]);
  const packed = { a: { [MATRIX_KEY]: [1, 2, 4] }, list: [{ [MATRIX_KEY]: [7, 1, 1] }, "text", [true, null]],
                   empty: { [MATRIX_KEY]: [0, 0, 0] }, near: { [MATRIX_KEY]: [8, 1, 1], other: 1 } };
  const unpacked = unpackMatrices(packed, values);
  const a = unpacked.a;
  let outside = null;
  try {
    unpackMatrices({ [MATRIX_KEY]: [6, 2, 2] }, values);
  } catch (error) {
    outside = error instanceof RangeError;
  }
  return {
    negativeZero: Object.is(a[0][0], -0),
    a: a.map((row) => row.map((value) => (value === null ? "null" : String(value)))),
    list: unpacked.list,
    empty: unpacked.empty,
    near: unpacked.near,
    outside,
  };
}"""


def test_unpacking_keeps_every_float_and_nulls_what_is_not_finite(page, site_url):
    page.goto(site_url + HARNESS)
    outcome = page.evaluate(UNPACK_CASES)
    assert outcome == {
        "negativeZero": True,
        "a": [["0", "null", "null", "null"], ["5e-324", "1.7976931348623157e+308", "-1.5", "7"]],
        "list": [[[-1.5]], "text", [True, None]],
        "empty": [],
        "near": {"$matrix": [8, 1, 1], "other": 1},
        "outside": True,
    }


# --- the soak ---------------------------------------------------------------------------------------------

SOAK_REQUESTS = 2000
SOAK_CHUNK = 250
SIZE_LIMIT = 64
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
