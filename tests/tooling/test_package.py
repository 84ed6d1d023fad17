"""The module is a real Python package: `pip wheel .` gives a pure-Python wheel, and the wheel and an editable
install (`pip install -e .`) each work in a fresh virtualenv, presets and the trained model included.

Each venv is new and gets only what pip installs into it (NumPy from pip's cache or PyPI), so a file the
package forgot to declare shows up here, not in a learner's notebook.
"""

import json
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from attention_playground import PRESET_IDS

ROOT = Path(__file__).resolve().parents[2]

#: What a learner does first in a notebook: compute a preset, and run the trained model.
USE_IT = """
import json, attention_playground
from attention_playground import compute, load_preset, PRESET_IDS
from attention_playground.model import load_model, run
result = compute(load_preset("dog-bites-man"))
model = load_model()
print(json.dumps({"file": attention_playground.__file__, "presets": list(PRESET_IDS),
                  "weights": result["heads"][0]["weights"][0],
                  "tokens": run(model, "the cat sat").tokens}))
"""


def pip(python, *args):
    completed = subprocess.run([str(python), "-m", "pip", "--disable-pip-version-check", "--quiet", *args],
                               cwd=ROOT, capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return completed


def fresh_python(folder):
    # No pip of its own (bootstrapping one costs seconds): the test's pip installs into it (`pip --python`).
    venv.create(folder, with_pip=False)
    return folder / "bin" / "python"


def install_into(python, *args):
    """`pip install *args` into the virtualenv of `python`, without compiling what it installs to bytecode (NumPy's
    files, seconds of work the test never uses: Python compiles what it imports as it imports it)."""
    return pip(sys.executable, "--python", str(python), "install", "--no-compile", *args)


def use_it(python):
    # Run from a folder that is not the clone, so the import cannot come from py/ by accident of the cwd.
    completed = subprocess.run([str(python), "-I", "-c", USE_IT], cwd=python.parent, capture_output=True,
                               text=True, check=False)
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    # Built from a copy of what the wheel is made of: setuptools builds in its source's build/ folder, and with the
    # tests spread over workers one by one (pytest -n 2, not test.sh's by file) two workers would build there at once.
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "py", source / "py", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    out = tmp_path_factory.mktemp("wheel")
    pip(sys.executable, "wheel", "--no-deps", "--wheel-dir", str(out), str(source))
    (built,) = out.glob("*.whl")
    return built


def test_the_wheel_is_pure_python_and_holds_the_module_only(wheel):
    assert wheel.name == "attention_playground-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    tops = {name.split("/", 1)[0] for name in names}
    assert tops == {"attention_playground", "attention_playground-0.1.0.dist-info"}
    package_files = sorted(path.relative_to(ROOT / "py").as_posix()
                           for path in (ROOT / "py" / "attention_playground").rglob("*")
                           if path.is_file() and "__pycache__" not in path.parts)
    assert sorted(name for name in names if not name.startswith("attention_playground-")) == package_files


def test_the_wheel_works_in_a_fresh_virtualenv(wheel, tmp_path):
    python = fresh_python(tmp_path / "venv")
    install_into(python, str(wheel))
    used = use_it(python)
    assert "site-packages" in used["file"]
    assert used["presets"] == list(PRESET_IDS) and "trained-repeated-noun" in used["presets"]
    assert used["tokens"] == ["<bos>", "the", "cat", "sat"]
    assert abs(sum(used["weights"]) - 1) < 1e-12


def test_an_editable_install_imports_the_clone(tmp_path):
    python = fresh_python(tmp_path / "venv")
    install_into(python, "--editable", str(ROOT))
    used = use_it(python)
    assert Path(used["file"]).resolve() == ROOT / "py" / "attention_playground" / "__init__.py"
