"""Settings for the whole suite, wherever it runs (natively, on several workers, or inside Pyodide).

- One BLAS thread per process: the suite runs on two workers on two cores, and Chromium wants its share; NumPy's
  threads would only wait on each other (set before NumPy is first imported).
- Files marked `long` (one test of a minute or more: the native suite inside Pyodide, a real JupyterLab)
  are collected first, so that with `pytest -n 2 --dist loadgroup` (test.sh) they start at once, on a worker
  of their own, instead of ending the run alone on one worker while the other sits idle.
- With `--dist loadgroup` a file runs whole on one worker, as with `--dist loadfile`: every test is put in the
  group of its file (an `xdist_group` mark), unless its file names a group of its own. Files whose tests share
  state that a test process keeps between files (the trained model's panel, the exercises' Python, on the shared
  page of tests/browser/conftest.py) name one group, so that they run one after another on one worker, which
  boots that state once for them all.
"""

import os
from pathlib import Path

import pytest

for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(variable, "1")


# tryfirst: before pytest-xdist reads the groups (its own hook, in each worker).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(Path(item.path).stem))
    long_first = sorted(range(len(items)), key=lambda index: (items[index].get_closest_marker("long") is None, index))
    items[:] = [items[index] for index in long_first]
