"""TypeScript's checker over js/, in JSDoc mode: the types the page's modules declare in their comments, checked
(the settings: jsconfig.json at the root). The pinned TypeScript (typescript.lock.json) is installed into the
download cache like dependency-cruiser (npm_tree.py), never into the site.

    python3 -m sitebuild.typecheck      # prints every error; exits 1 if there is one
"""

import re
import subprocess
import sys

from . import npm_tree
from .paths import ROOT

LOCK_PATH = ROOT / "typescript.lock.json"
CONFIG_PATH = ROOT / "jsconfig.json"
#: One error as tsc prints it with --pretty false: "js/x.js(12,5): error TS2339: Property 'y' does not exist …".
ERROR_LINE = re.compile(r"^(?P<file>[^(\s][^(]*)\((?P<line>\d+),(?P<column>\d+)\): error (?P<code>TS\d+): (?P<message>.*)$")


def install(report=print):
    """The folder that holds node_modules/typescript, fetched and checked if need be."""
    return npm_tree.install(LOCK_PATH, "typescript", report)


def check_types(report=print, root=ROOT, config=CONFIG_PATH):
    """Every error tsc finds over the files `config` names: {"errors": [{file, line, column, code, message}],
    "files": how many files it read, "output": what it printed}."""
    tsc = install(report) / "node_modules" / "typescript" / "bin" / "tsc"
    completed = subprocess.run(
        ["node", str(tsc), "--project", str(config), "--noEmit", "--pretty", "false", "--listFiles"],
        cwd=root, capture_output=True, text=True, check=False,
    )
    lines = completed.stdout.splitlines()
    errors = [match.groupdict() for match in map(ERROR_LINE.match, lines) if match]
    # --listFiles prints every file read, one absolute path a line, besides the errors.
    files = [line for line in lines if line.startswith("/") and not ERROR_LINE.match(line)]
    if completed.returncode != 0 and not errors:
        errors = [{"file": str(config), "line": "0", "column": "0", "code": "tsc", "message": (completed.stdout + completed.stderr).strip()}]
    return {"errors": errors, "files": files, "output": "\n".join(line for line in lines if line not in files)}


if __name__ == "__main__":
    found = check_types()
    print(found["output"])
    print(f"{len(found['files'])} files read, {len(found['errors'])} errors")
    sys.exit(1 if found["errors"] else 0)
