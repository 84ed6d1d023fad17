"""A learner walks through both lessons from the page's start to their last step, through the player as they
would: clicking a word, typing a number, moving sliders, choosing, typing into Wq and clicking the mask's cells for
the steps that build, pressing Next. Some questions they answer wrongly first: the reveal then shows their answer
beside the page's, and says what the gap means, in the module's own words (computed here natively on the scene
the page shows, never typed into the test). Every answer is counted, and a step is done once answered."""

import re

import pytest
from playwright.sync_api import expect

from attention_playground.lessons.checker import check_lesson
from attention_playground.lessons.questions import check_build
from lesson_helpers import (
    ROOT, answer_in_the_player, lesson_steps, native_verdict, page_scene, progress, right_answer, wait_for_progress, wait_for_verdict,
)
from page_helpers import sel

#: A claim's question trains its pair in the page before it is judged: seconds, more on a busy machine.
TRAINING_SECONDS = 240

# The walk may wait that long for training, on top of the rest of it (test.sh's --timeout is 5 minutes).
pytestmark = [pytest.mark.browser, pytest.mark.timeout(TRAINING_SECONDS + 300)]


def wrong_answer(asked, right):
    """An answer the module will not count right: another word, a number far off, a flat row, another option."""
    kind = asked["kind"]
    if kind == "pick":
        return (right + 1) % len(asked["columns"])
    if kind in ("estimate", "compute"):
        return right + 50 if abs(right) < 10 else right * 2
    if kind == "sketch":
        return [1.0 if i == 0 else 0.0 for i in range(len(asked["columns"]))]
    return next(option["id"] for option in asked["options"] if option["id"] != right)


def wait_for_step(page, number, of):
    """Wait until step `number` is drawn and its question asked."""
    expect(page.locator(sel("lesson-counter"))).to_contain_text(f"Step {number} of {of}")
    wait_for_progress(page, lambda now: now["number"] == number and now["status"] == "ready", what=f"step {number}")


def build_by_hand(page, step):
    """Reach a build step's target by the edits of its solution (the lesson file's), made as a learner makes them."""
    lesson = check_lesson((ROOT / "lessons" / f"{page.lesson_id}.md").read_text(), f"{page.lesson_id}.md")
    block = next(checked.step.block for checked in lesson.steps if checked.id == step["id"])
    scene = page_scene(page)
    for edit in block.data["question"]["solution"]:
        if edit["field"] == "mask":
            if page.locator(sel("mask-custom")).is_checked() is False:
                page.locator(sel("mask-custom")).check()
            row, column = scene["tokens"].index(edit["row"]), scene["tokens"].index(edit["column"])
            page.locator(sel("heatmap-cell", row=row, column=column)).click()
        else:
            row = scene["features"].index(edit["row"])
            column = scene["heads"][0]["dims"].index(edit["column"])
            cell = page.locator(sel(f"{edit['field'].lower()}-cell", row=row, column=column))
            cell.click()
            cell.press("Control+a")
            cell.press_sequentially(str(edit["value"]))


def answer_step(page, step, asked, wrong_first):
    """Answer the step on show: wrongly first when asked to (checking the reveal), then rightly."""
    question = step["question"]
    scene = page_scene(page)
    claim = question.get("measure", {}).get("of") == "claim"

    right = None if claim else right_answer(question, scene)
    attempts = 0
    if wrong_first and not claim:
        wrong = wrong_answer(asked, right)
        answer_in_the_player(page, asked, wrong)
        attempts += 1
        wait_for_verdict(page, step["id"], attempts)
        told = native_verdict(question, scene, progress(page)["answers"][step["id"]]["answer"])  # as submitted
        assert told["correct"] is False
        expect(page.locator(sel("lesson-verdict"))).to_have_text("✗ Not quite.")
        expect(page.locator(sel("lesson-feedback"))).to_have_text(told["feedback"])
        assert page.locator(sel("lesson-your-answer")).inner_text() != page.locator(sel("lesson-expected")).inner_text()
    if claim:
        # A prediction: whichever the learner chooses, the pair trains and the module judges it on the outcome.
        answer_in_the_player(page, asked, asked["options"][0]["id"])
        wait_for_progress(page, lambda now: step["id"] in now["answers"], TRAINING_SECONDS, "the claim's verdict")
        expect(page.locator(sel("lesson-verdict"))).to_be_visible()
        return
    answer_in_the_player(page, asked, right)
    wait_for_verdict(page, step["id"], attempts + 1)
    expect(page.locator(sel("lesson-verdict"))).to_have_text("✓ Right.")
    submitted = progress(page)["answers"][step["id"]]["answer"]  # a slider's or a box's rounding, as the learner sent it
    expect(page.locator(sel("lesson-feedback"))).to_have_text(native_verdict(question, scene, submitted)["feedback"])


def walk(page, lesson_id, wrong_first_every=3):
    """Every step of the lesson, in order, from its first; every third question answered wrongly first."""
    page.lesson_id = lesson_id
    steps = lesson_steps(lesson_id)
    questions = 0
    for index, step in enumerate(steps):
        wait_for_step(page, index + 1, len(steps))
        asked = progress(page)["question"]
        if step["question"] and step["question"]["kind"] == "build":
            if "mask" in step["question"]["fields"]:  # the step opens on the mode its clicks need
                expect(page.locator(sel("mask-custom"))).to_be_checked()
            start = page_scene(page)
            build_by_hand(page, step)
            wait_for_progress(page, lambda now: step["id"] in now["done"], what="the build's target met")
            met = check_build(step["question"], page_scene(page), start)
            assert met["correct"] is True
            expect(page.locator(sel("lesson-build-status"))).to_have_text(met["feedback"])
            expect(page.locator(sel("lesson-build-status"))).to_have_class("lesson-build-status right")
        elif step["question"]:
            # Until it is answered, the weights stay hidden everywhere the page shows them.
            assert page.evaluate("document.body.dataset.lessonHides") == "weights"
            answer_step(page, step, asked, wrong_first=questions % wrong_first_every == 0)
            assert page.evaluate("document.body.dataset.lessonHides ?? null") is None
            questions += 1
        # The step's panels, and only those, are on the page.
        shown = page.evaluate("[...document.querySelectorAll('[data-panel]')].filter((el) => !el.hidden).map((el) => el.dataset.panel)")
        assert set(shown) == set(step["panels"] or shown), (step["id"], shown)
        if index + 1 < len(steps):
            page.locator(sel("lesson-next")).click()
    done = progress(page)
    assert sorted(done["done"]) == sorted(step["id"] for step in steps), "every step done"
    expect(page.locator(sel("lesson-map-step")).last).to_have_class(re.compile(r"\bdone\b"))
    # The map tells a question right at the first try from one right later; the end says how many were which.
    answers = done["answers"]
    first_try = [step for step in steps if step["question"] and answers[step["id"]]["first"]["correct"]]
    for index, step in enumerate(steps):
        mark = "read" if not step["question"] else "first-try" if step in first_try else "later"
        expect(page.locator(sel("lesson-map-step")).nth(index)).to_have_class(re.compile(rf"\bdone {mark}\b"))
    asked = sum(1 for step in steps if step["question"])
    assert 0 < len(first_try) < asked, "every third question was answered wrongly first"
    expect(page.locator(sel("lesson-summary-count"))).to_have_text(
        f"{len(first_try)} of {asked} questions right at the first try; {len(steps)} of {len(steps)} steps done.")


def test_a_learner_walks_through_attention_from_scratch(live_page, artifacts):
    page = live_page
    page.locator(f'{sel("lesson-start-button")}[data-lesson="attention-from-scratch"]').click()
    walk(page, "attention-from-scratch")
    page.screenshot(path=str(artifacts / "lesson-from-scratch-end.png"), full_page=True)


def test_a_learner_walks_through_the_self_attention_lab(live_page, artifacts):
    page = live_page
    page.locator(f'{sel("lesson-start-button")}[data-lesson="self-attention-lab"]').click()
    walk(page, "self-attention-lab")
    page.screenshot(path=str(artifacts / "lesson-lab-end.png"), full_page=True)
