"""The pure-Python wheels the in-Pyodide test run installs with micropip (sitebuild/wheels.py,
requirements/pyodide-tests.txt).

Pinned by hash and verified; complete for Pyodide's Python without resolving; at the versions the native run
pins; never part of the site, which ships no wheel but NumPy's (the page installs nothing: training needs only
NumPy) and no micropip; micropip itself from the runtime's lockfile.
"""

import email.parser
import hashlib
import json
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sitebuild import paths, runtime, site, variants, wheels  # noqa: E402

#: What Pyodide 0.27.7 reports to environment markers (its Python and platform).
PYODIDE_MARKERS = {**default_environment(), "python_version": "3.12", "python_full_version": "3.12.7",
                   "sys_platform": "emscripten", "platform_system": "Emscripten", "os_name": "posix",
                   "platform_machine": "wasm32", "implementation_name": "cpython"}


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def lockfile():
    return json.loads((runtime.VENDOR_DIR / runtime.LOCKFILE_NAME).read_text(encoding="utf-8"))


def pyproject_pins():
    with open(ROOT / "pyproject.toml", "rb") as file:
        extras = tomllib.load(file)["project"]["optional-dependencies"]
    pins = {}
    for requirement in (Requirement(text) for group in extras.values() for text in group):
        pins.update({requirement.name: s.version for s in requirement.specifier if s.operator == "=="})
    return pins


def wheel_requirements(path):
    """The Requires-Dist of a wheel that apply inside Pyodide (markers evaluated for Python 3.12 on Emscripten)."""
    with zipfile.ZipFile(path) as wheel:
        metadata_name = next(name for name in wheel.namelist() if name.endswith(".dist-info/METADATA"))
        metadata = email.parser.Parser().parsestr(wheel.read(metadata_name).decode("utf-8"))
    requirements = [Requirement(text) for text in metadata.get_all("Requires-Dist") or []]
    return [r for r in requirements if r.marker is None or r.marker.evaluate({**PYODIDE_MARKERS, "extra": ""})]


@pytest.fixture(scope="module")
def vendored(tmp_path_factory):
    """The test wheels vendored into a folder of their own (from the download cache when it has them):
    (folder, manifest)."""
    folder = tmp_path_factory.mktemp("pyodide-tests")
    return folder, wheels.vendor_wheels(wheels.TEST_REQUIREMENTS, folder, report=lambda _: None)


def test_every_wheel_is_pinned_by_hash_and_listed_with_it(vendored):
    folder, manifest = vendored
    pins = wheels.read_pins(wheels.TEST_REQUIREMENTS)
    assert pins and [wheel["name"] for wheel in manifest["wheels"]] == [pin.name for pin in pins]
    assert json.loads((folder / wheels.MANIFEST_NAME).read_text(encoding="utf-8")) == manifest
    for pin, wheel in zip(pins, manifest["wheels"]):
        data = (folder / wheel["file"]).read_bytes()
        assert (wheel["version"], wheel["sha256"], wheel["size"]) == (pin.version, sha256(data), len(data))
        assert wheel["file"].endswith("-none-any.whl"), "only pure-Python wheels install in Pyodide"
    assert sorted(path.name for path in folder.iterdir()) == sorted([wheels.MANIFEST_NAME, *(w["file"] for w in manifest["wheels"])])


def test_the_pinned_set_is_complete_for_pyodide(vendored):
    """micropip installs the set without resolving, so every requirement of every wheel must be met by the set
    itself or by a package of Pyodide's lockfile."""
    folder, manifest = vendored
    available = {wheel["name"]: wheel["version"] for wheel in manifest["wheels"]}
    available.update({name: entry["version"] for name, entry in lockfile()["packages"].items()})
    unmet = []
    for wheel in manifest["wheels"]:
        for requirement in wheel_requirements(folder / wheel["file"]):
            version = available.get(requirement.name.lower())
            if version is None or not requirement.specifier.contains(version, prereleases=True):
                unmet.append(f"{wheel['file']} needs {requirement} (have {version})")
    assert unmet == []


def test_the_browser_runs_the_versions_the_native_run_pins():
    native = pyproject_pins()
    pins = wheels.read_pins(wheels.TEST_REQUIREMENTS)
    for pin in pins:
        if pin.name in native:
            assert pin.version == native[pin.name], f"pyodide-tests.txt pins {pin.name} {pin.version}, pyproject.toml {native[pin.name]}"
    assert {"pytest", "hypothesis"} <= {pin.name for pin in pins} & set(native), "both pinned, and checked above"


@pytest.fixture
def one_pin(tmp_path, monkeypatch):
    """A requirements file pinning one stand-in wheel (its bytes: WHOLE_WHEEL), a cache of this test's own, and pip
    replaced by `delivered`: what the registry hands over this time."""
    monkeypatch.setenv(paths.CACHE_ENV_VAR, str(tmp_path / "cache" / "pyodide"))
    monkeypatch.setattr(wheels, "ROOT", tmp_path)
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(f"example==1.0 \\\n    --hash=sha256:{sha256(WHOLE_WHEEL)}\n", encoding="utf-8")
    delivered = {"bytes": WHOLE_WHEEL, "calls": 0}

    def pip_download(requirements_file, into):
        delivered["calls"] += 1
        (Path(into) / "example-1.0-py3-none-any.whl").write_bytes(delivered["bytes"])

    monkeypatch.setattr(wheels, "pip_download", pip_download)
    return requirements, delivered


WHOLE_WHEEL = b"a stand-in for a whole wheel"


def test_a_wheel_cut_short_in_the_cache_is_fetched_again(one_pin, tmp_path):
    requirements, delivered = one_pin
    cached = wheels.wheel_cache_dir() / "example-1.0-py3-none-any.whl"
    cached.parent.mkdir(parents=True)
    cached.write_bytes(WHOLE_WHEEL[:9])
    manifest = wheels.vendor_wheels(requirements, tmp_path / "out", report=lambda _: None)
    assert delivered["calls"] == 1 and cached.read_bytes() == WHOLE_WHEEL
    assert (tmp_path / "out" / "example-1.0-py3-none-any.whl").read_bytes() == WHOLE_WHEEL
    assert [wheel["sha256"] for wheel in manifest["wheels"]] == [sha256(WHOLE_WHEEL)]
    wheels.vendor_wheels(requirements, tmp_path / "out", report=lambda _: None)
    assert delivered["calls"] == 1, "a whole cached wheel is used as it is"


def test_a_wrong_hash_from_the_registry_stops_vendoring_naming_the_file(one_pin, tmp_path):
    requirements, delivered = one_pin
    delivered["bytes"] = b"not the pinned wheel"
    with pytest.raises(wheels.BuildError, match=rf"example-1.0-py3-none-any.whl from PyPI: sha256 is {sha256(b'not the pinned wheel')}, expected {sha256(WHOLE_WHEEL)}"):
        wheels.vendor_wheels(requirements, tmp_path / "out", report=lambda _: None)
    assert not (tmp_path / "out").exists(), "nothing is vendored from a file that failed its check"
    assert not list(wheels.wheel_cache_dir().glob("*.whl")), "an unverified file is never cached"


def test_a_requirements_line_without_its_hash_is_refused(tmp_path):
    loose = tmp_path / "loose.txt"
    loose.write_text("pytest==9.0.3\n", encoding="utf-8")
    with pytest.raises(wheels.BuildError, match="loose.txt: expected `name==version --hash=sha256:...`"):
        wheels.read_pins(loose)


def test_the_site_ships_the_runtime_and_numpy_and_no_other_wheel(built_site, tmp_path):
    """After the build: dist/ and its zip carry, of all wheels, NumPy's alone: no test wheel, no micropip (the
    page installs nothing; micropip stays in the repository's vendor/pyodide/ for the in-Pyodide test run)."""
    shipped = [paths.ROOT / entry for entry in site.COPIED_WITH_THE_SITE]
    assert not any(wheels.TEST_WHEELS_DIR.is_relative_to(entry) for entry in shipped)
    numpy_wheel = lockfile()["packages"]["numpy"]["file_name"]
    assert sorted(path.name for path in paths.DIST_DIR.rglob("*.whl")) == [numpy_wheel]
    assert not (paths.DIST_DIR / "vendor" / "wheels").exists()
    variants.write_zip(paths.DIST_DIR, tmp_path / "site.zip")
    with zipfile.ZipFile(tmp_path / "site.zip") as archive:
        zipped = {Path(name).name for name in archive.namelist()}
    assert sorted(name for name in zipped if name.endswith(".whl")) == [numpy_wheel]
    installers = {lockfile()["packages"][name]["file_name"] for name in runtime.INSTALLER_PACKAGES}
    assert installers <= {path.name for path in runtime.VENDOR_DIR.iterdir()}, "vendored for the in-Pyodide tests"


def test_micropip_comes_from_the_runtime_lockfile_verified():
    packages = lockfile()["packages"]
    for name in runtime.INSTALLER_PACKAGES:
        entry = packages[name]
        assert sha256((runtime.VENDOR_DIR / entry["file_name"]).read_bytes()) == entry["sha256"]
    assert packages["micropip"]["version"] == "0.9.0"
    assert set(packages["micropip"]["depends"]) <= set(runtime.INSTALLER_PACKAGES)
