"""How long the page's functions are, measured by a real JavaScript parser (acorn, which dependency-cruiser
brings: sitebuild/cruiser.py installs it), so a function that grows past a screenful or two is caught.

    python3 -m sitebuild.function_lengths     # prints every function of js/ longer than the limit; exits 1 if one is
"""

import json
import subprocess
import sys

from . import cruiser
from .downloads import BuildError
from .paths import ROOT

RUNNER = ROOT / "sitebuild" / "function_lengths.mjs"
#: The longest a function of js/ may be, in lines from its first to its last, the functions inside it included.
MAX_FUNCTION_LINES = 120


def long_js_functions(report=print, root=ROOT, limit=MAX_FUNCTION_LINES):
    """Every function of `root`/js/ longer than `limit` lines: {"files": how many were parsed, "functions": how
    many were measured, "tooLong": [{file, name, line, lines}]}."""
    installed = cruiser.install(report)
    completed = subprocess.run(
        ["node", str(RUNNER), str(installed / "node_modules"), "js", str(limit)],
        cwd=root, capture_output=True, text=True, check=False,
    )
    if completed.returncode != 0:
        raise BuildError(f"measuring the functions of js/ failed: {completed.stderr.strip()}")
    return json.loads(completed.stdout)


def describe(function):
    """`file:name:lines`, the way the check names a function that is too long."""
    return f"{function['file']}:{function['name']}:{function['lines']}"


if __name__ == "__main__":
    found = long_js_functions()
    for function in found["tooLong"]:
        print(f"{describe(function)} (starts on line {function['line']})")
    print(f"{found['functions']} functions in {found['files']} files, {len(found['tooLong'])} longer than "
          f"{MAX_FUNCTION_LINES} lines")
    sys.exit(1 if found["tooLong"] else 0)
