"""Run the native test suite inside Pyodide with the real pytest (and hypothesis), once, and report it.

The worker (worker.js) lays the repository out in Pyodide's file system as it is on disk, with the module
unpacked from the zip the page loads, installs pytest and hypothesis with micropip, and calls `run(root)`:

    <root>/pyproject.toml                   pytest's settings, as natively (rootdir, pythonpath = py)
    <root>/py/attention_playground/...      generated/attention_playground.zip, unpacked
    <root>/tests/native/...                 the native suite, unchanged
    <root>/tests/in_pyodide/*.py            this file and the stand-in for `python -c`

What Pyodide lacks, and what is done about it:
- processes: `subprocess.run([sys.executable, "-c", ...])` runs the code in this interpreter instead
  (in_process_python.py); it is the one stand-in left;
- a sensible umask: Pyodide reports 0o777, with which pytest's cache and hypothesis' folders would be written
  unreadable, so the umask is set to 0o022 first (and the cache is off anyway: nothing outlives the run).
"""

import json
import os
import sys
import time

import in_process_python

#: The arguments of the one pytest run: the native suite but the tests that train for hundreds of steps (the browser
#: test says why), quietly, no cache, no colour codes, its 15 slowest tests in the report (the browser test prints
#: them).
PYTEST_ARGS = ["-q", "-p", "no:cacheprovider", "--color=no", "--durations=15", "-m", "not trains_long and not reads_the_corpus", "tests/native"]


class Report:
    """A pytest plugin that keeps what the browser test compares: every node id collected, every outcome."""

    def __init__(self):
        self.collected = []
        self.outcomes = {}
        self.failures = []
        self.collection_errors = []
        self.marks = {}

    def pytest_sessionstart(self, session):
        self.marks["started"] = time.perf_counter()

    def pytest_collectreport(self, report):
        if report.failed:
            self.collection_errors.append({"nodeid": report.nodeid, "longrepr": str(report.longrepr)})

    def pytest_collection_finish(self, session):
        self.collected = [item.nodeid for item in session.items]
        self.marks["collected"] = time.perf_counter()

    def pytest_runtest_logreport(self, report):
        # A test's outcome is its call's, unless setup or teardown failed or skipped it.
        if report.when == "call" or report.outcome != "passed":
            if self.outcomes.get(report.nodeid) in (None, "passed"):
                self.outcomes[report.nodeid] = report.outcome
            if report.failed:
                self.failures.append({"nodeid": report.nodeid, "when": report.when, "longrepr": str(report.longrepr)})

    def pytest_sessionfinish(self, session, exitstatus):
        self.marks["finished"] = time.perf_counter()


def run(root):
    """Run the suite under `root`; the report as JSON text."""
    os.umask(0o022)
    in_process_python.install(root)
    os.chdir(root)
    import pytest  # noqa: PLC0415 (after the umask; hypothesis is left for pytest to import, so it is rewritten)

    report = Report()
    exit_code = int(pytest.main(PYTEST_ARGS, plugins=[report]))

    import json as stdlib_module  # noqa: PLC0415 (any module of the standard library)

    import attention_playground  # noqa: PLC0415
    import hypothesis  # noqa: PLC0415
    import numpy  # noqa: PLC0415

    marks = report.marks
    return json.dumps({
        "exit_code": exit_code,
        "collected": report.collected,
        "outcomes": report.outcomes,
        "failures": report.failures,
        "collection_errors": report.collection_errors,
        "seconds": {"collection": marks.get("collected", marks["started"]) - marks["started"],
                    "run": marks["finished"] - marks.get("collected", marks["started"])},
        "environment": {
            "python": sys.version.split()[0],
            "platform": sys.platform,
            "numpy": numpy.__version__,
            "pytest": pytest.__version__,
            "hypothesis": hypothesis.__version__,
            "module_file": attention_playground.__file__,
            # Where the standard library and NumPy were imported from: the build's bytecode (sitebuild/bytecode.py).
            "stdlib_file": stdlib_module.__file__,
            "numpy_file": numpy.__file__,
        },
    })
