"""No Python function of the package is longer than a reader can hold at once: 120 lines at most.

Measured with the `ast` module: a function's lines run from its `def` to its last line (end_lineno - lineno + 1,
its docstring and comments included, decorators not), and a function nested inside another counts within its
parent's lines (and is measured on its own as well). A function over the limit is named with its file and length:
split it into functions named for what each part does.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "py" / "attention_playground"

#: The most lines a function may have.
MAX_LINES = 120


def function_lengths(source):
    """Every function in `source` (nested ones too) as (qualified name, lines), in the order they start."""
    found = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((prefix + child.name, child.end_lineno - child.lineno + 1))
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def test_the_measure_counts_a_function_from_def_to_its_last_line_nested_ones_inside():
    source = "def outer():\n    x = 1\n\n    def inner():\n        return x\n\n    return inner\n\n\nclass A:\n" \
             "    async def method(self):\n        pass\n"
    assert function_lengths(source) == [("outer", 7), ("outer.inner", 2), ("A.method", 2)]


def test_no_python_function_is_longer_than_the_limit_split_any_that_is():
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 30  # the package was read, not an empty folder
    too_long = [f"{path.relative_to(ROOT).as_posix()}:{name}:{lines}"
                for path in files for name, lines in function_lengths(path.read_text(encoding="utf-8"))
                if lines > MAX_LINES]
    assert too_long == [], f"functions over {MAX_LINES} lines (file:function:lines); split each into named parts"
