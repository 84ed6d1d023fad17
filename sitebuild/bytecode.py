"""The runtime's standard library and NumPy compiled to bytecode ahead of time, by the runtime itself.

Pyodide 0.27.7 ships both as Python source, so every start of the page compiled the few hundred modules it
imports, about half of a start in a warm browser (docs/build.md, "Compiled ahead", has the figures). The build
compiles them once instead, with the pinned Pyodide running under Node.js (bytecode.mjs; pyc_archive.py does
the work), so the bytecode is exactly what the page's interpreter would have made. In vendor/pyodide/ the
compiled archive and wheel then take the pinned ones' place, and pyodide-lock.json gives the compiled wheel's
sha256, which the page checks as it did the pinned one's. The pinned files stay in the download cache, each
verified (runtime.py); what was compiled, and from what, is listed in vendor/pyodide/compiled.json.

Compiled files are kept in the cache too, by their source's sha256, so a rebuild runs no compiler; each is checked
on use (every member reads back) and compiled again if it is not whole.
Without Node.js 18 or newer the sources stay: the page works the same and starts more slowly; the build says so.
"""

import hashlib
import json
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from .downloads import BuildError, sha256_of, write_atomically

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "bytecode.mjs"
COMPILER = HERE / "pyc_archive.py"
MANIFEST_NAME = "compiled.json"
#: Where Pyodide imports each archive from (the file names its tracebacks give).
STDLIB_IMPORT_ROOT = "/lib/python312.zip"
SITE_PACKAGES = "/lib/python3.12/site-packages"
#: Part of every cache key: a change to how files are compiled must not reuse what the old way made.
COMPILER_KEY = hashlib.sha256(COMPILER.read_bytes() + RUNNER.read_bytes()).hexdigest()[:16]
NODE_TIMEOUT_SECONDS = 300


def node_command():
    """Node.js, if this machine has it."""
    return shutil.which("node")


def compile_in_place(vendor_dir: Path, archives: dict[str, str], lockfile_name: str, cache: Path, report) -> bool:
    """Replace each archive in `vendor_dir` (name -> the folder Pyodide imports it from) by its compiled form,
    and give the compiled wheels' sha256 in the lockfile. `vendor_dir` holds the pinned files when this is
    called. Returns False (and leaves them) where there is no Node.js."""
    sources = {name: (vendor_dir / name).read_bytes() for name in archives}
    keys = {name: f"{sha256_of(data)[:32]}-{COMPILER_KEY}" for name, data in sources.items()}
    cached = {name: cache / "bytecode" / keys[name] / name for name in archives}
    missing = [name for name in archives if not whole_archive(cached[name])]
    if missing:
        node = node_command()
        if node is None:
            report("bytecode: no Node.js here, so the runtime's Python stays source (the page starts about a second "
                   "slower); install Node.js 18 or newer (apt-get install nodejs) and build again")
            (vendor_dir / MANIFEST_NAME).unlink(missing_ok=True)
            return False
        run_compiler(node, vendor_dir, {name: (vendor_dir / name, archives[name], cached[name]) for name in missing}, report)

    lockfile_path = vendor_dir / lockfile_name
    lockfile = json.loads(lockfile_path.read_text(encoding="utf-8"))
    manifest = {}
    for name in archives:
        compiled = cached[name].read_bytes()
        write_atomically(vendor_dir / name, compiled)
        manifest[name] = {"source_sha256": sha256_of(sources[name]), "sha256": sha256_of(compiled)}
        for entry in lockfile["packages"].values():
            if entry["file_name"] == name:
                entry["sha256"] = manifest[name]["sha256"]
    write_atomically(lockfile_path, json.dumps(lockfile, separators=(",", ":")).encode())
    write_atomically(vendor_dir / MANIFEST_NAME, (json.dumps(manifest, indent=1) + "\n").encode())
    return True


def whole_archive(path: Path) -> bool:
    """Whether `path` is a zip archive whose every member reads back with its CRC: a compiled archive in the cache
    is checked so on every build, not trusted, and compiled again if it is not whole."""
    try:
        with zipfile.ZipFile(path) as archive:
            return archive.testzip() is None
    except (OSError, zipfile.BadZipFile):
        return False


def run_compiler(node: str, runtime_dir: Path, jobs: dict[str, tuple[Path, str, Path]], report):
    """Compile each (source, import root, target) with the runtime in `runtime_dir`, under Node.js."""
    with tempfile.TemporaryDirectory() as scratch:
        listed = []
        for name, (source, import_root, target) in jobs.items():
            listed.append({"input": str(source), "output": str(Path(scratch) / name), "importRoot": import_root})
        jobs_file = Path(scratch) / "jobs.json"
        jobs_file.write_text(json.dumps(listed), encoding="utf-8")
        try:
            completed = subprocess.run([node, str(RUNNER), str(runtime_dir), str(COMPILER), str(jobs_file)],
                                       capture_output=True, text=True, timeout=NODE_TIMEOUT_SECONDS, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise BuildError(f"compiling the runtime's Python with Node.js failed: {error}") from None
        if completed.returncode != 0:
            raise BuildError(f"compiling the runtime's Python with Node.js failed:\n{completed.stderr[-2000:]}")
        for line in completed.stdout.splitlines():
            report(f"bytecode: {line}")
        for name, (_, _, target) in jobs.items():
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, (Path(scratch) / name).read_bytes())
