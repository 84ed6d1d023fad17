"""The runtime's Python compiled ahead (sitebuild/bytecode.py, sitebuild/pyc_archive.py): every source becomes
bytecode that imports and runs, a wheel's RECORD lists what it now holds, the same sources give the same bytes,
the built vendor/pyodide/ is what compiled.json says, and without Node.js the build keeps the sources.

Natively pyc_archive compiles for this Python (the build runs it in Pyodide's); tests/browser/test_module_in_pyodide.py
checks that the page's interpreter imports the standard library and NumPy from the build's bytecode.
"""

import base64
import hashlib
import importlib.util
import io
import json
import marshal
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sitebuild import bytecode, pyc_archive, runtime  # noqa: E402

SOURCES = {
    "tiny/__init__.py": b"from .helper import double\n",
    "tiny/helper.py": b"def double(x):\n    return 2 * x\n",
    "tiny/data.txt": b"not Python",
}
RECORD_NAME = "tiny-1.0.dist-info/RECORD"


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def archive_of(members):
    written = io.BytesIO()
    with zipfile.ZipFile(written, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 2, 3, 4, 6)), data)
    return written.getvalue()


def members_of(data):
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def a_wheel():
    record = "".join(f"{name},sha256=x,{len(data)}\n" for name, data in SOURCES.items()) + f"{RECORD_NAME},,\n"
    return archive_of({**SOURCES, RECORD_NAME: record.encode()})


def test_every_source_becomes_bytecode_that_runs_and_the_rest_stays():
    compiled, count = pyc_archive.compile_archive(archive_of(SOURCES), "/site")
    members = members_of(compiled)
    assert count == 2
    assert set(members) == {"tiny/__init__.pyc", "tiny/helper.pyc", "tiny/data.txt"}
    assert members["tiny/data.txt"] == SOURCES["tiny/data.txt"]
    pyc = members["tiny/helper.pyc"]
    # PEP 552: magic, flags (hash-based, unchecked), the source's hash, then the code.
    assert pyc[:4] == importlib.util.MAGIC_NUMBER
    assert int.from_bytes(pyc[4:8], "little") == 0b01
    assert pyc[8:16] == importlib.util.source_hash(SOURCES["tiny/helper.py"])
    code = marshal.loads(pyc[16:])
    assert code.co_filename == "/site/tiny/helper.py"
    namespace = {}
    exec(code, namespace)
    assert namespace["double"](21) == 42


def test_a_compiled_archive_imports_without_its_sources(tmp_path, monkeypatch):
    compiled, _ = pyc_archive.compile_archive(archive_of(SOURCES), str(tmp_path / "tiny.zip"))
    (tmp_path / "tiny.zip").write_bytes(compiled)
    monkeypatch.syspath_prepend(str(tmp_path / "tiny.zip"))
    monkeypatch.delitem(sys.modules, "tiny", raising=False)
    monkeypatch.delitem(sys.modules, "tiny.helper", raising=False)
    import tiny  # noqa: PLC0415

    assert tiny.double(4) == 8 and tiny.__file__.endswith("tiny/__init__.pyc")


def test_a_wheels_record_lists_what_it_now_holds():
    compiled, _ = pyc_archive.compile_archive(a_wheel(), "/site")
    members = members_of(compiled)
    listed = [line.split(",") for line in members[RECORD_NAME].decode().splitlines()]
    assert {path for path, *_ in listed} == set(members)
    for path, digest, size in listed:
        if path == RECORD_NAME:
            assert (digest, size) == ("", "")
            continue
        data = members[path]
        expected = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        if path.endswith(".pyc"):
            assert (digest, size) == (expected, str(len(data)))


def test_the_same_sources_give_the_same_bytes():
    assert pyc_archive.compile_archive(a_wheel(), "/site") == pyc_archive.compile_archive(a_wheel(), "/site")


def test_without_node_the_build_keeps_the_sources_and_says_so(tmp_path, monkeypatch):
    archive = archive_of(SOURCES)
    lockfile = json.dumps({"packages": {"tiny": {"file_name": "tiny.whl", "sha256": sha256(archive)}}}).encode()
    (tmp_path / "tiny.whl").write_bytes(archive)
    (tmp_path / "lock.json").write_bytes(lockfile)
    monkeypatch.setattr(bytecode, "node_command", lambda: None)
    said = []
    assert bytecode.compile_in_place(tmp_path, {"tiny.whl": "/site"}, "lock.json", tmp_path / "cache", said.append) is False
    assert (tmp_path / "tiny.whl").read_bytes() == archive and (tmp_path / "lock.json").read_bytes() == lockfile
    assert not (tmp_path / bytecode.MANIFEST_NAME).exists()
    assert len(said) == 1 and "no Node.js" in said[0] and "apt-get install nodejs" in said[0]


def test_the_built_runtime_is_compiled_from_the_pinned_files():
    """vendor/pyodide/ as the build left it (test.sh builds first): the standard library and NumPy hold a .pyc
    for every module of the pinned files and no source, compiled.json names both, and the lockfile gives
    the compiled wheel's sha256 (the page checks it)."""
    compiled = json.loads((runtime.VENDOR_DIR / bytecode.MANIFEST_NAME).read_text(encoding="utf-8"))
    lockfile = json.loads((runtime.VENDOR_DIR / runtime.LOCKFILE_NAME).read_text(encoding="utf-8"))
    numpy_wheel = lockfile["packages"]["numpy"]
    assert set(compiled) == {runtime.STDLIB_NAME, numpy_wheel["file_name"]}
    assert compiled[runtime.STDLIB_NAME]["source_sha256"] == runtime.CORE_FILES[runtime.STDLIB_NAME]
    pinned_lockfile = (runtime.cache_dir() / runtime.LOCKFILE_NAME).read_bytes()
    assert sha256(pinned_lockfile) == runtime.CORE_FILES[runtime.LOCKFILE_NAME]
    pinned_numpy = json.loads(pinned_lockfile)["packages"]["numpy"]
    assert compiled[numpy_wheel["file_name"]]["source_sha256"] == pinned_numpy["sha256"]
    assert numpy_wheel["sha256"] == compiled[numpy_wheel["file_name"]]["sha256"]
    for name, entry in compiled.items():
        data = (runtime.VENDOR_DIR / name).read_bytes()
        assert sha256(data) == entry["sha256"], name
        pinned = runtime.cache_dir() / name
        assert sha256(pinned.read_bytes()) == entry["source_sha256"], name
        sources = {member for member in members_of(pinned.read_bytes()) if member.endswith(".py")}
        now = set(members_of(data))
        assert sources and not sources & now, f"{name} still holds sources"
        assert {source + "c" for source in sources} <= now, f"{name} lacks some modules' bytecode"
