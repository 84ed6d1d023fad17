"""What the tests of the runtime (test_runtime_*.py) share: the harness page (tests/browser/harness.html, an empty
page of the site) into which js/runtime/client.js is imported, so that the runtime is tested on its own, without
the page's UI; requests sent through that client; and the same requests answered by the module's entry point run
natively, to compare with. A started client shared by the tests that only send it requests, restart it or soak it
is conftest.py's `client_page`.
"""

import json
import math

from attention_playground.entry import handle

HARNESS = "/tests/browser/harness.html"
TOLERANCE = 1e-12
#: The most tokens a scene may have (the module's limit): the large scenes the tests send.
SIZE_LIMIT = 64

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
