"""The widget's view as the build bundles it (sitebuild/notebook.py): one self-contained ES module that asks
nothing of any host and evaluates no strings, and the page's stylesheet scoped to the widget's root so that a
notebook's own page keeps its look."""

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sitebuild import notebook  # noqa: E402  (sitebuild/ lives at the project's root)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    """The widget's module and stylesheet, bundled afresh (generated/ must exist: build.py, or ./test.sh)."""
    if not (ROOT / "generated" / "module-facts.js").exists():
        pytest.fail("generated/ is missing: run python3 build.py first")
    out = tmp_path_factory.mktemp("widget")
    original = notebook.OUTPUT_DIR
    notebook.OUTPUT_DIR = out
    try:
        notebook.write_widget_bundle(report=lambda line: None)
    finally:
        notebook.OUTPUT_DIR = original
    return {"js": (out / "widget.js").read_text(encoding="utf-8"), "css": (out / "widget.css").read_text(encoding="utf-8")}


def test_the_module_is_one_file_that_loads_and_evaluates_nothing(bundle):
    code = bundle["js"]
    assert re.search(r"\bimport\s*[({\"'*]", code) is None, "no import of another file, static or dynamic"
    for forbidden in ("eval(", "new Function", "fetch(", "XMLHttpRequest", "WebSocket", "importScripts"):
        assert forbidden not in code
    # The only URL in it is SVG's namespace, which names and fetches nothing.
    assert set(re.findall(r"https?://[\w./-]+", code)) == {"http://www.w3.org/2000/svg"}
    assert "export{" in code.replace(" ", "") and "render" in code


def top_level_parts(selector_list):
    """A selector list split at its top-level commas (not those inside :is(...), :not(...))."""
    parts, depth, start = [], 0, 0
    for index, character in enumerate(selector_list):
        depth += {"(": 1, ")": -1}.get(character, 0)
        if character == "," and depth == 0:
            parts.append(selector_list[start:index])
            start = index + 1
    return [*parts, selector_list[start:]]


def test_every_rule_of_the_stylesheet_applies_inside_the_widget_only(bundle):
    css = re.sub(r"@keyframes[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", bundle["css"])
    selectors = [selector.strip() for block in re.findall(r"(?:^|[{}])([^{}@;]+)\{", css) for selector in top_level_parts(block)]
    selectors = [selector for selector in selectors if selector and not re.fullmatch(r"(from|to|\d+%)", selector)]
    assert selectors, "the stylesheet has rules"
    # Each selector names the widget's root: it matches the root or what is inside it, nothing of the notebook's.
    outside = [selector for selector in selectors if not re.search(rf"\.{notebook.ROOT_CLASS}(?![\w-])", selector)]
    assert outside == []
    assert "url(" not in bundle["css"] and "@import" not in bundle["css"]


def test_the_page_root_becomes_the_widget_root_and_keyframes_stay_at_the_top():
    scoped = notebook.scoped_stylesheet(
        ":root { --ink: red; }\n:root[data-theme=\"dark\"] { color-scheme: dark; }\nbody { margin: 0; }\n"
        "h2, .panel > p { margin: 0; }\n@keyframes pulse { 50% { opacity: 0.3; } }\n"
        "/* body text */ .tbody-cell { color: var(--ink); }\n", root_class="w")
    assert scoped.startswith("@keyframes pulse")
    body = scoped[scoped.index(".w {"):]
    assert "& { --ink: red; }" in body and '&[data-theme="dark"]' in body and "& { margin: 0; }" in body
    assert "h2, .panel > p {" in body and ".tbody-cell" in body and "body text" not in body


def test_the_panels_python_names_are_the_panels_the_view_draws():
    from attention_playground.widget import PANELS

    frame = (ROOT / "js" / "notebook" / "widget.js").read_text(encoding="utf-8")
    assert tuple(re.findall(r'data-panel="(\w+)"', frame)) == PANELS
