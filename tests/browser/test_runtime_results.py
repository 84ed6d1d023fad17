"""What the runtime answers, in real Chromium: every preset computes as natively, a bad scene rejects with the
module's message and leaves the worker fine, and compute's results, shipped as float64 bytes, are what the
module's handle() gives, to the bit (judged against a second Pyodide on the page, never against native numbers).
"""

from attention_playground.presets import random_scene
from runtime_helpers import SIZE_LIMIT, assert_close, native, native_result, request


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
