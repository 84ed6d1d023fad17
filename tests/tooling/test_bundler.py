"""The production build's bundler: esbuild pinned per platform, and what the page preloads from its output."""

import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sitebuild import bundler, paths  # noqa: E402
from sitebuild.downloads import BuildError  # noqa: E402


def test_every_platform_is_pinned_to_one_version_by_a_full_sha512():
    lock = json.loads(bundler.LOCK_PATH.read_text())
    assert {"linux-x64", "linux-arm64"} <= set(lock["platforms"])
    for key, pin in lock["platforms"].items():
        assert pin["package"] == f"@esbuild/{key}"
        assert len(base64.b64decode(pin["integrity"].removeprefix("sha512-"))) == 64, key


def test_a_platform_without_a_pin_stops_the_build_naming_it(monkeypatch):
    monkeypatch.setattr(bundler, "platform_key", lambda: "plan9-mips")
    with pytest.raises(BuildError, match="no esbuild for plan9-mips"):
        bundler.esbuild_executable(report=lambda line: None, fetch=lambda url: pytest.fail("nothing to download"))


def test_the_preloads_follow_static_imports_from_the_page_and_skip_dynamic_and_external_ones(tmp_path):
    site = tmp_path / "site"

    def out(name):  # esbuild names its outputs relative to the folder it runs in, the project's root
        return os.path.relpath(site / name, paths.ROOT)

    metafile = {"outputs": {
        out("js/main.js"): {"imports": [{"path": "./boot.js", "kind": "import-statement", "external": True},
                                        {"path": out("js/chunks/a.js"), "kind": "import-statement"},
                                        {"path": out("js/chunks/b.js"), "kind": "import-statement"},
                                        {"path": out("js/chunks/view.js"), "kind": "dynamic-import"}]},
        out("js/chunks/a.js"): {"imports": []},
        out("js/chunks/b.js"): {"imports": [{"path": out("js/chunks/a.js"), "kind": "import-statement"}]},
        out("js/chunks/view.js"): {"imports": []},
    }}
    assert bundler.first_view_outputs(metafile, site) == ["js/main.js", "js/chunks/a.js", "js/chunks/b.js"]


def test_the_built_site_holds_the_bundle_and_no_source_module(built_site):
    """After a build: dist/js/ is the bundle (each file with its map), not a copy of js/."""
    dist_js = paths.DIST_DIR / "js"
    scripts = sorted(path.relative_to(paths.DIST_DIR).as_posix() for path in dist_js.rglob("*.js"))
    assert {"js/boot.js", "js/main.js", "js/runtime/worker.js", "js/embed-host.js"} <= set(scripts)
    assert not [path for path in scripts if path.startswith(("js/page/", "js/ui/", "js/scene/"))]
    for script in scripts:
        assert (paths.DIST_DIR / f"{script}.map").exists(), script
    assert "\n/**" not in (paths.DIST_DIR / "js/main.js").read_text(encoding="utf-8"), "comments are left to the map"


def sources_of(script):
    """The modules a built script carries, by their paths in the repository (from its source map)."""
    source_map = json.loads((paths.DIST_DIR / f"{script}.map").read_text(encoding="utf-8"))
    return {os.path.normpath(os.path.join(os.path.dirname(paths.DIST_DIR / script), source)) for source in source_map["sources"]}


def test_what_is_used_later_stays_out_of_the_first_view(built_site):
    """The page's first view (boot.js, main.js and the chunks index.html preloads) and the page's worker carry
    none of the code that loads on first use: the link format, the downloads, the other workers' clients, and
    the later views' stylesheet. The worker is one file: everything it holds is needed at boot (the training
    worker is the same script), and nothing of the tests' (their wheel installer) is in it."""
    index = (paths.DIST_DIR / "index.html").read_text(encoding="utf-8")
    preloaded = [line.split('href="')[1].split('"')[0] for line in index.splitlines() if 'rel="modulepreload"' in line]
    first_view = {source for script in ["js/boot.js", "js/main.js", *preloaded] for source in sources_of(script)}
    later = {str(paths.ROOT / path) for path in ["js/sharing/permalink.js", "js/sharing/export.js",
                                                 "js/service/exercise-runner.js", "js/service/model-training.js"]}
    assert str(paths.ROOT / "js/page/controller.js") in first_view, "the maps name the modules as the tests do"
    assert not first_view & later
    chunks = {source for chunk in (paths.DIST_DIR / "js/chunks").glob("*.js")
              for source in sources_of(chunk.relative_to(paths.DIST_DIR).as_posix())}
    assert later <= chunks, "each is a chunk of its own, loaded when it is needed"
    # boot.js's own chunk is preloaded with the page's, so Python waits for no second round trip.
    boot_imports = re.findall(r'from\s*"\./(chunks/[^"]+)"', (paths.DIST_DIR / "js/boot.js").read_text(encoding="utf-8"))
    assert boot_imports and {f"js/{chunk}" for chunk in boot_imports} <= set(preloaded)
    worker_sources = sources_of("js/runtime/worker.js")
    assert str(paths.ROOT / "js/runtime/start-python.js") in worker_sources
    assert not [source for source in worker_sources if source.startswith(str(paths.ROOT / "tests"))]
    assert "chunks/" not in (paths.DIST_DIR / "js/runtime/worker.js").read_text(encoding="utf-8")
    # The later views' rules are a sheet of their own, minified like the page's.
    page_sheet = (paths.DIST_DIR / "static/style.css").read_text(encoding="utf-8")
    later_sheet = (paths.DIST_DIR / "static/teaching.css").read_text(encoding="utf-8")
    assert ".step-grid" in later_sheet and ".step-grid" not in page_sheet
    assert ".heatmap" in page_sheet and "/* The views below" not in later_sheet, "minified, its comments in the map"


def later_parts():
    """The parts that load after the first view, as js/loading/later-parts.js lists them (read by Node): each part's
    module (relative to js/) and stylesheet (or None)."""
    script = ("const { LATER_PARTS } = await import(process.argv[1]);"
              "console.log(JSON.stringify(Object.values(LATER_PARTS).map(({ module, stylesheet }) => ({ module, stylesheet }))));")
    listed = subprocess.run(["node", "--input-type=module", "-e", script, (paths.ROOT / "js/loading/later-parts.js").as_uri()],
                            capture_output=True, text=True, check=True).stdout
    return json.loads(listed)


def only_gathers_exports(module):
    """Whether `module` holds nothing but comments and `export { … } from "…";` lines."""
    code = re.sub(r"/\*.*?\*/", "", module.read_text(encoding="utf-8"), flags=re.S)
    lines = [line for line in code.splitlines() if line.strip()]
    return bool(lines) and all(re.fullmatch(r'export \{[^}]*\} from "[^"]+";', line) for line in lines)


#: What the later parts import that the first view does not: only they bring it.
BROUGHT_BY_LATER_PARTS = [
    "js/ui/toolbar/share-menu.js", "js/ui/toolbar/export-import.js", "js/ui/toolbar/embed-code.js", "js/panels/exercise-work.js",
    "js/panels/learner-drawing.js", "js/panels/model.js", "js/panels/claims.js", "js/panels/experiments.js",
    "js/embed/locked-controls.js", "js/work/download-files.js"]


def test_the_first_heatmap_waits_for_no_code_the_first_view_does_without(built_site):
    """No part the page loads after its first view (js/loading/later-parts.js: "Share and download"'s controls, the
    lessons' list and player, the panels' controllers below the playground, "Not saved", the postMessage API, a
    frame's locked controls and height reports, the offline cache, …), nor what only they import, is in the files its
    first heatmap waits for. Each is in a chunk, loaded when it is needed; and each part's stylesheet is a file of its
    own, not in the page's."""
    index = (paths.DIST_DIR / "index.html").read_text(encoding="utf-8")
    preloaded = [line.split('href="')[1].split('"')[0] for line in index.splitlines() if 'rel="modulepreload"' in line]
    first_view = {source for script in ["js/boot.js", "js/main.js", *preloaded] for source in sources_of(script)}
    parts = later_parts()
    assert len(parts) >= 10
    later = {str(paths.ROOT / "js" / part["module"]) for part in parts} | {str(paths.ROOT / path) for path in BROUGHT_BY_LATER_PARTS}
    assert str(paths.ROOT / "js/ui/heatmap/heatmap-panel.js") in first_view, "the maps name the modules as the tests do"
    assert sorted(first_view & later) == []
    chunks = {source for chunk in (paths.DIST_DIR / "js/chunks").glob("*.js")
              for source in sources_of(chunk.relative_to(paths.DIST_DIR).as_posix())}
    # A module that only gathers others' exports has no code of its own in any output (ui/later-views.js).
    assert [path for path in later - chunks if not only_gathers_exports(Path(path))] == []
    page_sheet = (paths.DIST_DIR / "static/style.css").read_text(encoding="utf-8")
    sheets = {part["stylesheet"] for part in parts if part["stylesheet"]}
    assert sheets == {"static/teaching.css", "static/lessons.css", "static/embed-frame.css"}
    for sheet, rule in [("static/teaching.css", ".step-grid"), ("static/lessons.css", ".lesson-step-title"), ("static/embed-frame.css", ".lock-note")]:
        assert rule in (paths.DIST_DIR / sheet).read_text(encoding="utf-8") and rule not in page_sheet, sheet


def test_the_preview_comes_with_the_page_code_and_generated_keeps_no_bundled_module(built_site):
    """The first heatmap is drawn from the preview as main.js runs, so the preview is inside the first view's
    code (not a file fetched beside it), and boot.js's own graph, which starts Python, does not carry it. The
    generated ES modules the bundles hold are not left in dist/generated/ as well."""
    index = (paths.DIST_DIR / "index.html").read_text(encoding="utf-8")
    preview = str(paths.ROOT / "generated/preview.js")
    boot_chunks = re.findall(r'from\s*"\./(chunks/[^"]+)"', (paths.DIST_DIR / "js/boot.js").read_text(encoding="utf-8"))
    assert preview in sources_of("js/main.js")
    assert not [chunk for chunk in boot_chunks if preview in sources_of(f"js/{chunk}")]
    assert "generated/preview" not in index, "nothing fetches it"
    leftover = sorted(path.name for path in (paths.DIST_DIR / "generated").glob("*.js"))
    assert leftover == ["offline-manifest.js"], "sw.js imports this one itself"
