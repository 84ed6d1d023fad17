"""An archive of Python sources rewritten as bytecode: each `x.py` member replaced by `x.pyc`, the rest kept.

It runs inside the runtime it compiles for (Pyodide under Node.js, sitebuild/bytecode.mjs), so the bytecode is
the one that interpreter would have made itself at every start; it is plain standard library, so the tests run
it natively too (there the bytecode is the native interpreter's, which is all they check).

The .pyc files are hash-based and unchecked (PEP 552): the header carries a hash of the source instead of a
timestamp, so the same sources give the same bytes at every build, and nothing compares them with a source at
import time (there is none beside them). Each sits where its source was ("legacy" layout), which is where
zipimport and a sourceless import look. A wheel's RECORD is rewritten to list the files it now holds.
"""

import base64
import hashlib
import importlib.util
import io
import marshal
import zipfile

#: PEP 552 flags: bit 0 set, hash-based; bit 1 clear, not checked against a source.
UNCHECKED_HASH_FLAGS = 0b01


def pyc_bytes(source: bytes, filename: str) -> bytes:
    """The .pyc file for `source`: header (magic, flags, source hash) and the marshalled code object.
    `filename` is the path the code reports in tracebacks (where the module will be imported from)."""
    code = compile(source, filename, "exec", dont_inherit=True)
    header = importlib.util.MAGIC_NUMBER + UNCHECKED_HASH_FLAGS.to_bytes(4, "little")
    return header + importlib.util.source_hash(source) + marshal.dumps(code)


def record_hash(data: bytes) -> str:
    """A RECORD entry's hash (the wheel format: urlsafe base64 of the sha256, no padding)."""
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def compile_archive(data: bytes, import_root: str) -> tuple[bytes, int]:
    """The archive `data` (a zip or a wheel) with every .py member compiled; also how many were compiled.
    `import_root` is the folder the archive's paths are imported under (for the tracebacks' file names)."""
    written = io.BytesIO()
    compiled = {}
    record_name = None
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(written, "w") as target:
        for member in source.infolist():
            content = source.read(member)
            if member.filename.endswith(".dist-info/RECORD"):
                record_name = member.filename
                continue  # written last, once every file it lists is known
            if member.filename.endswith(".py"):
                name = member.filename + "c"
                content = pyc_bytes(content, f"{import_root.rstrip('/')}/{member.filename}")
                compiled[member.filename] = (name, content)
                member = clone(member, name)
            target.writestr(member, content)
        if record_name is not None:
            record = source.read(record_name).decode("utf-8")
            target.writestr(clone(source.getinfo(record_name)), rewrite_record(record, compiled))
    return written.getvalue(), len(compiled)


def clone(member: zipfile.ZipInfo, name: str | None = None) -> zipfile.ZipInfo:
    """A new entry like `member` (same date, so the archive is the same at every build; same compression)."""
    info = zipfile.ZipInfo(name or member.filename, date_time=member.date_time)
    info.compress_type = member.compress_type
    info.external_attr = member.external_attr
    return info


def rewrite_record(record: str, compiled: dict[str, tuple[str, bytes]]) -> str:
    """RECORD with each compiled source's line replaced by its .pyc's (path, hash, size)."""
    lines = []
    for line in record.splitlines():
        path = line.split(",", 1)[0]
        if path in compiled:
            name, content = compiled[path]
            line = f"{name},{record_hash(content)},{len(content)}"
        lines.append(line)
    return "\n".join(lines) + "\n"
