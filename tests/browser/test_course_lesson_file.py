"""A lesson a course keeps in its own site (`?embed&lesson-src=URL`): a course page on one origin with a lesson file
of its own (tests/data/course-site/: a pick, an estimate and a computed score on a scene file beside the lesson, a build), the playground on another origin that
allows it with origins=. The learner answers all three, the course page hears each answer, a reload resumes. The
same file with a mistake opens as that mistake (its line, its field, what was expected), never as steps; sent by
postMessage (lessonsLoad), the reply lists it too; a frame that does not allow the course's origin refuses the URL,
naming it. And a shipped lesson loaded as a file is the same lesson as the built one."""

import json

import pytest
from playwright.sync_api import expect

from attention_playground.presets import load_preset
from course_pages import COURSE_SCRIPT, course_page
from lesson_helpers import COURSE_LESSON, LESSONS, answer_in_the_player, lesson_steps, native_verdict, right_answer, wait_for_progress
from page_helpers import sel

pytestmark = pytest.mark.browser

LESSON = COURSE_LESSON.read_text(encoding="utf-8")
SCENE = (COURSE_LESSON.parent / "scenes" / "the-cat-sat.json").read_text(encoding="utf-8")

#: The same file with one mistake: a row that is not a word of the scene.
BROKEN = LESSON.replace('row = "man"\nask = "Which', 'row = "cat"\nask = "Which')
BROKEN_LINE = BROKEN.splitlines().index('row = "cat"') + 1

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our course</title>
<link rel="icon" href="data:,"></head><body>
<iframe id="lesson" src="{site}/index.html?embed&lesson-src={me}/{file}&origins={me}" width="1000" height="900"></iframe>
<script src="course.js"></script></body></html>"""

REFUSING = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our course</title>
<link rel="icon" href="data:,"></head><body>
<iframe id="broken" src="{site}/index.html?embed&lesson-src={me}/lessons/broken/our-lesson.md&origins={me}" width="1000" height="600"></iframe>
<iframe id="refused" src="{site}/index.html?embed&lesson-src={me}/lessons/our-lesson.md&origins=https://elsewhere.example" width="1000" height="400"></iframe>
<script src="course.js"></script></body></html>"""


def course_files(site, page):
    def files(me):
        return {"/": page.format(site=site, me=me, file="lessons/our-lesson.md"), "/course.js": COURSE_SCRIPT,
                "/lessons/our-lesson.md": LESSON, "/lessons/scenes/the-cat-sat.json": SCENE,
                "/lessons/broken/our-lesson.md": BROKEN, "/lessons/broken/scenes/the-cat-sat.json": SCENE}
    return files


def answers_heard(page):
    return [event["data"] for event in page.evaluate("window.heard") if event["data"]["type"] == "attention-playground:answer"]


def test_a_course_lesson_file_is_played_heard_and_resumed_from_another_origin(page, site_url):
    steps = lesson_steps(COURSE_LESSON.stem)
    with course_page(course_files(site_url, PAGE)) as course:
        page.goto(f"{course}/")
        frame = page.frame_locator("#lesson")
        title = frame.locator(sel("lesson-step-title"))
        expect(title).to_have_text(steps[0]["title"], timeout=120_000)
        # The course page asks once (a frame that names its origins tells only those that asked), and hears the rest.
        assert page.evaluate("window.ask('lesson', 'lessonsProgress', {})")["result"]["id"] == "our-lesson"
        # 1: pick the word “man” reads most, as the module computes it on the step's scene.
        scene = load_preset("dog-bites-man")
        answer_in_the_player(frame, {"kind": "pick"}, right_answer(steps[0]["question"], scene))
        page.wait_for_function("window.heard.filter((e) => e.data.type === 'attention-playground:answer').length === 1")
        frame.locator(sel("lesson-next")).click()
        # 2: an estimate on the scene file beside the lesson.
        expect(title).to_have_text(steps[1]["title"])
        ours = json.loads(SCENE)
        expect(frame.locator(sel("lesson-number"))).to_be_visible()
        answer_in_the_player(frame, {"kind": "estimate"}, right_answer(steps[1]["question"], ours))
        page.wait_for_function("window.heard.filter((e) => e.data.type === 'attention-playground:answer').length === 2")
        frame.locator(sel("lesson-next")).click()
        # 3: a score on the same scene, kept from the step before (held back until now).
        expect(title).to_have_text(steps[2]["title"])
        answer_in_the_player(frame, {"kind": "compute"}, right_answer(steps[2]["question"], ours))
        page.wait_for_function("window.heard.filter((e) => e.data.type === 'attention-playground:answer').length === 3")
        frame.locator(sel("lesson-next")).click()
        # 4: the causal mask, built by hand.
        expect(title).to_have_text(steps[3]["title"])
        expect(frame.locator(sel("mask-custom"))).to_be_checked()
        tokens = ["dog", "bites", "man"]
        for row, column in (("dog", "bites"), ("dog", "man"), ("bites", "man")):
            frame.locator(sel("heatmap-cell", row=tokens.index(row), column=tokens.index(column))).click()
        page.wait_for_function("window.heard.filter((e) => e.data.type === 'attention-playground:answer' && e.data.correct).length === 4",
                               timeout=30_000)
        heard = answers_heard(page)
        assert [(event["lesson"], event["step"], event["kind"]) for event in heard] == [
            ("our-lesson", step["id"], step["question"]["kind"]) for step in steps]
        assert all(event["correct"] for event in heard)
        first = native_verdict(steps[0]["question"], scene, heard[0]["answer"])
        assert first["correct"] and heard[0]["score"] == pytest.approx(first["score"])
        # A reload opens the file again, where the learner left it, with every step done.
        page.reload()
        expect(title).to_have_text(steps[3]["title"], timeout=120_000)
        expect(frame.locator(sel("lesson-counter"))).to_have_text("Step 4 of 4 · 4 done")
        reply = page.evaluate("window.ask('lesson', 'lessonsProgress', {})")
        assert reply["ok"] and reply["result"]["id"] == "our-lesson" and len(reply["result"]["done"]) == 4


def test_a_file_with_a_mistake_opens_as_the_mistake_and_a_frame_that_does_not_allow_the_origin_refuses_it(page, site_url):
    with course_page(course_files(site_url, REFUSING)) as course:
        page.goto(f"{course}/")
        broken = page.frame_locator("#broken")
        problems = broken.locator(sel("lesson-file-problems"))
        expect(problems.locator("li")).to_have_count(1, timeout=120_000)
        item = problems.locator("li")
        expect(item).to_contain_text(f"line {BROKEN_LINE}")
        expect(item).to_contain_text("step 1 (who-does-man-read)")
        expect(item).to_contain_text("question.row")
        expect(item).to_contain_text("“cat”")
        expect(broken.locator(sel("lesson-step-title"))).to_be_hidden()
        expect(broken.locator(sel("lesson-pick-word"))).to_have_count(0)
        expect(broken.locator(sel("lesson-next"))).to_be_hidden()  # nothing of a step: no way to one
        # Sent by the course page instead, the same mistake comes back in the reply, and is what the player shows.
        sent = {"markdown": BROKEN, "name": "our-lesson.md", "base": f"{course}/lessons/broken/our-lesson.md"}
        reply = page.evaluate("(params) => window.ask('broken', 'lessonsLoad', params)", sent)
        assert reply["ok"], reply
        [problem] = reply["result"]["problems"]
        assert (problem["line"], problem["step"], problem["field"]) == (BROKEN_LINE, 1, "question.row")
        # Fixed and sent again, it opens at its first step.
        fixed = {**sent, "markdown": LESSON, "step": 1}
        opened = page.evaluate("(params) => window.ask('broken', 'lessonsLoad', params)", fixed)
        assert opened["ok"] and opened["result"]["id"] == "who-does-man-read", opened
        expect(broken.locator(sel("lesson-step-title"))).to_have_text("Who does “man” read?")
        expect(problems).to_be_hidden()
        # The frame that allows only another site names the address it refused, and the way to allow it.
        refused = page.frame_locator("#refused").locator(sel("lesson-file-failed"))
        expect(refused).to_contain_text(f"does not fetch lessons from {course}", timeout=120_000)
        expect(refused).to_contain_text(f"origins={course}")


def test_a_shipped_lesson_loaded_as_a_file_is_the_built_lesson(page, site_url):
    """`#lesson-src=lessons/self-attention-lab.md` (the file dist/ serves beside the page) plays the built lesson."""
    built = lesson_steps("self-attention-lab")
    page.goto(f"{site_url}/index.html#lesson-src=lessons/self-attention-lab.md&step=2")
    now = wait_for_progress(page, lambda p: p["status"] == "ready", timeout=120.0)
    assert (now["id"], now["step"], now["of"]) == ("self-attention-lab", built[1]["id"], len(built))
    listed = page.evaluate("window.attentionPlayground.lessons.list()")
    index = json.loads((LESSONS / "index.json").read_text())
    assert [entry for entry in listed if entry["id"] == "self-attention-lab"] == [e for e in index if e["id"] == "self-attention-lab"]
    # Its question is asked as the built lesson's is, and judged the same.
    assert now["question"]["kind"] == built[1]["question"]["kind"]
    scene = page.evaluate("window.attentionPlayground.getScene()")
    value = right_answer(built[1]["question"], scene)
    verdict = page.evaluate("(value) => window.attentionPlayground.lessons.answer(value)", value)
    assert verdict["correct"] is native_verdict(built[1]["question"], scene, value)["correct"] is True
    # The address names the file and the step, so a reload opens it again there.
    assert page.url.endswith(f"#lesson-src=lessons%2Fself-attention-lab.md&step={built[1]['id']}")
