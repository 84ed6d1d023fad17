"""A tool from the npm registry, installed with its whole tree into the download cache (never into the site):
dependency-cruiser (cruiser.py) and TypeScript's checker (typecheck.py).

A tool's lock file (`<tool>.lock.json`) pins one exact version and every package of its tree, each with the sha512
integrity the registry publishes; every tarball is checked against it (npm.py). The folder is installed and checked
as every cached folder is (cached_trees.py): safe with several processes at once, installed again when its files
do not match what was installed.

    folder = install(LOCK_PATH, "typescript", report)   # folder / "node_modules" holds the tree
"""

import hashlib
import json

from .cached_trees import install_tree
from .downloads import BuildError, SourceUnavailable, download
from .npm import fetch_tarball, tarball_files
from .paths import cache_root

REGISTRY_TIMEOUT_SECONDS = 60


def install(lock_path, tool, report=print):
    """The folder holding node_modules/ with the tree `lock_path` pins for `tool`, fetched and checked if need be."""
    lock_bytes = lock_path.read_bytes()
    lock = json.loads(lock_bytes)
    target = cache_root() / f"{tool}-{lock['version']}"

    def fetch(url):
        try:
            return download(url, REGISTRY_TIMEOUT_SECONDS)
        except SourceUnavailable as error:
            raise BuildError(f"could not download {tool}: {error}") from None

    def fill(staging):
        for path, pin in lock["packages"].items():
            name = path.rsplit(" > ", 1)[-1]  # a nested copy is "outer > inner"
            folder = staging / "node_modules" / path.replace(" > ", "/node_modules/")
            tarball = fetch_tarball(name, pin, lock["registry"], cache_root() / "npm", fetch, report)
            for inner, data in tarball_files(tarball).items():
                (folder / inner).parent.mkdir(parents=True, exist_ok=True)
                (folder / inner).write_bytes(data)
        report(f"{tool} {lock['version']}: {len(lock['packages'])} packages in {target}")

    return install_tree(target, hashlib.sha256(lock_bytes).hexdigest(), fill, report)
