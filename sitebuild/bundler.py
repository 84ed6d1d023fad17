"""The production build of the page's own code: esbuild bundles and minifies dist/'s JavaScript and CSS.

The development server serves js/ as it is, one module per file, comments and all: that is the code to read
and edit. dist/ is what learners download, so there the same code is bundled and minified:

    js/boot.js                     starts Python: it and the chunks it imports hold only what that needs, so the
                                   worker starts as soon as they arrive, before the browser has even parsed
                                   the rest of the page's code (what it loads on first use, the other
                                   workers' clients, are chunks)
    js/main.js                     the page, importing js/boot.js (the same module, so one Python service),
                                   with what its views share split into js/chunks/; every view the page
                                   imports later (import()) is a chunk of its own, loaded then. Both entry
                                   scripts are bundled in one run, so no module is in two files
    js/runtime/worker.js           the Python worker (at its own path: it finds the site from there), one file:
                                   it loads nothing later (the training worker is the same script)
    js/embed-host.js               the course page's script, one classic script
    static/style.css               minified, as are static/teaching.css (the later views' rules, loaded with them),
                                   static/lessons.css and static/embed-frame.css (the lessons' and a course
                                   page's frame's, loaded with their code)

The ES modules the build writes into generated/ (the preview, the module's facts) are bundled like the
rest, so dist/ keeps no copy of them.

Each output has a source map with the original files inside (`sourcesContent`), so a browser's developer
tools still show every module as it is written here, comments included.

esbuild is pinned in esbuild.lock.json: one version, and for each platform the sha512 of its npm package,
which holds one self-contained executable. A tarball that does not match is refused.
"""

import json
import os
import platform
import shutil
import subprocess
import tempfile

from . import page
from .downloads import BuildError, SourceUnavailable, download, write_atomically
from .npm import fetch_tarball, tarball_files
from .paths import ROOT, cache_root

LOCK_PATH = ROOT / "esbuild.lock.json"
REGISTRY_TIMEOUT_SECONDS = 120
#: Browsers that run Pyodide 0.27 run this (module workers, top-level await are not needed).
TARGET = "es2022"
BOOT_ENTRY, PAGE_ENTRY = page.ENTRY_SCRIPTS  # js/boot.js, js/main.js
WORKER_ENTRY = "js/runtime/worker.js"
HOST_SCRIPT = "js/embed-host.js"
STYLESHEETS = ("static/style.css", "static/teaching.css", "static/lessons.css", "static/embed-frame.css")
CHUNKS = "js/chunks"


def platform_key():
    """esbuild's name for this machine's platform: linux-x64, linux-arm64, darwin-arm64, …"""
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    return f"{platform.system().lower()}-{machine}"


def esbuild_executable(report, fetch=None):
    """The pinned esbuild for this platform, from the verified tarball (downloaded once, then cached)."""
    lock = json.loads(LOCK_PATH.read_text())
    key = platform_key()
    if key not in lock["platforms"]:
        raise BuildError(f"esbuild.lock.json pins no esbuild for {key} (it has {', '.join(lock['platforms'])})")
    pin = {"version": lock["version"], "integrity": lock["platforms"][key]["integrity"]}
    name = lock["platforms"][key]["package"]

    def from_registry(url):
        try:
            return download(url, REGISTRY_TIMEOUT_SECONDS)
        except SourceUnavailable as error:
            raise BuildError(f"could not download esbuild: {error}") from None

    data = fetch_tarball(name, pin, lock["registry"], cache_root() / "npm", fetch or from_registry, report)
    executable = cache_root() / "esbuild" / f"{lock['version']}-{key}" / "esbuild"
    binary = tarball_files(data)["bin/esbuild"]
    if not executable.exists() or executable.read_bytes() != binary:  # checked on every use, not trusted
        write_atomically(executable, binary, mode=0o755)
    return executable


def run(executable, arguments):
    completed = subprocess.run([str(executable), *arguments, f"--target={TARGET}", "--log-level=warning"],
                               cwd=ROOT, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise BuildError(f"esbuild failed: {completed.stderr.strip()}")


def run_with_metafile(executable, arguments, metafile_path):
    """Run esbuild and return its metafile (written to `metafile_path`): what went into each output, and what
    each output imports."""
    run(executable, [*arguments, f"--metafile={metafile_path}"])
    with open(metafile_path, encoding="utf-8") as file:
        return json.load(file)


def first_view_outputs(metafile, site_dir, entry=PAGE_ENTRY):
    """The files of a bundle that its entry (js/main.js) loads statically, in the order a browser meets them."""
    outputs = metafile["outputs"]
    by_site_path = {os.path.relpath(ROOT / path, site_dir).replace(os.sep, "/"): path for path in outputs}
    ordered = []

    def visit(output):
        site_path = os.path.relpath(ROOT / output, site_dir).replace(os.sep, "/")
        if site_path in ordered:
            return
        ordered.append(site_path)
        for imported in outputs[output].get("imports", []):
            if imported["kind"] == "import-statement" and not imported.get("external"):
                visit(imported["path"])

    visit(by_site_path[entry])
    return ordered


def remove_bundled_modules(site_dir, metafiles):
    """Delete the copies of generated/'s ES modules (the preview, the module's facts) that are inside the
    bundles now: nothing asks for them, and the offline copy would keep them for nothing."""
    for metafile in metafiles:
        for source in metafile["inputs"]:
            if source.startswith("generated/") and source.endswith(".js"):
                (site_dir / source).unlink(missing_ok=True)


def bundle_site(site_dir, report=print):
    """Replace site_dir's js/ and stylesheet with the bundled, minified ones. Returns the first view's files."""
    executable = esbuild_executable(report)
    site_dir = site_dir.resolve()
    shutil.rmtree(site_dir / "js")
    common = ["--bundle", "--minify", "--sourcemap", "--legal-comments=none", "--charset=utf8"]
    split = ["--format=esm", "--splitting", f"--outdir={site_dir / 'js'}", "--outbase=js", "--chunk-names=chunks/[name]-[hash]"]
    with tempfile.TemporaryDirectory() as scratch:
        # Both entry scripts in one run, so each module is in one file: the page's code shares boot.js's
        # (the Python service, the protocol, the module's facts) instead of carrying a second copy. boot.js
        # still loads only what starting Python needs, so the worker starts as soon as that has arrived;
        # what it loads on first use (the learner's and the training worker's clients) are chunks of their own.
        metafile = run_with_metafile(executable, [BOOT_ENTRY, PAGE_ENTRY, *common, *split],
                                     os.path.join(scratch, "page.json"))
        first_view = first_view_outputs(metafile, site_dir, BOOT_ENTRY)
        first_view += [path for path in first_view_outputs(metafile, site_dir, PAGE_ENTRY) if path not in first_view]
        # The worker too, in one file: everything in it is needed at boot.
        worker_metafile = run_with_metafile(executable, [WORKER_ENTRY, *common, "--format=esm",
                                                         f"--outfile={site_dir / WORKER_ENTRY}"],
                                            os.path.join(scratch, "worker.json"))
    remove_bundled_modules(site_dir, [metafile, worker_metafile])
    run(executable, [HOST_SCRIPT, *common, "--format=iife", f"--outfile={site_dir / HOST_SCRIPT}"])
    for stylesheet in STYLESHEETS:
        run(executable, [stylesheet, *common, f"--outfile={site_dir / stylesheet}"])
    sizes = sum((site_dir / path).stat().st_size for path in first_view)
    report(f"bundled: the first view's code is {sizes / 1e3:.0f} kB in {len(first_view)} files")
    return first_view
