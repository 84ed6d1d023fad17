"""generated/: what the page needs from the Python module before Python runs in the browser.

- presets/index.json and presets/<id>.json: the examples, through the module's entry point;
- preview.js: the default example computed natively, as an ES module the page's code imports, so the heatmap
  paints as that code runs (a fetched file resolved a task later, and was one more request);
- previews/<id>.json: every example's result computed natively, fetched by a page (or a course page's frame)
  that opens on that example before Python is live, so its heatmap is drawn while Python starts;
- attention_playground.zip and attention_playground-<part>.zip: the module, for the Web Worker to unpack (the
  core at boot, each part when a request first needs it: attention_playground/parts.py);
- module-facts.js: the facts the page's JavaScript shares with the module (attention_playground.facts), as an
  ES module, so that neither side types them again; among them `REQUEST_KINDS`, the request kinds as
  attention_playground/kinds.py declares them.

Everything is asked of the module exactly as the Web Worker will ask it.
"""

import io
import json
import shutil
import sys
import zipfile

from .code_only import code_only
from .downloads import BuildError, write_atomically
from .paths import GENERATED_DIR, PACKAGE_NAME, PY_DIR

FACTS_MODULE = GENERATED_DIR / "module-facts.js"
PREVIEW_MODULE = GENERATED_DIR / "preview.js"


def _module():
    """The module's entry point and its facts, imported from py/ (the build runs before any install)."""
    if str(PY_DIR) not in sys.path:
        sys.path.insert(0, str(PY_DIR))
    from attention_playground.entry import handle
    from attention_playground.facts import module_facts

    return handle, module_facts()


def call_entry(handle, kind, payload=None):
    """Ask the module exactly what the Web Worker will ask it, and unwrap the answer."""
    reply = json.loads(handle(json.dumps({"kind": kind, "payload": payload or {}})))
    if not reply.get("ok"):
        raise BuildError(f"the module refused {kind!r}: {reply.get('error', {}).get('message')}")
    return reply["result"]


def write_json(path, value):
    write_atomically(path, json.dumps(value, ensure_ascii=False, allow_nan=False).encode())


def write_presets_and_preview():
    """presets/index.json, presets/<id>.json, previews/<id>.json and preview.js, all through the module's entry
    point."""
    handle, facts = _module()
    default = facts["defaultPresetId"]
    presets = call_entry(handle, "presets")
    ids = [preset["id"] for preset in presets]
    for folder in ("presets", "previews"):
        shutil.rmtree(GENERATED_DIR / folder, ignore_errors=True)
    write_json(GENERATED_DIR / "presets" / "index.json", presets)
    for preset_id in ids:
        scene = call_entry(handle, "preset", {"id": preset_id})
        result = call_entry(handle, "compute", {"scene": scene})
        write_json(GENERATED_DIR / "presets" / f"{preset_id}.json", scene)
        write_json(GENERATED_DIR / "previews" / f"{preset_id}.json", result)
        if preset_id == default:
            examples = [{"id": preset["id"], "title": preset["title"]} for preset in presets]
            write_preview_module({"preset": default, "scene": scene, "result": result, "examples": examples})
    return ids


def write_preview_module(preview):
    """generated/preview.js: `export const PREVIEW = {preset, scene, result, examples}`, the first scene and its
    result, and every example's id and title (the picker lists them from the first view; their descriptions come
    with presets/index.json once Python is live)."""
    text = (
        "// Written by the build: the default example and its result, computed by the module natively.\n"
        "// Do not edit: change the module, and build again.\n"
        f"export const PREVIEW = {json.dumps(preview, ensure_ascii=False, allow_nan=False)};\n"
    )
    write_atomically(PREVIEW_MODULE, text.encode())


#: Facts that have an export of their own in module-facts.js, not a key of MODULE_FACTS: the request kinds (their docs
#: as comments, which the bundle leaves out, where a string would ship every kind's doc) and the worker's table of the
#: module's parts, which only the worker reads (each export is marked pure, so a bundle that does not use it drops it).
OWN_EXPORTS = ("requestKinds", "moduleParts")


def write_facts_module():
    """generated/module-facts.js: `MODULE_FACTS`, frozen, from the module's own facts; `REQUEST_KINDS`, the kinds the
    entry point answers, one doc comment each, as attention_playground/kinds.py declares them; and `MODULE_PARTS`,
    the module's zips and which kinds need which (js/runtime/parts.js). The page's first view carries neither of the
    last two's texts: the kinds' docs are comments, and only the worker's bundle keeps MODULE_PARTS."""
    _, facts = _module()
    page_facts = {name: value for name, value in facts.items() if name not in OWN_EXPORTS}
    text = (
        "// Written by the build from attention_playground.facts: what the page shares with the Python module.\n"
        "// Do not edit: change the module, and build again.\n"
        f"export const MODULE_FACTS = /* @__PURE__ */ deepFreeze({json.dumps(page_facts, indent=2)});\n\n"
        "/** The module's core zip and parts, and the parts each kind of request needs (parts.py): the worker's. */\n"
        f"export const MODULE_PARTS = /* @__PURE__ */ deepFreeze({json.dumps(facts['moduleParts'], indent=2)});\n\n"
        f"{request_kinds_source(facts['requestKinds'])}\n"
        "function deepFreeze(value) {\n"
        "  if (value && typeof value === \"object\") for (const inner of Object.values(value)) deepFreeze(inner);\n"
        "  return Object.freeze(value);\n"
        "}\n"
    )
    write_atomically(FACTS_MODULE, text.encode())
    return facts


def request_kinds_source(kinds):
    """`export const REQUEST_KINDS = {COMPUTE: "compute", ...}`, each kind under its one line of documentation."""
    lines = [
        "/**",
        " * The kinds of request the Python entry point answers, as attention_playground/kinds.py declares them",
        " * (payload keys, handler and part are there). Only the Python service (js/service/) makes requests.",
        " */",
        "export const REQUEST_KINDS = /* @__PURE__ */ deepFreeze({",
    ]
    for constant, kind in kinds.items():
        lines.append(f"  /** {kind['doc']} */")
        lines.append(f"  {constant}: {json.dumps(kind['name'])},")
    lines.append("});\n")
    return "\n".join(lines)


def write_module_zip():
    """The Python package as zips for the worker to unpack: the core, and one per part the page fetches when
    a request first needs it (attention_playground.parts). Its Python is code only (code_only.py says why);
    fixed timestamps keep each zip byte-stable."""
    _module()
    from attention_playground import parts

    package_dir = PY_DIR / PACKAGE_NAME
    zips = {None: {}, **{part: {} for part in parts.PART_FILES}}
    for path in sorted(package_dir.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            part = parts.part_of(path.relative_to(package_dir).as_posix())
            data = path.read_bytes()
            if path.suffix == ".py":
                data = code_only(data.decode("utf-8")).encode("utf-8")
            zips[part][str(path.relative_to(PY_DIR))] = data
    zips.update(wheel_parts(parts.WHEEL_PARTS))
    for part, files in zips.items():
        if not files:
            raise BuildError(f"the module's part {part!r} holds no file: check attention_playground/parts.py")
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in files.items():
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, data)
        write_atomically(GENERATED_DIR / parts.zip_name(part), buffer.getvalue())


def wheel_parts(wheel_parts_by_name):
    """{part: {path: bytes}} for the parts made of other projects' wheels: each wheel requirements/pyodide-page.txt
    pins (checked against its sha256: wheels.py) unpacked whole, its licence (in .dist-info) included. Their Python
    is kept as it is: it is not ours to strip."""
    from .wheels import REQUIREMENTS_DIR, checked_wheels

    wheels = {pin.name: data for pin, _path, data in checked_wheels(REQUIREMENTS_DIR / "pyodide-page.txt")}
    parts = {}
    for part, names in wheel_parts_by_name.items():
        files = parts[part] = {}
        for name in names:
            if name not in wheels:
                raise BuildError(f"the part {part!r} needs {name}, which requirements/pyodide-page.txt does not pin")
            with zipfile.ZipFile(io.BytesIO(wheels[name])) as wheel:
                for member in wheel.namelist():
                    if not member.endswith("/"):
                        files[member] = wheel.read(member)
    return parts
