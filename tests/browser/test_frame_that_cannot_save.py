"""A playground in a frame that cannot save, as a learner meets it: a lesson page on another site around a frame of
the playground's site, in a browser that keeps nothing for a site framed by another (Chromium, as the tests run it,
refuses such a frame its storage, as Incognito, Brave and Chrome with third-party cookies blocked do).

The learner edits in the frame and must be told, beside the edit, that nothing is kept, and why; the frame keeps
working and offers a way to keep the work (a link that opens it again, the scene as a file). After a reload the
work is gone, as the frame said it would be. The exercise code and the theme pick say so too.

The lesson page is served for real (a page fulfilled by a route cannot frame 127.0.0.1: Chromium's local network
checks block it) by its own server on 127.0.0.1, reached by the name localhost: another site than the
playground's 127.0.0.1.
"""

import json

import pytest
from playwright.sync_api import expect

from course_pages import course_page
from lesson_helpers import lesson_steps
from page_helpers import POLL_EVERY_MS, sel, type_into, wait_live

# Row 2 ("man"), feature 1 of "dog bites man": a 1 the learner changes to 0.
ROW, COLUMN = 2, 1

LESSON_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson on another site</title><link rel="icon" href="data:,">
<script src="{site}/js/embed-host.js" async></script></head>
<body style="margin: 0; font: 16px/1.5 sans-serif">
<h1>A lesson on another site</h1>
<iframe id="scene" src="{site}/index.html?embed&panels=heatmap,bars,features,weights#preset=dog-bites-man" width="100%"
  height="640" title="dog bites man" data-attention-playground></iframe>
<iframe id="code" src="{site}/index.html?embed&panels=exercise#preset=dog-bites-man" width="100%" height="640"
  title="write it yourself" data-attention-playground></iframe>
</body></html>"""

WHY = "this page is inside another site’s page, and this browser does not let it keep anything"


@pytest.fixture(scope="module")
def lesson_on_another_site(site_url):
    """LESSON_PAGE around frames of the playground at `site_url`, from a server of its own, as http://localhost:P/."""
    with course_page(lambda url: {"/": LESSON_PAGE.format(site=site_url)}) as url:
        yield url.replace("127.0.0.1", "localhost") + "/"


def live_frame(page, frame_id):
    frame = page.locator(f"#{frame_id}").element_handle().content_frame()
    frame.wait_for_function("() => window.attentionPlayground !== undefined", polling=POLL_EVERY_MS)
    wait_live(frame)
    return frame


def storage_refused(frame):
    return frame.evaluate("() => { try { localStorage.getItem('x'); return null; } catch (error) { return error.name; } }")


def test_a_frame_that_cannot_save_says_so_beside_the_edit_and_the_code_typed_and_offers_a_link_and_files(lesson_on_another_site, page, artifacts):
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(lesson_on_another_site)
    frame = live_frame(page, "scene")
    assert storage_refused(frame) == "SecurityError"  # what the browser does to this frame: nothing can be kept
    expect(frame.locator(sel("unsaved-work")).locator("visible=true")).to_have_count(0)  # nothing typed yet

    cell = frame.locator(sel("x-cell", row=ROW, column=COLUMN))
    type_into(frame, cell, "0")
    frame.wait_for_function("([row, column]) => window.attentionPlayground.getScene().X[row][column] === 0", arg=[ROW, COLUMN], polling=POLL_EVERY_MS)

    # Beside the edit, in the panel edited, and in the other editing panel shown: what happens, and why.
    near = frame.locator(f'{sel("feature-editor")} {sel("unsaved-work")}')
    expect(near).to_be_visible()
    expect(near).to_contain_text("Not saved")
    expect(near).to_contain_text(WHY, ignore_case=True)
    expect(frame.locator(f'{sel("weight-editor")} {sel("unsaved-work")}')).to_be_visible()
    line, edited = near.bounding_box(), cell.bounding_box()
    assert abs(line["y"] - edited["y"]) < 600, "the message is within sight of the cell edited"
    page.locator("#scene").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "frame-cannot-save.png"))

    # The frame keeps working: the heatmap follows the edit.
    frame.wait_for_function("([row, column]) => window.attentionPlayground.result().tokens.length === 3", arg=[ROW, COLUMN], polling=POLL_EVERY_MS)
    # A way to keep it: the scene as a file, and a link to it (read back from the page: the frame may not write
    # to the clipboard).
    with page.expect_download() as download:
        near.locator(sel("unsaved-download")).click()
    kept_file = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert kept_file["X"][ROW][COLUMN] == 0
    near.locator(sel("unsaved-copy-link")).click()
    link_field = near.locator(sel("unsaved-link"))
    expect(link_field).to_be_visible()
    link = link_field.input_value()
    site = frame.evaluate("location.origin")
    assert link.startswith(f"{site}/index.html#s="), link  # the full page, where the work can be kept

    # Exercise code typed in the page's other frame: said to be unsaved too, and it can be downloaded.
    code_frame = live_frame(page, "code")
    assert storage_refused(code_frame) == "SecurityError"
    code_frame.locator(sel("exercise-open")).click()
    tab = code_frame.locator(sel("exercise-tab-softmax"))
    expect(tab).to_be_visible(timeout=90_000)
    tab.click()
    code_frame.locator(sel("code-input")).click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\n# my own line")
    notice = code_frame.locator(f'{sel("exercise-panel")} {sel("unsaved-work")}')
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("not saved")
    expect(notice).to_contain_text(WHY, ignore_case=True)
    with page.expect_download() as download:
        notice.locator(sel("unsaved-download-code")).click()
    assert "# my own line" in open(download.value.path(), encoding="utf-8").read()

    # The link gives the work back (opened last: in this Chromium, once another tab of the frames' site has been
    # closed, clicks no longer reach the frames).
    again = page.context.new_page()
    again.goto(link)
    wait_live(again)
    assert again.evaluate("window.attentionPlayground.getScene().X")[ROW][COLUMN] == 0
    again.close()

    # A reload: the frame kept nothing (it had said so).
    page.reload()
    frame = live_frame(page, "scene")
    assert frame.evaluate("window.attentionPlayground.getScene().X")[ROW][COLUMN] == 1
    expect(frame.locator(sel("unsaved-work")).locator("visible=true")).to_have_count(0)


def test_a_page_that_cannot_save_says_so_for_the_theme_pick_too(site_url, page):
    """The full page where the browser refuses all storage: an edit is said to be unsaved (the page's own words,
    not a frame's), and so is the dark mode picked."""
    page.add_init_script("""Object.defineProperty(window, "localStorage", {
        get() { throw new DOMException("Access is denied for this document.", "SecurityError"); } });""")
    page.goto(f"{site_url}/")
    wait_live(page)
    page.locator(sel("theme-toggle")).click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")  # the pick holds for the visit
    expect(page.locator(sel("notice-text"))).to_contain_text("for this visit only")
    type_into(page, page.locator(sel("x-cell", row=ROW, column=COLUMN)), "0")
    near = page.locator(f'{sel("feature-editor")} {sel("unsaved-work")}')
    expect(near).to_be_visible()
    expect(near).to_contain_text("does not let the page save")


LESSON_FRAME_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson on another site</title><link rel="icon" href="data:,">
<script src="{site}/js/embed-host.js" async></script></head>
<body style="margin: 0"><iframe id="lesson" src="{site}/index.html?embed&lesson={lesson}&step={step}" width="100%"
  height="640" title="a lesson's step" data-attention-playground></iframe></body></html>"""


def test_a_lesson_in_a_frame_that_cannot_save_says_so_and_its_answers_can_be_downloaded(site_url, page):
    steps = lesson_steps("attention-from-scratch")
    pick = next(step for step in steps if step["question"] and step["question"]["kind"] == "pick")
    html = LESSON_FRAME_PAGE.format(site=site_url, lesson="attention-from-scratch", step=pick["id"])
    with course_page(lambda url: {"/": html}) as url:
        page.goto(url.replace("127.0.0.1", "localhost") + "/")
        frame = live_frame(page, "lesson")
        assert storage_refused(frame) == "SecurityError"
        frame.locator(sel("lesson-pick-word")).first.click()
        # The answer is judged and shown; the player says it cannot be kept here, and how to keep it.
        expect(frame.locator(sel("lesson-verdict"))).to_be_visible()
        expect(frame.locator(sel("lesson-status"))).to_contain_text("does not let the page keep your progress")
        with page.expect_download() as download:
            frame.locator(sel("lesson-my-answers-json")).click()
        kept = json.loads(open(download.value.path(), encoding="utf-8").read())
        assert kept["answers"][pick["id"]]["attempts"] == 1
