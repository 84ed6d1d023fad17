"""Pure-Python wheels for Pyodide, pinned by hash: fetched with pip, verified, and listed for micropip or unpacked.

Two uses. The page's Python compiles a course's own lesson file with markdown-it-py and mdurl: the build unpacks
their wheels, pinned in requirements/pyodide-page.txt, into a part of the module of their own
(generated/attention_playground-markdown.zip: sitebuild/generated.py, `wheel_parts`), fetched only by a page that
compiles a lesson. The in-Pyodide test run installs what it needs (tests/browser/test_module_in_pyodide.py calls
vendor_wheels): pinned, with each wheel's sha256, in requirements/pyodide-tests.txt (pytest, hypothesis and their
dependencies), into tests/.cache/pyodide-wheels/, never into dist/ or the zip.

The test folder gets the wheels and a manifest, wheels.json, naming every wheel with its version, size and sha256.
The test worker reads the manifest and installs the wheels with micropip through an index whose links carry
those hashes, so micropip checks every wheel it installs (tests/in_pyodide/wheels.js). Files are kept in the
download cache between runs and checked on every use: a cached one whose hash is wrong is fetched again, and a
downloaded one whose hash is wrong stops the run with its name. One process at a time fills a folder, and the cache.
"""

import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .cached_trees import exclusive
from .downloads import BuildError, check_sha256, sha256_of, write_atomically
from .paths import ROOT, TEST_CACHE_DIR, cache_root

REQUIREMENTS_DIR = ROOT / "requirements"
TEST_REQUIREMENTS = REQUIREMENTS_DIR / "pyodide-tests.txt"
TEST_WHEELS_DIR = TEST_CACHE_DIR / "pyodide-wheels"
MANIFEST_NAME = "wheels.json"

#: The interpreter the wheels are for: Pyodide 0.27.7's Python. Only pure-Python wheels qualify.
PIP_TARGET = ["--python-version", "3.12", "--platform", "any", "--implementation", "py", "--abi", "none"]

PIN_PATTERN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)")
HASH_PATTERN = re.compile(r"--hash=sha256:([0-9a-f]{64})")


@dataclass(frozen=True)
class Pin:
    """One line of a requirements file: a project at one version, and the sha256 of its wheel."""

    name: str
    version: str
    sha256: str

    @property
    def file_prefix(self):
        """How its wheel's file name starts (PEP 427: the name with runs of -_. as one underscore); the tags
        that follow are the wheel's own (py3-none-any, py2.py3-none-any, ...)."""
        return f"{normalized(self.name)}-{self.version}-"


def normalized(name):
    return re.sub(r"[-_.]+", "_", name).lower()


def read_pins(requirements_file):
    """The pins of a requirements file written as `name==version \\ --hash=sha256:...` (continuation lines joined)."""
    text = Path(requirements_file).read_text(encoding="utf-8")
    logical_lines = re.sub(r"\\\n", " ", text).splitlines()
    pins = []
    for line in logical_lines:
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        pin, hashes = PIN_PATTERN.match(line), HASH_PATTERN.findall(line)
        if not pin or len(hashes) != 1:
            raise BuildError(f"{requirements_file.name}: expected `name==version --hash=sha256:...`, got {line!r}")
        pins.append(Pin(pin.group(1).lower(), pin.group(2), hashes[0]))
    return pins


def wheel_cache_dir():
    return cache_root() / "wheels"


def pip_download(requirements_file, into):
    """Run pip download for every pin of `requirements_file` into the folder `into`, checking the hashes."""
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
               "--only-binary=:all:", *PIP_TARGET, "--dest", str(into), "-r", str(requirements_file)]
    try:
        completed = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as error:
        raise BuildError(f"could not run pip for {requirements_file.name}: {error}") from None
    if completed.returncode != 0:
        reason = (completed.stderr or completed.stdout).strip().splitlines()
        if any("No module named pip" in line for line in reason):
            raise BuildError(f"{sys.executable} has no pip, which fetches {requirements_file.name}'s wheels: "
                             "run the tests in the project's .venv (./test.sh makes it) or install python3-pip")
        raise BuildError(f"pip could not fetch the wheels of {requirements_file.name}: " + " ".join(reason[-6:]))


def vendor_wheels(requirements_file, target_dir, report=print):
    """Make `target_dir` hold exactly the wheels `requirements_file` pins, verified, and their manifest.

    Returns the manifest (also written to target_dir/wheels.json).
    """
    with exclusive(target_dir):  # one process at a time fills the folder; the others then find it filled
        return _vendor_wheels(requirements_file, target_dir, report)


def checked_wheels(requirements_file, report=print):
    """[(pin, path, bytes)]: every wheel `requirements_file` pins, from the download cache (fetched into it with
    pip first where missing or damaged), each checked against its sha256."""
    pins = read_pins(requirements_file)
    cache = wheel_cache_dir()
    if any(_cached(cache, pin) is None for pin in pins):
        with exclusive(cache), tempfile.TemporaryDirectory() as downloads:
            # Looked at again under the lock: another process may have filled the cache while this one waited.
            missing = [pin for pin in pins if _cached(cache, pin) is None]
            if missing:
                pip_download(requirements_file, downloads)
            for pin in missing:
                path = _wheel_in(Path(downloads), pin)
                if path is None:
                    raise BuildError(f"pip did not deliver {pin.name} {pin.version} for {requirements_file.name}")
                data = path.read_bytes()
                check_sha256(path.name, data, pin.sha256, "PyPI")
                write_atomically(cache / path.name, data)
                report(f"{path.name}: {len(data) / 1e3:.0f} KB, cached in {cache}")
    wheels = []
    for pin in pins:
        cached = _cached(cache, pin)
        if cached is None:
            raise BuildError(f"{pin.name} {pin.version} is missing from the cache ({cache})")
        wheels.append((pin, *cached))
    return wheels


def _vendor_wheels(requirements_file, target_dir, report):
    checked = checked_wheels(requirements_file, report)
    shutil.rmtree(target_dir, ignore_errors=True)
    target_dir.mkdir(parents=True)
    wheels = []
    for pin, path, data in checked:
        (target_dir / path.name).write_bytes(data)
        wheels.append({"name": pin.name, "version": pin.version, "file": path.name, "sha256": pin.sha256, "size": len(data)})
    manifest = {"requirements": requirements_file.relative_to(ROOT).as_posix(), "wheels": wheels}
    write_atomically(target_dir / MANIFEST_NAME, json.dumps(manifest, indent=1).encode())
    return manifest


def _wheel_in(folder, pin):
    """The pure-Python wheel of `pin` in `folder`, or None."""
    return next((path for path in sorted(folder.glob("*.whl"))
                 if path.name.lower().startswith(pin.file_prefix) and path.name.endswith("-none-any.whl")), None)


def _cached(cache, pin):
    """(path, bytes) of the cached wheel, or None where there is none or it does not match its hash (cut short by
    a killed run): then it is fetched again, and checked."""
    path = _wheel_in(cache, pin) if cache.is_dir() else None
    if path is None:
        return None
    data = path.read_bytes()
    if sha256_of(data) != pin.sha256:
        return None
    return path, data
