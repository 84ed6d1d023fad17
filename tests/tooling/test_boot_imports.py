"""What the page's worker imports before it is live: `attention_playground.entry`, as a fresh Python sees it.

Every module imported there is loaded and run at every boot, before the learner's first result, so a
standard-library module that only a rare message needs is imported where that message is made (in Pyodide,
difflib cost some 20 ms of each boot). Natively only: in Pyodide, pytest has long since imported these modules.
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Standard-library modules the boot must not import: each is needed by a message few learners see.
ONLY_FOR_RARE_MESSAGES = ["difflib"]  # close matches for an unknown key of a scene ("did you mean …?")

IMPORT_AS_THE_WORKER_DOES = """
import json, sys
sys.path.insert(0, sys.argv[1])
from attention_playground.entry import handle_packed
print(json.dumps(sorted(sys.modules)))
"""


def test_the_boot_leaves_out_what_only_rare_messages_need():
    completed = subprocess.run([sys.executable, "-I", "-c", IMPORT_AS_THE_WORKER_DOES, str(ROOT / "py")],
                               capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
    imported = set(json.loads(completed.stdout))
    assert "attention_playground.scene" in imported
    assert not imported & set(ONLY_FOR_RARE_MESSAGES)

