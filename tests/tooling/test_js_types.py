"""The types js/ declares in its JSDoc comments are checked by TypeScript's own checker (sitebuild/typecheck.py,
the settings in jsconfig.json): every file of js/, no error. A type that points at nothing, or a call that does not
match what its callee declares, fails here rather than misleading the next reader."""

import json
import shutil

from sitebuild import typecheck


def quiet(_message):
    pass


def test_every_file_of_js_checks_without_an_error():
    found = typecheck.check_types(quiet)
    read = [path for path in found["files"] if "/js/" in path and "/node_modules/" not in path]
    assert len(read) > 150, "the checker read js/ (not an empty folder, nor another project's files)"
    assert found["errors"] == [], "\n".join(f"{e['file']}:{e['line']}: {e['code']} {e['message']}" for e in found["errors"])


def test_a_call_that_breaks_its_callees_types_is_caught_with_its_file_and_line(tmp_path):
    """The same settings over a js/ of one file with a mistake planted: a number passed where the callee's JSDoc
    asks for text."""
    (tmp_path / "js").mkdir()
    shutil.copy(typecheck.CONFIG_PATH, tmp_path / "jsconfig.json")
    planted = tmp_path / "js" / "planted.js"
    planted.write_text(
        '/** @param {string} name */\nfunction greet(name) {\n  return name.toUpperCase();\n}\n\ngreet(42);\n', encoding="utf-8")
    found = typecheck.check_types(quiet, root=tmp_path, config=tmp_path / "jsconfig.json")
    assert [(error["file"], error["line"], error["code"]) for error in found["errors"]] == [("js/planted.js", "6", "TS2345")], json.dumps(found["errors"])[:2000]
