"""The notebook widget's view: one ES module and one stylesheet, written into the Python package
(py/attention_playground/notebook/), so that a wheel built after `build.py` carries them as package data.

    widget.js    js/notebook/widget.js and everything it imports (the page's own views, state, edits and
                 scene session), bundled and minified by the pinned esbuild into one module with no imports:
                 anywidget loads it from the kernel's message, so nothing is fetched from anywhere
    widget.css   static/style.css (the page's palette and the views' rules) and js/notebook/widget.css (the
                 few rules of the widget's own), scoped to the widget's root: a notebook's own page is not
                 restyled, and the widget's light or dark palette is chosen on its root (data-theme), as the
                 page chooses it on <html>

The stylesheet is scoped by wrapping it in one rule for the widget's root, with the page's root selectors
(`:root`, `html`, `body`) turned into that root; esbuild lowers the nesting into plain selectors. Rules that
cannot sit inside a style rule (@keyframes) are kept at the top level.
"""

import re
import tempfile
from pathlib import Path

from . import bundler
from .paths import PACKAGE_NAME, PY_DIR, ROOT

ENTRY = "js/notebook/widget.js"
STYLESHEETS = ("static/style.css", "js/notebook/widget.css")  # the page's, then the widget's own few rules
OUTPUT_DIR = PY_DIR / PACKAGE_NAME / "notebook"
#: The class of the widget's root element (js/notebook/widget.js).
ROOT_CLASS = "attention-playground"

# A selector list entry that is the document's root, possibly with attributes or classes after it.
_ROOT_SELECTOR = re.compile(r"(?<![\w-]):root|(?<![\w.#-])(?:html|body)(?![\w-])")
_KEYFRAMES = re.compile(r"@keyframes[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}")


def scoped_stylesheet(css: str, root_class: str = ROOT_CLASS) -> str:
    """`css` with every rule applying inside `.root_class` only, the page's root selectors meaning that root."""
    keyframes = _KEYFRAMES.findall(css)
    body = _KEYFRAMES.sub("", css)
    # Comments first, so a word such as "body" in a comment is left alone and selectors are found whole.
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    body = re.sub(r"(^|[{};])([^{};@]*)\{", lambda m: m.group(1) + _ROOT_SELECTOR.sub("&", m.group(2)) + "{", body)
    return "\n".join(keyframes) + f"\n.{root_class} {{\n{body}\n}}\n"


def write_widget_bundle(report=print):
    """Bundle the widget's module and stylesheet into OUTPUT_DIR."""
    executable = bundler.esbuild_executable(report)
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    common = ["--bundle", "--minify", "--legal-comments=none", "--charset=utf8"]
    bundler.run(executable, [ENTRY, *common, "--format=esm", f"--outfile={OUTPUT_DIR / 'widget.js'}"])
    with tempfile.TemporaryDirectory() as scratch:
        scoped = Path(scratch) / "widget.css"
        css = "\n".join((ROOT / path).read_text(encoding="utf-8") for path in STYLESHEETS)
        scoped.write_text(scoped_stylesheet(css), encoding="utf-8")
        # Nesting lowered: the rules read as plain selectors in any notebook's browser.
        bundler.run(executable, [str(scoped), *common, "--supported:nesting=false", f"--outfile={OUTPUT_DIR / 'widget.css'}"])
    sizes = {name: (OUTPUT_DIR / name).stat().st_size for name in ("widget.js", "widget.css")}
    report(f"notebook widget: {sizes['widget.js'] / 1e3:.0f} kB of code, {sizes['widget.css'] / 1e3:.0f} kB of style")
