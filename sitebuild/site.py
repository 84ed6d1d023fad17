"""dist/: a self-contained copy of the site to upload to any static host. It asks no other host for anything.

The page's own files, generated/ and vendor/ are copied as they are (of the runtime, only the files the page
loads: its core and NumPy), except js/ and the stylesheet, which are bundled and minified with source maps (bundler.py), and index.html, which gets the policy and the preloads
of the bundle's first view written in, and its comments left out (page.py). A `_headers` file (the form Netlify and Cloudflare Pages
read; other hosts set the same headers in their own configuration) asks for the headers the development
server sends: cross-origin isolation and the Content-Security-Policy, which a worker takes from its script's
response. Where a host sends neither, sw.js adds the isolation headers from the second visit on.
"""

import shutil

from . import bundler, cached_trees, csp, editor, page, runtime, variants
from .downloads import BuildError
from .paths import DIST_DIR, ROOT, SITE_ENTRIES

#: lessons/: the shipped lessons' Markdown too, so that `lesson-src=lessons/<id>.md` plays them as a course's own file
#: is played (the page opens the compiled ones in generated/lessons/).
COPIED_WITH_THE_SITE = [*SITE_ENTRIES, "generated", "lessons", editor.VENDOR_DIR.relative_to(ROOT).as_posix()]


def write_dist(runtime_files, report=print):
    """Write dist/ afresh. `runtime_files` are the names of the runtime's files the page loads (what
    runtime.vendor_runtime returns): of vendor/pyodide/ only those go in, not what is vendored for the tests
    alone (micropip, which installs pytest in the in-Pyodide test run)."""
    missing = [entry for entry in SITE_ENTRIES if not (ROOT / entry).exists()]
    if missing:
        raise BuildError(f"the page is incomplete, missing: {', '.join(missing)}")
    shutil.rmtree(DIST_DIR, ignore_errors=True)
    DIST_DIR.mkdir()
    for entry in COPIED_WITH_THE_SITE:
        source = ROOT / entry
        if source.is_dir():
            shutil.copytree(source, DIST_DIR / entry, ignore=shutil.ignore_patterns("*.partial", "__pycache__", cached_trees.STAMP_NAME))
        else:
            DIST_DIR.joinpath(entry).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, DIST_DIR / entry)
    runtime_dir = DIST_DIR / runtime.VENDOR_DIR.relative_to(ROOT)
    runtime_dir.mkdir(parents=True)
    for name in runtime_files:
        shutil.copy2(runtime.VENDOR_DIR / name, runtime_dir / name)
    first_view = bundler.bundle_site(DIST_DIR, report)
    index = DIST_DIR / "index.html"
    index.write_text(page.without_comments(page.render_index(index.read_text(encoding="utf-8"), modules=first_view)), encoding="utf-8")
    (DIST_DIR / variants.HEADERS_FILE).write_text(headers_file(), encoding="utf-8")


def headers_file():
    """Every path: cross-origin isolated, and under the page's policy (a worker reads it from here: a static host
    gives the workers the page's policy, lesson sources included)."""
    lines = [f"  {name}: {value}" for name, value in csp.ISOLATION_HEADERS.items()]
    lines.append(f"  Content-Security-Policy: {csp.page_policy()}")
    return "/*\n" + "\n".join(lines) + "\n"
