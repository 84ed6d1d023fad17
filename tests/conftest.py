"""Settings for the whole suite, wherever it runs (natively, on several workers, or inside Pyodide).

- One BLAS thread per process: the suite runs on two workers on two cores, and Chromium wants its share; NumPy's
  threads would only wait on each other (set before NumPy is first imported).
- glibc's malloc keeps what a process frees (the MALLOC_ variables, read as a process starts: they reach the test
  workers pytest-xdist starts, and test.sh sets them for every process). By default it hands a freed NumPy array's
  memory back to the kernel and asks for it again at the next step: training a model made some 70,000 such calls,
  and the kernel's time clearing the pages again made the test take 26 s instead of 14 s.
- Files marked `long` (one test of a minute or more: the native suite inside Pyodide, a real JupyterLab)
  are collected first, so that with `pytest -n 2 --dist loadgroup` (test.sh) they start at once, on a worker
  of their own, instead of ending the run alone on one worker while the other sits idle.
- With `--dist loadgroup` a file runs whole on one worker, as with `--dist loadfile`: every test is put in the
  group of its file (an `xdist_group` mark), unless its file names a group of its own. Files whose tests share
  state that a test process keeps between files (the trained model's panel, the exercises' Python, on the shared
  page of tests/browser/conftest.py) name one group, so that they run one after another on one worker, which
  boots that state once for them all.
- `built_site` builds the site once per run, for every test that reads what the build makes (the browser tests,
  and the tooling tests that read dist/), so that none reads it while another worker builds it again.
"""

import os
from pathlib import Path

import pytest

for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(variable, "1")
for variable, value in {"MALLOC_TRIM_THRESHOLD_": "1073741824", "MALLOC_TOP_PAD_": "268435456",
                        "MALLOC_MMAP_THRESHOLD_": "33554432"}.items():
    os.environ.setdefault(variable, value)

@pytest.fixture(scope="session")
def built_site(request):
    """Build once per test run, so the tests see generated/ and dist/ made from the sources as they are now. With
    several workers (pytest -n 2) each has a session of its own: the first builds, holding a lock, and writes the
    run's id beside it; the others wait on the lock, see the id, and use that build."""
    # Imported here, not at the top: this file is read inside Pyodide too, which has no fcntl and no project root.
    import fcntl
    import sys

    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    import build  # build.py lives at the project's root

    run_id = getattr(request.config, "workerinput", {}).get("testrunuid") or f"serial-{os.getpid()}"
    lock_path = root / "tests" / ".cache" / "built-by-run"  # held while the site is built; names the run that built it
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("a+", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        lock.seek(0)
        if lock.read() != run_id:
            build.build(report=lambda line: None)
            lock.seek(0)
            lock.truncate()
            lock.write(run_id)
            lock.flush()
        fcntl.flock(lock, fcntl.LOCK_UN)
    return root


# tryfirst: before pytest-xdist reads the groups (its own hook, in each worker).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(Path(item.path).stem))
    long_first = sorted(range(len(items)), key=lambda index: (items[index].get_closest_marker("long") is None, index))
    items[:] = [items[index] for index in long_first]
