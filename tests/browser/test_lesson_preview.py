"""An author previews a lesson file while writing it (`build.py serve --lesson FILE.md`, which serves its folder and
opens `#lesson-src=…&preview`): a save shows at once at the step on show; a mistake saved shows as the checker's
line in the page, in place of the step; the mistake fixed, the step is back where it was."""

import shutil
import time

import pytest
from playwright.sync_api import expect

from lesson_helpers import COURSE_SITE, lesson_steps, wait_for_progress
from page_helpers import sel
from sitebuild import server as dev_server

pytestmark = pytest.mark.browser


def save(path, text):
    """Write as an editor does: the new text at once, under the same name."""
    path.write_text(text, encoding="utf-8")
    return time.monotonic()


def test_a_save_shows_at_the_step_on_show_and_a_mistake_shows_as_its_line(page, tmp_path):
    shutil.copytree(COURSE_SITE / "lessons", tmp_path / "lessons")
    lesson = tmp_path / "lessons" / "our-lesson.md"
    steps = lesson_steps("our-lesson")
    text = lesson.read_text(encoding="utf-8")
    with dev_server.serving(dev_server.previewing(lesson)) as url:
        page.goto(dev_server.preview_address(url, lesson))
        title = page.locator(sel("lesson-step-title"))
        expect(title).to_have_text(steps[0]["title"], timeout=120_000)
        page.locator(sel("lesson-next")).click()
        expect(title).to_have_text(steps[1]["title"])
        wait_for_progress(page, lambda p: p["number"] == 2 and p["status"] == "ready")
        # A change: the step's title and words, saved; the page shows them on the same step.
        saved = save(lesson, text.replace("## Our own scene", "## Our very own scene").replace("The same numbers", "Look: the same numbers"))
        expect(title).to_have_text("Our very own scene", timeout=10_000)
        shown_after = time.monotonic() - saved
        expect(page.locator(sel("lesson-prose"))).to_contain_text("Look: the same numbers")
        expect(page.locator(sel("lesson-counter"))).to_contain_text("Step 2 of 4")
        # A mistake: the row is no word of the scene. The page lists it by its line, and no step.
        broken = text.replace('row = "cat"\ncolumn = "sat"', 'row = "dog"\ncolumn = "sat"')
        line = broken.splitlines().index('row = "dog"') + 1
        save(lesson, broken)
        problems = page.locator(sel("lesson-file-problems")).locator("li")
        expect(problems).to_have_count(1, timeout=10_000)
        expect(problems).to_contain_text(f"line {line} · step 2 (our-own-scene) · question.row")
        expect(title).to_be_hidden()
        # Fixed: the lesson is back, at the step the author was on.
        save(lesson, text)
        expect(title).to_have_text(steps[1]["title"], timeout=10_000)
        expect(page.locator(sel("lesson-counter"))).to_contain_text("Step 2 of 4")
        # A scene file beside the lesson is watched too: without “sat”, the step's question names a word it lacks.
        scene = lesson.parent / "scenes" / "the-cat-sat.json"
        save(scene, scene.read_text(encoding="utf-8").replace('"sat"', '"sang"'))
        expect(problems.first).to_contain_text("“sat”", timeout=10_000)
        page.goto("about:blank")  # the preview stops reading the files before their server stops
    print(f"a saved change showed {shown_after * 1000:.0f} ms after the save")
