"""Settings for the whole suite, wherever it runs (natively, on several workers, or inside Pyodide).

- One BLAS thread per process: the suite runs on two workers on two cores, and Chromium wants its share; NumPy's
  threads would only wait on each other (set before NumPy is first imported).
- With `--dist loadgroup` a file runs whole on one worker, as with `--dist loadfile`: every test is put in the
  group of its file (an `xdist_group` mark), unless its file names a group of its own. Files whose tests share
  state that a test process keeps between files (the trained model's panel, the exercises' Python, on the shared
  page of tests/browser/conftest.py) name one group, so that they run one after another on one worker, which
  boots that state once for them all.
- The groups start longest first, by the seconds each took in a whole run (tests/durations.json; a group not in
  it yet counts as the longest, so a new slow file never ends the run alone). Both cores are busy throughout, so
  the order decides the end: the last groups to start are the shortest, and neither worker waits long for the
  other. `./test.sh --store-durations` measures them again; a run of some of the tests updates only their groups.
"""

import json
import math
import os
from collections import defaultdict
from pathlib import Path

import pytest

for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(variable, "1")

#: Seconds each group of tests took in a whole run: the order the groups start in.
DURATIONS_FILE = Path(__file__).with_name("durations.json")


def pytest_addoption(parser):
    parser.addoption("--store-durations", action="store_true",
                     help=f"write the seconds each group of tests took to tests/{DURATIONS_FILE.name}")


def read_durations():
    try:
        return json.loads(DURATIONS_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def group_of(item):
    return item.get_closest_marker("xdist_group").args[0]


# tryfirst: before pytest-xdist reads the groups (its own hook, in each worker).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(Path(item.path).stem))
    durations = read_durations()
    # A stable sort: within a group the tests keep the order they are written in.
    items.sort(key=lambda item: -durations.get(group_of(item), math.inf))


def group_of_report(nodeid):
    """The group a report's test ran in: pytest-xdist's loadgroup ends its node id with "@group"; in one process
    it is its file's (a group of several files is then measured file by file)."""
    path, _, name = nodeid.partition("::")
    return name.rpartition("@")[2] if "@" in name else Path(path).stem


class DurationRecorder:
    """Adds up each group's set-up, call and tear-down, and writes them down when the session ends."""

    def __init__(self):
        self.seconds = defaultdict(float)

    def pytest_runtest_logreport(self, report):
        self.seconds[group_of_report(report.nodeid)] += report.duration

    def pytest_sessionfinish(self):
        durations = read_durations() | {group: round(seconds, 1) for group, seconds in self.seconds.items()}
        DURATIONS_FILE.write_text(json.dumps(dict(sorted(durations.items())), indent=1) + "\n", encoding="utf-8")


def pytest_configure(config):
    # Recorded where every worker's reports arrive: the controller, or the one process without xdist.
    if config.getoption("store_durations", False) and not hasattr(config, "workerinput"):
        config.pluginmanager.register(DurationRecorder(), "duration-recorder")
