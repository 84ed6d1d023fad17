"""Comparing JSON-like values (dicts, lists, strings, numbers) with a tolerance for floats.

Pyodide's NumPy has no BLAS, so its sums run in another order than native NumPy's and a float can differ in
its last bits. A check that a committed file is what a script makes now must hold in both runtimes, so it
compares structure and text exactly and numbers to `atol`.
"""

import math


def differences(got, want, atol=1e-12, path="$"):
    """Where `got` and `want` differ (paths like $.X[3][1]), the first few; [] when they agree."""
    if isinstance(want, bool) or isinstance(got, bool) or not all(isinstance(v, (int, float)) for v in (got, want)):
        if type(got) is not type(want):
            return [f"{path}: {type(got).__name__} vs {type(want).__name__}"]
        if isinstance(want, dict):
            if list(got) != list(want):
                return [f"{path}: keys {list(got)} vs {list(want)}"]
            return [d for key in want for d in differences(got[key], want[key], atol, f"{path}.{key}")][:5]
        if isinstance(want, list):
            if len(got) != len(want):
                return [f"{path}: {len(got)} items vs {len(want)}"]
            return [d for i, (g, w) in enumerate(zip(got, want)) for d in differences(g, w, atol, f"{path}[{i}]")][:5]
        return [] if got == want else [f"{path}: {got!r} vs {want!r}"]
    return [] if math.isclose(got, want, rel_tol=0, abs_tol=atol) else [f"{path}: {got!r} vs {want!r}"]
