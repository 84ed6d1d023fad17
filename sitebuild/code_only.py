"""The module's Python as the page's zips carry it: the same code on the same lines, without its commentary.

The page never shows the module's comments or docstrings, yet they are most of its bytes (the core zip went
from 26 to about 14 KB without them), and the core is fetched while Python boots. So the build blanks them,
as it minifies the page's JavaScript; the module as written stays what `pip install .`, a clone and the
repository show. Every statement keeps its line and column, so a traceback inside Pyodide names the same
line as natively and quotes the same code.

What goes:
- every comment (the line keeps its code, or becomes empty);
- every docstring: the first statement of a module, class or function when it is a plain string. Its lines
  become empty, or `pass` where the docstring was the whole body. `__doc__` is then None.
"""

import ast
import io
import tokenize

DEFINITIONS = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def docstring_of(node):
    """The docstring statement of a module, class or function, or None."""
    if not isinstance(node, DEFINITIONS) or not node.body:
        return None
    first = node.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return first
    return None


def code_only(source):
    """`source` (text of a .py file) without comments and docstrings; every other token where it was."""
    lines = source.splitlines(keepends=True)

    def blank(number, keep=""):
        """Line `number` (1-based) emptied, keeping its line ending (and `keep`, if given)."""
        line = lines[number - 1]
        ending = line[len(line.rstrip("\r\n")):]
        lines[number - 1] = keep + ending

    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            row, column = token.start
            line = lines[row - 1]
            blank(row, line[:column].rstrip())

    for node in ast.walk(ast.parse(source)):
        docstring = docstring_of(node)
        if docstring is None:
            continue
        first_line, last_line = lines[docstring.lineno - 1], lines[docstring.end_lineno - 1]
        # Only a docstring on lines of its own (after the comments went): `def f(): "doc"` keeps it.
        if first_line[:docstring.col_offset] != " " * docstring.col_offset:
            continue
        if last_line[docstring.end_col_offset:].strip():
            continue
        for number in range(docstring.lineno, docstring.end_lineno + 1):
            blank(number)
        if len(node.body) == 1:
            blank(docstring.lineno, " " * docstring.col_offset + "pass")
    return "".join(lines)
