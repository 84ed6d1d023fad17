"""`python -m attention_playground.lessons check FILE...`: check lesson files as the build will.

Each mistake is one line, FILE:LINE: step N (id): field: message; the command then exits with 1. A clean run
prints one line (how many lessons and steps were checked) and exits with 0. A step's scene file is read beside
its lesson.

`python -m attention_playground.lessons preview FILE.md` serves the playground with the lesson open, reloaded at
the step on show whenever the file (or a scene file beside it) is saved: the project's `build.py serve --lesson
FILE.md`, which it runs (the page is built from the project, not from the package).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from .checker import check_lesson, describe
from .sources import files_beside


def check(paths: list[str], out=sys.stdout) -> int:
    """Check every file; print each mistake, or one summary line. Returns the exit code."""
    mistakes, steps, questions = [], 0, 0
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            mistakes.append(f"{path}:1: the file cannot be read: {error}")
            continue
        lesson = check_lesson(text, path, files_beside(path))
        mistakes += [describe(problem, path) for problem in sorted(lesson.problems)]
        steps += len(lesson.steps)
        questions += sum(step.question is not None for step in lesson.steps)
    for line in mistakes:
        print(line, file=out)
    if mistakes:
        print(f"{len(mistakes)} mistake{'s' if len(mistakes) != 1 else ''} in {len(paths)} "
              f"lesson{'s' if len(paths) != 1 else ''}", file=out)
        return 1
    print(f"{len(paths)} lesson{'s' if len(paths) != 1 else ''} checked: {steps} steps, {questions} questions, "
          "no mistakes", file=out)
    return 0


def preview(path: str, port: int, out=sys.stdout) -> int:
    """Run the project's `build.py serve --lesson` for `path` until it stops; its exit code."""
    build = Path(__file__).resolve().parents[3] / "build.py"
    if not build.is_file():
        print("preview serves the playground's page, which is built from its project: run it from a checkout "
              "(python3 build.py serve --lesson FILE.md)", file=out)
        return 2
    if not Path(path).is_file():
        print(f"{path}: no such lesson file", file=out)
        return 2
    return subprocess.call([sys.executable, str(build), "serve", "--lesson", str(Path(path).resolve()), "--port", str(port)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m attention_playground.lessons",
                                     description="Check lesson files (docs/lessons.md).")
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check", help="check lesson files; one line per mistake, exit 1 if any")
    checking.add_argument("files", nargs="+", help="lesson files (lessons/*.md)")
    previewing = commands.add_parser("preview", help="serve the playground with a lesson open, reloaded at every save")
    previewing.add_argument("file", help="a lesson file")
    previewing.add_argument("--port", type=int, default=8000, help="port (default 8000; a free one if busy)")
    arguments = parser.parse_args(argv)
    if arguments.command == "preview":
        return preview(arguments.file, arguments.port)
    return check(arguments.files)


if __name__ == "__main__":
    sys.exit(main())
