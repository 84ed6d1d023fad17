"""The deployable variants: `build.py --zip` (the offline zip) and `build.py --cdn` (the site that takes
Pyodide from the CDN), plus the pieces they are made of (offline manifest, runtime config, CSP rewrite).

The CDN cannot be reached from here, so the CDN build is checked by what its files say (the CDN's
address, no vendored runtime), not by loading it; tests/browser/test_dist.py loads it with the CDN's
address answered locally.
"""

import base64
import hashlib
import json
import posixpath
import re
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sitebuild import bytecode, csp, paths, runtime, variants  # noqa: E402

CDN_ORIGIN = "https://cdn.jsdelivr.net"


@dataclass
class Built:
    """What `build.py --zip --cdn` wrote in a copy of the project."""

    dist: Path
    zip: Path
    cdn: Path


#: What a copy of the project needs to build in (what `build.py` reads); the rest (the virtualenv, the tests, what
#: builds make) stays behind.
NOT_COPIED = shutil.ignore_patterns(".git", ".venv", "node_modules", "tests", "dist", "dist-cdn", "generated", "vendor",
                                    "build", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis", "bench")


@pytest.fixture(scope="module")
def built_variants(tmp_path_factory):
    """Run the command an author runs, once for this module, in a copy of the project: the site the browser
    tests serve (running at the same time on another worker) is never rebuilt under them."""
    checkout = tmp_path_factory.mktemp("checkout") / "project"
    shutil.copytree(ROOT, checkout, ignore=NOT_COPIED)
    completed = subprocess.run(
        [sys.executable, str(checkout / "build.py"), "--zip", "--cdn"], cwd=checkout, capture_output=True, text=True,
        timeout=600)
    assert completed.returncode == 0, completed.stderr
    assert "attention-playground.zip" in completed.stdout and "dist-cdn/" in completed.stdout
    dist = checkout / paths.DIST_DIR.relative_to(ROOT)
    return Built(dist, dist / variants.ZIP_NAME, checkout / paths.CDN_DIR.relative_to(ROOT))


def manifest(site_dir):
    text = (site_dir / variants.OFFLINE_MANIFEST).read_text()
    return json.loads(re.search(r"self\.offlineManifest = (\{.*\});", text, re.S).group(1))


def runtime_names():
    lockfile = json.loads((runtime.VENDOR_DIR / runtime.LOCKFILE_NAME).read_bytes())
    return [*runtime.CORE_FILES, lockfile["packages"]["numpy"]["file_name"]]


# --- the zip ---------------------------------------------------------------------------------------------------


def test_zip_holds_the_whole_site_and_the_verified_runtime(built_variants):
    with zipfile.ZipFile(built_variants.zip) as archive:
        names = set(archive.namelist())
        folder = variants.ZIP_FOLDER
        for needed in ("index.html", "sw.js", "README.txt", "js/main.js", "js/runtime/worker.js", "js/embed-host.js",
                       "static/style.css", "generated/attention_playground.zip",
                       "generated/runtime.json", "generated/offline-manifest.js", "generated/presets/dog-bites-man.json"):
            assert f"{folder}/{needed}" in names, needed
        # The runtime is in: byte for byte the pinned release, but for what the build compiled to bytecode
        # (made from the pinned files, as compiled.json says) and the lockfile that gives the compiled wheel.
        compiled = json.loads((runtime.VENDOR_DIR / bytecode.MANIFEST_NAME).read_text())
        for name, expected in runtime.CORE_FILES.items():
            actual = hashlib.sha256(archive.read(f"{folder}/vendor/pyodide/{name}")).hexdigest()
            if name in compiled:
                assert compiled[name]["source_sha256"] == expected and actual == compiled[name]["sha256"], name
            elif name != runtime.LOCKFILE_NAME:
                assert actual == expected, name
        lockfile = json.loads(archive.read(f"{folder}/vendor/pyodide/{runtime.LOCKFILE_NAME}"))
        wheel = lockfile["packages"]["numpy"]
        assert hashlib.sha256(archive.read(f"{folder}/vendor/pyodide/{wheel['file_name']}")).hexdigest() == wheel["sha256"]
        assert wheel["sha256"] == compiled[wheel["file_name"]]["sha256"]
        # Nothing half-written, nothing outside its folder, not itself.
        assert all(name.startswith(f"{folder}/") and not name.endswith(".partial") for name in names)
        assert not any(name.endswith(variants.ZIP_NAME) for name in names)
        # Offline: the service worker is on, the runtime is the one inside.
        config = json.loads(archive.read(f"{folder}/generated/runtime.json"))
        assert config == {"indexURL": "vendor/pyodide/", "serviceWorker": True, "numpyWheel": config["numpyWheel"]}
        # The NumPy wheel the worker fetches itself: the compiled one inside, by its sha256.
        wheel_bytes = archive.read(f"{folder}/vendor/pyodide/{config['numpyWheel']['file']}")
        assert config["numpyWheel"]["integrity"] == "sha256-" + base64.b64encode(hashlib.sha256(wheel_bytes).digest()).decode()
        # Every file the site's files name is in the zip (the manifest is the site's own file list).
        listed = json.loads(re.search(r"= (\{.*\});", archive.read(f"{folder}/generated/offline-manifest.js").decode(), re.S).group(1))
        assert {f"{folder}/{path}" for path in listed["files"]} <= names


def test_zip_carries_the_course_authors_guide_and_the_example_lesson_and_its_readme_names_them(built_variants):
    folder = variants.ZIP_FOLDER
    with zipfile.ZipFile(built_variants.zip) as archive:
        names = set(archive.namelist())
        for needed in (variants.AUTHOR_GUIDE, *variants.EXAMPLE_LESSON):
            assert f"{folder}/{needed}" in names, needed
        # The guide is the project's docs/course-authors.md, whole, as text.
        guide = archive.read(f"{folder}/{variants.AUTHOR_GUIDE}").decode("utf-8")
        assert guide.endswith((ROOT / variants.AUTHOR_GUIDE_SOURCE).read_text(encoding="utf-8"))
        assert "## Options" in guide and "?embed" in guide
        # The example lesson is the project's own, byte for byte.
        for name in variants.EXAMPLE_LESSON:
            assert archive.read(f"{folder}/{name}") == (ROOT / name).read_bytes(), name
        # README.txt sends the author to both by name, and no longer to a README that is not in the zip.
        readme = archive.read(f"{folder}/README.txt").decode("utf-8")
        assert variants.AUTHOR_GUIDE in readme and "examples/course-page.html" in readme
        assert "README of the project" not in readme
        # Everything the example lesson links to (the playground's page, its script, its icon, its own files)
        # is in the zip, where its relative paths lead from examples/.
        lesson = archive.read(f"{folder}/examples/course-page.html").decode("utf-8")
        linked = re.findall(r'(?:src|href)="([^"#?]+)', lesson)
        assert {"../index.html", "../js/embed-host.js", "course-page.css", "course-page.js"} <= set(linked)
        for target in linked:
            resolved = posixpath.normpath(posixpath.join(f"{folder}/examples", target))
            assert resolved in names, target
    # The service worker keeps them for offline use, like every file of the site.
    listed = manifest(built_variants.dist)["files"]
    assert {variants.AUTHOR_GUIDE, *variants.EXAMPLE_LESSON} <= set(listed)


def test_zip_is_byte_stable(built_variants, tmp_path):
    variants.write_zip(built_variants.dist, tmp_path / "again.zip")
    assert (tmp_path / "again.zip").read_bytes() == built_variants.zip.read_bytes()


# --- the offline manifest ----------------------------------------------------------------------------------------


def test_dist_lists_every_file_for_the_service_worker(built_variants):
    listed = manifest(built_variants.dist)
    files = {path.relative_to(built_variants.dist).as_posix() for path in built_variants.dist.rglob("*") if path.is_file()}
    assert set(listed["files"]) == files - {"sw.js", "generated/offline-manifest.js", variants.ZIP_NAME}
    assert not any(path.endswith("/") for path in listed["files"]), "no folder: a course platform may answer 404 for one"
    for name in runtime_names():
        assert f"vendor/pyodide/{name}" in listed["files"]
    # Of the runtime, only what the page loads: no micropip (vendored for the in-Pyodide tests alone).
    assert sorted(path.name for path in (built_variants.dist / "vendor" / "pyodide").iterdir()) == sorted(runtime_names())
    assert re.fullmatch(rf"pyodide-{re.escape(runtime.PYODIDE_VERSION)}-[0-9a-f]{{12}}", listed["version"])
    assert listed["runtime"] == []


def test_a_changed_file_gives_a_new_cache_version(tmp_path):
    site = tmp_path / "site"
    (site / "generated").mkdir(parents=True)
    (site / "index.html").write_text("<p>one</p>")
    (site / "sw.js").write_text("// the worker")
    first = variants.prepare_offline_site(site, "0.27.7")
    assert first == variants.prepare_offline_site(site, "0.27.7")  # same files, same version
    (site / "index.html").write_text("<p>two</p>")
    second = variants.prepare_offline_site(site, "0.27.7")
    assert second != first and second.startswith("pyodide-0.27.7-")
    (site / "sw.js").write_text("// the worker, edited")  # the browser checks sw.js itself
    assert variants.prepare_offline_site(site, "0.27.7") == second
    assert manifest(site)["files"] == ["generated/runtime.json", "index.html"]


def test_the_working_copy_never_installs_the_service_worker(built_variants):
    # Served from the repository, files being edited must never come from a cache.
    assert json.loads((ROOT / variants.RUNTIME_CONFIG).read_text()) == {
        "indexURL": "vendor/pyodide/", "serviceWorker": False, "numpyWheel": runtime.vendored_numpy_wheel()}


# --- the CDN build -----------------------------------------------------------------------------------------------


def test_cdn_build_points_at_the_cdn_and_carries_no_runtime(built_variants):
    cdn = built_variants.cdn
    assert runtime.CDN_URL == f"https://cdn.jsdelivr.net/pyodide/v{runtime.PYODIDE_VERSION}/full/"
    assert json.loads((cdn / variants.RUNTIME_CONFIG).read_text()) == {"indexURL": runtime.CDN_URL, "serviceWorker": True}
    # No vendored runtime: no directory for it, and none of its files anywhere.
    assert not (cdn / "vendor" / "pyodide").exists()
    names = {path.name for path in cdn.rglob("*") if path.is_file()}
    assert not names & set(runtime_names())
    assert not any(name.endswith(".wasm") for name in names)
    # Nor any other wheel: the page installs nothing (training needs only NumPy, which comes from the CDN).
    assert not list(cdn.rglob("*.whl"))
    # Its bytes are the site's own: no more than dist/ holds beside its vendored runtime (a few bytes of config
    # apart), which is itself a fraction of the runtime (a third: the English model's weights, 1.2 MB and fetched only
    # once the model is chosen, are among them).
    own_bytes = sum(path.stat().st_size for path in cdn.rglob("*") if path.is_file())
    dist_runtime = built_variants.dist / "vendor" / "pyodide"
    dist_own_bytes = sum(path.stat().st_size for path in built_variants.dist.rglob("*")
                         if path.is_file() and dist_runtime not in path.parents)
    runtime_bytes = sum((runtime.VENDOR_DIR / name).stat().st_size for name in runtime_names())
    assert own_bytes <= dist_own_bytes + 4096 and own_bytes < runtime_bytes / 3
    # Everything else is the same site.
    for same in ("index.html", "js/main.js", "js/runtime/worker.js", "sw.js"):
        assert (cdn / same).exists(), same
    # The service worker keeps the CDN's files too, so the CDN build also starts offline on a second visit.
    assert manifest(cdn)["runtime"] == [runtime.CDN_URL + name for name in runtime_names()]


def test_cdn_build_allows_the_cdn_in_its_content_security_policy(built_variants):
    page_policy = re.search(r'http-equiv="Content-Security-Policy"\s+content="([^"]*)"', (built_variants.cdn / "index.html").read_text())
    assert page_policy, "the CDN build's page keeps its policy"
    directives = {part.split()[0]: part.split()[1:] for part in page_policy.group(1).split(";") if part.strip()}
    assert CDN_ORIGIN in directives["script-src"] and CDN_ORIGIN in directives["connect-src"]
    assert all(CDN_ORIGIN not in sources for name, sources in directives.items() if name not in ("script-src", "connect-src"))
    # The vendored build's page does not allow it.
    assert CDN_ORIGIN not in (built_variants.dist / "index.html").read_text()
    # The worker's policy, as a header file for static hosts, is the same policy.
    headers = (built_variants.cdn / variants.HEADERS_FILE).read_text()
    assert headers.splitlines()[0] == "/*"
    assert f"Content-Security-Policy: {csp.content_security_policy([CDN_ORIGIN], connect_sources=csp.LESSON_SOURCES)}" in headers


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'",
         f"default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {CDN_ORIGIN}; connect-src 'self' {CDN_ORIGIN}"),
        # Without script-src and connect-src they fall back to default-src: each gets a copy plus the CDN.
        ("default-src 'self'; img-src data:", f"default-src 'self'; img-src data:; script-src 'self' {CDN_ORIGIN}; connect-src 'self' {CDN_ORIGIN}"),
        # Already there: unchanged.
        (f"script-src 'self' {CDN_ORIGIN}; connect-src {CDN_ORIGIN}", f"script-src 'self' {CDN_ORIGIN}; connect-src {CDN_ORIGIN}"),
    ],
)
def test_adding_the_cdn_to_a_policy(policy, expected):
    assert csp.add_host_to_csp(policy, CDN_ORIGIN) == expected


def test_a_page_without_a_policy_is_left_as_it_is():
    html = "<!doctype html><meta charset=utf-8><title>x</title>"
    assert csp.add_host_to_page_csp(html, CDN_ORIGIN) == html
