#!/usr/bin/env bash
# The test command: install what the tests need, build the site, run every test (native and browser).
# Extra arguments go to pytest, e.g. ./test.sh -m "not browser" (or -n 0 for one process). The tests run on two
# workers (pytest-xdist), a file to a worker (or a group of files that share state, on one worker), the longest
# files first (tests/conftest.py). At the end it prints the 15 slowest tests and how long the whole run took,
# set-up included (docs/testing.md keeps the figures for a fresh 2-core machine).
set -euo pipefail
cd "$(dirname "$0")"
started=$SECONDS

VENV=.venv
PYTHON="$VENV/bin/python"

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# A virtualenv with the pinned test dependencies from pyproject.toml ([project.optional-dependencies] test).
if [ ! -x "$PYTHON" ]; then
  if ! python3 -m venv "$VENV"; then
    rm -rf "$VENV"
    as_root apt-get update
    as_root apt-get install -y python3-venv
    python3 -m venv "$VENV"
  fi
fi
mapfile -t TEST_DEPENDENCIES < <("$PYTHON" -c '
import tomllib
with open("pyproject.toml", "rb") as file:
    print("\n".join(tomllib.load(file)["project"]["optional-dependencies"]["test"]))
')
# --no-compile: pip would compile every file of every package (JupyterLab's thousands) up front, a third of a first
# install's time; Python compiles the few a test imports, once, when it imports them.
"$PYTHON" -m pip install --quiet --no-compile --disable-pip-version-check "${TEST_DEPENDENCIES[@]}"

# Debian's Chromium for the browser tests (Playwright drives it; it never downloads a browser of its own).
if [ ! -x /usr/bin/chromium ]; then
  as_root apt-get update
  as_root apt-get install -y chromium
fi

# Node.js, for dependency-cruiser (the JavaScript import rules: sitebuild/cruiser.py).
if ! command -v node >/dev/null; then
  as_root apt-get update
  as_root apt-get install -y nodejs
fi

"$PYTHON" build.py

set_up=$((SECONDS - started))
status=0
# One BLAS thread per process, and malloc that keeps the memory it frees (tests/conftest.py says why; set here too, before
# anything imports NumPy or starts a process).
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
export MALLOC_TRIM_THRESHOLD_=1073741824 MALLOC_TOP_PAD_=268435456 MALLOC_MMAP_THRESHOLD_=33554432
# --dist loadgroup: each test is in its file's group, or a group of files that share state (tests/conftest.py).
# --no-loadscope-reorder: keep the groups in the order tests/conftest.py gives (the long ones first); by default
# xdist puts the groups with the most tests first, which left the one-test native suite inside Pyodide (three
# minutes) to start near the end, alone.
# --timeout: a test still running after 5 minutes (the longest take about one) is stuck; its worker prints every
# thread's stack and ends, and the run goes on without it (pytest-timeout's thread method; a test that needs longer
# says so with @pytest.mark.timeout).
"$PYTHON" -m pytest -n 2 --dist loadgroup --no-loadscope-reorder --durations=15 --timeout=300 --timeout-method=thread "$@" || status=$?
echo "test.sh: $((SECONDS - started)) s in all: set-up (install, build) $set_up s, pytest $((SECONDS - started - set_up)) s"
if [ "$status" -eq 5 ]; then
  echo "test.sh: pytest collected no tests, which counts as a failure" >&2
  exit 1
fi
exit "$status"
