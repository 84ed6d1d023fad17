"""How fast the trained model trains and runs, natively (a measurement, not a test).

    python3 bench/model.py            # or .venv/bin/python bench/model.py
    python3 bench/model.py --seeds 1 2 3 4 5 --steps-timed 200

Prints a small table: the median milliseconds per training step (batch 16, the shipped config), the steps
and seconds each seed takes to reach 90% repeated-part accuracy (measured every 25 steps on the evaluation
set; the seconds include those checks), and the median time of `run()` on a 32-word sentence.
On a busy machine read the medians; in Pyodide (no BLAS) expect training to be a few times slower.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

import numpy as np  # noqa: E402

from attention_playground.model import TrainConfig, evaluate, load_model, run, train  # noqa: E402


def step_times(steps: int) -> list[float]:
    """Milliseconds of each training step of the shipped config (no accuracy checks)."""
    stamps = []
    train(replace(TrainConfig(), steps=steps), on_step=lambda step, loss, elapsed: stamps.append(elapsed))
    return [1000 * (b - a) for a, b in zip(stamps, stamps[1:], strict=False)]


def time_to_copy(seed: int, most_steps: int) -> tuple[int, float, float]:
    """(steps, seconds, repeated-part accuracy) for one seed trained until 90% repeated-part accuracy."""
    config = replace(TrainConfig(), seed=seed, steps=most_steps, stop_at_accuracy=0.9)
    started = time.perf_counter()
    model = train(config)
    seconds = time.perf_counter() - started
    return model.steps, seconds, evaluate(model, repeated_only=True).repeat_accuracy


def run_times(repeats: int) -> list[float]:
    """Milliseconds of run() on a 32-word sentence (the longest the model reads)."""
    model = load_model()
    words = ("the fox met a crow and the fox smiled . the cat sat on the mat because it was tired . "
             "the dog bites the man and the man bites the dog").split()[:model.config.max_words]
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run(model, words)
        times.append(1000 * (time.perf_counter() - started))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--steps-timed", type=int, default=200)
    parser.add_argument("--most-steps", type=int, default=600)
    parser.add_argument("--run-repeats", type=int, default=50)
    args = parser.parse_args()

    print(f"Python {platform.python_version()}, NumPy {np.__version__}, {platform.machine()}")
    per_step = statistics.median(step_times(args.steps_timed))
    print("\n| measure | value |\n|---|---|")
    print(f"| training step, median (batch {TrainConfig.batch_size}) | {per_step:.2f} ms |")
    print(f"| run() on a 32-word sentence, median | {statistics.median(run_times(args.run_repeats)):.2f} ms |")
    print("\n| seed | steps to 90% | seconds | repeated-part accuracy |\n|---|---|---|---|")
    for seed in args.seeds:
        steps, seconds, accuracy = time_to_copy(seed, args.most_steps)
        print(f"| {seed} | {steps} | {seconds:.2f} | {accuracy:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
