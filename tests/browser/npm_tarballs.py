"""Pinned npm packages the browser tests use (axe-core, scorm-again), fetched from the registry the way the build
fetches its own (sitebuild/npm.py): checked against the integrity the registry publishes, kept in the download
cache, checked again on every use and fetched again if it does not match, written whole or not at all, so two
test workers asking at once both get a whole tarball."""

import io
import tarfile

from sitebuild.downloads import SourceUnavailable, download
from sitebuild.npm import fetch_tarball
from sitebuild.paths import cache_root

REGISTRY = "https://registry.npmjs.org/"
REGISTRY_TIMEOUT_SECONDS = 60


def _from_registry(url):
    try:
        return download(url, REGISTRY_TIMEOUT_SECONDS)
    except SourceUnavailable as error:
        raise RuntimeError(f"could not download a test dependency: {error}") from None


def package_file(name, version, integrity, path):
    """The bytes of `path` inside the package (npm's `package/` prefix left out), from the verified tarball."""
    tarball = fetch_tarball(name, {"version": version, "integrity": integrity}, REGISTRY, cache_root() / "npm",
                            _from_registry, report=lambda line: None)
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        return archive.extractfile(f"package/{path}").read()
