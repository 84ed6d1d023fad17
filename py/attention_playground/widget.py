"""The playground in a notebook: the page's heatmap, bars and editors as a widget, computed by the kernel.

    from attention_playground.widget import Playground
    w = Playground("it-animal-noun")      # a preset id, a scene dict, or head_scene(model, words, layer, head)
    w

Every edit the learner makes in the widget is sent to the kernel, which computes it with the module's own
entry point (`entry.handle`, the one the page's worker and the native tests call), so the numbers a notebook
shows are the kernel's NumPy. The widget's state is kept in step both ways:

    scene        the scene as the learner made it (setting it from Python redraws the widget); reading it
                 gives a copy: change it and assign it back (`s = w.scene; s["X"][0][0] = 1; w.scene = s`)
    result       the last good `compute(scene)` result (an invalid edit keeps it)
    error        the module's error for `scene` ({type, message, field, row, column, row_index,
                 column_index}, as the page shows it), or None
    focused_row  the token whose "where it pays attention" bars show, or None
    panels       the panels shown, of PANELS

The view is one ES module and one stylesheet that the build (sitebuild/notebook.py) bundles from the page's
own views into `notebook/` beside this file, shipped in the wheel: nothing is fetched from anywhere.

anywidget is imported here and nowhere else in the package, so the module itself needs only NumPy:
`pip install "attention-playground[notebook]"` adds it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

try:
    import anywidget
    import traitlets
    from ipywidgets.widgets.trait_types import bytes_serialization
except ImportError as error:  # the core needs only NumPy; say how to get the widget
    raise ImportError(
        'the notebook widget needs anywidget: pip install "attention-playground[notebook]"'
    ) from error

from .entry import handle
from .presets import load_preset
from .wire import plain

#: Where the build puts the widget's bundled view (package data).
BUNDLE_DIR = Path(__file__).parent / "notebook"
ESM_PATH = BUNDLE_DIR / "widget.js"
CSS_PATH = BUNDLE_DIR / "widget.css"

#: The panels the widget can show, in the order it shows them.
PANELS = ("controls", "heatmap", "bars", "features", "weights")


def _bundle_text(path: Path) -> str:
    if not path.exists():
        raise FileNotFoundError(
            f"{path} is missing: the widget's view is built with `python3 build.py` from a clone "
            "(a wheel built after that carries it)"
        )
    return path.read_text(encoding="utf-8")


def _as_scene(scene: Any) -> dict[str, Any]:
    """A scene dict from a preset id or a scene dict (head_scene(...) gives one)."""
    if isinstance(scene, str):
        return load_preset(scene)
    if isinstance(scene, dict):
        # A copy made of plain JSON values, as the view will send it back: what is synced is what is computed.
        # NumPy arrays and numbers become lists and floats on the way (wire.plain, the module's one boundary).
        return json.loads(json.dumps(plain(scene), default=_refuse))
    raise TypeError(f"a Playground shows a preset id or a scene dict, not {type(scene).__name__}")


def _refuse(value: Any) -> Any:
    raise TypeError(f"a scene holds numbers, text, lists and dicts, not {type(value).__name__}")


def compute_response(scene: dict[str, Any]) -> dict[str, Any]:
    """The entry point's answer to a "compute" request for `scene`: {"ok": True, "result"} or {"ok": False,
    "error"}, exactly as the page's worker gets it."""
    return json.loads(handle(json.dumps({"kind": "compute", "payload": {"scene": scene}})))


class _SceneTrait(traitlets.Union):
    """The widget's `scene`: a scene dict (or a preset id, on the way in). Reading it gives a copy, so the scene the
    widget holds changes only when one is assigned. Handing out the held dict itself, `s = w.scene; s[...] = 1;
    w.scene = s` changed it in place first: traitlets then found the assigned scene equal to the one it held,
    reported no change, and the view (which ipywidgets updates on a reported change) kept the old heatmap while
    `w.result` had moved on."""

    def get(self, obj: Any, cls: Any = None) -> Any:
        value = super().get(obj, cls)
        return copy.deepcopy(value) if isinstance(value, dict) else value


class Playground(anywidget.AnyWidget):
    """The Attention Playground's heatmap, bars and editors for one scene, computed by this kernel."""

    _esm = traitlets.Unicode().tag(sync=True)
    _css = traitlets.Unicode().tag(sync=True)

    # A preset id is taken too, and becomes that preset's scene (see _computed_scene).
    scene = _SceneTrait([traitlets.Dict(), traitlets.Unicode()]).tag(sync=True)
    result = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    error = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    focused_row = traitlets.Int(allow_none=True, default_value=None).tag(sync=True)
    panels = traitlets.List(traitlets.Unicode(), default_value=list(PANELS)).tag(sync=True)
    #: The heatmap and its legend as the view last drew them, for export_svg() and export_png().
    picture_svg = traitlets.Unicode("").tag(sync=True)
    picture_png = traitlets.Bytes(b"").tag(sync=True, **bytes_serialization)

    def __init__(self, scene: Any = "it-animal-noun", **kwargs: Any) -> None:
        self._scene_from_view = None
        super().__init__(_esm=_bundle_text(ESM_PATH), _css=_bundle_text(CSS_PATH), **kwargs)
        self.on_msg(self._on_view_message)
        self.scene = _as_scene(scene)

    @traitlets.validate("scene")
    def _computed_scene(self, proposal: dict) -> dict[str, Any]:
        if proposal["value"] is self._scene_from_view:
            return proposal["value"]  # the view's own edit: computed already, by _on_view_message
        # Computed before the scene is set, so the view that hears of a new scene finds its result already there.
        scene = _as_scene(proposal["value"])
        self._take_response(compute_response(scene))
        return scene

    @traitlets.validate("panels")
    def _known_panels(self, proposal: dict) -> list[str]:
        unknown = [name for name in proposal["value"] if name not in PANELS]
        if unknown:
            raise traitlets.TraitError(f"unknown panel {unknown[0]!r}; the panels are {', '.join(PANELS)}")
        return [name for name in PANELS if name in proposal["value"]]

    def _take_response(self, response: dict[str, Any]) -> None:
        """A good result replaces the last one; an error is kept beside the last good result."""
        with self.hold_sync():
            if response["ok"]:
                self.result = response["result"]
                self.error = None
            else:
                self.error = response["error"]

    def _on_view_message(self, _widget: Any, message: dict, _buffers: list) -> None:
        """The view asks the kernel to compute the learner's scene: {"kind": "compute", "id", "scene"}."""
        if not isinstance(message, dict) or message.get("kind") != "compute":
            return
        scene = message.get("scene")
        response = compute_response(scene)
        self._take_response(response)
        if isinstance(scene, dict):
            # The learner's scene, exactly as sent; not sent back to the view, which already shows it (the lock is
            # ipywidgets' own way of not echoing a value that came from the view).
            self._scene_from_view = scene
            try:
                with self._lock_property(scene=scene):
                    self.scene = scene
            finally:
                self._scene_from_view = None
        self.send({"kind": "computed", "id": message.get("id"), "ok": response["ok"]})

    def export_svg(self, path: str | Path | None = None) -> str:
        """The heatmap and its legend as drawn in the notebook (the page's SVG export); written to `path` if
        given. The view must have been shown once: the kernel cannot wait for the browser inside a cell, so the
        view writes the picture into the widget's state each time its updates pause."""
        if not self.picture_svg:
            raise RuntimeError("the widget has not been drawn yet: show it in a cell first")
        if path is not None:
            Path(path).write_text(self.picture_svg, encoding="utf-8")
        return self.picture_svg

    def export_png(self, path: str | Path | None = None) -> bytes:
        """The same picture as a PNG at twice its size (the page's PNG export); written to `path` if given."""
        if not self.picture_png:
            raise RuntimeError("the widget has not been drawn yet: show it in a cell first")
        if path is not None:
            Path(path).write_bytes(self.picture_png)
        return self.picture_png


__all__ = ["PANELS", "Playground", "compute_response"]
