"""What the page's worker imports before it is live: `attention_playground.entry`, as a fresh Python sees it.

Every module imported there is loaded and run at every boot, before the learner's first result, and Pyodide
is slow at it. Two standard-library modules the boot did without, measured in Pyodide with `-X importtime`:
difflib (some 20 ms; now imported where a close key is suggested) and dataclasses (some 30 ms; the checked
scene's types are NamedTuples). Natively only: in Pyodide, pytest has long since imported both itself.
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Standard-library modules the boot must not import, and why it need not.
NOT_AT_BOOT = {
    "difflib": "only a message about an unknown key of a scene needs it (did you mean …?)",
    "dataclasses": "the scene, its heads and their results are NamedTuples",
}

IMPORT_AS_THE_WORKER_DOES = """
import json, sys
sys.path.insert(0, sys.argv[1])
from attention_playground.entry import handle_packed
print(json.dumps(sorted(sys.modules)))
"""


def test_the_boot_leaves_out_the_modules_it_can_do_without():
    completed = subprocess.run([sys.executable, "-I", "-c", IMPORT_AS_THE_WORKER_DOES, str(ROOT / "py")],
                               capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
    imported = set(json.loads(completed.stdout))
    assert "attention_playground.scene" in imported
    assert {name: why for name, why in NOT_AT_BOOT.items() if name in imported} == {}
