"""Run the native test suite (tests/native/) inside Pyodide, without pytest, and report every test's outcome.

The browser test (tests/browser/test_module_in_pyodide.py) lays the repository out in Pyodide's file system,
as it is on disk, with the module unpacked from the same zip the page loads:

    <root>/py/attention_playground/...     generated/attention_playground.zip, unpacked
    <root>/tests/native/*.py               the native test modules, conftest.py and reference.py
    <root>/tests/in_pyodide/*.py              this runner and its stand-ins for pytest, hypothesis and `python -c`

and then calls `run_suite(root)`. The runner collects tests the way pytest does for this suite (test_*.py in
name order; in each, every module-level function named test*, one test per @pytest.mark.parametrize case),
injects fixtures by name, runs each test once and returns a JSON report. Tests that hypothesis drives are left
out and listed (hypothesis is not in Pyodide); nothing else is skipped: a test it cannot run counts as failed.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import itertools
import json
import sys
import time
import traceback
import warnings
from pathlib import Path

import hypothesis_stand_in
import in_process_python
import pytest_shim

NATIVE_TESTS = Path("tests") / "native"
#: Longest repr of one local variable shown for a failed test (the stand-in has no assertion rewriting,
#: so the failing frame's locals are what tell a reader the values).
LOCAL_REPR_LIMIT = 300


def run_suite(root):
    """Run every test module in <root>/tests/native; the report as JSON text."""
    started = time.perf_counter()
    root = Path(root)
    tests_dir = root / NATIVE_TESTS
    if sys.platform == "emscripten":
        in_process_python.install(root)
    sys.modules["pytest"] = pytest_shim
    sys.modules.update(hypothesis_stand_in.modules())
    # As pytest's default ("prepend") import mode does for a test folder without __init__.py.
    sys.path.insert(0, str(tests_dir))

    report = {"modules": [], "collection_errors": [], "tests": [], "left_out": []}
    fixtures = Fixtures()
    if (tests_dir / "conftest.py").exists():
        conftest = import_test_module("conftest.py", report)
        if conftest is not None:
            fixtures.add_from(conftest)
    for file_name in sorted(path.name for path in tests_dir.glob("test_*.py")):
        report["modules"].append((NATIVE_TESTS / file_name).as_posix())
        module = import_test_module(file_name, report)
        if module is None:
            continue
        module_fixtures = fixtures.with_module(module)
        for case in collect(module, (NATIVE_TESTS / file_name).as_posix()):
            if hypothesis_stand_in.is_hypothesis_test(case.function):
                report["left_out"].append({"id": case.id, "module": case.module_id, "function": case.function.__name__,
                                           "reason": "uses hypothesis"})
            else:
                report["tests"].append(run_case(case, module_fixtures))
    fixtures.finish_session()

    # Imported only now: the module is importable once conftest.py has put py/ on sys.path, as it does natively.
    import attention_playground  # noqa: PLC0415
    import numpy  # noqa: PLC0415

    report["environment"] = {
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "numpy": numpy.__version__,
        "module_file": attention_playground.__file__,
    }
    report["seconds"] = time.perf_counter() - started
    return json.dumps(report)


def import_test_module(file_name, report):
    """Import tests/native/<file_name> as pytest does (by its plain name); None, error reported, if it fails."""
    try:
        return importlib.import_module(Path(file_name).stem)
    except BaseException as error:  # noqa: BLE001 (a module that fails to import is reported, never fatal)
        report["collection_errors"].append({"module": (NATIVE_TESTS / file_name).as_posix(),
                                            "traceback": format_error(error)})
        return None


# --- collection ----------------------------------------------------------------------------------------------


class Case:
    """One test: a function and, for a parametrized one, the arguments of one case."""

    def __init__(self, test_id, module_id, function, arguments):
        self.id = test_id
        self.module_id = module_id
        self.function = function
        self.arguments = arguments


def collect(module, module_id):
    """The tests in `module`, in definition order: every function whose name starts with "test"."""
    cases = []
    for name, value in vars(module).items():
        if not (name.startswith("test") and inspect.isfunction(value)):
            continue
        marks = pytest_shim.parametrizations(value)
        base_id = f"{module_id}::{name}"
        if not marks:
            cases.append(Case(base_id, module_id, value, {}))
            continue
        for combination in itertools.product(*(range(len(mark.cases)) for mark in marks)):
            arguments, ids = {}, []
            for mark, index in zip(marks, combination, strict=True):
                arguments.update(zip(mark.names, mark.cases[index], strict=True))
                ids.append(mark.ids[index])
            cases.append(Case(f"{base_id}[{'-'.join(ids)}]", module_id, value, arguments))
    return cases


# --- fixtures ------------------------------------------------------------------------------------------------


class Fixtures:
    """Fixtures by name: pytest's built-ins used here, conftest's, and a test module's own.

    A fixture may ask for other fixtures. Session fixtures are made once and finished after the last test;
    function fixtures are made for each test and finished after it, in reverse order.
    """

    def __init__(self, definitions=None, session_values=None, session_finalizers=None):
        self.definitions = dict(pytest_shim.BUILTIN_FIXTURES if definitions is None else definitions)
        self.session_values = {} if session_values is None else session_values
        self.session_finalizers = [] if session_finalizers is None else session_finalizers

    def add_from(self, module):
        for name, value in vars(module).items():
            if pytest_shim.fixture_scope(value) is not None:
                self.definitions[name] = value

    def with_module(self, module):
        """These fixtures plus the module's own (sharing the session's values)."""
        scoped = Fixtures(self.definitions, self.session_values, self.session_finalizers)
        scoped.add_from(module)
        return scoped

    def value(self, name, function_finalizers, asking=()):
        if name in asking:
            raise LookupError(f"fixture {name!r} asks for itself through {' -> '.join(asking)}")
        if name not in self.definitions:
            raise LookupError(f"fixture {name!r} not found (known: {', '.join(sorted(self.definitions))})")
        definition = self.definitions[name]
        scope = pytest_shim.fixture_scope(definition)
        if scope == "session" and name in self.session_values:
            return self.session_values[name]
        finalizers = self.session_finalizers if scope == "session" else function_finalizers
        arguments = {parameter: self.value(parameter, function_finalizers, (*asking, name))
                     for parameter in requested_fixtures(definition)}
        result = definition(**arguments)
        if inspect.isgenerator(result):
            generator, result = result, next(result)
            finalizers.append(lambda: finish_generator(generator))
        if scope == "session":
            self.session_values[name] = result
        return result

    def finish_session(self):
        while self.session_finalizers:
            self.session_finalizers.pop()()


def requested_fixtures(function, given=()):
    """The parameters pytest would fill with fixtures: those without a default that no parametrize supplies."""
    return [name for name, parameter in inspect.signature(function).parameters.items()
            if parameter.default is inspect.Parameter.empty and name not in given]


def finish_generator(generator):
    try:
        next(generator)
    except StopIteration:
        return
    raise RuntimeError("a fixture yielded more than once")


# --- running -------------------------------------------------------------------------------------------------


def run_case(case, fixtures):
    """Run one test with its fixtures; its outcome, time, and on failure the traceback and captured output."""
    result = {"id": case.id, "module": case.module_id, "function": case.function.__name__}
    output = io.StringIO()
    function_finalizers = []
    started = time.perf_counter()
    outcome, error = "passed", None
    with warnings.catch_warnings(record=True) as caught:
        # As pytest does: every warning is recorded, and deprecations are shown, not hidden.
        warnings.simplefilter("default")
        warnings.filterwarnings("always", category=DeprecationWarning)
        warnings.filterwarnings("always", category=PendingDeprecationWarning)
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            try:
                arguments = {name: fixtures.value(name, function_finalizers)
                             for name in requested_fixtures(case.function, case.arguments)}
            except BaseException as setup_error:  # noqa: BLE001
                outcome, error = "error", setup_error
            else:
                try:
                    case.function(**case.arguments, **arguments)
                except BaseException as test_error:  # noqa: BLE001 (KeyboardInterrupt too: the suite goes on)
                    outcome, error = "failed", test_error
            while function_finalizers:
                try:
                    function_finalizers.pop()()
                except BaseException as teardown_error:  # noqa: BLE001
                    if error is None:
                        outcome, error = "error", teardown_error
    result["outcome"] = outcome
    result["seconds"] = time.perf_counter() - started
    result["warnings"] = [f"{item.category.__name__}: {item.message}" for item in caught]
    if error is not None:
        result["traceback"] = format_error(error)
        result["output"] = output.getvalue()
    return result


def format_error(error):
    """The traceback from the first frame outside this runner, plus the locals of the failing function.

    The failing function is the innermost frame that is not the runner's or the pytest stand-in's (for
    `with pytest.raises(...)` that did not raise, it is the test, not the stand-in's __exit__).
    """
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    lines = traceback.format_exception(type(error), error, tb)
    failing_frame = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename not in (__file__, pytest_shim.__file__):
            failing_frame = tb.tb_frame
        tb = tb.tb_next
    if failing_frame is not None and failing_frame.f_code.co_name != "<module>":
        lines.append(f"locals of {failing_frame.f_code.co_name}():\n")
        for name, value in failing_frame.f_locals.items():
            lines.append(f"    {name} = {short_repr(value)}\n")
    return "".join(lines)


def short_repr(value):
    try:
        text = repr(value)
    except Exception as error:  # noqa: BLE001
        text = f"<repr failed: {error!r}>"
    return text if len(text) <= LOCAL_REPR_LIMIT else text[:LOCAL_REPR_LIMIT] + "..."
