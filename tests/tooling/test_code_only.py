"""The page's zips carry the module's code without comments and docstrings (sitebuild/code_only.py): the same
program, every statement on the line and column where it is written."""

import ast
import io
import sys
import tokenize
import traceback
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sitebuild import generated, paths  # noqa: E402
from sitebuild.code_only import code_only, docstring_of  # noqa: E402

PACKAGE_SOURCES = sorted((paths.PY_DIR / paths.PACKAGE_NAME).rglob("*.py"))


def without_docstrings(tree):
    """The tree with every docstring statement gone (a `pass` in its place where it was the whole body)."""
    for node in list(ast.walk(tree)):
        docstring = docstring_of(node)
        if docstring is None:
            continue
        if len(node.body) > 1:
            del node.body[0]
            continue
        node.body[0] = ast.Pass(lineno=docstring.lineno, col_offset=docstring.col_offset,
                                end_lineno=docstring.lineno, end_col_offset=docstring.col_offset + len("pass"))
        # A definition ends where its last statement ends: now at the `pass`.
        for outer in ast.walk(tree):
            if getattr(outer, "end_lineno", None) == docstring.end_lineno and outer.end_col_offset == docstring.end_col_offset:
                outer.end_lineno, outer.end_col_offset = node.body[0].end_lineno, node.body[0].end_col_offset
    return tree


def comments_in(source):
    return [token.string for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.COMMENT]


@pytest.mark.parametrize("path", PACKAGE_SOURCES, ids=lambda path: str(path.relative_to(paths.PY_DIR)))
def test_every_module_keeps_its_code_on_the_same_lines_and_loses_its_commentary(path):
    source = path.read_text(encoding="utf-8")
    shipped = code_only(source)
    assert len(shipped.splitlines()) == len(source.splitlines())
    # The same statements and expressions, each at the same line and column (include_attributes).
    expected = ast.dump(without_docstrings(ast.parse(source)), include_attributes=True)
    assert ast.dump(ast.parse(shipped), include_attributes=True) == expected
    assert comments_in(shipped) == []
    assert not [node for node in ast.walk(ast.parse(shipped)) if docstring_of(node)]


def test_the_code_shipped_is_at_most_three_quarters_of_the_module_as_written():
    written = sum(len(path.read_bytes()) for path in PACKAGE_SOURCES)
    shipped = sum(len(code_only(path.read_text(encoding="utf-8")).encode()) for path in PACKAGE_SOURCES)
    assert shipped < written * 0.75, (shipped, written)


def test_a_traceback_names_the_line_and_quotes_the_code_as_written():
    source = '''"""A module docstring
over two lines."""

def only_documented():
    """Nothing but a docstring."""


def fails(values):  # a comment after code
    """Sum, then fail."""
    # a comment on its own line
    total = sum(values)  # the '#' in '#1' below is in a string
    raise ValueError(f"#1 total {total}")
'''
    shipped = code_only(source)
    assert "def only_documented():\n    pass\n" in shipped
    assert 'raise ValueError(f"#1 total {total}")' in shipped

    def last_frame(text, filename):
        namespace = {}
        exec(compile(text, filename, "exec"), namespace)
        assert namespace["only_documented"]() is None
        with pytest.raises(ValueError) as raised:
            namespace["fails"]([1, 2])
        frame = traceback.extract_tb(raised.tb)[-1]
        return frame.lineno, namespace["fails"].__doc__

    assert last_frame(source, "written.py") == (12, "Sum, then fail.")
    assert last_frame(shipped, "shipped.py") == (12, None)


def test_a_docstring_that_shares_its_line_with_code_stays():
    source = 'def f(): "kept"; return 1\n'
    assert code_only(source) == source


def test_the_zips_hold_the_code_only_text_of_each_module(tmp_path, monkeypatch):
    from attention_playground import parts

    monkeypatch.setattr(generated, "GENERATED_DIR", tmp_path)
    generated.write_module_zip()
    checked = 0
    for part in (None, *parts.PART_FILES):
        with zipfile.ZipFile(tmp_path / parts.zip_name(part)) as archive:
            for name in archive.namelist():
                on_disk = (paths.PY_DIR / name).read_bytes()
                expected = code_only(on_disk.decode("utf-8")).encode() if name.endswith(".py") else on_disk
                assert archive.read(name) == expected, name
                checked += name.endswith(".py")
    assert checked == len(PACKAGE_SOURCES)
