"""index.html as it is served and built: the build writes in what must not be typed by hand.

The page's <head> holds two markers:

    <!-- build: content-security-policy -->   replaced by the policy's <meta> (csp.py)
    <!-- build: module-preloads -->           replaced by a <link rel="modulepreload"> for every module the
                                              first view loads: the static imports of its entry scripts,
                                              followed through every file (dynamic import()s are left out:
                                              what they load, the page loads later on its own)

so the policy is defined once and the preload list can never miss a module. The development server writes
them in as it serves the page; dist/ gets the page with them written in, and without its comments.
"""

import posixpath
import re

from . import csp
from .paths import ROOT

POLICY_MARKER = "<!-- build: content-security-policy -->"
PRELOADS_MARKER = "<!-- build: module-preloads -->"

#: The modules the page starts from (index.html's <script type="module"> elements), in the order it loads them.
ENTRY_SCRIPTS = ["js/boot.js", "js/main.js"]

# `import ... from "x"`, `export ... from "x"` and the bare `import "x"`, at the start of a line (a comment
# that mentions `from "x"` is not one).
STATIC_IMPORT = re.compile(r"""^(?:import|export)\b[^;'"]*?\bfrom\s*(['"])([^'"\n]+)\1|^import\s*(['"])([^'"\n]+)\3""", re.MULTILINE)


def static_imports(path, text):
    """The site paths `path` imports statically, in the order it names them."""
    found = []
    for match in STATIC_IMPORT.finditer(text):
        specifier = match.group(2) or match.group(4)
        if specifier.startswith("."):
            found.append(posixpath.normpath(posixpath.join(posixpath.dirname(path), specifier)))
    return found


def first_view_modules(read=lambda path: (ROOT / path).read_text(encoding="utf-8"), entries=ENTRY_SCRIPTS):
    """Every module the entry scripts load statically, each once, in the order a browser meets them."""
    ordered, seen = [], set()

    def visit(path):
        if path in seen:
            return
        seen.add(path)
        ordered.append(path)
        for imported in static_imports(path, read(path)):
            visit(imported)

    for entry in entries:
        visit(entry)
    return ordered


def without_comments(html):
    """index.html without its comments: they are for whoever edits the page (dist/ keeps its JavaScript's and
    stylesheets' comments in their source maps; the page's are in the repository)."""
    return re.sub(r"[ \t]*<!--.*?-->[ \t]*\n?", "", html, flags=re.S)


def render_index(html, policy=None, modules=None):
    """index.html with the policy's <meta> and the module preloads written in at their markers."""
    for marker in (POLICY_MARKER, PRELOADS_MARKER):
        if marker not in html:
            raise ValueError(f"index.html has no {marker}")
    policy = csp.page_policy() if policy is None else policy
    modules = first_view_modules() if modules is None else modules
    preloads = "\n  ".join(f'<link rel="modulepreload" href="{path}">' for path in modules if path not in ENTRY_SCRIPTS)
    return html.replace(POLICY_MARKER, csp.meta_tag(policy)).replace(PRELOADS_MARKER, preloads)
