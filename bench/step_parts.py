#!/usr/bin/env python3
"""Why a training step costs more in the page than natively: the step split into what grows with the batch
(the arithmetic) and what does not (a call's cost in Python and NumPy), natively and in Pyodide (a measurement,
not a test).

    .venv/bin/python bench/step_parts.py            # after ./test.sh or python3 build.py (needs vendor/pyodide/)

A step of the shipped shape is timed at batch sizes 1, 4 and 16 (20 steps each, median of 3 blocks, after 5
untimed), in this Python and in Pyodide 0.27.7 under Node.js (the runtime the page boots, from vendor/pyodide/,
with this repository's py/); a line through the three gives the step's fixed part (its calls) and its part per
sequence (its arithmetic). The page trains 16 sequences a step.
"""

import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BATCHES = (1, 4, 16)
STEPS, BLOCKS, WARMUP = 20, 3, 5

# Run in both places: prints {batch: ms a step}.
MEASURE = f"""
import json, statistics, sys, time
from dataclasses import replace
sys.path.insert(0, {str(ROOT / "py")!r})
from attention_playground.model import TrainConfig, Trainer
timings = {{}}
for batch in {BATCHES!r}:
    trainer = Trainer(replace(TrainConfig(), batch_size=batch, seed=5))
    for _ in range({WARMUP}):
        trainer.step()
    blocks = []
    for _ in range({BLOCKS}):
        started = time.perf_counter()
        for _ in range({STEPS}):
            trainer.step()
        blocks.append((time.perf_counter() - started) / {STEPS} * 1000)
    timings[batch] = statistics.median(blocks)
print("TIMINGS " + json.dumps(timings))
"""

# Pyodide under Node.js, with NumPy, the repository mounted at its own path, running MEASURE.
NODE_RUNNER = """
import { readFileSync } from "node:fs";
const [pyodideModule, root, script] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideModule);
const pyodide = await loadPyodide({ indexURL: root + "/vendor/pyodide/" });
await pyodide.loadPackage("numpy", { messageCallback: () => {} });
pyodide.FS.mkdirTree(root);
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, root);
await pyodide.runPythonAsync(readFileSync(script, "utf8"));
"""


def timings_from(output):
    line = next(line for line in output.splitlines() if line.startswith("TIMINGS "))
    return {int(batch): ms for batch, ms in json.loads(line.removeprefix("TIMINGS ")).items()}


def fitted(timings):
    """Least squares through (batch, ms): (fixed ms, ms per sequence)."""
    batches, ms = list(timings), list(timings.values())
    slope, intercept = statistics.linear_regression(batches, ms)
    return intercept, slope


def main():
    folder = Path(tempfile.mkdtemp())
    script, runner = folder / "measure.py", folder / "runner.mjs"
    script.write_text(MEASURE)
    runner.write_text(NODE_RUNNER)
    native = timings_from(subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True).stdout)
    pyodide = timings_from(subprocess.run(
        ["node", str(runner), str(ROOT / "vendor" / "pyodide" / "pyodide.mjs"), str(ROOT), str(script)],
        capture_output=True, text=True, check=True).stdout)
    print("| ms a step | " + " | ".join(f"batch {batch}" for batch in BATCHES) + " | fixed | per sequence | at 16: fixed + arithmetic |")
    print("|---|" + "---|" * (len(BATCHES) + 3))
    for name, timings in (("natively", native), ("Pyodide", pyodide)):
        fixed, per = fitted(timings)
        print(f"| {name} | " + " | ".join(f"{timings[batch]:.1f}" for batch in BATCHES)
              + f" | {fixed:.1f} | {per:.2f} | {fixed:.1f} + {16 * per:.1f} |")
    (native_fixed, native_per), (pyodide_fixed, pyodide_per) = fitted(native), fitted(pyodide)
    print(f"\nPyodide / natively: a step at 16 {pyodide[16] / native[16]:.2f}x; the fixed part "
          f"{pyodide_fixed / native_fixed:.2f}x, the part per sequence {pyodide_per / native_per:.2f}x")


if __name__ == "__main__":
    main()
