"""Settings for the whole suite, wherever it runs (natively, on several workers, or inside Pyodide).

- One BLAS thread per process: the suite runs on two workers on two cores, and Chromium wants its share; NumPy's
  threads would only wait on each other (set before NumPy is first imported).
- Files marked `long` (one test of a minute or more: the native suite inside Pyodide, a real JupyterLab)
  are collected first, so that with `pytest -n 2 --dist loadfile` (test.sh) they start at once, on a worker
  of their own, instead of ending the run alone on one worker while the other sits idle.
"""

import os

for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(variable, "1")


def pytest_collection_modifyitems(config, items):
    long_first = sorted(range(len(items)), key=lambda index: (items[index].get_closest_marker("long") is None, index))
    items[:] = [items[index] for index in long_first]
