"""The page's JavaScript modules that need no browser (the state, the scene session, the deferred views, the LMS
record, the panels' action names), tested by Node's own test runner: tests/js/*.test.mjs. They run on a copy of js/
beside the module's facts as the build writes them, so the test needs neither a build nor a browser, and no other
test's build is touched."""

import shutil
import subprocess
import sys
from pathlib import Path

from sitebuild import generated

ROOT = Path(__file__).resolve().parents[2]


def test_the_js_unit_tests_pass(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "js", tmp_path / "js")
    shutil.copytree(ROOT / "tests" / "js", tmp_path / "tests" / "js")
    (tmp_path / "generated").mkdir()
    monkeypatch.setattr(generated, "FACTS_MODULE", tmp_path / "generated" / "module-facts.js")
    generated.write_facts_module()
    tests = sorted(str(path) for path in (tmp_path / "tests" / "js").glob("*.test.mjs"))
    assert tests, "no tests in tests/js"
    run = subprocess.run(["node", "--test", *tests], capture_output=True, text=True, timeout=120)
    sys.stdout.write(run.stdout[-4000:])
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
