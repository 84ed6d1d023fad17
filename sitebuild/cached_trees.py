"""Folders installed once and kept between runs (dependency-cruiser's node_modules/, vendor/codemirror/), safe when
several processes want them at once and checked on every use, never trusted.

Two pytest workers, or `build.py serve` beside `./test.sh`, may ask for the same folder at the same moment. Each
install holds an exclusive lock on a file beside the folder (`<folder>.lock`), fills a staging folder of its own,
writes the stamp last and swaps the staging folder in with one rename. The stamp (`.installed.json`) names what was
installed (the lock file's digest) and every file with its size, so a folder whose files do not match its stamp
(a run killed halfway, a file deleted by hand) is installed again rather than used. Staging folders left by a
killed run are removed by the next install, which holds the lock and so knows no one else is writing them.

    installed = install_tree(target, key, fill, report)   # fill(staging) writes the files; returns target
"""

import contextlib
import fcntl
import json
import os
import shutil
import tempfile
from pathlib import Path

STAMP_NAME = ".installed.json"
STAGING_SUFFIX = ".partial"


@contextlib.contextmanager
def exclusive(target: Path):
    """Hold an exclusive lock for `target` (the file `<target>.lock` beside it) while the block runs; other
    processes asking for the same lock wait. The lock goes with the process, so a killed run leaves none held."""
    lock_path = target.with_name(target.name + ".lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "a", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def listed_files(folder: Path) -> dict[str, int]:
    """{path relative to `folder`: size in bytes} of every file under it but the stamp."""
    return {
        path.relative_to(folder).as_posix(): path.stat().st_size
        for path in folder.rglob("*")
        if path.is_file() and path.name != STAMP_NAME
    }


def stamp(folder: Path, key: str) -> None:
    """Write the stamp that says `folder` holds `key`'s files, as they are now. Written last."""
    record = {"key": key, "files": listed_files(folder)}
    (folder / STAMP_NAME).write_text(json.dumps(record, indent=0, sort_keys=True), encoding="utf-8")


def problem(folder: Path, key: str) -> str | None:
    """Why `folder` cannot be used as `key`'s install (no stamp, another key, a file missing or of another size),
    or None when it can. Costs a stat per file: a few milliseconds for a thousand files."""
    try:
        record = json.loads((folder / STAMP_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "no stamp"
    if not isinstance(record, dict) or record.get("key") != key or not isinstance(record.get("files"), dict):
        return "a stamp for something else"
    for relative, size in record["files"].items():
        try:
            if (folder / relative).stat().st_size != size:
                return f"{relative} is not the size it was installed at"
        except OSError:
            return f"{relative} is missing"
    return None


def staging_folders(target: Path) -> list[Path]:
    """The staging folders of `target` (ours and any a killed run left)."""
    return sorted(target.parent.glob(f"{target.name}.*{STAGING_SUFFIX}"))


def install_tree(target: Path, key: str, fill, report=print) -> Path:
    """`target`, holding `key`'s files: as it is when its stamp matches, else filled anew by `fill(staging)`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with exclusive(target):
        why = problem(target, key)
        if why is None:
            return target
        for leftover in staging_folders(target):
            shutil.rmtree(leftover, ignore_errors=True)
        if target.exists() and why != "no stamp":
            report(f"{target.name}: installing again ({why})")
        staging = Path(tempfile.mkdtemp(prefix=f"{target.name}.", suffix=STAGING_SUFFIX, dir=target.parent))
        try:
            fill(staging)
            stamp(staging, key)
            replace_folder(staging, target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return target


def replace_folder(new: Path, target: Path) -> None:
    """Put `new` where `target` is. The old folder is first renamed aside (one rename), so `target` is never a
    mix of the two; it is then deleted."""
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=f"{target.name}.old.", suffix=STAGING_SUFFIX, dir=target.parent))
        os.replace(target, old / "tree")
    os.replace(new, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
