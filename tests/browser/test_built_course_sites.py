"""The recipes of docs/course-authors.md ("Recipes: MkDocs, Sphinx, Jupyter Book"), followed word for word from an
empty folder: MkDocs with Material, Sphinx with Furo (the playground under `_static/`), Sphinx with the PyData theme
(the playground at the site's root, through `html_extra_path`) and Jupyter Book 1. Then each built site is served by
a plain static server and its lesson read in Chromium, in the site's dark mode while the reader's system is light.

The recipes are read from the docs, not restated here, so the two cannot drift apart. Under a recipe's heading every
fenced `sh` block is run with bash, in a folder of its own, and every other fenced block is a file, named by its
first line (a comment) and written there before the next block runs. The blocks that build the playground
(`python3 build.py`) are then run a second time, as after a change to the playground. `python3 build.py` there is a
stand-in (STAND_IN_BUILD) that makes a new dist/ on each run from the real one, its index.html marked with the run's
number: the site must serve the second build, with no copy of the playground inside another (`playground/dist/`).

In the browser, the script the recipe names is found (no 404), the frame is sized to its content (not the snippet's
640 px, with nothing to scroll inside it), the frame is dark because the site is, and a frame that plays the
course's own lesson file (`lesson-src=`, the file kept in the course's folder) shows its first step.

Marked `sites`: the generators come from PyPI into virtualenvs of their own under tests/.cache/sites-venv/, one per
section of requirements/sites.txt (pinned with hashes, wheels only), made on the first run and again when their
section changes. A recipe's own `pip install` line is then run in its virtualenv with no index (PIP_NO_INDEX), so
it passes only when it names the versions pinned there. Run with
`ATTENTION_PLAYGROUND_SITES=1 .venv/bin/python -m pytest tests/browser/test_built_course_sites.py -n 0`.
"""

import concurrent.futures
import functools
import hashlib
import http.server
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError, expect

from page_helpers import POLL_EVERY_MS
from sitebuild import paths, server as dev_server
from sitebuild.cached_trees import exclusive

pytestmark = pytest.mark.sites

GUIDE = paths.ROOT / "docs" / "course-authors.md"
RECIPES_HEADING = "## Recipes: MkDocs, Sphinx, Jupyter Book"
SITES_VENV = paths.ROOT / "tests" / ".cache" / "sites-venv"
REQUIREMENTS = paths.ROOT / "requirements" / "sites.txt"
SNIPPET_HEIGHT = "640"
# A file's name, on the first line of its block: `# name` (YAML, Python), `.. name` (reStructuredText),
# `<!-- name -->` (Markdown).
FILE_NAME = re.compile(r"^(?:#|\.\.|<!--) (\S+?)(?: -->)?$")
# The section lines of requirements/sites.txt: "# [name] made from ...".
SECTION = re.compile(r"^# \[([\w-]+)\]", re.M)
HEADING = re.compile(r"^#{1,6} ")
# Stands in for the playground's build.py in the recipes' folders: a new dist/ on each run, the real build's files
# (hard links where the disk allows, they are never written to) with index.html a new file, marked with the run.
STAND_IN_BUILD = '''\
import os, pathlib, shutil

def link_or_copy(source, target):
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)

runs = pathlib.Path("build-runs")
run = int(runs.read_text()) + 1 if runs.exists() else 1
runs.write_text(str(run))
shutil.rmtree("dist", ignore_errors=True)
shutil.copytree({real!r}, "dist", copy_function=link_or_copy)
index = pathlib.Path("dist/index.html")
text = index.read_text()
index.unlink()
index.write_text(text + "<!-- build " + str(run) + " -->\\n")
'''
BUILD_LINE = "python3 build.py"


@dataclass(frozen=True)
class Recipe:
    """A recipe of the guide, and what the test needs to know of its site that the commands do not say."""

    name: str  # the test's id
    heading: str  # as in the guide, "#"s and all
    generators: str  # its section of requirements/sites.txt
    site: str  # the built site, from the folder the commands run in
    page: str  # the page with the frame, in the built site
    dark_pick: str = ""  # run in the site's pages before they load: the reader's remembered pick of dark
    dark_switch: str = ""  # or the site's switch, clicked once the frame is live (it starts light)


PYDATA_DARK = "localStorage.setItem('mode', 'dark'); localStorage.setItem('theme', 'dark')"
# Each site's own way of being dark: Material's palette switch (in mkdocs.yml), Furo's remembered pick (its switch
# writes "theme" to localStorage), the PyData theme's and sphinx-book-theme's ("mode" and "theme").
RECIPES = [
    Recipe("mkdocs-material", "### MkDocs with Material", "mkdocs", "my-site/site", "lessons/attention/",
           dark_switch="[data-md-component=palette] label:visible"),
    Recipe("sphinx-furo", "#### Sphinx: under `_static/`, with Furo", "sphinx", "my-site/_build/html",
           "lessons/attention.html", dark_pick="localStorage.setItem('theme', 'dark')"),
    Recipe("sphinx-pydata", "#### Sphinx: at the site's root, with the PyData theme", "sphinx",
           "my-site/_build/html", "index.html", dark_pick=PYDATA_DARK),
    Recipe("jupyter-book-1", "### Jupyter Book", "jupyter-book", "my-book/_build/html", "intro.html",
           dark_pick=PYDATA_DARK),
]


@functools.cache
def guide_blocks():
    """{heading: [(language, text)]}: the fenced blocks of the guide's recipes section, under their nearest heading.
    Lines in blocks are never headings (a YAML or Python comment starts with "#" too)."""
    blocks, heading, fence = {}, None, None
    for line in GUIDE.read_text(encoding="utf-8").splitlines(keepends=True):
        if fence is not None:
            if line.rstrip() == fence[2]:  # a fence closes with as many backticks as opened it
                if heading:
                    blocks[heading].append((fence[0], "".join(fence[1])))
                fence = None
            else:
                fence[1].append(line)
        elif line.startswith("```"):
            ticks = len(line) - len(line.lstrip("`"))
            fence = (line[ticks:].strip(), [], "`" * ticks)
        elif HEADING.match(line):
            if heading and re.match(r"#{1,2} ", line):
                break
            if heading or line.rstrip() == RECIPES_HEADING:
                heading = line.rstrip()
                blocks[heading] = []
    return blocks


def recipe_blocks(recipe):
    """The recipe's blocks, in the guide's order: ("sh", commands) or (file name, text)."""
    blocks = guide_blocks().get(recipe.heading)
    assert blocks, f"no blocks under {recipe.heading!r} in {GUIDE.name}"
    named = []
    for language, text in blocks:
        if language == "sh":
            named.append(("sh", text))
        else:
            name = FILE_NAME.match(text.splitlines()[0])
            assert name, f"{recipe.heading}: a {language} block whose first line names no file: {text[:80]!r}"
            named.append((name.group(1), text))
    return named


def requirements_section(name):
    """The part of requirements/sites.txt under "# [name]", up to the next section."""
    text = REQUIREMENTS.read_text(encoding="utf-8")
    starts = [(match.group(1), match.start()) for match in SECTION.finditer(text)] + [(None, len(text))]
    for (section, start), (_, end) in zip(starts, starts[1:]):
        if section == name:
            return text[start:end]
    raise AssertionError(f"requirements/sites.txt has no section [{name}]")


def install_generators(name):
    """The bin/ of the virtualenv made from the section `name` of requirements/sites.txt, installed (under a lock, as
    two test processes may ask at once) unless it already holds that section: its stamp names the section's digest."""
    section = requirements_section(name)
    venv = SITES_VENV / name
    digest = hashlib.sha256((section + sys.version).encode()).hexdigest()
    stamp = venv / "installed-from"
    with exclusive(venv):
        if not stamp.exists() or stamp.read_text() != digest:
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
            requirements = SITES_VENV / f"{name}-requirements.txt"
            requirements.write_text(section, encoding="utf-8")
            installed = subprocess.run(
                [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-compile",
                 "--require-hashes", "--only-binary=:all:", "-r", str(requirements)],
                capture_output=True, text=True, check=False)
            assert installed.returncode == 0, f"could not install [{name}]: {installed.stderr[-3000:]}"
            stamp.write_text(digest)
    return venv / "bin"


@pytest.fixture(scope="module")
def generators(request):
    """{section: a future of its bin/}: the virtualenvs the selected recipes need, installed side by side (most of an
    install is waiting on downloads), each waited for by the first test that needs it."""
    if (SITES_VENV / "pyvenv.cfg").exists():
        shutil.rmtree(SITES_VENV, ignore_errors=True)  # one virtualenv for all, as this test once made
    wanted = {item.callspec.params["recipe"].generators for item in request.session.items
              if "recipe" in getattr(getattr(item, "callspec", None), "params", {})}
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(wanted) or 1) as pool:
        yield {name: pool.submit(install_generators, name) for name in sorted(wanted)}


def run_commands(commands, folder, bin_dir):
    """Run a recipe's `sh` block as a reader's shell would, in the virtualenv, with no index for pip."""
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "VIRTUAL_ENV": str(bin_dir.parent),
           "PIP_NO_INDEX": "1"}
    done = subprocess.run(["bash", "-e", "-c", commands], cwd=folder, env=env, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, f"{commands}\nfailed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"


def follow(recipe, folder, bin_dir):
    """Every block of the recipe in order, then its playground-building blocks again (a change to the playground)."""
    (folder / "build.py").write_text(STAND_IN_BUILD.format(real=str(paths.DIST_DIR)))
    blocks = recipe_blocks(recipe)
    for name, text in blocks:
        if name == "sh":
            run_commands(text, folder, bin_dir)
        else:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
    rebuilds = [text for name, text in blocks if name == "sh" and BUILD_LINE in text]
    assert rebuilds, f"{recipe.heading}: no block runs `{BUILD_LINE}`"
    for text in rebuilds:
        run_commands(text, folder, bin_dir)


def test_the_guide_has_these_recipes_each_pinned_in_sites_txt():
    """Every heading of the recipes section with commands is a recipe here, and its `pip install` pins are in its
    section of requirements/sites.txt."""
    with_commands = [heading for heading, blocks in guide_blocks().items() if any(lang == "sh" for lang, _ in blocks)]
    assert with_commands == [recipe.heading for recipe in RECIPES]
    for recipe in RECIPES:
        installs = [line for name, text in recipe_blocks(recipe) if name == "sh"
                    for line in text.splitlines() if line.startswith("pip install ")]
        assert len(installs) == 1, f"{recipe.heading}: {installs}"
        pinned = re.findall(r"^(\S+==\S+) \\$", requirements_section(recipe.generators), re.M)
        assert set(installs[0].split()[2:]) <= set(pinned), f"{recipe.heading}: {installs[0]}"


class QuietStaticHandler(http.server.SimpleHTTPRequestHandler):
    """A plain static host (no isolation headers), as a documentation site is served."""

    def log_message(self, *args):
        pass


def assert_one_playground_of_the_last_build(folder, recipe, frame_url, request):
    """No copy of the playground inside another (a second `cp -r dist/ ...` makes `playground/dist/`), and the frame
    is served the second build's index.html."""
    site_folder = folder / Path(recipe.site).parts[0]
    nested = [path.relative_to(folder).as_posix() for path in site_folder.rglob("embed-host.js")
              if "dist" in path.relative_to(site_folder).parts]
    assert nested == []
    served = request.get(frame_url).text()
    assert "<!-- build 2 -->" in served and served == (folder / "dist" / "index.html").read_text()


def expect_sized_and_dark(page, frame_element, recipe):
    """The frame is sized to its content, then dark because the site is (after its switch, if it has one)."""
    expect(frame_element).to_have_attribute("data-resized", "true", timeout=60_000)
    frame = frame_element.element_handle().content_frame()
    frame.wait_for_function("() => window.attentionPlayground !== undefined", polling=POLL_EVERY_MS)
    if recipe.dark_switch:
        expect(frame.locator("html")).to_have_attribute("data-theme", "light")
        page.locator(recipe.dark_switch).click()
    expect(frame.locator("html")).to_have_attribute("data-theme", "dark")
    assert frame_element.get_attribute("height") != SNIPPET_HEIGHT
    # The frame may still grow as Python fills it; each growth is reported and followed.
    fits = "() => document.documentElement.scrollHeight <= window.innerHeight"
    try:
        frame.wait_for_function(fits, timeout=10_000, polling=POLL_EVERY_MS)
    except PlaywrightTimeoutError:
        pytest.fail(f"the frame is {frame_element.get_attribute('height')} px and its content taller")
    return frame


@pytest.mark.parametrize("recipe", RECIPES, ids=lambda recipe: recipe.name)
def test_a_recipe_followed_from_an_empty_folder_serves_the_last_build_sized_and_dark(
        recipe, generators, built_site, tmp_path, browser):
    follow(recipe, tmp_path, generators[recipe.generators].result())
    handler = functools.partial(QuietStaticHandler, directory=str(tmp_path / recipe.site))
    context = browser.new_context(color_scheme="light", service_workers="block")
    try:
        if recipe.dark_pick:
            context.add_init_script(f"if (!location.pathname.includes('/playground/')) {{ {recipe.dark_pick}; }}")
        page = context.new_page()
        missing = []
        page.on("response", lambda response: response.status >= 400 and missing.append(response.url))
        with dev_server.serving(handler) as url:
            page.goto(f"{url}/{recipe.page}")
            frame_element = page.locator("iframe[data-attention-playground]")
            frame = expect_sized_and_dark(page, frame_element, recipe)
            assert_one_playground_of_the_last_build(tmp_path, recipe, frame.url, context.request)
            if "lesson-src=" in frame.url:  # the course's own lesson, kept beside its pages, plays in the frame
                expect(frame.locator('[data-testid="lesson-step-title"]')).to_have_text("Who does “man” read?", timeout=60_000)
            assert [address for address in missing if "embed-host.js" in address] == []
    finally:
        context.close()
