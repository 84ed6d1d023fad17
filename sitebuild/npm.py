"""Packages from the npm registry, each tarball checked against the sha512 integrity its lock file pins.

Shared by the editor's vendoring (editor.py, codemirror.lock.json) and the bundler (bundler.py,
esbuild.lock.json). A tarball is kept in the download cache once verified, and verified again on every use: one
that no longer matches (cut short by a killed run) is fetched again.
"""

import base64
import hashlib
import io
import tarfile

from .downloads import BuildError, read_if_present, write_atomically


class IntegrityError(BuildError):
    """A tarball whose digest is not the one its lock pins."""


def tarball_url(registry, name, version):
    """The registry's tarball address: scoped packages keep the scope in the path, not in the file name."""
    return f"{registry}{name}/-/{name.rsplit('/', 1)[-1]}-{version}.tgz"


def digest_of(data, algorithm):
    return base64.b64encode(hashlib.new(algorithm, data).digest()).decode()


def integrity_matches(data, integrity):
    """Whether `data` has the digest of an npm integrity string ("sha512-<base64>")."""
    algorithm, _, expected = integrity.partition("-")
    return digest_of(data, algorithm) == expected


def check_integrity(name, data, integrity):
    if not integrity_matches(data, integrity):
        algorithm, _, expected = integrity.partition("-")
        raise IntegrityError(f"{name} from npm: {algorithm} is {digest_of(data, algorithm)}, expected {expected}")


def fetch_tarball(name, pin, registry, cache_dir, download, report):
    """The verified tarball of one package ({"version", "integrity"}), from the cache or the registry."""
    cached = cache_dir / f"{name.replace('/', '+')}-{pin['version']}.tgz"
    if (data := read_if_present(cached)) is not None:
        if integrity_matches(data, pin["integrity"]):
            return data
        report(f"{cached.name}: the cached copy does not match its integrity; downloading it again")
    data = download(tarball_url(registry, name, pin["version"]))
    check_integrity(name, data, pin["integrity"])
    write_atomically(cached, data)  # a whole file or none, even with another process writing it too
    report(f"{name}@{pin['version']}: {len(data) / 1e3:.0f} kB from npm")
    return data


def tarball_files(data):
    """{path inside the package: bytes} (npm tarballs put everything under package/)."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        return {
            member.name.split("/", 1)[1]: archive.extractfile(member).read()
            for member in archive.getmembers()
            if member.isfile() and "/" in member.name
        }
