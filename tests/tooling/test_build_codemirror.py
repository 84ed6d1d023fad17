"""editor.py: the pins are exact, a tampered tarball is refused, and the vendored editor imports
nothing the browser cannot resolve."""

import base64
import hashlib
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sitebuild import editor, npm  # noqa: E402


def test_every_package_is_pinned_to_an_exact_version_with_a_sha512():
    registry, expose, packages = editor.read_lock()
    assert registry == "https://registry.npmjs.org/"
    assert set(expose) <= set(packages)
    for name, pin in packages.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", pin["version"]), name
        assert pin["integrity"].startswith("sha512-"), name
        assert len(base64.b64decode(pin["integrity"].removeprefix("sha512-"))) == 64, name


def test_a_tarball_that_does_not_match_its_pin_is_refused():
    data = b"not the package"
    good = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    npm.check_integrity("x", data, good)
    with pytest.raises(npm.IntegrityError, match="sha512"):
        npm.check_integrity("x", data + b"!", good)


def test_package_imports_become_relative_paths_and_unknown_ones_stop_the_build():
    packages = {"@codemirror/state": {"entry": "dist/index.js"}, "crelt": {"entry": "index.js"}}
    text = ("import { EditorState } from '@codemirror/state';\nimport elt from \"crelt\";\n"
            "import { local } from './local.js';\n// a comment about `x from \"module\"`\n")
    rewritten = editor.rewrite_imports("@codemirror/view", "dist/index.js", text, packages)
    assert "from '../../state/dist/index.js'" in rewritten
    assert 'from "../../../crelt/index.js"' in rewritten
    assert "from './local.js'" in rewritten
    assert 'x from "module"' in rewritten  # a comment is left alone
    with pytest.raises(editor.VendorError, match="not in codemirror.lock.json"):
        editor.rewrite_imports("a", "index.js", "import x from 'left-pad';\n", packages)


def test_the_vendored_editor_resolves_every_import_inside_vendor():
    """After a build, every import in vendor/codemirror/ is a relative path to a file that is there."""
    vendor = editor.VENDOR_DIR
    if not (vendor / editor.INDEX_NAME).exists():
        pytest.fail("vendor/codemirror/ is missing: run python3 build.py first")
    files = list(vendor.rglob("*.js"))
    assert len(files) >= len(editor.read_lock()[2])
    for path in files:
        for _, _, specifier in editor.IMPORT_PATTERN.findall(path.read_text()):
            assert specifier.startswith("."), (path, specifier)
            assert (path.parent / specifier).resolve().is_file(), (path, specifier)
    index = (vendor / editor.INDEX_NAME).read_text()
    for name in json.loads(editor.LOCK_PATH.read_text())["expose"]:
        assert f'"./{name}/' in index
