"""The shipped checkpoint: small, in the documented format, loaded as a package resource (also from a zip
and with nothing but NumPy), and described in docs/model.md by the report generator's current output."""

import importlib.util
import json
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import attention_playground
from attention_playground.model import load_model, run
from attention_playground.model.checkpoint import (
    FORMAT,
    SIGNIFICANT_DIGITS,
    checkpoint_dict,
    checkpoint_text,
    model_from_dict,
    rounded,
    shipped_checkpoint,
    shipped_text,
)
from attention_playground.model.transformer import param_shapes

PACKAGE_DIR = Path(attention_playground.__file__).parent
ROOT = PACKAGE_DIR.parents[1]
#: The page that describes the model, and the tool that writes the part of it measured on the checkpoint.
MODEL_PAGE = ROOT / "docs" / "model.md"
REPORT_TOOL = ROOT / "tools" / "model_report.py"
MAX_BYTES = 300_000


def test_the_checkpoint_is_small_and_in_the_documented_format(shipped_model):
    assert len(shipped_text().encode("utf-8")) <= MAX_BYTES
    data = shipped_checkpoint()
    assert data["format"] == FORMAT and data["version"] == 1 and data["significant_digits"] == SIGNIFICANT_DIGITS
    assert data["vocabulary"][0] == "<bos>" and len(data["loss_curve"]) == data["steps"]
    shapes = param_shapes(shipped_model.config, len(data["vocabulary"]))
    assert list(data["params"]) == list(shapes)
    for name, entry in data["params"].items():
        assert tuple(entry["shape"]) == shapes[name]
        assert len(entry["data"]) == int(np.prod(entry["shape"]))
        # Every number is stored with at most SIGNIFICANT_DIGITS significant digits.
        assert all(float(f"{x:.{SIGNIFICANT_DIGITS}g}") == x for x in entry["data"])


def test_loading_gives_exactly_the_stored_numbers(shipped_model):
    data = shipped_checkpoint()
    assert np.array_equal(shipped_model.params["W_U"].ravel(), np.array(data["params"]["W_U"]["data"]))
    c = shipped_model.config
    start = ((1 * c.n_heads + 0) * c.d_model + 2) * c.d_head  # layer 1, head 0, row 2, in row-major order
    assert np.array_equal(shipped_model.params["W_Q"][1, 0, 2],
                          np.array(data["params"]["W_Q"]["data"][start:start + c.d_head]))


def test_saving_and_loading_round_trips(shipped_model, tmp_path):
    data = checkpoint_dict(rounded(shipped_model), {"note": "test"})
    path = tmp_path / "model.json"
    path.write_text(checkpoint_text(data), encoding="utf-8")
    again = model_from_dict(json.loads(path.read_text(encoding="utf-8")))
    for name in shipped_model.params:
        assert np.array_equal(again.params[name], shipped_model.params[name])
    # The shipped file is exactly what the writer makes of the loaded model and its summary.
    assert checkpoint_text(checkpoint_dict(shipped_model, shipped_checkpoint()["summary"])) == shipped_text()


class FreshImport:
    """Import attention_playground anew (from `path` first, with `blocked` modules unimportable), then put
    every module back as it was. In-process, so it runs in Pyodide too."""

    def __init__(self, path=None, blocked=()):
        self.path, self.blocked = path, blocked

    def __enter__(self):
        self.saved_modules = {name: module for name, module in sys.modules.items()
                              if name == "attention_playground" or name.startswith("attention_playground.")
                              or name in self.blocked or name.split(".")[0] in self.blocked}
        for name in self.saved_modules:
            del sys.modules[name]
        for name in self.blocked:
            sys.modules[name] = None  # `import name` now raises ImportError
        self.saved_path = list(sys.path)
        if self.path is not None:
            sys.path.insert(0, str(self.path))
        import attention_playground.model

        return attention_playground

    def __exit__(self, *exc):
        for name in list(sys.modules):
            if name == "attention_playground" or name.startswith("attention_playground.") or name in self.blocked:
                del sys.modules[name]
        sys.modules.update(self.saved_modules)
        sys.path[:] = self.saved_path
        return False


def test_the_model_loads_and_runs_from_a_zip(tmp_path, shipped_model):
    archive = tmp_path / "attention_playground.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in PACKAGE_DIR.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                zipped.write(path, path.relative_to(PACKAGE_DIR.parent).as_posix())
    with FreshImport(archive) as fresh:
        assert fresh.__file__.startswith(str(archive))
        model = fresh.model.load_model()
        logits = fresh.model.run(model, "the cat sat").logits
    assert np.array_equal(logits, run(shipped_model, "the cat sat").logits)


def test_loading_running_analysing_and_training_need_nothing_but_numpy(shipped_model):
    """No automatic-differentiation library: training's gradient is written out (model/gradients.py)."""
    with FreshImport(blocked=("autograd", "jax", "torch")) as fresh:
        model = fresh.model.load_model()
        fresh.model.head_scene(model, "the cat sat", 1, 0)
        roles = fresh.model.head_roles(model)
        trained = fresh.model.train(fresh.model.TrainConfig(steps=3))
    assert list(roles.values()) == [head["role"] for head in shipped_checkpoint()["summary"]["heads"]]
    assert trained.steps == 3 and np.isfinite(trained.loss_curve).all()


def model_report_tool():
    """tools/model_report.py, imported from its file (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location("model_report", REPORT_TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import does: its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def test_the_model_page_holds_the_report_generators_current_output():
    tool = model_report_tool()
    text = MODEL_PAGE.read_text(encoding="utf-8")
    report = tool.model_report()  # measured on a freshly loaded checkpoint
    assert text.count(tool.START_MARKER) == 1 and text.count(tool.END_MARKER) == 1
    assert tool.report_in_page(text) == report
    # Written in place: the page around the report is kept as it is.
    assert tool.with_report(text, report) == text
    assert text.index("# The trained model") < text.index(tool.START_MARKER)  # under the page's title


def test_load_model_returns_a_fresh_model_each_time():
    first = load_model()
    first.params["W_E"][0, 0] = 99.0
    assert load_model().params["W_E"][0, 0] != 99.0
