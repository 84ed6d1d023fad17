"""How the package reaches the page: a small core at boot, the rest in parts fetched when first needed.

The page's Python must be live in seconds, and every byte it fetches before then competes with the runtime
itself. The heatmap and the step view need only the module's core and the example the page opens with. The
exercises run in a worker of their own, which fetches their part on its first request. The trained model (its code and its 130 KB checkpoint) and the other examples' scenes (the page reads
those from generated/presets/, not through Python) are needed only by requests that ask for them. So the build
writes one zip per part (sitebuild/generated.py), and the worker unpacks a part just before the first request
whose kind needs it (js/runtime/worker.js). Natively, and from the pip package, every part is simply there.
"""

from __future__ import annotations

from .presets import DEFAULT_PRESET_ID

#: The parts besides the core, and the files each holds (path prefixes inside the package). A file is in the
#: first part that claims it. "scripts" are the programs that wrote the presets: no request needs them, only
#: the test suite run inside Pyodide.
PART_FILES: dict[str, tuple[str, ...]] = {
    "scripts": ("presets/make_",),
    "exercises": ("exercises.py", "learner_code.py", "learner_compute.py"),
    "model": ("model/",),
    "presets": ("presets/",),
}

#: Files that stay in the core although a part's folder holds them: the example the exercises start from.
CORE_FILES = (f"presets/{DEFAULT_PRESET_ID}.json",)

#: The parts each request kind needs unpacked before it runs (kinds not listed need only the core).
KIND_PARTS: dict[str, tuple[str, ...]] = {
    "exercises": ("exercises",),
    "run_exercise": ("exercises",),
    "learner_compute": ("exercises",),
    "presets": ("presets",),
    "preset": ("presets",),
    "model_info": ("model",),
    "model_run": ("model",),
    "model_head_scene": ("model",),
    "model_train_start": ("model",),
    "model_train_steps": ("model",),
    "model_claims": ("model",),
    "model_claim_start": ("model",),
    "model_claim_steps": ("model",),
}


def zip_name(part: str | None) -> str:
    """The file name of a part's zip in generated/ (None: the core's)."""
    return "attention_playground.zip" if part is None else f"attention_playground-{part}.zip"


def part_of(path: str) -> str | None:
    """The part a package file ships in: None for the core, else the part's name."""
    if path in CORE_FILES:
        return None
    for part, prefixes in PART_FILES.items():
        if path.startswith(prefixes):
            return part
    return None


def facts() -> dict:
    """What the worker needs to know: the zips' names, and which kinds need which parts."""
    return {
        "core": zip_name(None),
        "zips": {part: zip_name(part) for part in PART_FILES},
        "kindParts": {kind: list(parts) for kind, parts in KIND_PARTS.items()},
    }
