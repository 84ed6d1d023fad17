"""What the platforms' modules share about running one: a database made once and kept in the download cache, and
stopping the server."""

import hashlib
import shutil
import subprocess
from pathlib import Path

from sitebuild.cached_trees import install_tree
from sitebuild.paths import cache_root


def kept_database(name: str, key_source: bytes, make, database_name: str, report) -> Path:
    """A database made by `make(folder)` (which leaves the file `database_name` in the folder, and anything else it
    needed), made once and kept in the download cache as `lms-venvs/<name>-database/`: copying it costs nothing,
    migrating seconds of CPU. Made again when `key_source` (the requirements and the site's own files) changes,
    under the cache's lock (sitebuild/cached_trees.py)."""
    target = cache_root() / "lms-venvs" / f"{name}-database"

    def fill(staging):
        make(staging)
        for path in staging.iterdir():
            if path.name != database_name:
                shutil.rmtree(path) if path.is_dir() else path.unlink()
        report(f"{name}: migrated a new database in {target}")

    install_tree(target, hashlib.sha256(key_source).hexdigest(), fill, report)
    return target / database_name


def stop(process: subprocess.Popen) -> None:
    """Ask the server to stop (SIGTERM), and end it if it has not within a few seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
