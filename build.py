#!/usr/bin/env python3
"""Prepare the Attention Playground for the browser, and serve it.

    python3 build.py                  # vendor the runtime and the editor, write generated/ and dist/
    python3 build.py serve [--port N] # the same, then serve the project on 127.0.0.1
    python3 build.py --zip            # also dist/attention-playground.zip, the site in one file, for offline use
    python3 build.py --cdn            # also dist-cdn/, the site loading Pyodide from the official CDN
    python3 build.py --scorm          # also dist-scorm/: SCORM 1.2 and 2004 packages, one per lesson and one whole

Every build also bundles the notebook widget's view into py/attention_playground/notebook/ (sitebuild/notebook.py).

The steps are the modules of sitebuild/ (its docstring lists them); this file is the command line over them.
Standard library only, so it runs before anything is installed. Computing the preview needs NumPy: when the
running Python lacks it, the build re-runs itself in the project's .venv, making it (with the pinned NumPy) if
there is none.
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from sitebuild import cached_trees, csp, editor, generated, lessons, notebook, runtime, scorm, server, site, variants
from sitebuild.downloads import BuildError
from sitebuild.paths import CDN_DIR, DIST_DIR, ROOT, SCORM_DIR, VENDOR_DIR

ZIP_PATH = DIST_DIR / variants.ZIP_NAME


#: What the build imports besides the standard library, by the name pyproject.toml pins it under, and the module
#: it is imported as: NumPy computes the previews, markdown-it-py (with mdurl) reads the lessons.
BUILD_REQUIREMENTS = {"numpy": "numpy", "markdown-it-py": "markdown_it", "mdurl": "mdurl"}


def pinned_requirements() -> list[str]:
    """The pins of BUILD_REQUIREMENTS from pyproject.toml's test dependencies: the build uses what the tests test."""
    import tomllib

    with open(ROOT / "pyproject.toml", "rb") as file:
        test_dependencies = tomllib.load(file)["project"]["optional-dependencies"]["test"]
    return [next(pin for pin in test_dependencies if pin.split("==")[0] == name) for name in BUILD_REQUIREMENTS]


def pinned_numpy() -> str:
    """The NumPy requirement the tests pin in pyproject.toml, so the preview is computed with the tested NumPy."""
    return pinned_requirements()[0]


def missing_requirements() -> list[str]:
    """The pins of what this Python cannot import."""
    import importlib.util

    return [pin for pin, module in zip(pinned_requirements(), BUILD_REQUIREMENTS.values())
            if importlib.util.find_spec(module) is None]


def ensure_numpy():
    """Re-run the build in the project's .venv when this Python lacks NumPy or markdown-it-py (the previews and
    the lessons need them).

    On a fresh machine there is no .venv yet: make one with the pinned NumPy and markdown-it-py, so that
    `python3 build.py serve` needs no set-up of its own.
    """
    missing = missing_requirements()
    if missing:
        venv = ROOT / ".venv"
        venv_python = venv / "bin" / "python"
        if Path(sys.prefix).resolve() == venv.resolve():
            raise BuildError(f"the previews and the lessons need {', '.join(missing)}, which {venv} lacks: "
                             f"{venv_python} -m pip install {' '.join(repr(pin) for pin in missing)}")
        if not venv_python.exists():
            print(f"build: this Python lacks {', '.join(missing)}; making {venv} with them", flush=True)
            try:
                subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
                subprocess.run([str(venv_python), "-m", "pip", "install", "--quiet", *pinned_requirements()],
                               check=True)
            except (OSError, subprocess.CalledProcessError) as error:
                raise BuildError(
                    f"could not make {venv} with {', '.join(pinned_requirements())} ({error}); on Debian/Ubuntu: "
                    "apt-get install python3-venv, or pip install numpy markdown-it-py"
                ) from None
        os.execv(venv_python, [str(venv_python), str(ROOT / "build.py"), *sys.argv[1:]])


def write_deployables(runtime_files, zip_site=False, cdn_site=False, scorm_lessons=None):
    """Give dist/ the course authors' guide and example lesson and make it work offline (service worker
    manifest); with `zip_site` pack it into ZIP_PATH, with `cdn_site` write CDN_DIR, with `scorm_lessons` (the
    lessons' index) write the SCORM packages into SCORM_DIR. Returns the extra parts of the summary line."""
    variants.write_author_files(DIST_DIR)
    variants.prepare_offline_site(DIST_DIR, runtime.PYODIDE_VERSION, numpy_wheel=runtime.vendored_numpy_wheel())
    notes = []
    if zip_site:
        variants.write_zip(DIST_DIR, ZIP_PATH)
        notes.append(f"{ZIP_PATH.relative_to(ROOT)} ({ZIP_PATH.stat().st_size / 1e6:.1f} MB)")
    if cdn_site:
        # The page's policy with the CDN in it, as a header for every path (the worker reads it from there).
        policy = csp.content_security_policy([variants.cdn_origin(runtime.CDN_URL)], connect_sources=csp.LESSON_SOURCES)
        variants.write_cdn_site(DIST_DIR, CDN_DIR, runtime.CDN_URL, runtime.PYODIDE_VERSION, runtime_files, header_policy=policy)
        notes.append(f"{CDN_DIR.name}/ (runtime from {runtime.CDN_URL})")
    if scorm_lessons is not None:
        packages = scorm.write_packages(DIST_DIR, SCORM_DIR, [(lesson["id"], lesson["title"]) for lesson in scorm_lessons])
        megabytes = sum(package.path.stat().st_size for package in packages) / 1e6 / len(packages)
        notes.append(f"{SCORM_DIR.name}/ ({len(packages)} SCORM packages, {megabytes:.1f} MB each)")
    return "".join(f", {note}" for note in notes)


def build(report=print, zip_site=False, cdn_site=False, scorm_packages=False, own_lessons=None):
    """Every step (and the variants asked for; `own_lessons`, a lesson file or a folder of them, packaged in place of
    the shipped lessons with `scorm_packages`). Returns a one-line summary."""
    started = time.perf_counter()
    ensure_numpy()
    # One build at a time writes vendor/, generated/ and dist/ (`build.py serve` beside ./test.sh, two test
    # workers): another waits, then finds the downloads in place and writes the same files again.
    with cached_trees.exclusive(VENDOR_DIR):
        return build_now(started, report, zip_site, cdn_site, scorm_packages, own_lessons)


def build_now(started, report, zip_site, cdn_site, scorm_packages, own_lessons=None):
    """The build's steps, run while its lock is held (`build`)."""
    vendored = runtime.vendor_runtime(report, packages=runtime.INSTALLER_PACKAGES)  # micropip: for the tests only
    runtime.compile_runtime(report)
    editor.vendor_editor(report)
    presets = generated.write_presets_and_preview()
    taught = lessons.write_lessons()
    generated.write_facts_module()
    notebook.write_widget_bundle(report)  # into the package, before the package is zipped for the page
    generated.write_module_zip()
    variants.write_runtime_config(ROOT, variants.VENDORED_INDEX_URL, service_worker=False,
                                  numpy_wheel=runtime.vendored_numpy_wheel())
    site.write_dist(vendored, report)
    extras = write_deployables(vendored, zip_site, cdn_site, taught if scorm_packages and not own_lessons else None)
    if scorm_packages and own_lessons:
        packages = scorm.write_own_lesson_packages(DIST_DIR, SCORM_DIR, lessons.compile_own(Path(own_lessons)))
        extras += f", {SCORM_DIR.name}/ ({len(packages)} SCORM packages of {own_lessons})"
    seconds = time.perf_counter() - started
    runtime_mb = sum((runtime.VENDOR_DIR / name).stat().st_size for name in vendored) / 1e6
    return f"built in {seconds:.2f} s: runtime {runtime_mb:.1f} MB ({len(vendored)} files), {len(presets)} presets, {len(taught)} lessons, dist/ ready{extras}"


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description="Prepare the Attention Playground, and optionally serve it.")
    parser.add_argument("command", nargs="?", choices=["build", "serve"], default="build",
                        help="build (the default) prepares vendor/, generated/ and dist/; serve also serves them")
    parser.add_argument("--port", type=int, default=8000, help="port for serve (default 8000; a free one if busy)")
    parser.add_argument("--zip", action="store_true",
                        help=f"also pack dist/ into {ZIP_PATH.relative_to(ROOT)}: one file for a course platform or an offline machine")
    parser.add_argument("--cdn", action="store_true",
                        help=f"also write {CDN_DIR.name}/: the site without the runtime, which it loads from {runtime.CDN_URL}")
    parser.add_argument("--scorm", action="store_true",
                        help=f"also write {SCORM_DIR.name}/: SCORM 1.2 and 2004 packages of the site, one per lesson and one for the whole playground")
    parser.add_argument("--lesson", metavar="FILE.md",
                        help="a lesson of your own (or a folder of them): with serve, preview it (the page reloads it at every "
                             f"save); with --scorm, package it (and not this project's lessons) into {SCORM_DIR.name}/")
    arguments = parser.parse_args(argv)
    if arguments.lesson and not (arguments.command == "serve" or arguments.scorm):
        parser.error("--lesson goes with serve (to preview it) or --scorm (to package it)")
    if arguments.lesson and not Path(arguments.lesson).exists():
        parser.error(f"--lesson: {arguments.lesson} does not exist")
    if arguments.command == "serve" and arguments.lesson and not Path(arguments.lesson).is_file():
        parser.error("--lesson: serve previews one lesson file")
    return arguments


def main(argv=None):
    arguments = parse_arguments(argv)
    own_lessons = arguments.lesson if arguments.scorm else None
    try:
        print(build(zip_site=arguments.zip, cdn_site=arguments.cdn, scorm_packages=arguments.scorm, own_lessons=own_lessons))
    except BuildError as error:
        print(f"build failed: {error}", file=sys.stderr)
        return 1
    if arguments.command == "serve":
        server.serve(arguments.port, lesson_file=arguments.lesson)
    return 0


if __name__ == "__main__":
    sys.exit(main())
