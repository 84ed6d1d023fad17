"""No function of js/ is longer than sitebuild.function_lengths.MAX_FUNCTION_LINES lines, counted by acorn from
its first line to its last, so the functions defined inside it count too. A function that long mixes jobs (drawing,
reacting to the store, formatting) that read better as parts named for what they do."""

from sitebuild.function_lengths import MAX_FUNCTION_LINES, describe, long_js_functions


def quiet(_message):
    pass


def test_no_javascript_function_is_too_long():
    found = long_js_functions(quiet)
    assert found["files"] > 50 and found["functions"] > 500  # js/ was parsed, not an empty folder
    too_long = [describe(function) for function in found["tooLong"]]
    assert not too_long, "longer than %d lines (file:function:lines):\n%s" % (MAX_FUNCTION_LINES, "\n".join(too_long))


def body(lines):
    return "".join(f"  total += {index};\n" for index in range(lines - 2))


def test_the_check_names_every_kind_of_function_that_is_too_long(tmp_path):
    """Declarations, arrows in a variable, methods, properties and anonymous callbacks each come back named as
    a reader would look for them, with their span; one a line under the limit passes."""
    long = MAX_FUNCTION_LINES + 1
    (tmp_path / "js" / "ui").mkdir(parents=True)
    (tmp_path / "js" / "ui" / "panel.js").write_text(
        f"export function mountPanel() {{\n{body(long)}}}\n"
        f"const drawRow = () => {{\n{body(long)}}};\n"
        f"function fits() {{\n{body(MAX_FUNCTION_LINES)}}}\n"
    )
    (tmp_path / "js" / "view.js").write_text(
        f"class View {{\n  update() {{\n{body(long)}  }}\n}}\n"
        f"const actions = {{ load: function () {{\n{body(long)}}} }};\n"
        f"[1].forEach((item) => {{\n{body(long)}}});\n"
    )
    found = long_js_functions(quiet, root=tmp_path)
    anonymous_line = (long + 2) + long + 1  # after the class and the object literal
    assert [describe(function) for function in found["tooLong"]] == [
        f"js/ui/panel.js:mountPanel:{long}",
        f"js/ui/panel.js:drawRow:{long}",
        f"js/view.js:update:{long}",
        f"js/view.js:load:{long}",
        f"js/view.js:<anonymous>@{anonymous_line}:{long}",
    ]
    assert found["files"] == 2 and found["functions"] == 6

