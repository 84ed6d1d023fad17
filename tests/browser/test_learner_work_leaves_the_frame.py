"""What a learner did leaves the frame for the course page around it, and for no other origin: every run of an
exercise's checks as an event ({type: "attention-playground:exercise-result", exercise, passed, checks: [{name,
passed, message}], attempts}), and the learner's work on request (getWork: the scene, the code they typed, their
lessons)."""

import pytest
from playwright.sync_api import expect

from attention_playground.exercises.runner import run_exercise
from course_pages import COURSE_SCRIPT, course_page
from page_helpers import paste_code, sel

pytestmark = pytest.mark.browser

PYTHON_TIMEOUT_MS = 120_000

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title>
<link rel="icon" href="data:,"></head><body>
<iframe id="allowed" src="{site}/index.html?embed&panels=heatmap,exercise&origins={me}" width="900" height="900"></iframe>
<iframe id="refused" src="{site}/index.html?embed&panels=heatmap,exercise&origins=https://elsewhere.example" width="900" height="900"></iframe>
<script src="course.js"></script></body></html>"""

#: The learner's softmax: right on small numbers, caught by the overflow check (no shift by the row's largest).
LEARNER_CODE = """import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x)  # mine: no shift
    return e / e.sum(axis=axis, keepdims=True)
"""


def run_checks_in(frame):
    frame.locator(sel("exercise-open")).click()
    frame.locator(sel("exercise-tab-softmax")).click()
    frame.locator(sel("exercise-run")).click()
    expect(frame.locator(sel("exercise-status"))).to_have_attribute("data-outcome", "failed", timeout=PYTHON_TIMEOUT_MS)


def test_the_course_page_hears_each_run_of_the_checks_and_gets_the_code_typed_and_another_origin_nothing(page, site_url):
    files = lambda me: {"/": PAGE.format(site=site_url, me=me), "/course.js": COURSE_SCRIPT}  # noqa: E731
    with course_page(files) as lesson_page:
        page.goto(f"{lesson_page}/")
        allowed = page.frame_locator("#allowed")
        refused = page.frame_locator("#refused")
        for frame in (allowed, refused):
            expect(frame.locator(sel("playground"))).to_have_attribute("data-status", "live", timeout=PYTHON_TIMEOUT_MS)
        # The course page subscribes to the allowed frame's events by asking it something.
        assert page.evaluate("window.ask('allowed', 'getScene', {})")["ok"] is True
        assert page.evaluate("window.askOrNothing('refused', 'getWork')") == "no reply"

        run_checks_in(refused)  # the starter code: its run is heard by no one here
        frame = page.frame(url=lambda url: "origins=http" in url and "elsewhere" not in url)
        frame.locator(sel("exercise-open")).click()
        frame.locator(sel("exercise-tab-softmax")).click()
        paste_code(page, frame=frame, code=LEARNER_CODE)
        for attempt in (1, 2):
            frame.locator(sel("exercise-run")).click()
            page.wait_for_function(f"window.heard.filter((e) => e.data.type === 'attention-playground:exercise-result').length === {attempt}",
                                   timeout=PYTHON_TIMEOUT_MS)
        work = page.evaluate("window.ask('allowed', 'getWork', {})")
        heard = page.evaluate("window.heard")

    expected = run_exercise("softmax", LEARNER_CODE)
    assert not expected["passed"] and any(check["passed"] for check in expected["checks"]), "some checks pass, not all"
    runs = [event for event in heard if event["data"]["type"] == "attention-playground:exercise-result"]
    assert all(event["frame"] == "allowed" for event in heard), "nothing from the frame that allows another origin"
    for attempts, event in enumerate(runs, start=1):
        assert event["data"] == {
            "type": "attention-playground:exercise-result", "exercise": "softmax", "passed": False, "attempts": attempts,
            "checks": [{"name": check["title"], "passed": check["passed"] is True, "message": check["message"] or ""}
                       for check in expected["checks"]]}
    assert work["ok"] is True, work
    assert work["result"]["exercises"]["code"]["softmax"] == LEARNER_CODE
    assert work["result"]["exercises"]["results"]["softmax"] == {key: value for key, value in runs[-1]["data"].items() if key != "type"}
    assert work["result"]["scene"]["tokens"] and work["result"]["lessons"] == {}
