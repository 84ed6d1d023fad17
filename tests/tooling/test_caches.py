"""The download cache is safe when several processes use it at once, and checked on every use, never trusted.

A newcomer's first `./test.sh` runs two workers that install the same things into an empty cache at the same
moment, and a run killed halfway leaves half a file or half a folder behind. Each case here is one that broke a
first run: two processes installing dependency-cruiser at once, a stamped folder missing packages, a tarball cut
short, a staging folder left by a killed run.

Every test works in a cache of its own (ATTENTION_PLAYGROUND_CACHE under tmp_path), with the npm tarballs the
suite's own cache already holds copied in, so nothing here waits on the registry.
"""

import hashlib
import json
import os
import multiprocessing
import shutil
import zipfile
from pathlib import Path

import pytest

from sitebuild import bytecode, cached_trees, cruiser, downloads, npm, paths, wheels

CRUISER_LOCK = cruiser.LOCK_PATH


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """A download cache of this test's own, holding the real cache's npm tarballs (dependency-cruiser's
    installed once, if need be, so they are there)."""
    cruiser.install(report=lambda line: None)
    real_npm = paths.cache_root() / "npm"
    root = tmp_path / "cache"
    shutil.copytree(real_npm, root / "npm")
    monkeypatch.setenv(paths.CACHE_ENV_VAR, str(root / "pyodide"))
    assert paths.cache_root() == root
    return root


def install_cruiser(cache_root, results):
    os.environ[paths.CACHE_ENV_VAR] = str(cache_root / "pyodide")
    lines = []
    folder = cruiser.install(report=lines.append)
    results.put((str(folder), lines))


def whole(folder):
    """Every package of the lock has its package.json, and the folder's stamp matches its files."""
    lock = json.loads(CRUISER_LOCK.read_text())
    for path in lock["packages"]:
        assert (folder / "node_modules" / path.replace(" > ", "/node_modules/") / "package.json").is_file(), path
    assert cached_trees.problem(folder, cached_trees_key()) is None


def cached_trees_key():
    return hashlib.sha256(CRUISER_LOCK.read_bytes()).hexdigest()


def test_two_processes_installing_dependency_cruiser_at_once_both_get_the_whole_tree(own_cache):
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    workers = [context.Process(target=install_cruiser, args=(own_cache, results)) for _ in range(2)]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=30)
        assert worker.exitcode == 0
    folders = {folder for folder, _ in outcomes}
    assert len(folders) == 1
    (folder,) = folders
    whole(Path(folder))
    # One of them installed; the other waited on the lock and found the tree whole.
    installs = [lines for _, lines in outcomes if any("packages in" in line for line in lines)]
    assert len(installs) == 1, outcomes
    assert cached_trees.staging_folders(Path(folder)) == []


def test_a_stamped_tree_missing_packages_is_installed_again(own_cache):
    folder = cruiser.install(report=lambda line: None)
    # What a first run left on a newcomer's machine: the stamp, and one package of the lock's 43.
    for package in (folder / "node_modules").iterdir():
        if package.name != "watskeburt":
            shutil.rmtree(package)
    lines = []
    again = cruiser.install(report=lines.append)
    assert again == folder
    whole(folder)
    assert any("installing again" in line and "missing" in line for line in lines), lines


def test_a_file_cut_short_in_the_tree_is_noticed(own_cache):
    folder = cruiser.install(report=lambda line: None)
    package_json = folder / "node_modules" / "dependency-cruiser" / "package.json"
    package_json.write_bytes(package_json.read_bytes()[:10])
    assert "package.json is not the size" in cached_trees.problem(folder, cached_trees_key())
    cruiser.install(report=lambda line: None)
    whole(folder)


def test_an_older_stamp_is_not_trusted(own_cache):
    """A folder stamped the old way (a bare digest, no list of files) is installed again, not used."""
    folder = paths.cache_root() / "dependency-cruiser-18.7.2"
    (folder / "node_modules" / "watskeburt").mkdir(parents=True)
    (folder / ".lock-sha256").write_text(cached_trees_key())
    cruiser.install(report=lambda line: None)
    whole(folder)


def test_a_staging_folder_left_by_a_killed_run_is_cleared(tmp_path):
    target = tmp_path / "tree"
    left = tmp_path / "tree.abc123.partial"
    (left / "half").mkdir(parents=True)
    cached_trees.install_tree(target, "key-1", lambda staging: (staging / "a.txt").write_text("a"), report=print)
    assert not left.exists() and (target / "a.txt").read_text() == "a"
    # The same key again: nothing is filled; another key: filled anew, the old files gone.
    cached_trees.install_tree(target, "key-1", lambda staging: pytest.fail("filled again"), report=print)
    cached_trees.install_tree(target, "key-2", lambda staging: (staging / "b.txt").write_text("b"), report=print)
    assert sorted(path.name for path in target.iterdir()) == [cached_trees.STAMP_NAME, "b.txt"]


def test_a_fill_that_fails_leaves_the_old_tree_and_no_staging(tmp_path):
    target = tmp_path / "tree"
    cached_trees.install_tree(target, "key-1", lambda staging: (staging / "a.txt").write_text("a"), report=print)

    def broken(staging):
        (staging / "half.txt").write_text("half")
        raise downloads.BuildError("the registry went away")

    with pytest.raises(downloads.BuildError):
        cached_trees.install_tree(target, "key-2", broken, report=print)
    assert (target / "a.txt").read_text() == "a" and cached_trees.staging_folders(target) == []


def test_a_tarball_cut_short_is_fetched_again(own_cache):
    lock = npm_lock_entry("watskeburt")
    cached = own_cache / "npm" / f"watskeburt-{lock['version']}.tgz"
    good = cached.read_bytes()
    cached.write_bytes(good[: len(good) // 2])
    fetched, lines = [], []

    def from_registry(url):
        fetched.append(url)
        return good

    data = npm.fetch_tarball("watskeburt", lock, "https://registry.npmjs.org/", own_cache / "npm", from_registry, lines.append)
    assert data == good and cached.read_bytes() == good
    assert fetched == [npm.tarball_url("https://registry.npmjs.org/", "watskeburt", lock["version"])]
    assert any("does not match" in line for line in lines)


def npm_lock_entry(name):
    return json.loads(CRUISER_LOCK.read_text())["packages"][name]


def test_a_runtime_file_cut_short_in_the_cache_is_fetched_again(tmp_path):
    good = b"the pinned file" * 100
    expected = downloads.sha256_of(good)
    cached, target = tmp_path / "cache" / "file.bin", tmp_path / "vendor" / "file.bin"
    downloads.write_atomically(cached, good[:7])

    class Registry:
        label = "a registry"

        def fetch(self, name):
            return good

    lines = []
    assert downloads.vendor_file(target, expected, cached, [Registry()], lines.append) == good
    assert cached.read_bytes() == good and target.read_bytes() == good
    assert any("downloading it again" in line for line in lines)


def test_a_wheel_cut_short_in_the_cache_is_not_used(tmp_path):
    pin = wheels.Pin("example", "1.0", downloads.sha256_of(b"whole wheel"))
    (tmp_path / "example-1.0-py3-none-any.whl").write_bytes(b"whole")
    assert wheels._cached(tmp_path, pin) is None
    (tmp_path / "example-1.0-py3-none-any.whl").write_bytes(b"whole wheel")
    assert wheels._cached(tmp_path, pin)[1] == b"whole wheel"


def test_a_compiled_archive_cut_short_is_compiled_again(tmp_path):
    archive = tmp_path / "compiled.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("module.pyc", b"\0" * 5000)
    assert bytecode.whole_archive(archive)
    archive.write_bytes(archive.read_bytes()[:-40])
    assert not bytecode.whole_archive(archive)
    assert not bytecode.whole_archive(tmp_path / "missing.zip")


def test_a_file_written_by_two_processes_at_once_is_one_whole_file(tmp_path):
    context = multiprocessing.get_context("spawn")
    target = tmp_path / "shared.bin"
    writers = [context.Process(target=write_many_times, args=(target, bytes([n]) * 400_000)) for n in (1, 2)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=60)
        assert writer.exitcode == 0
    data = target.read_bytes()
    assert len(data) == 400_000 and len(set(data)) == 1
    assert list(tmp_path.glob("*.partial")) == []


def write_many_times(target, data):
    for _ in range(30):
        downloads.write_atomically(target, data)
