"""How the package reaches the page: a small core at boot, the rest in parts fetched when first needed.

The page's Python must be live in seconds, and every byte it fetches before then competes with the runtime
itself. The heatmap and the step view need only the module's core and the example the page opens with. The
exercises run in a worker of their own, which fetches their part on its first request. The trained model (its
code and its 211 kB checkpoint, model/checkpoint.json) and the other examples' scenes (the page reads those from
generated/presets/, not through Python) are needed only by requests that ask for them. So the build writes one
zip per part (sitebuild/generated.py), and the worker unpacks a part just before the first request whose kind
needs it (kinds.py declares which; js/runtime/parts.js unpacks it). Natively, and from the pip package, every
part is simply there.
"""

from __future__ import annotations

from .kinds import KINDS
from .presets import DEFAULT_PRESET_ID

#: The parts besides the core, and the files each holds (path prefixes inside the package). A file is in the
#: first part that claims it. "scripts" are the programs run from the command line (the ones that wrote the
#: presets and the checkpoints (model/make_checkpoint.py, english/make_english.py)) and what only they read
#: (model/repeated_noun.py, the English model's corpus, training and analysis): no
#: request needs them and the page never fetches them; only the test suite run inside Pyodide does.
PART_FILES: dict[str, tuple[str, ...]] = {
    "scripts": ("presets/make_", "model/repeated_noun.py", "model/make_checkpoint.py",
                "english/make_english.py", "english/brown.py", "english/bpe.py", "english/windows.py",
                "english/training.py", "english/analysis.py"),
    # The experiments beside the scene (Part 7's table, shuffling and knocking out words): fetched by the first.
    "experiments": ("experiments.py",),
    "exercises": ("exercises/", "learner_program.py", "learner_drawing.py"),
    "model": ("model/",),
    # The English model's weights (1.3 MB zipped): fetched only once a learner chooses the model.
    "english-weights": ("english/weights.json",),
    # Its code, tokenizer and settings: with the weights, and alone to check a lesson step that opens the model.
    "english": ("english/",),
    "presets": ("presets/",),
    # The notebook widget (widget.py and its bundled view): the page never needs it.
    "notebook": ("widget.py", "notebook/"),
    # Writing and building lessons (the Markdown side, and the command line): fetched by the first lesson the page
    # compiles itself (a course's own lesson file: lessons/authoring.py).
    "authoring": ("lessons/format.py", "lessons/checker.py", "lessons/compile.py", "lessons/holds.py", "lessons/spoilers.py",
                  "lessons/sources.py", "lessons/authoring.py", "lessons/__main__.py"),
    # Judging a lesson's answers: fetched by the first lesson request.
    "lessons": ("lessons/",),
}

#: Parts made of other projects' code: the pure-Python wheels each holds, by the names requirements/pyodide-page.txt
#: pins them under (with each wheel's sha256). The build unpacks the checked wheels into the part's zip.
WHEEL_PARTS: dict[str, tuple[str, ...]] = {
    # markdown-it-py and mdurl: the authoring side reads a lesson's Markdown with them.
    "markdown": ("markdown-it-py", "mdurl"),
}

#: Files that stay in the core although a part's folder holds them: the example the page opens with, which the
#: exercises start from too.
CORE_FILES = (f"presets/{DEFAULT_PRESET_ID}.json",)


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


def kind_parts() -> dict[str, list[str]]:
    """The parts each request kind needs unpacked before it runs, as its declaration says (kinds.py); kinds that
    need only the core are not listed."""
    return {kind.name: [kind.part, *kind.also_needs] for kind in KINDS.values() if kind.part is not None}


def facts() -> dict:
    """What the worker needs to know: the zips' names, and which kinds need which parts."""
    return {
        "core": zip_name(None),
        "zips": {part: zip_name(part) for part in [*PART_FILES, *WHEEL_PARTS]},
        "kindParts": kind_parts(),
    }
