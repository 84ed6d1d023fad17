"""Where everything is. Every other module of the build takes its paths from here."""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENDOR_DIR = ROOT / "vendor"
GENERATED_DIR = ROOT / "generated"
DIST_DIR = ROOT / "dist"
CDN_DIR = ROOT / "dist-cdn"
#: Where `build.py --scorm` writes the SCORM packages (sitebuild/scorm.py).
SCORM_DIR = ROOT / "dist-scorm"
PY_DIR = ROOT / "py"
PACKAGE_NAME = "attention_playground"
#: What only the tests need, fetched and kept out of the site (never copied into dist/).
TEST_CACHE_DIR = ROOT / "tests" / ".cache"

#: The page's own files, copied into dist/ beside generated/ and vendor/.
SITE_ENTRIES = ["index.html", "js", "static", "sw.js"]

#: Overrides where verified downloads are kept between builds (and between clones of the project).
CACHE_ENV_VAR = "ATTENTION_PLAYGROUND_CACHE"


def cache_root():
    """The download cache: $ATTENTION_PLAYGROUND_CACHE's parent, else ~/.cache/attention-playground/."""
    override = os.environ.get(CACHE_ENV_VAR)
    if override:
        return Path(override).expanduser().parent
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "attention-playground"
