"""Pyodide has no processes, so `python -c CODE ARGS...` runs CODE in this interpreter, as a fresh one would.

A native test may start a second Python to see the module from a clean slate (say, imported from a zip
only). Inside Pyodide, `subprocess.run` raises "emscripten does not support processes". `install()` swaps it
for a stand-in that accepts exactly that shape of call and runs the code here, with what a fresh interpreter
would have: its own `sys.argv`, the interpreter's original `sys.path` (without the current folder under
`-I`), none of the project's modules imported yet, and its own stdout and stderr. Afterwards everything is put
back. Any other kind of call still fails, as it does in Pyodide.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import subprocess
import sys
import traceback
from pathlib import Path

#: Options of `python` that change nothing here, or only sys.path (-I), which the stand-in honours.
HARMLESS_OPTIONS = {"-I", "-E", "-s", "-B", "-u"}


def install(project_root):
    """Replace subprocess.run for the rest of this interpreter's life. Call before the project adds to sys.path."""
    original_path = list(sys.path)
    project_root = Path(project_root).resolve()

    def run(args, *, capture_output=False, text=False, check=False, **unsupported):
        code, argv, isolated = parse_python_command(args)
        if unsupported or not capture_output:
            raise OSError(f"only subprocess.run([sys.executable, '-c', ...], capture_output=True) runs here: {args!r}")
        returncode, stdout, stderr = run_fresh(code, argv, isolated, original_path, project_root)
        if not text:
            stdout, stderr = stdout.encode(), stderr.encode()
        completed = subprocess.CompletedProcess(list(args), returncode, stdout, stderr)
        if check:
            completed.check_returncode()
        return completed

    subprocess.run = run


def parse_python_command(args):
    """(code, argv, isolated) from [sys.executable, options..., "-c", code, arguments...]."""
    args = [str(arg) for arg in args]
    if not args or args[0] != sys.executable or "-c" not in args:
        raise OSError(f"emscripten does not support processes (only `python -c` is run in-process): {args!r}")
    at = args.index("-c")
    options = args[1:at]
    if not set(options) <= HARMLESS_OPTIONS or at + 1 >= len(args):
        raise OSError(f"cannot run {args!r} in-process")
    return args[at + 1], ["-c", *args[at + 2:]], "-I" in options


def is_project_module(module, project_root):
    filename = getattr(module, "__file__", None)
    return filename is not None and Path(filename).resolve().is_relative_to(project_root)


def run_fresh(code, argv, isolated, original_path, project_root):
    """Run `code` as `python -c` would in a new interpreter; returns (returncode, stdout, stderr)."""
    saved_argv, saved_path = sys.argv, sys.path
    modules_before = set(sys.modules)
    # The project's modules are hidden, so the code imports them anew from wherever its sys.path says.
    hidden = {name: module for name, module in sys.modules.items() if is_project_module(module, project_root)}
    for name in hidden:
        del sys.modules[name]
    sys.argv = argv
    sys.path = [entry for entry in original_path if not (isolated and entry == "")]
    stdout, stderr = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            returncode = execute(code)
    finally:
        sys.argv, sys.path = saved_argv, saved_path
        # What the code imported from outside the interpreter's own library goes (the zip it was handed, say).
        for name in set(sys.modules) - modules_before:
            filename = getattr(sys.modules[name], "__file__", None)
            if filename is not None and not any(filename.startswith(entry) for entry in original_path if entry):
                del sys.modules[name]
        sys.modules.update(hidden)
    return returncode, stdout.getvalue(), stderr.getvalue()


def execute(code):
    """Run code as __main__; the exit status a process would have."""
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    try:
        exec(compile(code, "<string>", "exec"), namespace)
    except SystemExit as exit_request:
        if exit_request.code is None:
            return 0
        if isinstance(exit_request.code, int):
            return exit_request.code
        print(exit_request.code, file=sys.stderr)
        return 1
    except BaseException:  # noqa: BLE001 (a process would print any uncaught exception and exit 1)
        traceback.print_exc()
        return 1
    return 0
