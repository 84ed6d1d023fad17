"""The recipes of docs/course-authors.md, followed for real: a MkDocs Material site, a Sphinx site with Furo (the
playground under `_static/`, the script through `html_js_files`) and a Sphinx site with the PyData theme (the
playground at the site's root through `html_extra_path`, the script in the page), each built by its own generator
around dist/, served by a plain static server, and read in Chromium in the site's dark mode while the reader's
system is light.

In each, the script the recipe names is found (no 404), the frame is sized to its content (not the snippet's
640 px, with nothing to scroll inside it), and the frame is dark because the site is.

Marked `sites`: the generators come from PyPI (requirements/sites.txt, pinned with hashes) into a virtualenv of
their own, tests/.cache/sites-venv, made on the first run. Run with
`ATTENTION_PLAYGROUND_SITES=1 .venv/bin/python -m pytest tests/browser/test_built_course_sites.py -n 0`.
"""

import functools
import http.server
import shutil
import subprocess
import sys
import textwrap

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError, expect

from page_helpers import POLL_EVERY_MS
from sitebuild import paths, server as dev_server

pytestmark = pytest.mark.sites

SITES_VENV = paths.ROOT / "tests" / ".cache" / "sites-venv"
REQUIREMENTS = paths.ROOT / "requirements" / "sites.txt"
FRAME = """<iframe src="{src}index.html?embed&panels=heatmap,bars,features#preset=dog-bites-man"
        title="Attention Playground: dog bites man" width="100%" height="640" loading="lazy"
        data-attention-playground></iframe>"""
SNIPPET_HEIGHT = "640"


@pytest.fixture(scope="module")
def generators():
    """The virtualenv's bin/ with Sphinx and MkDocs, installed from requirements/sites.txt if it is not there."""
    bin_dir = SITES_VENV / "bin"
    if not (bin_dir / "sphinx-build").exists() or not (bin_dir / "mkdocs").exists():
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(SITES_VENV)], check=True)
        subprocess.run([str(bin_dir / "pip"), "install", "--quiet", "--require-hashes", "--only-binary=:all:",
                        "-r", str(REQUIREMENTS)], check=True)
    return bin_dir


class QuietStaticHandler(http.server.SimpleHTTPRequestHandler):
    """A plain static host (no isolation headers), as a documentation site is served."""

    def log_message(self, *args):
        pass


def write(folder, files):
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text))


def copy_playground(target):
    """`cp -r dist/ target`: what each recipe starts with."""
    shutil.copytree(paths.DIST_DIR, target)


def mkdocs_material_site(bin_dir, source):
    """docs/playground/ and extra_javascript, a lesson two folders down, Material's palette in slate."""
    copy_playground(source / "docs" / "playground")
    write(source, {
        "mkdocs.yml": """\
            site_name: A course
            theme:
              name: material
              palette:
                scheme: slate
            extra_javascript:
              - playground/js/embed-host.js
            """,
        "docs/index.md": "# A course\n",
        "docs/lessons/attention.md": "# Attention\n\n" + FRAME.format(src="../../playground/") + "\n",
    })
    subprocess.run([str(bin_dir / "mkdocs"), "build", "--quiet", "--site-dir", str(source / "site")],
                   cwd=source, check=True)
    return source / "site", "lessons/attention/"


def sphinx_site(bin_dir, source, conf, playground, frame_src, script):
    (source / "_static").mkdir(parents=True)
    copy_playground(source / playground)
    write(source, {
        "conf.py": conf,
        "index.rst": "A course\n========\n\n.. toctree::\n\n   lessons/attention\n",
        "lessons/attention.rst": "Attention\n=========\n\n.. raw:: html\n\n"
        + textwrap.indent(FRAME.format(src=frame_src) + "\n" + script, "   ") + "\n",
    })
    subprocess.run([str(bin_dir / "sphinx-build"), "--quiet", "-b", "html", str(source), str(source / "_build")],
                   check=True)
    return source / "_build", "lessons/attention.html"


def furo_site(bin_dir, source):
    """The `_static/` recipe: the playground in _static/playground/, the script through html_js_files."""
    conf = """\
        project = "A course"
        html_theme = "furo"
        html_static_path = ["_static"]
        html_js_files = ["playground/js/embed-host.js"]
        """
    return sphinx_site(bin_dir, source, conf, "_static/playground", "../_static/playground/", "")


def pydata_site(bin_dir, source):
    """The `html_extra_path` recipe: the playground at the root, the script beside the frame; dark by default."""
    conf = """\
        project = "A course"
        html_theme = "pydata_sphinx_theme"
        html_extra_path = ["_extra"]
        html_context = {"default_mode": "dark"}
        """
    script = '<script src="../playground/js/embed-host.js" async></script>'
    return sphinx_site(bin_dir, source, conf, "_extra/playground", "../playground/", script)


# Each site's own way of being dark: Material's palette (in mkdocs.yml), Furo's remembered pick (its switch
# writes "theme" to localStorage), PyData's default_mode (in conf.py).
SITES = [
    pytest.param(mkdocs_material_site, "", id="mkdocs-material"),
    pytest.param(furo_site, "localStorage.setItem('theme', 'dark')", id="sphinx-furo"),
    pytest.param(pydata_site, "", id="sphinx-pydata"),
]


@pytest.mark.parametrize(("make_site", "dark_pick"), SITES)
def test_a_frame_on_a_built_course_site_is_sized_and_follows_its_dark_mode(
        make_site, dark_pick, generators, built_site, tmp_path, browser):
    site, lesson = make_site(generators, tmp_path / "source")
    handler = functools.partial(QuietStaticHandler, directory=str(site))
    context = browser.new_context(color_scheme="light", service_workers="block")
    try:
        if dark_pick:
            context.add_init_script(f"if (!location.pathname.includes('/playground/')) {{ {dark_pick}; }}")
        page = context.new_page()
        missing = []
        page.on("response", lambda response: response.status >= 400 and missing.append(response.url))
        with dev_server.serving(handler) as url:
            page.goto(f"{url}/{lesson}")
            frame_element = page.locator("iframe[data-attention-playground]")
            expect(frame_element).to_have_attribute("data-resized", "true", timeout=60_000)
            frame = frame_element.element_handle().content_frame()
            frame.wait_for_function("() => window.attentionPlayground !== undefined", polling=POLL_EVERY_MS)
            expect(frame.locator("html")).to_have_attribute("data-theme", "dark")
            assert frame_element.get_attribute("height") != SNIPPET_HEIGHT
            # The frame may still grow as Python fills it; each growth is reported and followed.
            fits = "() => document.documentElement.scrollHeight <= window.innerHeight"
            try:
                frame.wait_for_function(fits, timeout=10_000, polling=POLL_EVERY_MS)
            except PlaywrightTimeoutError:
                pytest.fail(f"the frame is {frame_element.get_attribute('height')} px and its content taller")
            assert [address for address in missing if "embed-host.js" in address] == []
    finally:
        context.close()
