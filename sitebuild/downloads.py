"""Fetching pinned files: from the first source that has one, checked against its hash, kept in a cache.

A wrong hash or a failed download stops the build with one line naming the file (BuildError); a source that
cannot deliver makes way for the next one (SourceUnavailable).
"""

import hashlib
import http.client
import os
import tempfile
import urllib.request


class BuildError(Exception):
    """A reason to stop the build, worded as the one line the user sees."""


class SourceUnavailable(Exception):
    """A source could not deliver a file; the next source is tried."""


USER_AGENT = "attention-playground-build"


def sha256_of(data):
    return hashlib.sha256(data).hexdigest()


def check_sha256(name, data, expected, source):
    """Stop the build unless `data` is exactly the pinned file."""
    actual = sha256_of(data)
    if actual != expected:
        raise BuildError(f"{name} from {source}: sha256 is {actual}, expected {expected}")


def download(url, timeout):
    """The body at `url`, or a SourceUnavailable naming why not."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.read()
    except (OSError, ValueError, http.client.HTTPException) as error:  # URLError, HTTPError, timeouts
        raise SourceUnavailable(f"{url}: {error}") from None


def write_atomically(path, data, mode=None):
    """Write a whole file or nothing, so an interrupted build never leaves half a file behind. The temporary file
    is this call's own, so two processes writing the same file at once each rename a whole one into place, and a
    reader sees the old file or a new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def read_if_present(path):
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def fetch_from_sources(name, expected, sources):
    """The first verified copy of `name` that one of `sources` delivers (each has `label` and `fetch(name)`)."""
    failures = []
    for source in sources:
        try:
            data = source.fetch(name)
        except SourceUnavailable as error:
            failures.append(f"{source.label}: {error}")
            continue
        check_sha256(name, data, expected, source.label)
        return data
    raise BuildError(f"could not download {name} (sha256 {expected}): " + "; ".join(failures))


def vendor_file(target, expected, cached, remote_sources, report):
    """Put the verified file at `target`: already there, else from the cache file `cached`, else the sources."""
    name = target.name
    if (data := read_if_present(target)) is not None and sha256_of(data) == expected:
        return data  # already in place
    if (data := read_if_present(cached)) is not None and sha256_of(data) == expected:
        report(f"{name}: from the cache")
    else:
        if data is not None:  # cut short or changed since it was cached: fetched again, and checked
            report(f"{name}: the cached copy does not match its sha256; downloading it again")
        data = fetch_from_sources(name, expected, remote_sources)
        write_atomically(cached, data)
        report(f"{name}: {len(data) / 1e6:.1f} MB, cached in {cached.parent}")
    write_atomically(target, data)
    return data
