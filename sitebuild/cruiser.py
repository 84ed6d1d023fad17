"""dependency-cruiser, which checks the import rules of js/ (the rules: .dependency-cruiser.json).

Installed like CodeMirror and esbuild: every package of its tree (dependency-cruiser.lock.json, which
`npm install dependency-cruiser@18.7.2 --ignore-scripts` resolved) is fetched from the npm registry, checked
against its pinned sha512 and unpacked into the download cache, never into the site. Its command line refuses
Node older than 22 while its programmatic API runs on Debian's Node 20 too, so `cruise.mjs` calls that API with
the rules and prints what breaks them.

    python3 -m sitebuild.cruiser        # prints every import that breaks a rule; exits 1 if there is one
"""

import hashlib
import json
import subprocess
import sys

from .cached_trees import install_tree
from .downloads import BuildError, SourceUnavailable, download
from .npm import fetch_tarball, tarball_files
from .paths import ROOT, cache_root

LOCK_PATH = ROOT / "dependency-cruiser.lock.json"
RULES_PATH = ROOT / ".dependency-cruiser.json"
RUNNER = ROOT / "sitebuild" / "cruise.mjs"
REGISTRY_TIMEOUT_SECONDS = 60


def install(report=print):
    """The folder that holds node_modules/ with the pinned dependency-cruiser, fetched and checked if need be.

    Safe with several processes at once, and checked on every use (cached_trees.py): a folder whose files do not
    match what was installed is installed again."""
    lock_bytes = LOCK_PATH.read_bytes()
    lock = json.loads(lock_bytes)
    target = cache_root() / f"dependency-cruiser-{lock['version']}"

    def fetch(url):
        try:
            return download(url, REGISTRY_TIMEOUT_SECONDS)
        except SourceUnavailable as error:
            raise BuildError(f"could not download dependency-cruiser: {error}") from None

    def fill(staging):
        for path, pin in lock["packages"].items():
            name = path.rsplit(" > ", 1)[-1]  # a nested copy is "outer > inner"
            folder = staging / "node_modules" / path.replace(" > ", "/node_modules/")
            tarball = fetch_tarball(name, pin, lock["registry"], cache_root() / "npm", fetch, report)
            for inner, data in tarball_files(tarball).items():
                (folder / inner).parent.mkdir(parents=True, exist_ok=True)
                (folder / inner).write_bytes(data)
        report(f"dependency-cruiser {lock['version']}: {len(lock['packages'])} packages in {target}")

    return install_tree(target, hashlib.sha256(lock_bytes).hexdigest(), fill, report)


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
