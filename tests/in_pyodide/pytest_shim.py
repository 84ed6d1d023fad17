"""The part of pytest's API that tests/native/ uses, small enough to run inside Pyodide.

Pyodide's vendored set holds only the runtime and NumPy, so the real pytest is not there. The runner
(runner.py) installs this module as `pytest` before it imports the native test modules. It offers exactly:

    pytest.fixture                  @pytest.fixture and @pytest.fixture(scope="session" | "function")
    pytest.mark.parametrize         argnames as "a" or ("a", "b"), argvalues, optional ids
    pytest.raises                   as a context manager, with match= and .value
    pytest.approx                   a number or a list/tuple of numbers, with rel= and abs=

and the fixtures `tmp_path` and `monkeypatch` (setattr, setitem, delattr, delitem). Anything else, such as
another mark or pytest.skip, is missing on purpose: a test that uses it fails to import or to run, loudly,
rather than being run differently from how pytest runs it natively.
"""

from __future__ import annotations

import math
import re
import shutil
import tempfile
from pathlib import Path

__all__ = ["approx", "fixture", "mark", "raises"]

# --- fixtures ------------------------------------------------------------------------------------------------

FIXTURE_SCOPES = ("function", "session")


def fixture(function=None, *, scope="function"):
    """Mark a function as a fixture; the runner finds it by that mark and injects it by its name."""
    if scope not in FIXTURE_SCOPES:
        raise ValueError(f"fixture scope {scope!r} is not supported here (only {', '.join(FIXTURE_SCOPES)})")

    def mark_as_fixture(fixture_function):
        fixture_function._fixture_scope = scope
        return fixture_function

    return mark_as_fixture if function is None else mark_as_fixture(function)


def fixture_scope(value):
    """The scope of a fixture function, or None if `value` is not one."""
    return getattr(value, "_fixture_scope", None)


class MonkeyPatch:
    """Changes made for one test, undone in reverse order after it (the `monkeypatch` fixture)."""

    _MISSING = object()

    def __init__(self):
        self._undo = []

    def setattr(self, target, name, value):
        old = getattr(target, name, self._MISSING)
        self._undo.append(lambda: delattr(target, name) if old is self._MISSING else setattr(target, name, old))
        setattr(target, name, value)

    def delattr(self, target, name):
        old = getattr(target, name)
        self._undo.append(lambda: setattr(target, name, old))
        delattr(target, name)

    def setitem(self, mapping, key, value):
        old = mapping.get(key, self._MISSING)
        self._undo.append(lambda: mapping.pop(key) if old is self._MISSING else mapping.__setitem__(key, old))
        mapping[key] = value

    def delitem(self, mapping, key):
        old = mapping[key]
        self._undo.append(lambda: mapping.__setitem__(key, old))
        del mapping[key]

    def undo(self):
        while self._undo:
            self._undo.pop()()


def monkeypatch():
    """Built-in fixture: a MonkeyPatch whose changes are undone after the test."""
    patcher = MonkeyPatch()
    yield patcher
    patcher.undo()


def tmp_path():
    """Built-in fixture: a fresh empty directory for one test, removed after it."""
    directory = Path(tempfile.mkdtemp(prefix="pytest-"))
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


#: Fixtures every test can ask for, as pytest provides them.
BUILTIN_FIXTURES = {"monkeypatch": monkeypatch, "tmp_path": tmp_path}
for _builtin in BUILTIN_FIXTURES.values():
    fixture(_builtin)


# --- marks ---------------------------------------------------------------------------------------------------


class Parametrize:
    """One @pytest.mark.parametrize: the argument names and one tuple of values per case, with their ids."""

    def __init__(self, argnames, argvalues, ids=None):
        if isinstance(argnames, str):
            names = [name.strip() for name in argnames.split(",") if name.strip()]
        else:
            names = list(argnames)
        values = list(argvalues)
        if len(names) == 1:
            cases = [(value,) for value in values]
        else:
            cases = [tuple(value) for value in values]
            for case in cases:
                if len(case) != len(names):
                    raise ValueError(f"parametrize: {case!r} does not have one value for each of {names}")
        explicit_ids = None if ids is None else [str(given_id) for given_id in ids]
        if explicit_ids is not None and len(explicit_ids) != len(cases):
            raise ValueError(f"parametrize: {len(explicit_ids)} ids for {len(cases)} cases")
        self.names = names
        self.cases = cases
        self.ids = explicit_ids or [
            "-".join(case_id(value, name, index) for value, name in zip(case, names, strict=True))
            for index, case in enumerate(cases)
        ]

    def __call__(self, function):
        # Kept in the order the decorators apply (bottom-up): pytest combines and names cases in that order.
        function._parametrize = [*getattr(function, "_parametrize", []), self]
        return function


def case_id(value, name, index):
    """A readable id for one value, in the spirit of pytest's (names and numbers as they are, else name+index)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        text = str(value)
        if text.isprintable() and len(text) <= 40:
            return text
    return f"{name}{index}"


def parametrizations(function):
    """The @pytest.mark.parametrize marks on `function`, in the order they apply (bottom-up)."""
    return getattr(function, "_parametrize", [])


class _Marks:
    """`pytest.mark`: only parametrize; any other mark is an AttributeError at import time."""

    parametrize = Parametrize

    def __getattr__(self, name):
        raise AttributeError(f"pytest.mark.{name} is not supported in Pyodide (tests/in_pyodide/pytest_shim.py)")


mark = _Marks()


# --- raises --------------------------------------------------------------------------------------------------


class ExceptionInfo:
    """What `with pytest.raises(...) as caught` gives: the exception in `caught.value`."""

    def __init__(self):
        self.value = None
        self.type = None
        self.tb = None


class RaisesContext:
    def __init__(self, expected, match):
        self.expected = expected
        self.match = match
        self.info = ExceptionInfo()

    def __enter__(self):
        return self.info

    def __exit__(self, exc_type, exc_value, tb):
        if exc_type is None:
            raise AssertionError(f"DID NOT RAISE {self.expected!r}")
        if not issubclass(exc_type, self.expected):
            return False  # a different exception goes on up, as in pytest
        if self.match is not None and not re.search(self.match, str(exc_value)):
            raise AssertionError(f"Regex pattern did not match.\n  Regex: {self.match!r}\n  Input: {str(exc_value)!r}")
        self.info.value, self.info.type, self.info.tb = exc_value, exc_type, tb
        return True


def raises(expected, *args, match=None):
    """Context manager: the block must raise `expected` (a class or tuple of classes), matching `match`."""
    if args:
        raise TypeError("pytest.raises is supported only as a context manager here")
    return RaisesContext(expected, match)


# --- approx --------------------------------------------------------------------------------------------------

DEFAULT_RELATIVE_TOLERANCE = 1e-6
DEFAULT_ABSOLUTE_TOLERANCE = 1e-12


def _is_number(value):
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    # A NumPy integer is not an int (a NumPy float64 is already a float).
    return type(value).__module__ == "numpy" and getattr(value, "shape", None) == () and value.dtype.kind in "iuf"


class Approx:
    """`pytest.approx`: equal to a number (or each number of a sequence) within a tolerance.

    As in pytest: the tolerance is max(rel × |expected|, abs), with rel 1e-6 and abs 1e-12 by default; if only
    `abs` is given, it is the whole tolerance. Infinity equals only itself; NaN equals nothing.
    """

    __hash__ = None
    # NumPy must not broadcast `array == approx(...)` elementwise; it defers to __eq__ here, as in pytest.
    __array_ufunc__ = None
    __array_priority__ = 100

    def __init__(self, expected, rel=None, abs=None):
        if isinstance(expected, (list, tuple)):
            bad = [value for value in expected if not _is_number(value)]
        else:
            bad = [] if _is_number(expected) else [expected]
        if bad:
            raise TypeError(f"approx supports numbers and lists of numbers here, not {bad[0]!r}")
        self.expected = expected
        self.rel = rel
        self.abs = abs

    def _tolerance(self, expected):
        absolute = DEFAULT_ABSOLUTE_TOLERANCE if self.abs is None else self.abs
        if self.rel is None and self.abs is not None:
            return absolute
        relative = (DEFAULT_RELATIVE_TOLERANCE if self.rel is None else self.rel) * abs(expected)
        return max(relative, absolute)

    def _close(self, actual, expected):
        if not _is_number(actual):
            return False
        if actual == expected:
            return True
        if math.isinf(expected) or math.isnan(expected) or math.isnan(actual) or math.isinf(actual):
            return False
        return abs(expected - actual) <= self._tolerance(expected)

    def __eq__(self, actual):
        if isinstance(self.expected, (list, tuple)):
            if type(actual).__module__ == "numpy":
                actual = actual.tolist()
            if not isinstance(actual, (list, tuple)) or len(actual) != len(self.expected):
                return False
            return all(self._close(a, e) for a, e in zip(actual, self.expected, strict=True))
        return self._close(actual, self.expected)

    def __ne__(self, actual):
        return not self == actual

    def __repr__(self):
        tolerance = [f"rel={self.rel}"] * (self.rel is not None) + [f"abs={self.abs}"] * (self.abs is not None)
        return f"approx({self.expected!r}{', ' if tolerance else ''}{', '.join(tolerance)})"


def approx(expected, rel=None, abs=None):
    return Approx(expected, rel=rel, abs=abs)
