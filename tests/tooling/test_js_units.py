"""The page's JavaScript modules that need no browser, tested by Node's own test runner (tests/js/*.test.mjs): the
modules a keystroke passes through (the scene's edits and drafts, the scene session and the state, the deferred
views), the link format (every old version still opens), the runtime client's requests and replies, the LMS record
and its suspend data, the panels' action names, the list of what loads later. They run on a copy of js/
beside the module's facts as the build writes them, so the test needs neither a build nor a browser, and no other
test's build is touched."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

from sitebuild import generated

ROOT = Path(__file__).resolve().parents[2]


def test_the_js_unit_tests_pass(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "js", tmp_path / "js")
    shutil.copytree(ROOT / "tests" / "js", tmp_path / "tests" / "js")
    shutil.copytree(ROOT / "tests" / "browser" / "fixtures", tmp_path / "tests" / "browser" / "fixtures")  # old links
    shutil.copytree(ROOT / "static", tmp_path / "static")  # the later parts' stylesheets
    shutil.copytree(ROOT / "py" / "attention_playground" / "presets", tmp_path / "py" / "attention_playground" / "presets")  # the examples
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "architecture.md", tmp_path / "docs")  # its "What loads when" gives the later parts
    (tmp_path / "generated").mkdir()
    monkeypatch.setattr(generated, "FACTS_MODULE", tmp_path / "generated" / "module-facts.js")
    generated.write_facts_module()
    tests = sorted(str(path) for path in (tmp_path / "tests" / "js").glob("*.test.mjs"))
    assert tests, "no tests in tests/js"
    run = subprocess.run(["node", "--test", *tests], capture_output=True, text=True, timeout=120)
    sys.stdout.write(run.stdout[-4000:])
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
    ran = int(re.search(r"^# tests (\d+)$", run.stdout, re.M)[1])
    assert ran >= 150, f"only {ran} Node tests ran"
