"""The layers are checked by the tools made for it, not by hand-written greps.

Python: import-linter's contracts in pyproject.toml ([tool.importlinter]): the package reads top-down, the
core imports no part fetched later, the maths imports neither JSON nor the browser, nothing imports an
automatic-differentiation library (training's gradient is written out), and no module imports one that imports
it back.

JavaScript: dependency-cruiser's rules in .dependency-cruiser.json (sitebuild/cruiser.py installs the pinned
version and runs it): views import no controller, service, runtime, links or storage; only the service
(js/service/) reaches the runtime; links, downloads and embed mode never import the page; no circles.
"""

import os
import subprocess
import sys
import json
import tomllib
from pathlib import Path

from sitebuild import cruiser

ROOT = Path(__file__).resolve().parents[2]


def contract_names():
    with open(ROOT / "pyproject.toml", "rb") as file:
        return [contract["name"] for contract in tomllib.load(file)["tool"]["importlinter"]["contracts"]]


def test_the_python_import_contracts_are_kept():
    lint_imports = Path(sys.executable).with_name("lint-imports")
    completed = subprocess.run(
        [str(lint_imports), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=ROOT / "py", env={**os.environ, "PYTHONPATH": str(ROOT / "py")},
        capture_output=True, text=True, check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    names = contract_names()
    assert len(names) >= 5
    assert f"Contracts: {len(names)} kept, 0 broken." in completed.stdout


def quiet(_message):
    pass


def test_the_javascript_import_rules_are_kept():
    found = cruiser.check_js_imports(quiet)
    assert found["violations"] == []
    assert found["modules"] > 50  # js/ was read, not an empty folder


def rules():
    return json.loads(cruiser.RULES_PATH.read_text())


def test_the_view_rule_leaves_no_view_out_and_catches_one_that_reaches_storage(tmp_path):
    """Every view is under the rule (no exceptions), and a view that keeps the learner's code itself, through
    sharing/, breaks it: saved code goes through the controller's actions."""
    (view_rule,) = [rule for rule in rules()["forbidden"] if rule["name"] == "view-draws-only"]
    assert "pathNot" not in view_rule["from"]
    (tmp_path / "js" / "sharing").mkdir(parents=True)
    (tmp_path / "js" / "ui" / "exercises").mkdir(parents=True)
    (tmp_path / "js" / "sharing" / "exercise-code.js").write_text("export const loadCode = (id) => id;\n")
    (tmp_path / "js" / "ui" / "exercises" / "panel.js").write_text(
        'import { loadCode } from "../../sharing/exercise-code.js";\nexport const text = loadCode("softmax");\n')
    found = cruiser.check_js_imports(quiet, root=tmp_path)
    assert [(v["from"], v["to"], v["rule"]) for v in found["violations"]] == [
        ("js/ui/exercises/panel.js", "js/sharing/exercise-code.js", "view-draws-only"),
    ]


def test_the_rules_catch_a_page_module_that_reaches_past_the_service(tmp_path):
    (tmp_path / "js" / "page").mkdir(parents=True)
    (tmp_path / "js" / "runtime").mkdir()
    (tmp_path / "js" / "ui").mkdir()
    (tmp_path / "js" / "runtime" / "protocol.js").write_text("export const X = 1;\n")
    (tmp_path / "js" / "page" / "recompute.js").write_text('import { X } from "../runtime/protocol.js";\nexport const Y = X;\n')
    (tmp_path / "js" / "ui" / "panel.js").write_text('import { Y } from "../page/recompute.js";\nexport const Z = Y;\n')
    found = cruiser.check_js_imports(quiet, root=tmp_path)
    assert sorted((v["from"], v["to"], v["rule"]) for v in found["violations"]) == [
        ("js/page/recompute.js", "js/runtime/protocol.js", "only-the-service-reaches-the-runtime"),
        ("js/ui/panel.js", "js/page/recompute.js", "view-draws-only"),
    ]
