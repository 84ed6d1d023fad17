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
    """The module's lesson compiler, imported from py/ (it needs markdown-it-py: build.py makes sure of it)."""
    if str(PY_DIR) not in sys.path:
        sys.path.insert(0, str(PY_DIR))
    from attention_playground.lessons.compile import LessonProblems, compile_lesson

    return compile_lesson, LessonProblems


def write_lessons(lessons_dir=LESSONS_DIR, output_dir=OUTPUT_DIR):
    """Check and compile every lesson into `output_dir`, afresh; returns the index. BuildError naming every mistake
    of every lesson if any has one (nothing is written then)."""
    compile_lesson, LessonProblems = _compiler()
    index, bodies, mistakes = [], {}, []
    for path in sorted(lessons_dir.glob("*.md")):
        name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        try:
            entry, body = compile_lesson(path.read_text(encoding="utf-8"), name)
        except LessonProblems as problems:
            mistakes += problems.lines
            continue
        index.append(entry)
        bodies[entry["id"]] = body
    if mistakes:
        raise BuildError(f"{len(mistakes)} mistake{'s' if len(mistakes) != 1 else ''} in the lessons:\n"
                         + "\n".join(mistakes))
    shutil.rmtree(output_dir, ignore_errors=True)
    write_json(output_dir / "index.json", index)
    for lesson_id, body in bodies.items():
        write_json(output_dir / f"{lesson_id}.json", body)
    return index
