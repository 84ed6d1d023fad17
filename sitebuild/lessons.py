"""generated/lessons/: every lesson (lessons/*.md) checked and compiled for the page.

- lessons/index.json: [{id, title, source, summary, steps: [{id, title, kind}]}], one per lesson, by file name;
- lessons/<id>.json: the lesson as the page plays it (attention_playground/lessons/compile.py describes it): prose
  as trees, scene references, panels, the questions the page sends back to be judged; no expected answer (the
  module computes each when asked) and no build's solution.

A lesson with a mistake stops the build with the checker's lines (FILE:LINE: step N (id): field: message), as
`python -m attention_playground.lessons check` prints them.
"""

import shutil
import sys

from .downloads import BuildError
from .generated import write_json
from .paths import GENERATED_DIR, PY_DIR, ROOT

LESSONS_DIR = ROOT / "lessons"
OUTPUT_DIR = GENERATED_DIR / "lessons"


def _compiler():
    """The module's lesson compiler, imported from py/ (it needs markdown-it-py: build.py makes sure of it): a
    function of a lesson file's path that compiles it, its scene files read beside it, and the error it raises."""
    if str(PY_DIR) not in sys.path:
        sys.path.insert(0, str(PY_DIR))
    from attention_playground.lessons.compile import LessonProblems, compile_lesson
    from attention_playground.lessons.sources import files_beside

    def compile_file(path, name):
        return compile_lesson(path.read_text(encoding="utf-8"), name, files_beside(path))

    return compile_file, LessonProblems


def compile_all(paths):
    """[(index entry, lesson)] of every lesson file of `paths`; BuildError naming every mistake if any has one."""
    compile_file, LessonProblems = _compiler()
    compiled, mistakes = [], []
    for path in paths:
        name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        try:
            compiled.append(compile_file(path, name))
        except LessonProblems as problems:
            mistakes += problems.lines
    if mistakes:
        raise BuildError(f"{len(mistakes)} mistake{'s' if len(mistakes) != 1 else ''} in the lessons:\n"
                         + "\n".join(mistakes))
    return compiled


def compile_own(path):
    """A course's own lessons for its packages (`build.py --scorm --lesson`): the file at `path`, or every *.md of
    the folder; [(index entry, lesson)], or BuildError naming every mistake."""
    paths = sorted(path.glob("*.md")) if path.is_dir() else [path]
    if not paths:
        raise BuildError(f"{path} holds no lesson (*.md)")
    return compile_all([candidate.resolve() for candidate in paths])


def write_lessons(lessons_dir=LESSONS_DIR, output_dir=OUTPUT_DIR):
    """Check and compile every lesson into `output_dir`, afresh; returns the index. BuildError naming every mistake
    of every lesson if any has one (nothing is written then)."""
    compiled = compile_all(sorted(lessons_dir.glob("*.md")))
    shutil.rmtree(output_dir, ignore_errors=True)
    write_compiled(output_dir, compiled)
    return [entry for entry, _ in compiled]


def write_compiled(output_dir, compiled, index=()):
    """Write each compiled lesson, and the index: the entries of `index` first, any of the same id left out."""
    ids = {entry["id"] for entry, _ in compiled}
    write_json(output_dir / "index.json", [entry for entry in index if entry["id"] not in ids] + [entry for entry, _ in compiled])
    for entry, body in compiled:
        write_json(output_dir / f"{entry['id']}.json", body)
