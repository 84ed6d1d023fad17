"""Where a step's scene comes from, as a lesson file writes it, resolved to a scene.

    scene = "dog-bites-man"                 an example, by its id (presets.PRESET_IDS)
    scene = "#preset=dog-bites-man"         the same, as a link names it
    scene = "#s=4.<data>"                   a scene link, as "Copy link" makes it
    scene = "scenes/my-scene.json"          a scene file beside the lesson (the scene format, as "Download scene"
                                            writes it), its path relative to the lesson file's
    [scene]                                 a scene written out in the scene format (docs/reference.md: The scene format)
    [scene]                                 or made from another scene: `from` names it (an id or a link), and
    from = "it-animal-noun"                 `change` is a variant (variants.py) applied to it
    change = {Wq = "times 2"}

A scene file is read through `SceneFiles`, which the caller fills: from the lesson's folder on disk (the check
command, the build) or with the files the page fetched beside the lesson's URL. A file not yet fetched is noted
in `missing` (the page fetches those and compiles again), and never read twice.

A scene link is `#s=<version>.<data>`: <data> is the JSON {scene, preset, edited, view}, deflate-compressed (raw, no
header) and base64url-encoded (js/sharing/permalink.js makes it); every version of the link format keeps the
scene under "scene". The page would refuse a link over MAX_LINK_JSON bytes once inflated, and so does this.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from ..presets import PRESET_IDS, load_preset
from ..scene import SceneError, parse_scene
from .mistakes import LessonInputError
from .variants import apply_variant
from .words import describe_value

#: The newest link format the page writes (js/sharing/permalink.js: LINK_VERSION); older ones keep "scene".
LINK_VERSION = 4
#: The most bytes a link's JSON may have once inflated (the page's MAX_JSON_BYTES).
MAX_LINK_JSON = 16_000_000

_SCENE_LINK = re.compile(r"^#s=(\d{1,4})\.([A-Za-z0-9_-]*={0,2})$")
_PRESET_LINK = re.compile(r"^#preset=([a-z0-9][a-z0-9-]{0,63})$")
#: A scene file's path: relative (no scheme, no leading slash), ending in .json.
_SCENE_FILE = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_./-]{0,199}\.json$")
#: The most characters a scene file may have.
MAX_SCENE_FILE = 8_000_000


class MissingSceneFile(LessonInputError):
    """A scene file the caller has not read yet (the page fetches it, then compiles again)."""


class SceneFiles:
    """The scene files a lesson names, by path relative to the lesson: `texts` holds each one read (its text, or
    {"error": why it could not be read}); `read_missing`, if given, reads one that is not there (from disk);
    otherwise it is noted in `missing`."""

    def __init__(self, texts: Mapping[str, Any] | None = None, read_missing: Any = None):
        self.texts = dict(texts or {})
        self.read_missing = read_missing
        self.missing: set[str] = set()

    def scene(self, path: str) -> dict[str, Any]:
        if path not in self.texts and self.read_missing is not None:
            self.texts[path] = self.read_missing(path)
        if path not in self.texts:
            self.missing.add(path)
            raise MissingSceneFile(f"the scene file {describe_value(path)} is not read yet", "scene")
        text = self.texts[path]
        if isinstance(text, Mapping):
            raise LessonInputError(f"the scene file {describe_value(path)} cannot be read beside the lesson: "
                                   f"{text.get('error', 'it is not there')}", "scene")
        if not isinstance(text, str) or len(text) > MAX_SCENE_FILE:
            raise LessonInputError(f"the scene file {describe_value(path)} is not a text file of at most 8 MB", "scene")
        try:
            scene = json.loads(text)
        except ValueError as error:
            raise LessonInputError(f"the scene file {describe_value(path)} is not JSON ({error})", "scene") from None
        if not isinstance(scene, Mapping):
            raise LessonInputError(f"the scene file {describe_value(path)} is JSON but not a scene: a scene is an "
                                   "object with tokens, features, X and heads", "scene")
        return dict(scene)


def files_beside(lesson_path: str | Path) -> SceneFiles:
    """Scene files read from disk, relative to the folder of the lesson file at `lesson_path`."""
    folder = Path(lesson_path).parent

    def read(path: str) -> Any:
        try:
            return (folder / path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            return {"error": f"{type(error).__name__}: {getattr(error, 'strerror', None) or error}"}

    return SceneFiles(read_missing=read)


class Source(NamedTuple):
    """A step's scene, resolved, and how the compiled lesson points at it for the page."""

    scene: dict[str, Any]
    reference: dict[str, Any]  # {"preset": id}, {"link": "#s=…"} or {"scene": {...}} (with "from" if made from one)


def decode_scene_link(link: str) -> dict[str, Any]:
    """The scene inside a `#s=<version>.<data>` link; LessonInputError for a link that cannot be read."""
    match = _SCENE_LINK.match(link)
    if not match:
        raise LessonInputError("a scene link is #s=<version>.<data>, with <data> in base64url as \"Copy link\" "
                               "writes it", "scene")
    version = int(match[1])
    if not 1 <= version <= LINK_VERSION:
        raise LessonInputError(f"this link has format {version}; the page reads formats 1 to {LINK_VERSION}", "scene")
    data = match[2].rstrip("=")
    try:
        packed = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, as CompressionStream("deflate-raw") writes
        text = inflater.decompress(packed, MAX_LINK_JSON + 1)
        if len(text) > MAX_LINK_JSON or inflater.unconsumed_tail:
            raise LessonInputError("this link is too large to open", "scene")
        payload = json.loads(text.decode("utf-8"))
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError) as error:
        if isinstance(error, LessonInputError):
            raise
        raise LessonInputError("this link is damaged or cut off: copy it again in full", "scene") from None
    if not isinstance(payload, Mapping) or not isinstance(payload.get("scene"), Mapping):
        raise LessonInputError("this link holds no scene", "scene")
    return dict(payload["scene"])


def encode_scene_link(scene: Mapping[str, Any], view: Mapping[str, Any] | None = None) -> str:
    """A `#s=4.<data>` link to a scene, as the page's "Copy link" writes it (tests and authors' tools)."""
    payload = {"scene": scene, "preset": None, "edited": True, "view": dict(view or {"focus": None, "head": 0})}
    deflater = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    packed = deflater.compress(json.dumps(payload).encode("utf-8")) + deflater.flush()
    return f"#s={LINK_VERSION}." + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def _named(value: str, files: SceneFiles | None) -> Source:
    """A scene named by a string: an example's id, #preset=<id>, a scene link, or a scene file's path."""
    preset = _PRESET_LINK.match(value)
    preset_id = preset[1] if preset else value
    if preset_id in PRESET_IDS:
        return Source(load_preset(preset_id), {"preset": preset_id})
    if value.startswith("#s="):
        return Source(decode_scene_link(value), {"link": value})
    if _SCENE_FILE.match(value):
        if files is None:
            raise LessonInputError(f"{describe_value(value)} is a scene file, and this lesson is read without its "
                                   "folder", "scene")
        scene = files.scene(value)
        return Source(scene, {"scene": scene, "file": value})
    raise LessonInputError(f"{describe_value(value)} is not an example, a link or a scene file; the examples are "
                           f"{', '.join(PRESET_IDS)}, a link starts with #preset= or #s=, and a scene file's path "
                           "ends in .json", "scene")


def resolve_scene(value: Any, files: SceneFiles | None = None) -> Source:
    """The scene a step's `scene` names (see the module docstring), checked by the module's own validation;
    LessonInputError naming the key at fault (a scene's own mistake quotes the module's message)."""
    if isinstance(value, str):
        source = _named(value, files)
    elif isinstance(value, Mapping) and "from" in value:
        for key in value:
            if key not in ("from", "change"):
                raise LessonInputError(f"a scene made from another has only from and change, not "
                                       f"{describe_value(str(key))}", f"scene.{key}")
        if not isinstance(value["from"], str):
            raise LessonInputError("from names an example or a link", "scene.from")
        base = _named(value["from"], files)
        if "change" not in value:
            raise LessonInputError("a scene made from another needs its change (a variant)", "scene.change")
        try:
            parse_scene(base.scene)
        except SceneError as error:
            raise LessonInputError(f"the scene it is made from is refused: {error.message}", "scene.from") from None
        changed = apply_variant(base.scene, value["change"], "scene.change")
        source = Source(changed, {"scene": changed, "from": value["from"]})
    elif isinstance(value, Mapping):
        source = Source(dict(value), {"scene": dict(value)})
    else:
        raise LessonInputError(f"scene is an example's id, a link, or a scene table; got {describe_value(value)}",
                               "scene")
    try:
        parse_scene(source.scene)
    except SceneError as error:
        field = f"scene.{error.field}" if error.field else "scene"
        raise LessonInputError(f"the scene is refused: {error.message}", field) from None
    return source
