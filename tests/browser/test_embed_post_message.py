"""A course page drives its playgrounds by postMessage, exactly as a page on another origin would (no reaching into
a frame except to check what it shows): getScene gives the scene on show; setScene replies with compute()'s
result, sends a result event and shows the scene; an invalid scene and a malformed request get an error reply
that says what is wrong; a message that is not a request gets none; the course page's own buttons use the same
protocol; and requests from an origin a frame does not allow are ignored.
"""

import copy

import pytest
from playwright.sync_api import expect

from attention_playground import compute
from embed_helpers import ASK, COURSE_PAGE, LISTEN, REQUEST, ask, assert_same_weights, live_frame
from page_helpers import module_error, preset_scene, sel

#: The dog frame's scene, read in that frame.
SHOWN_SCENE = "window.attentionPlayground.getScene()"


@pytest.fixture
def course_page(embed_page, site_url):
    """The example course page (examples/course-page.html) with both its frames live, the result events of every
    frame collected in `window.playgroundEvents` (LISTEN)."""
    embed_page.goto(site_url + COURSE_PAGE)
    embed_page.evaluate(LISTEN)
    live_frame(embed_page, "frame-dog")
    live_frame(embed_page, "frame-causal")
    return embed_page


def edited_dog_scene():
    """The dog frame's example with "man" given other features ([1, 1] → [0, 1])."""
    edited = preset_scene("dog-bites-man")
    edited["X"][2] = [0, 1]
    return edited


def test_get_scene_gives_the_scene_on_show(course_page):
    scene = preset_scene("dog-bites-man")
    reply = ask(course_page, "frame-dog", "getScene", request_id=1)
    assert reply["id"] == 1 and reply["ok"] is True
    assert reply["result"]["tokens"] == scene["tokens"] and reply["result"]["X"] == scene["X"]


def test_set_scene_replies_with_the_result_sends_a_result_event_and_shows_the_scene(course_page):
    page = course_page
    dog = live_frame(page, "frame-dog")
    edited = edited_dog_scene()
    reply = ask(page, "frame-dog", "setScene", {"scene": edited}, request_id="set-1")
    assert reply["ok"] is True
    assert_same_weights(reply["result"], compute(edited))
    page.wait_for_function(
        "(w) => window.playgroundEvents.some((e) => e.frame === 'frame-dog' && !e.preview && JSON.stringify(e.result.heads[0].weights) === JSON.stringify(w))",
        arg=reply["result"]["heads"][0]["weights"],
    )
    assert dog.evaluate(f"{SHOWN_SCENE}.X[2]") == [0, 1]
    assert ask(page, "frame-dog", "result")["result"]["heads"][0]["weights"] == reply["result"]["heads"][0]["weights"]
    # The other frame is untouched and sent no event for it.
    events = page.evaluate("window.playgroundEvents")
    assert all(e["result"]["tokens"] != edited["tokens"] for e in events if e["frame"] == "frame-causal")


def test_an_invalid_scene_gets_the_modules_message_and_the_frame_keeps_its_scene(course_page):
    page = course_page
    dog = live_frame(page, "frame-dog")
    assert ask(page, "frame-dog", "setScene", {"scene": edited_dog_scene()})["ok"] is True
    kept = dog.evaluate(SHOWN_SCENE)
    bad = copy.deepcopy(preset_scene("dog-bites-man"))
    bad["heads"][0]["Wq"] = bad["heads"][0]["Wq"][:1]
    reply = ask(page, "frame-dog", "setScene", {"scene": bad}, request_id="bad")
    assert reply["ok"] is False and reply["id"] == "bad"
    assert reply["error"]["type"] == "SceneError"
    assert reply["error"]["message"] == module_error(bad)
    assert reply["error"]["field"] == "heads[0].Wq"
    assert dog.evaluate(f"{SHOWN_SCENE}.X[2]") == [0, 1]
    assert dog.evaluate(SHOWN_SCENE) == kept


def test_a_malformed_request_gets_an_error_reply_that_says_what_is_wrong(course_page):
    page = course_page
    scene = preset_scene("dog-bites-man")
    # An unknown method is named.
    reply = ask(page, "frame-dog", "deleteEverything")
    assert reply["ok"] is False and reply["error"]["type"] == "BadRequest" and "deleteEverything" in reply["error"]["message"]
    reply = ask(page, "frame-dog", "setScene", {"scene": "not a scene"})
    assert reply["ok"] is False and "scene object" in reply["error"]["message"]
    reply = ask(page, "frame-dog", "setScene", {})
    assert reply["ok"] is False and reply["error"]["type"] == "BadRequest"
    huge = copy.deepcopy(scene)
    huge["title"] = "x" * 4_000_001  # over the size limit before any work is done on it
    reply = ask(page, "frame-dog", "setScene", {"scene": huge})
    assert reply["ok"] is False and reply["error"]["type"] == "BadRequest" and "limit" in reply["error"]["message"]


def test_a_message_that_is_not_a_request_gets_no_reply(course_page):
    """Other scripts on a page use postMessage too: the frame answers requests only, and only those it can answer."""
    page = course_page
    dog = live_frame(page, "frame-dog")
    assert ask(page, "frame-dog", "setScene", {"scene": edited_dog_scene()})["ok"] is True
    page.evaluate("""() => {
      const frame = document.querySelector('[data-testid="frame-dog"]').contentWindow;
      window.repliesSeen = [];
      window.addEventListener("message", (event) => {
        if (event.source === frame && event.data?.type === "attention-playground:reply") window.repliesSeen.push(event.data.id ?? null);
      });
      frame.postMessage("hello", "*");
      frame.postMessage({ type: "something-else", id: 1 }, "*");
      frame.postMessage({ type: "attention-playground:request", method: "getScene" }, "*");  // no id: nowhere to reply
    }""")
    assert dog.evaluate(f"{SHOWN_SCENE}.X[2]") == [0, 1]
    # The frame handles its messages in turn: once a request sent after them is answered, any reply to them is in.
    assert ask(page, "frame-dog", "getScene", request_id="after")["ok"] is True
    assert page.evaluate("window.repliesSeen") == ["after"]


def test_the_course_pages_own_buttons_use_the_same_protocol(course_page, artifacts):
    page = course_page
    page.click(sel("restore-scene"))  # nothing to restore yet: no change
    page.click(sel("make-man-a-dog"))
    page.wait_for_function("() => document.querySelector('[data-testid=\"frame-dog\"]').contentWindow.attentionPlayground.getScene().X[2].join() === '1,0'")
    expect(page.locator(sel("readout"))).to_contain_text("“man” pays most attention to")
    page.screenshot(path=str(artifacts / "embed-driven-by-post-message.png"), full_page=True)


def test_requests_from_an_origin_not_allowed_are_ignored(embed_page, site_url):
    page = embed_page
    origin = site_url  # the course page's origin, http://127.0.0.1:<port>
    page.goto(site_url + COURSE_PAGE)
    page.evaluate(LISTEN)
    page.evaluate(
        """([origin]) => {
          for (const [testId, origins] of [["frame-strict", "https://a.example,https://b.example"], ["frame-ours", origin]]) {
            const frame = document.createElement("iframe");
            frame.dataset.testid = testId;
            frame.title = testId;
            frame.src = `../index.html?embed&panels=heatmap&origins=${encodeURIComponent(origins)}#preset=dog-bites-man`;
            document.body.append(frame);
          }
        }""",
        [origin],
    )
    strict = live_frame(page, "frame-strict")
    live_frame(page, "frame-ours")

    # The frame that allows only other origins: the request reaches it, and it does not answer.
    strict.evaluate("""() => {
      window.seenIds = [];
      window.addEventListener("message", (event) => window.seenIds.push(event.data?.id));
    }""")
    page.evaluate(
        """() => {
          window.strictReplies = [];
          const frame = document.querySelector('[data-testid="frame-strict"]');
          window.addEventListener("message", (event) => {
            if (event.source === frame.contentWindow && event.data?.type === "attention-playground:reply") window.strictReplies.push(event.data);
          });
          const scene = { title: "should not show", tokens: ["a"], features: ["f"], X: [[1]],
                          heads: [{ name: "h", dims: ["d"], Wq: [[1]], Wk: [[1]], Wv: null }], mask: "none", scale: true };
          frame.contentWindow.postMessage({ type: "attention-playground:request", id: "strict-get", method: "getScene" }, "*");
          frame.contentWindow.postMessage({ type: "attention-playground:request", id: "strict-set", method: "setScene", params: { scene } }, "*");
        }"""
    )
    strict.wait_for_function("() => window.seenIds.includes('strict-set')")
    # Anything the frame did about it would be on its way by now: give it a round trip of the event loop
    # on both sides, then a moment more, and look.
    strict.evaluate("() => new Promise((resolve) => setTimeout(resolve, 500))")
    page.evaluate("() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100)))")
    assert page.evaluate("window.strictReplies") == []
    assert strict.evaluate("window.attentionPlayground.getScene().title") == "dog bites man"
    assert not any(e["frame"] == "frame-strict" for e in page.evaluate("window.playgroundEvents"))

    # The same requests to the frame that lists this page's origin are answered (replies go to that
    # origin only), so it was the origin that made the difference.
    reply = page.evaluate(ASK, ["frame-ours", {"type": REQUEST, "id": "ours-get", "method": "getScene"}])
    assert reply["reply"]["ok"] is True and reply["reply"]["result"]["title"] == "dog bites man"
    assert reply["origin"] == origin
    # Having asked, this page now receives the frame's result events.
    scene = preset_scene("dog-bites-man")
    scene["X"][0] = [1, 1]
    assert ask(page, "frame-ours", "setScene", {"scene": scene})["ok"] is True
    page.wait_for_function("() => window.playgroundEvents.some((e) => e.frame === 'frame-ours' && e.result.tokens[0] === 'dog' && !e.preview)")
