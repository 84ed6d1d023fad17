"""How many seeds a test that trains models runs on, wherever the suite runs.

Natively every seed the test names. Inside Pyodide (tests/browser/test_module_in_pyodide.py runs this suite
there) a training step costs three to four times as much (no BLAS), and a five-seed test would take longer than
the rest of the run: there it trains the first seed only. Each such test still runs and asserts
in both places, with the same node id; what the seeds add (that the result does not hang on one lucky seed)
is a fact about training, checked natively.

Retraining the shipped model (1,500 steps, about 45 s there) is cut the same way: inside Pyodide the run stops
after its first RETRAIN_STEPS_IN_PYODIDE steps, which must follow the shipped run's loss curve step by step;
that the whole run gives the shipped model is checked natively.
"""

import sys

IN_PYODIDE = sys.platform == "emscripten"


def seeds_to_train(seeds: tuple[int, ...]) -> tuple[int, ...]:
    """`seeds` natively; the first of them inside Pyodide."""
    return seeds[:1] if IN_PYODIDE else seeds


#: How far the shipped model's retraining goes inside Pyodide (its loss curve is checked that far everywhere).
RETRAIN_STEPS_IN_PYODIDE = 300


def steps_to_retrain(steps: int) -> int:
    """`steps` natively; inside Pyodide no more than RETRAIN_STEPS_IN_PYODIDE."""
    return min(steps, RETRAIN_STEPS_IN_PYODIDE) if IN_PYODIDE else steps
