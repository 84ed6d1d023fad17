"""A virtualenv per LMS, from its requirements file (pinned with hashes, wheels only), kept in the download cache and
installed like the build's own cached folders (sitebuild/cached_trees.py): under a lock, so two test workers asking
at once get one whole install, stamped with its files and installed again where they do not match.

The folder is filled under a staging name and then renamed, so the scripts pip writes into bin/ would name the
wrong folder: run everything as `<python> -m <module>` (the interpreter itself finds its folder wherever it is)."""

import hashlib
import subprocess
import sys
from pathlib import Path

from sitebuild.cached_trees import install_tree
from sitebuild.paths import ROOT, cache_root

REQUIREMENTS_DIR = ROOT / "requirements"


def virtualenv(name: str, report=lambda line: None) -> Path:
    """The interpreter of the virtualenv made from requirements/lms-<name>.txt."""
    requirements = REQUIREMENTS_DIR / f"lms-{name}.txt"
    key = hashlib.sha256(requirements.read_bytes() + sys.version.encode()).hexdigest()
    target = cache_root() / "lms-venvs" / name

    def fill(staging):
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(staging)], check=True)
        installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(staging / "bin" / "python"), "install",
                                    "--quiet", "--no-compile", "--require-hashes", "--only-binary=:all:",
                                    "-r", str(requirements)], capture_output=True, text=True, check=False)
        if installed.returncode != 0:
            raise RuntimeError(f"could not install {requirements.name}: {installed.stderr[-3000:]}")
        report(f"{name}: installed from {requirements.name}")

    install_tree(target, key, fill, report)
    return target / "bin" / "python"
