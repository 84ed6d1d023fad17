"""Hypothesis is not in Pyodide: a stand-in that lets the native test modules import, and marks their @given tests.

pytest's hypothesis plugin marks `hypothesis` exactly the tests decorated with @given (those whose function
has `is_hypothesis_test`). Here @given sets the same attribute, and the runner leaves those tests out and lists
them, so the browser test can compare with `pytest -m "not hypothesis"` and `-m hypothesis` run natively.
Every other test in such a module (a plain test next to the property tests) still runs.

Whatever a module builds from hypothesis when it is imported (strategies, settings profiles) becomes an inert
placeholder: nothing here draws an example, so no test can pass on the stand-in's account.
"""

from __future__ import annotations

import types


class Inert:
    """Stands for any strategy or option: every attribute, call or `|` gives this placeholder again."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self

    def __call__(self, *args, **kwargs):
        return self

    def __or__(self, other):
        return self

    __ror__ = __or__

    def __repr__(self):
        return "<hypothesis stand-in>"


INERT = Inert()


def given(*args, **kwargs):
    """Marks the test as a hypothesis test, as the real @given does; the runner leaves it out."""

    def mark(test):
        test.is_hypothesis_test = True
        return test

    return mark


class settings:  # noqa: N801 (named as hypothesis names it)
    """`@settings(...)` leaves the test as it is; profiles are accepted and ignored."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, test):
        return test

    @staticmethod
    def register_profile(name, *args, **kwargs):
        pass

    @staticmethod
    def load_profile(name):
        pass


def is_hypothesis_test(function):
    return getattr(function, "is_hypothesis_test", False) is True


def placeholder_attribute(name):
    if name.startswith("__"):  # what the import system looks for (__path__, __file__...) stays missing
        raise AttributeError(name)
    return INERT


def modules():
    """The stand-in modules by import name, for sys.modules: hypothesis, .strategies, .extra, .extra.numpy."""
    made = {}
    for name in ("hypothesis", "hypothesis.strategies", "hypothesis.extra", "hypothesis.extra.numpy"):
        module = types.ModuleType(name, "stand-in for hypothesis (not in Pyodide); see tests/in_pyodide/")
        module.__getattr__ = placeholder_attribute  # PEP 562: any other name is a placeholder
        made[name] = module
    made["hypothesis"].given = given
    made["hypothesis"].settings = settings
    made["hypothesis"].strategies = made["hypothesis.strategies"]
    made["hypothesis"].extra = made["hypothesis.extra"]
    made["hypothesis.extra"].numpy = made["hypothesis.extra.numpy"]
    return made
