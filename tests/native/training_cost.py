"""How many seeds a test that trains models runs on, wherever the suite runs.

Natively every seed the test names. Inside Pyodide (tests/browser/test_module_in_pyodide.py runs this suite
there) a training step costs three to four times as much (no BLAS), and the five-seed tests alone would take
longer than the rest of the run: there they train the first seed only. Each such test still runs and asserts
in both places, with the same node id; what the seeds add (that the result does not hang on one lucky seed)
is a fact about training, checked natively.
"""

import sys

IN_PYODIDE = sys.platform == "emscripten"


def seeds_to_train(seeds: tuple[int, ...]) -> tuple[int, ...]:
    """`seeds` natively; the first of them inside Pyodide."""
    return seeds[:1] if IN_PYODIDE else seeds
