"""Lessons are not part of the first view's bytes: until a learner opens one, the page asks for none of the
player's code and no lesson's file (only the short list that names them at the start); opening one loads them."""

import pytest

from page_helpers import open_live, sel

pytestmark = pytest.mark.browser

#: What belongs to a lesson opened, never to the first view.
LESSON_PARTS = ("/js/lessons/lessons.js", "/js/lessons/lesson-steps.js", "/js/lessons/lesson-answers.js", "/js/ui/lessons/lesson-panel.js", "/js/ui/lessons/question-forms.js",
                "/generated/lessons/attention-from-scratch.json")


def lesson_requests(urls):
    return sorted({url for url in urls if any(part in url for part in LESSON_PARTS)})


def test_a_lesson_loads_only_when_the_learner_opens_it(page, site_url):
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    open_live(page, f"{site_url}/")
    start = page.locator(f'{sel("lesson-start-button")}[data-lesson="attention-from-scratch"]')
    start.wait_for()  # the start's list is drawn: the page has done its first view's work
    page.wait_for_timeout(500)
    assert lesson_requests(asked) == [], "the first view asked for a lesson's parts"
    start.click()
    page.locator(sel("lesson-step-title")).wait_for()
    loaded = lesson_requests(asked)
    assert any(url.endswith("/js/lessons/lessons.js") for url in loaded), loaded
    assert any(url.endswith("/generated/lessons/attention-from-scratch.json") for url in loaded), loaded
    assert any(url.endswith("/js/ui/lessons/lesson-panel.js") for url in loaded), loaded
