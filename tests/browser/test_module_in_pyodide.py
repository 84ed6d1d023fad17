"""The native test suite, run again inside Pyodide in Chromium: "the page runs the same module", checked.

A module worker (tests/in_pyodide/worker.js) boots the runtime exactly as the page does, from vendor/pyodide/ with
NumPy and the module's zip from generated/, rebuilds the repository's layout in Pyodide's file system and runs
tests/native/ there with a small runner (tests/in_pyodide/runner.py). pytest itself is not in the vendored
runtime; the runner provides the few parts of it the suite uses.

The test passes only if every test run in Pyodide passed, and the tests run there are exactly the tests
`pytest -m "not hypothesis"` collects natively (the same count for every test function), and the ones left
out are exactly those `pytest -m hypothesis` collects. So a test that the runner fails to find, or finds
twice, fails this test, as does a failing one.
"""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from sitebuild import runtime  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HARNESS = "/tests/browser/harness.html"
WORKER = "/tests/in_pyodide/worker.js"
#: The folders whose Python files the worker writes into Pyodide: the suite and the runner.
SUITE_FOLDERS = ["tests/native", "tests/in_pyodide"]
#: Stops a hung runtime from hanging the test run; not a limit on speed (the suite takes seconds).
HANG_GUARD_MS = 15 * 60 * 1000

# Start the worker, send it the files, and wait for its one reply.
RUN_IN_WORKER = """async ({ workerUrl, files, hangGuardMs }) => {
  const worker = new Worker(workerUrl, { type: "module" });
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no report after ${hangGuardMs} ms`)), hangGuardMs);
      worker.addEventListener("message", (event) => { clearTimeout(timer); resolve(event.data); });
      worker.addEventListener("error", (event) => {
        clearTimeout(timer);
        reject(new Error(`the worker failed to start: ${event.message ?? "no message"}`));
      });
      worker.postMessage({ files });
    });
  } finally {
    worker.terminate();
  }
}"""


def suite_files():
    """Every Python file of the suite and the runner, by its path in the repository."""
    files = {}
    for folder in SUITE_FOLDERS:
        for path in sorted((ROOT / folder).glob("*.py")):
            files[path.relative_to(ROOT).as_posix()] = path.read_text(encoding="utf-8")
    return files


def collect_natively(marker_expression):
    """The node ids `pytest --collect-only -m <marker_expression> tests/native` gives, run as a separate process."""
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-m", marker_expression,
         "tests/native"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    # Exit status 5 means nothing matched, a valid answer for "-m hypothesis".
    assert completed.returncode in (0, 5), completed.stdout + completed.stderr
    return [line for line in completed.stdout.splitlines() if "::" in line]


def per_function(test_ids):
    """How many tests each test function gives ("module::function" -> count), parametrize cases counted."""
    return Counter(test_id.split("[", 1)[0] for test_id in test_ids)


def count_differences(in_pyodide, natively):
    """{"module::function": (count in Pyodide, count natively)} for every function whose counts differ."""
    pyodide_counts, native_counts = per_function(in_pyodide), per_function(natively)
    return {function: (pyodide_counts[function], native_counts[function])
            for function in sorted(pyodide_counts.keys() | native_counts.keys())
            if pyodide_counts[function] != native_counts[function]}


def pinned_runtime():
    lockfile = json.loads((runtime.VENDOR_DIR / runtime.LOCKFILE_NAME).read_text(encoding="utf-8"))
    return lockfile["info"]["python"], lockfile["packages"]["numpy"]["version"]


def describe_failures(tests):
    return "\n\n".join(f"{test['id']} {test['outcome']}:\n{test['traceback']}{test['output']}" for test in tests)


def test_the_native_suite_passes_inside_pyodide(page, site_url, artifacts, capsys):
    native_run = collect_natively("not hypothesis")
    native_left_out = collect_natively("hypothesis")

    page.goto(site_url + HARNESS)
    reply = page.evaluate(RUN_IN_WORKER, {"workerUrl": WORKER, "files": suite_files(), "hangGuardMs": HANG_GUARD_MS})
    assert reply["ok"], reply["message"]
    report, timings = reply["report"], reply["timings"]
    (artifacts / "pyodide-native-suite.json").write_text(json.dumps(reply, indent=1), encoding="utf-8")

    tests = report["tests"]
    failed = [test for test in tests if test["outcome"] != "passed"]
    environment = report["environment"]
    with capsys.disabled():
        print(
            f"\nnative suite in Pyodide (Python {environment['python']}, NumPy {environment['numpy']}): "
            f"{len(tests) - len(failed)} passed, {len(failed)} failed, {len(report['left_out'])} hypothesis tests "
            f"left out; natively collected {len(native_run)} without hypothesis, {len(native_left_out)} with it. "
            f"Boot {timings['boot'] / 1000:.1f} s, layout {timings['layout'] / 1000:.2f} s, "
            f"run {timings['run'] / 1000:.1f} s (the tests alone {report['seconds']:.1f} s)."
        )

    assert report["collection_errors"] == [], "\n\n".join(
        f"{error['module']} did not import:\n{error['traceback']}" for error in report["collection_errors"])
    assert not failed, describe_failures(failed)
    run_in_pyodide, collected_natively = len(tests), len(native_run)
    assert run_in_pyodide == collected_natively, "Pyodide must run exactly the tests pytest collects natively"
    assert count_differences([test["id"] for test in tests], native_run) == {}
    assert count_differences([test["id"] for test in report["left_out"]], native_left_out) == {}

    python_version, numpy_version = pinned_runtime()
    assert environment["platform"] == "emscripten"
    assert (environment["python"], environment["numpy"]) == (python_version, numpy_version)
    # Imported from the zip the page loads, unpacked into the rebuilt py/ folder.
    assert environment["module_file"].endswith("/py/attention_playground/__init__.py")
