"""The layers are checked by the tools made for it, not by hand-written greps.

Python: import-linter's contracts in pyproject.toml ([tool.importlinter]): the package reads top-down, the
core imports no part fetched later, the maths imports neither JSON nor the browser, only training needs
autograd, and no module imports one that imports it back.
"""

import os
import subprocess
import sys
import tomllib
from pathlib import Path

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
