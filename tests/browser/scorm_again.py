"""scorm-again, an LMS's SCORM runtime made for testing content, for the browser tests: a pinned copy fetched once
with npm into tests/.cache/ (never committed), checked against its SHA-256, and served to a page that plays the
LMS. `runtime_scripts()` gives the two browser builds: {"scorm12.min.js": text, "scorm2004.min.js": text}, which
define the globals `Scorm12API` and `Scorm2004API`."""

import hashlib
import subprocess
import tarfile
from pathlib import Path

SCORM_AGAIN_VERSION = "3.4.3"
#: SHA-256 of the registry's tarball of that version.
SCORM_AGAIN_SHA256 = "f182724b4614c34a616a92d7e4d8967392013c5fae74116db98a5c5a11db5edb"
CACHE_DIR = Path(__file__).resolve().parents[1] / ".cache"
TARBALL = CACHE_DIR / f"scorm-again-{SCORM_AGAIN_VERSION}.tgz"
SCRIPTS = ("scorm12.min.js", "scorm2004.min.js")


def runtime_scripts():
    """The browser builds of scorm-again's SCORM 1.2 and 2004 runtimes, from the cached tarball (fetched with
    `npm pack` the first time)."""
    if not TARBALL.exists():
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "pack", f"scorm-again@{SCORM_AGAIN_VERSION}", "--pack-destination", str(CACHE_DIR)],
                       check=True, capture_output=True)
    if hashlib.sha256(TARBALL.read_bytes()).hexdigest() != SCORM_AGAIN_SHA256:
        TARBALL.unlink()
        raise RuntimeError(f"{TARBALL.name} does not match its pinned SHA-256; deleted, run again to refetch")
    with tarfile.open(TARBALL) as archive:
        return {name: archive.extractfile(f"package/dist/{name}").read().decode("utf-8") for name in SCRIPTS}
