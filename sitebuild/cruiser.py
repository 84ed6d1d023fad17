"""dependency-cruiser, which checks the import rules of js/ (the rules: .dependency-cruiser.json).

Installed like CodeMirror and esbuild: every package of its tree (dependency-cruiser.lock.json, which
`npm install dependency-cruiser@18.7.2 --ignore-scripts` resolved) is fetched from the npm registry, checked
against its pinned sha512 and unpacked into the download cache, never into the site. Its command line refuses
Node older than 22 while its programmatic API runs on Debian's Node 20 too, so `cruise.mjs` calls that API with
the rules and prints what breaks them.

    python3 -m sitebuild.cruiser        # prints every import that breaks a rule; exits 1 if there is one
"""

import json
import subprocess
import sys

from . import npm_tree
from .downloads import BuildError
from .paths import ROOT

LOCK_PATH = ROOT / "dependency-cruiser.lock.json"
RULES_PATH = ROOT / ".dependency-cruiser.json"
RUNNER = ROOT / "sitebuild" / "cruise.mjs"


def install(report=print):
    """The folder that holds node_modules/ with the pinned dependency-cruiser, fetched and checked if need be
    (npm_tree.py: safe with several processes at once, checked on every use)."""
    return npm_tree.install(LOCK_PATH, "dependency-cruiser", report)


def check_js_imports(report=print, root=ROOT, rules=RULES_PATH):
    """Every import of `root`/js/ that breaks a rule of `rules`: {"modules": how many were read, "violations":
    [{from, to, rule}]}."""
    installed = install(report)
    completed = subprocess.run(
        ["node", str(RUNNER), str(installed / "node_modules"), str(rules), "js"],
        cwd=root, capture_output=True, text=True, check=False,
    )
    if completed.returncode != 0:
        raise BuildError(f"dependency-cruiser failed: {completed.stderr.strip()}")
    return json.loads(completed.stdout)


if __name__ == "__main__":
    found = check_js_imports()
    for violation in found["violations"]:
        print(f"{violation['from']} -> {violation['to']}: {violation['rule']}")
    print(f"{found['modules']} modules read, {len(found['violations'])} imports break a rule")
    sys.exit(1 if found["violations"] else 0)
