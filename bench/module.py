"""Benchmark of the attention module, natively: medians, not a test.

    python3 bench/module.py

Targets: compute() of the 10-token scene well under 1 ms; the Part 7 scaling experiment under 0.5 s.
The page calls compute() on every keystroke (through handle(), which adds the JSON both ways), so the
small scene is what a learner feels; the scenes at the size limits are the worst a scene can be.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from attention_playground import LIMITS, compute, handle, load_preset, scaling_experiment  # noqa: E402


def median_seconds(run: Callable[[], object], repeats: int, warmup: int = 3) -> float:
    for _ in range(warmup):
        run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def random_scene(n_heads: int, d_k: int, d_v: int, mask: str = "causal", seed: int = 0) -> dict:
    """A scene at the token and feature limits, with random numbers (as the page would send them)."""
    rng = np.random.default_rng(seed)
    n_tokens, n_features = LIMITS.tokens, LIMITS.features
    heads = [
        {"name": f"head {h + 1}", "dims": [f"d{i}" for i in range(d_k)],
         "Wq": rng.normal(size=(n_features, d_k)).tolist(), "Wk": rng.normal(size=(n_features, d_k)).tolist(),
         "Wv": rng.normal(size=(n_features, d_v)).tolist()}
        for h in range(n_heads)
    ]
    return {
        "title": "at the limits", "tokens": [f"t{i}" for i in range(n_tokens)],
        "features": [f"f{i}" for i in range(n_features)], "X": rng.normal(size=(n_tokens, n_features)).tolist(),
        "heads": heads, "mask": mask, "scale": True,
    }


def main() -> None:
    small = load_preset("it-animal-noun")
    one_head = random_scene(n_heads=1, d_k=LIMITS.dims, d_v=LIMITS.value_dims)
    all_heads = random_scene(n_heads=LIMITS.heads, d_k=LIMITS.dims, d_v=LIMITS.value_dims)
    cases = [
        ("compute(), 10-token scene (it-animal-noun)", lambda: compute(small), 2000),
        ("handle() with JSON both ways, 10-token scene", lambda: handle(json.dumps(
            {"kind": "compute", "payload": {"scene": small}})), 2000),
        ("compute(), 64 tokens x 64 features, 1 head x 64 dims, Wv 64", lambda: compute(one_head), 300),
        ("compute(), 64 tokens x 64 features, 8 heads x 64 dims, Wv 64", lambda: compute(all_heads), 60),
        ("handle() with JSON both ways, 8 heads at the limits", lambda: handle(json.dumps(
            {"kind": "compute", "payload": {"scene": all_heads}})), 30),
        ("scaling_experiment() (Part 7: d = 4, 64, 512; 500 trials)", scaling_experiment, 15),
    ]
    print(f"numpy {np.__version__}, python {sys.version.split()[0]}")
    width = max(len(label) for label, _, _ in cases)
    for label, run, repeats in cases:
        seconds = median_seconds(run, repeats)
        print(f"{label:<{width}}  median {seconds * 1e3:9.3f} ms  ({repeats} runs)")


if __name__ == "__main__":
    main()
