"""The example course page (examples/course-page.html) and a long lesson on another origin, as a reader sees them:
each frame shows the scene and only the panels its address asks for, compact, and is exactly as tall as its
content, growing with it; frames far below the fold are the right height before the reader scrolls to them.
Screenshots go to tests/artifacts/.
"""

import pytest
from playwright.sync_api import expect

from embed_helpers import COURSE_PAGE, INITIAL_FRAME_HEIGHT, ask, live_frame, serve_lesson
from page_helpers import preset_scene, sel


def test_course_page_shows_two_live_playgrounds_that_size_themselves(embed_page, site_url, artifacts):
    page = embed_page
    page.set_viewport_size({"width": 1100, "height": 900})
    page.goto(site_url + COURSE_PAGE)
    dog = live_frame(page, "frame-dog")
    causal = live_frame(page, "frame-causal")

    # Each frame shows the scene its URL names.
    assert dog.evaluate("window.attentionPlayground.getScene().tokens") == preset_scene("dog-bites-man")["tokens"]
    assert causal.evaluate("window.attentionPlayground.getScene().tokens") == preset_scene("causal-exercise")["tokens"]
    expect(dog.locator(sel("scene-title"))).to_have_text("dog bites man")
    expect(causal.locator(sel("heatmap-cell"))).to_have_count(36)

    # Only the panels each URL asks for.
    expect(dog.locator(sel("feature-editor"))).to_be_visible()
    expect(dog.locator(sel("weight-editor"))).to_be_hidden()
    expect(dog.locator(sel("mask-controls"))).to_be_hidden()
    expect(causal.locator(sel("mask-controls"))).to_be_visible()
    expect(causal.locator(sel("feature-editor"))).to_be_hidden()
    for frame in (dog, causal):
        expect(frame.locator("h1")).to_be_hidden()  # compact: no page title inside a lesson
        expect(frame.locator(sel("share-area"))).to_be_hidden()

    # Each <iframe> is exactly as tall as its content: no scrollbar inside the lesson.
    for test_id, frame in (("frame-dog", dog), ("frame-causal", causal)):
        iframe = page.locator(sel(test_id))
        expect(iframe).to_have_attribute("data-resized", "true")
        content_height = frame.evaluate("Math.ceil(document.body.getBoundingClientRect().height)")
        expect(iframe).to_have_attribute("height", str(content_height))
        assert str(content_height) != INITIAL_FRAME_HEIGHT
        assert frame.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")

    # The frame grows when its content does (switching the mask to custom adds nothing; showing a new,
    # taller scene does): set a 12-token scene and the <iframe> follows.
    before = int(page.locator(sel("frame-causal")).get_attribute("height"))
    scene = preset_scene("causal-exercise")
    scene["tokens"] = [f"t{i}" for i in range(12)]
    scene["X"] = scene["X"] * 2
    reply = ask(page, "frame-causal", "setScene", {"scene": scene})
    assert reply["ok"], reply
    page.wait_for_function(f"() => Number(document.querySelector('[data-testid=\"frame-causal\"]').height) > {before}")
    page.screenshot(path=str(artifacts / "embed-course-page.png"), full_page=True)


@pytest.fixture
def lesson_on_another_origin(site_url):
    yield from serve_lesson(site_url)


def test_frames_below_the_fold_are_the_right_height_before_the_reader_scrolls_to_them(lesson_on_another_origin, page, artifacts):
    """Chromium does not draw cross-origin frames that are off screen: their heights must still be right
    before the reader gets there, or the text below each frame jumps when it comes into view."""
    page.set_viewport_size({"width": 1100, "height": 800})
    page.goto(lesson_on_another_origin)
    page.wait_for_function("() => ['first', 'second', 'third'].every((id) => window.live[id])", timeout=180_000)
    # Wait until no frame has changed its height for three seconds: the views under the heatmap draw last, once
    # Python is live and the frame is idle (up to a second's wait), then load. After one quiet second, on a busy
    # machine, the third frame was seen 39 px shorter than its content.
    page.wait_for_function(
        """() => {
          const now = [...document.querySelectorAll('iframe')].map((f) => f.height).join();
          if (window.lastHeights !== now) { window.lastHeights = now; window.stableSince = performance.now(); }
          return performance.now() - window.stableSince > 3000;
        }""", polling=200, timeout=60_000)
    assert page.evaluate("window.scrollY") == 0, "nobody has scrolled yet"
    given = {frame_id: int(page.locator(f"#{frame_id}").get_attribute("height")) for frame_id in ("first", "second", "third")}
    # What each frame needs: its own document's height, read inside it (reading lays it out there).
    needed = {}
    for frame_id in given:
        frame = page.locator(f"#{frame_id}").element_handle().content_frame()
        needed[frame_id] = frame.evaluate("Math.ceil(document.body.getBoundingClientRect().height)")
    assert given == needed, f"heights given {given}, needed {needed}"

    # The reader scrolls down through the lesson: no frame changes height as it comes into view.
    for frame_id in ("second", "third"):
        page.locator(f"#{frame_id}").scroll_into_view_if_needed()
        page.wait_for_timeout(500)  # a drawn frame would report a corrected height within a frame or two
        assert int(page.locator(f"#{frame_id}").get_attribute("height")) == given[frame_id]
    assert {frame_id: page.evaluate("(id) => window.heights[id].at(-1)", frame_id) for frame_id in given} == given
    page.screenshot(path=str(artifacts / "embed-three-frames-bottom.png"))
