"""Embedded playgrounds share one Python: a page that joins the live one boots none and finds nothing the last one
left, and the three frames of one lesson on another origin boot one runtime between them (its WebAssembly and the
module fetched once) while each still gets its own answers, to the last digit.
"""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError, expect

from attention_playground import compute
from conftest import PageProblems, assert_no_problems, open_keeper, page_sharing_python
from embed_helpers import assert_same_weights, python_workers, serve_lesson
from page_helpers import POLL_EVERY_MS, await_ready, preset_scene, sel
from sitebuild import server as dev_server


def test_a_page_sharing_the_python_boots_none_and_finds_nothing_the_last_one_left(shared_python, browser, site_url, page_problems):
    shared_python["problems"].target = page_problems
    if shared_python["broken"]:
        open_keeper(shared_python, browser)
    address = f"{site_url}/index.html?embed&panels=heatmap,features#preset=dog-bites-man"
    drafts = "() => Object.keys(localStorage).filter((key) => /\\/(draft|kept)\\//.test(key))"
    try:
        # One page edits its example, which is saved in the storage the context's pages share.
        first = page_sharing_python(shared_python)
        first.goto(address)
        await_ready(first)
        first.wait_for_function("() => window.attentionPlayground.getScene() !== null", polling=POLL_EVERY_MS)
        cell = first.locator(sel("x-cell", row=0, column=0))
        cell.click()
        first.keyboard.press("Control+a")
        first.keyboard.type("7")
        first.wait_for_function("() => window.attentionPlayground.getScene().X[0][0] === 7", polling=POLL_EVERY_MS)
        first.wait_for_function(f"() => ({drafts})().length > 0", polling=POLL_EVERY_MS)
        first.close()

        # The next finds the example as shipped, nothing saved or put aside, and the same one Python.
        second = page_sharing_python(shared_python)
        second.goto(address)
        await_ready(second)
        expect(second.locator(sel("playground"))).to_have_attribute("data-status", "live")
        second.wait_for_function("() => window.attentionPlayground.getScene() !== null", polling=POLL_EVERY_MS)  # its example arrived
        assert second.evaluate("window.attentionPlayground.getScene().X") == preset_scene("dog-bites-man")["X"]
        assert second.evaluate(drafts) == []
        expect(second.locator(sel("notice"))).to_be_hidden()
        assert len(python_workers(second)) == 1, "the page started a Python of its own"
        second.close()
    except (AssertionError, PlaywrightError):
        shared_python["broken"] = True
        raise
    finally:
        shared_python["problems"].target = PageProblems()
    assert_no_problems(page_problems)


class CountingSiteHandler(dev_server.SiteRequestHandler):
    """The development server, counting the requests for each path (in `paths`, shared by the class)."""

    paths = []

    def do_GET(self):
        CountingSiteHandler.paths.append(urlsplit(self.path).path)
        super().do_GET()


@pytest.fixture
def counted_lesson(built_site):
    """The three-frame lesson, its playground served by a server that counts what each path was asked."""
    CountingSiteHandler.paths = []
    with dev_server.serving(CountingSiteHandler) as site:
        lessons = serve_lesson(site)
        yield next(lessons), CountingSiteHandler.paths
        lessons.close()


def test_the_frames_of_one_lesson_share_one_python(counted_lesson, page):
    lesson, asked = counted_lesson
    page.goto(lesson)
    page.wait_for_function("() => ['first', 'second', 'third'].every((id) => window.live[id])", timeout=180_000)
    # One runtime booted for the three frames: its WebAssembly and the module fetched once, not three times.
    assert asked.count("/vendor/pyodide/pyodide.asm.wasm") == 1, asked
    assert asked.count("/generated/attention_playground.zip") == 1, asked
    # Each frame still gets its own answers, right to the last digit, from the shared Python.
    for frame_id, preset in (("first", "two-heads"), ("second", "dog-bites-man"), ("third", "causal-exercise")):
        frame = page.locator(f"#{frame_id}").element_handle().content_frame()
        scene = preset_scene(preset)
        assert_same_weights(frame.evaluate("(scene) => window.attentionPlayground.setScene(scene)", scene), compute(scene))
