"""Embedding, as a course author does it, in real Chromium with real Pyodide.

The example course page (examples/course-page.html) embeds two playgrounds in <iframe>s; the tests
drive them by postMessage exactly as a page on another origin would (no reaching into the frame except
to check what it shows), lock fields through the URL, copy the embed code from the full page and paste
it into a blank page, unpack the offline zip and serve it with Python's own web server, and reload a
built site with the network off. Screenshots go to tests/artifacts/.

The course page and the locks are read from a page's address, so their tests open pages of their own; but
embedded pages share one Python (a SharedWorker, as the frames of one course page do), so they open them in a
context where one embedded page keeps that Python live (`embed_page`): each such page is new, its storage
empty, and none of them boots Python again. Booting, the offline builds and the frames of a lesson on another
origin keep contexts of their own.
"""

import copy
import json
import http.server
import re
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError, expect

from conftest import ForwardedProblems, PageProblems, assert_no_problems, guarded_page
from sitebuild import csp, paths, runtime, server as dev_server, variants  # noqa: E402
from attention_playground import compute
from page_helpers import module_error, preset_scene, sel

ROOT = Path(__file__).resolve().parents[2]
COURSE_PAGE = "/examples/course-page.html"
REQUEST = "attention-playground:request"
INITIAL_FRAME_HEIGHT = "520"  # what the course page's <iframe>s say before they are resized


# --- pages that share one Python ----------------------------------------------------------------------------

#: The embedded page that keeps the shared Python live while the module's tests open and close theirs.
KEEPER = "/index.html?embed&panels=heatmap#preset=causal-exercise"


@pytest.fixture(scope="module")
def shared_python(browser, site_url):
    """One guarded context for the module in which an embedded page (KEEPER) stays open, so that every embedded
    page opened there joins its Python instead of booting one. Booted again after a test failed in it."""
    shared = {"context": None, "keeper": None, "problems": ForwardedProblems(), "broken": True, "site_url": site_url}
    yield shared
    shared["problems"].target = PageProblems()  # what the pages do while they close belongs to no test
    if shared["context"]:
        shared["context"].close()


def open_keeper(shared, browser):
    if shared["context"]:
        shared["context"].close()
    shared["context"], shared["keeper"] = guarded_page(browser, shared["problems"])
    shared["keeper"].goto(shared["site_url"] + KEEPER)
    shared["keeper"].evaluate("window.attentionPlayground.ready")
    shared["broken"] = False


def page_sharing_python(shared):
    """A new page in the shared context, guarded like the context's others. The storage every page of the
    site shares there is emptied first: a page finds nothing the last one saved."""
    shared["keeper"].evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    new_page = shared["context"].new_page()
    problems = shared["problems"]
    new_page.on("console", lambda message: problems.console_errors.append(message.text) if message.type == "error" else None)
    new_page.on("pageerror", lambda error: problems.page_errors.append(str(error)))
    return new_page


@pytest.fixture
def embed_page(request, shared_python, browser, page_problems):
    """A new page (no address yet) whose embedded playgrounds join the module's live Python; guarded like
    `page` (its problems, and the keeper's, go to this test's `page_problems`)."""
    shared_python["problems"].target = page_problems
    failures_before = request.session.testsfailed
    try:
        if shared_python["broken"]:
            open_keeper(shared_python, browser)
        new_page = page_sharing_python(shared_python)
    except (AssertionError, PlaywrightError):
        shared_python["broken"] = True
        raise
    yield new_page
    new_page.close()  # it writes what it still owed to storage now, which the next page's set-up empties
    shared_python["problems"].target = PageProblems()
    if request.session.testsfailed > failures_before or page_problems.console_errors or page_problems.page_errors:
        shared_python["broken"] = True
    assert_no_problems(page_problems)


def python_workers(page):
    """The shared workers (each one Python) running in `page`'s browser context."""
    context_id = page.context.new_cdp_session(page).send("Target.getTargetInfo")["targetInfo"]["browserContextId"]
    targets = page.context.browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
    return [target for target in targets if target["type"] == "shared_worker" and target["browserContextId"] == context_id]


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
        first.evaluate("window.attentionPlayground.ready")
        first.wait_for_function("() => window.attentionPlayground.getScene() !== null")
        cell = first.locator(sel("x-cell", row=0, column=0))
        cell.click()
        first.keyboard.press("Control+a")
        first.keyboard.type("7")
        first.wait_for_function("() => window.attentionPlayground.getScene().X[0][0] === 7")
        first.wait_for_function(f"() => ({drafts})().length > 0")
        first.close()

        # The next finds the example as shipped, nothing saved or put aside, and the same one Python.
        second = page_sharing_python(shared_python)
        second.goto(address)
        second.evaluate("window.attentionPlayground.ready")
        expect(second.locator(sel("playground"))).to_have_attribute("data-status", "live")
        second.wait_for_function("() => window.attentionPlayground.getScene() !== null")  # its example arrived
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


def live_frame(page, test_id):
    """The Frame inside the <iframe> with `test_id`, once its playground is live."""
    frame = page.locator(sel(test_id)).element_handle().content_frame()
    frame.wait_for_function("() => window.attentionPlayground !== undefined")
    frame.evaluate("window.attentionPlayground.ready")
    expect(frame.locator(sel("playground"))).to_have_attribute("data-status", "live")
    return frame


# The course page's side of the protocol, run in the course page: post one request to a frame and
# resolve with its reply. Result events from every frame are collected in `window.playgroundEvents`.
LISTEN = """() => {
  window.playgroundEvents = [];
  window.addEventListener("message", (event) => {
    if (event.data?.type !== "attention-playground:result") return;
    const frame = [...document.querySelectorAll("iframe")].find((f) => f.contentWindow === event.source);
    window.playgroundEvents.push({ frame: frame?.dataset.testid ?? null, result: event.data.result, preview: event.data.preview });
  });
}"""

ASK = """([testId, message]) => new Promise((resolve) => {
  const frame = document.querySelector(`[data-testid="${testId}"]`);
  const listener = (event) => {
    if (event.source !== frame.contentWindow || event.data?.type !== "attention-playground:reply" || event.data.id !== message.id) return;
    window.removeEventListener("message", listener);
    resolve({ reply: event.data, origin: event.origin });
  };
  window.addEventListener("message", listener);
  frame.contentWindow.postMessage(message, "*");
})"""


def ask(page, test_id, method, params=None, request_id=None):
    message = {"type": REQUEST, "id": request_id or f"{method}-{time.monotonic_ns()}", "method": method}
    if params is not None:
        message["params"] = params
    return page.evaluate(ASK, [test_id, message])["reply"]


def weights_of(result):
    return [head["weights"] for head in result["heads"]]


def assert_same_weights(got, want, tolerance=1e-12):
    for got_head, want_head in zip(weights_of(got), weights_of(want), strict=True):
        for got_row, want_row in zip(got_head, want_head, strict=True):
            for a, b in zip(got_row, want_row, strict=True):
                assert (a is None and b is None) or abs(a - b) <= tolerance


# --- the course page ----------------------------------------------------------------------------------------


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


def test_course_page_drives_a_playground_by_post_message(embed_page, site_url, artifacts):
    page = embed_page
    page.goto(site_url + COURSE_PAGE)
    page.evaluate(LISTEN)
    dog = live_frame(page, "frame-dog")
    live_frame(page, "frame-causal")
    scene = preset_scene("dog-bites-man")

    # getScene: the scene on show, in the scene format.
    reply = ask(page, "frame-dog", "getScene", request_id=1)
    assert reply["id"] == 1 and reply["ok"] is True
    assert reply["result"]["tokens"] == scene["tokens"] and reply["result"]["X"] == scene["X"]

    # setScene: the reply is compute()'s result, a result event follows, and the frame shows the scene.
    edited = copy.deepcopy(scene)
    edited["X"][2] = [0, 1]  # "man" was [1, 1]
    reply = ask(page, "frame-dog", "setScene", {"scene": edited}, request_id="set-1")
    assert reply["ok"] is True
    assert_same_weights(reply["result"], compute(edited))
    page.wait_for_function(
        "(w) => window.playgroundEvents.some((e) => e.frame === 'frame-dog' && !e.preview && JSON.stringify(e.result.heads[0].weights) === JSON.stringify(w))",
        arg=reply["result"]["heads"][0]["weights"],
    )
    assert dog.evaluate("window.attentionPlayground.getScene().X[2]") == [0, 1]
    assert ask(page, "frame-dog", "result")["result"]["heads"][0]["weights"] == reply["result"]["heads"][0]["weights"]
    # The other frame is untouched and sent no event for it.
    events = page.evaluate("window.playgroundEvents")
    assert all(e["result"]["tokens"] != edited["tokens"] for e in events if e["frame"] == "frame-causal")

    # An invalid scene: an error reply carrying the module's own message, and the frame keeps its scene.
    bad = copy.deepcopy(scene)
    bad["heads"][0]["Wq"] = bad["heads"][0]["Wq"][:1]
    reply = ask(page, "frame-dog", "setScene", {"scene": bad}, request_id="bad")
    assert reply["ok"] is False and reply["id"] == "bad"
    assert reply["error"]["type"] == "SceneError"
    assert reply["error"]["message"] == module_error(bad)
    assert reply["error"]["field"] == "heads[0].Wq"
    assert dog.evaluate("window.attentionPlayground.getScene().X[2]") == [0, 1]

    # Malformed requests get an error reply; an unknown method is named.
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
    # Messages that are not requests (other scripts on the page use postMessage too) get no reply at all.
    page.evaluate("""() => {
      const frame = document.querySelector('[data-testid="frame-dog"]').contentWindow;
      frame.postMessage("hello", "*");
      frame.postMessage({ type: "something-else", id: 1 }, "*");
      frame.postMessage({ type: "attention-playground:request", method: "getScene" }, "*");  // no id: nowhere to reply
    }""")
    assert dog.evaluate("window.attentionPlayground.getScene().X[2]") == [0, 1]

    # The course page's own buttons use the same protocol.
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


# --- locks ---------------------------------------------------------------------------------------------------


def test_locked_fields_are_read_only_and_cannot_be_changed(embed_page, site_url, artifacts):
    page = embed_page
    page.goto(f"{site_url}/index.html?embed&lock=X,Wq,mask#preset=dog-bites-man")
    page.evaluate("window.attentionPlayground.ready")
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    expect(page.locator(sel("scene-title"))).to_have_text("dog bites man")
    scene_before = page.evaluate("window.attentionPlayground.getScene()")

    # A learner clicks a locked X cell and types: the cell is read-only and nothing changes.
    x_cell = page.locator(sel("x-cell", row=0, column=0))
    x_cell.click()
    expect(page.locator(sel("x-cell", row=0, column=0))).to_have_js_property("readOnly", True)
    page.keyboard.press("Control+a")
    page.keyboard.type("7")
    expect(page.locator(sel("x-cell", row=0, column=0))).to_have_value(str(scene_before["X"][0][0]))
    wq_cell = page.locator(sel("wq-cell", row=0, column=0))
    wq_cell.click()
    expect(page.locator(sel("wq-cell", row=0, column=0))).to_have_js_property("readOnly", True)
    page.keyboard.type("9")
    expect(page.locator(sel("token-name", row=0))).to_have_js_property("readOnly", False)  # tokens not locked
    for mode in ("none", "causal", "custom"):
        expect(page.locator(sel(f"mask-{mode}"))).to_be_disabled()
    expect(page.locator(sel("add-feature"))).to_be_disabled()

    # Even an input event that gets past the read-only inputs (a script, a browser extension) is refused.
    page.evaluate("""() => {
      const cell = document.querySelector('[data-testid="x-cell"][data-row="1"][data-column="0"]');
      cell.focus();
      const input = document.querySelector('[data-testid="x-cell"][data-row="1"][data-column="0"]');
      input.readOnly = false;
      input.value = "5";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }""")
    assert page.evaluate("window.attentionPlayground.getScene()") == scene_before

    # A field that is not locked still edits as usual, and recomputes.
    wk_cell = page.locator(sel("wk-cell", row=0, column=0))
    wk_cell.click()
    page.keyboard.press("Control+a")
    page.keyboard.type("3")
    page.wait_for_function("() => window.attentionPlayground.getScene().heads[0].Wk[0][0] === 3")
    page.wait_for_function("() => window.attentionPlayground.result().heads[0].stages.K[0][0] === 3")
    after = page.evaluate("window.attentionPlayground.getScene()")
    assert after["X"] == scene_before["X"] and after["heads"][0]["Wq"] == scene_before["heads"][0]["Wq"]
    assert after["mask"] == scene_before["mask"]
    page.locator(sel("x-cell", row=0, column=0)).focus()
    page.screenshot(path=str(artifacts / "embed-locked-fields.png"), full_page=True)


def test_locked_fields_say_they_are_locked(embed_page, site_url, artifacts):
    """A greyed cell that ignores typing must say why: a visible note in its panel, and an accessible name
    ending in "locked by this page"."""
    page = embed_page
    page.goto(f"{site_url}/index.html?embed&lock=X,Wq#preset=dog-bites-man")
    page.evaluate("window.attentionPlayground.ready")
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    feature_note = page.locator(f'{sel("feature-editor")} {sel("lock-note")}')
    expect(feature_note).to_be_visible()
    # X's cells are here, and Wq's reach here too: a feature is a column of X and a row of Wq, so neither
    # "+ feature" nor "× feature" can be used.
    expect(feature_note).to_contain_text("Locked by this page: X, Wq. The greyed controls cannot be changed here")
    expect(page.locator(f'{sel("weight-editor")} {sel("lock-note")}')).to_contain_text("Locked by this page: Wq.")
    expect(page.locator(sel("add-feature"))).to_have_accessible_name(re.compile("locked by this page$"))
    # Every locked cell is named as locked, drawn or being edited; an unlocked one is not.
    expect(page.locator(sel("x-cell", row=0, column=1))).to_have_accessible_name(re.compile(r"^.+ of “dog”, locked by this page$"))
    expect(page.locator(sel("wq-cell", row=1, column=0))).to_have_accessible_name(re.compile(r"locked by this page$"))
    expect(page.locator(sel("wk-cell", row=1, column=0))).not_to_have_accessible_name(re.compile("locked"))
    cell = page.locator(sel("x-cell", row=0, column=1))
    cell.click()
    expect(page.locator(sel("x-cell", row=0, column=1))).to_have_accessible_name(re.compile(r"^.+ of “dog”, locked by this page$"))
    expect(page.locator(sel("x-cell", row=0, column=1))).to_have_attribute("title", re.compile("^Locked by this page"))
    # Typing into it changes nothing, and the note says that this cell is locked.
    page.keyboard.type("7")
    expect(page.locator(sel("x-cell", row=0, column=1))).to_have_value("0")
    expect(feature_note).to_contain_text("This one, f1 of “dog”, is locked by this page: it cannot be changed here.")
    page.locator(sel("feature-editor")).screenshot(path=str(artifacts / "embed-locked-note.png"))


def test_the_positions_switch_can_be_locked(embed_page, site_url):
    page = embed_page
    page.goto(f"{site_url}/index.html?embed&panels=heatmap,experiments&lock=positions#preset=it-animal-noun")
    page.evaluate("window.attentionPlayground.ready")
    page.locator(sel("experiment-tab-order")).click()
    toggle = page.locator(sel("positions-toggle"))
    expect(toggle).to_be_disabled()
    expect(toggle).to_have_accessible_name(re.compile("locked by this page$"))
    expect(page.locator(f'{sel("experiments")} {sel("lock-note")}')).to_contain_text("Locked by this page: the positions.")
    # Even by script, the edit is refused.
    page.evaluate("""() => { const box = document.querySelector('[data-testid="positions-toggle"]');
                             box.disabled = false; box.click(); }""")
    assert page.evaluate("window.attentionPlayground.getScene().positions ?? 'none'") == "none"


def test_every_control_that_edits_names_its_edit_and_every_edit_its_lockable_fields(live_page):
    """Locks reach controls through the table of edits (scene/edits.js), so each must be complete: every control
    on the page that changes the scene says which edit it makes, and every edit names fields that can be locked."""
    page = live_page
    page.locator(sel("mask-custom")).check()
    page.locator(sel("wv-onehot")).uncheck()  # Wv as a matrix: its cells and its value dims' controls
    expect(page.locator(sel("value-dim-name")).first).to_be_attached()
    page.locator(sel("positions-toggle")).wait_for(state="attached")  # the experiments, mounted once live
    found = page.evaluate("""async () => {
      const { EDIT_KINDS, LOCKABLE_FIELDS, fieldsEditedBy } = await import("/js/scene/edits.js");
      const controls = [...document.querySelectorAll("[data-edit]")].map((control) =>
        ({ kind: control.dataset.edit, matrix: control.dataset.matrix ?? null }));
      const named = new Set();
      for (const kind of Object.keys(EDIT_KINDS)) {
        for (const matrix of kind === "cell" ? ["X", "Wq", "Wk", "Wv"] : [null]) {
          for (const field of fieldsEditedBy({ kind, matrix })) named.add(field);
        }
      }
      return { kinds: Object.keys(EDIT_KINDS), lockable: [...LOCKABLE_FIELDS], named: [...named], controls };
    }""")
    assert sorted(found["named"]) == sorted(found["lockable"]), "every lockable field is changed by some edit, and only those"
    used = {control["kind"] for control in found["controls"]}
    assert used <= set(found["kinds"]), used - set(found["kinds"])
    # The page's controls make every kind of edit but the heatmap's own: a custom mask's cells, which are not
    # controls (a click there masks a read, or focuses a row).
    assert set(found["kinds"]) - used == {"toggle-mask"}, set(found["kinds"]) - used
    assert all(control["matrix"] in ("X", "Wq", "Wk", "Wv") for control in found["controls"] if control["kind"] == "cell")


def test_locks_hold_for_every_way_a_learner_can_replace_the_scene(embed_page, site_url):
    """With X and Wq locked, the panels the author shows beside them (the example picker, the experiments, the
    heads) must not bring in another scene; a scene file dropped on the frame neither. The course page itself
    may still set a scene."""
    page = embed_page
    panels = "presets,heatmap,bars,features,weights,heads,experiments"
    page.goto(f"{site_url}/index.html?embed&panels={panels}&lock=X,Wq#preset=it-animal-noun")
    page.evaluate("window.attentionPlayground.ready")
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    expect(page.locator(sel("experiment-tab-one-thing"))).to_be_visible()
    locked_scene = page.evaluate("window.attentionPlayground.getScene()")
    notice = page.locator(sel("notice-text"))

    # The example picker.
    page.locator(sel("preset-picker")).select_option("dog-bites-man")
    expect(notice).to_contain_text("This page keeps X and Wq as they are")
    expect(page.locator(sel("preset-picker"))).to_have_value("it-animal-noun")
    assert page.evaluate("window.attentionPlayground.getScene()") == locked_scene

    # "Load the two-heads example" in the heads panel.
    page.locator(sel("load-two-heads")).click()
    expect(notice).to_contain_text("the example “two heads")
    assert page.evaluate("window.attentionPlayground.getScene()") == locked_scene

    # The variations rewrite Wq: their buttons are locked, and say so; an edit sent anyway is refused.
    expect(page.locator(sel("variation-strength-8"))).to_be_disabled()
    expect(page.locator(sel("variation-strength-8"))).to_have_accessible_name(re.compile("locked by this page$"))
    page.locator(sel("variation-strength-8")).evaluate("(button) => { button.disabled = false; button.click(); }")
    assert page.evaluate("window.attentionPlayground.getScene()") == locked_scene

    # Shuffling the words moves the rows of X.
    page.locator(sel("experiment-tab-order")).click()
    page.locator(sel("shuffle-button")).click()
    expect(page.locator(sel("shuffle-check"))).to_contain_text("Could not shuffle: This page keeps X as they are")
    assert page.evaluate("window.attentionPlayground.getScene()") == locked_scene

    # A scene file dropped on the frame.
    transfer = page.evaluate_handle(
        """text => { const transfer = new DataTransfer();
                     transfer.items.add(new File([text], "mine.json", {type: "application/json"})); return transfer; }""",
        json.dumps(preset_scene("dog-bites-man")),
    )
    page.dispatch_event(sel("heatmap-panel"), "drop", {"dataTransfer": transfer})
    expect(notice).to_contain_text("“mine.json” would change them")
    assert page.evaluate("window.attentionPlayground.getScene()") == locked_scene

    # The author's own page may change the scene: setScene is not the learner's doing.
    dog = preset_scene("dog-bites-man")
    page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", dog)
    assert page.evaluate("window.attentionPlayground.getScene()")["tokens"] == dog["tokens"]


# --- "Copy embed code" ---------------------------------------------------------------------------------------


def snippet_page(context, snippet):
    """A blank author's page holding `snippet`, as an author pastes it."""
    author = context.new_page()
    author.set_content(f"<!doctype html><html><body><h1>My lesson</h1>{snippet}</body></html>")
    return author


def test_copy_embed_code_gives_a_snippet_that_works_in_another_page(live_page, site_url, page_problems, artifacts):
    page = live_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    try:
        copy_embed_code_and_paste_it(page, site_url, artifacts)
    finally:
        page.context.clear_permissions()  # the shared page's next test finds the clipboard as a visitor's


def copy_embed_code_and_paste_it(page, site_url, artifacts):
    page.select_option(sel("preset-picker"), "dog-bites-man")
    expect(page.locator(sel("scene-title"))).to_have_text("dog bites man")
    page.click(sel("copy-embed-code"))
    expect(page.locator(sel("embed-code-status"))).to_contain_text("Copied")
    snippet = page.locator(sel("embed-code")).input_value()
    assert page.evaluate("navigator.clipboard.readText()") == snippet
    assert f'src="{site_url}/index.html?embed#preset=dog-bites-man"' in snippet
    assert f'<script src="{site_url}/js/embed-host.js" async></script>' in snippet
    page.screenshot(path=str(artifacts / "embed-copy-code.png"))

    # An edited scene travels whole, in a permalink.
    page.locator(sel("x-cell", row=2, column=1)).click()
    page.keyboard.press("Control+a")
    page.keyboard.type("0")
    page.wait_for_function("() => window.attentionPlayground.getScene().X[2][1] === 0")
    page.click(sel("copy-embed-code"))
    expect(page.locator(sel("embed-code"))).to_have_value(re.compile(re.escape("#s=")))
    edited_snippet = page.locator(sel("embed-code")).input_value()

    for code, expect_x in ((snippet, [1, 1]), (edited_snippet, [1, 0])):
        author = snippet_page(page.context, code)
        try:
            frame_element = author.locator("iframe")
            frame = frame_element.element_handle().content_frame()
            frame.wait_for_function("() => window.attentionPlayground !== undefined")
            frame.evaluate("window.attentionPlayground.ready")
            frame.wait_for_function("(x) => JSON.stringify(window.attentionPlayground.getScene()?.X[2]) === JSON.stringify(x)", arg=expect_x)
            expect(frame.locator(sel("scene-title"))).to_have_text("dog bites man")
            expect(frame_element).to_have_attribute("data-resized", "true")
            author.screenshot(path=str(artifacts / "embed-snippet-in-a-blank-page.png"), full_page=True)
        finally:
            author.close()  # it is a page of the shared page's context


# --- offline: the service worker and the zip ----------------------------------------------------------------


def test_built_site_reloads_and_goes_live_with_the_network_off(page, site_url):
    page.goto(f"{site_url}/dist/index.html")
    page.evaluate("window.attentionPlayground.ready")
    # The service worker installs once the page is live and idle; `ready` resolves when it is active,
    # that is, when everything is in its cache.
    scope = page.evaluate("navigator.serviceWorker.ready.then((registration) => registration.scope)")
    assert scope == f"{site_url}/dist/"
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    cache_names = page.evaluate("caches.keys()")
    assert len(cache_names) == 1 and cache_names[0].startswith("attention-playground-pyodide-0.27.7-")

    page.context.set_offline(True)
    try:
        page.reload()
        page.evaluate("window.attentionPlayground.ready")
        expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
        # Still computing offline: a new scene goes through Python.
        dog = preset_scene("dog-bites-man")
        result = page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", dog)
        assert_same_weights(result, compute(dog))
        # And an embedded frame of the same site works offline too.
        page.goto(f"{site_url}/dist/index.html?embed&panels=heatmap#preset=causal-exercise")
        page.evaluate("window.attentionPlayground.ready")
        expect(page.locator(sel("heatmap-cell"))).to_have_count(36)
    finally:
        page.context.set_offline(False)


# --- frames below the fold, on another origin --------------------------------------------------------------

# A lesson page on another origin than the playground (as on a course platform): three frames, the second and
# third far below the fold. It records which frames have gone live (their first result event that is not the
# preview) and every height each frame was given.
THREE_FRAMES_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A long lesson</title><link rel="icon" href="data:,">
<script src="{site}/js/embed-host.js" async></script></head>
<body style="margin: 0; font: 16px/1.5 sans-serif">
<h1>A long lesson</h1><p style="height: 300px">The first part of the lesson.</p>
<iframe id="first" src="{site}/index.html?embed#preset=dog-bites-man" width="100%" height="520"
  title="dog bites man" data-attention-playground></iframe>
<p style="height: 1500px">A long passage to read between the frames.</p>
<iframe id="second" src="{site}/index.html?embed&panels=heatmap,bars,controls#preset=causal-exercise" width="100%"
  height="520" title="causal" data-attention-playground></iframe>
<p style="height: 1500px">Another long passage.</p>
<iframe id="third" src="{site}/index.html?embed&panels=heatmap,bars,features,weights,steps#preset=it-animal-noun"
  width="100%" height="520" title="it" data-attention-playground></iframe>
<p>The end of the lesson.</p>
<script src="record.js"></script>
</body></html>"""

RECORD_FRAMES = """window.live = {};
window.heights = {};
addEventListener("message", (event) => {
  const frame = [...document.querySelectorAll("iframe")].find((f) => f.contentWindow === event.source);
  if (!frame) return;
  if (event.data?.type === "attention-playground:result" && !event.data.preview) window.live[frame.id] = true;
  // embed-host.js sets the height on the same message; read it once it has.
  if (event.data?.type === "attention-playground:resize") setTimeout(() => (window.heights[frame.id] ??= []).push(Number(frame.height)));
});"""


def serve_lesson(site_url):
    """THREE_FRAMES_PAGE for the playground at `site_url`, from its own server on 127.0.0.1 (another port:
    another origin), until the generator is closed; yields its URL."""
    files = {"/": THREE_FRAMES_PAGE.format(site=site_url).encode(), "/record.js": RECORD_FRAMES.encode()}

    class LessonHandler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = files.get(self.path)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript" if self.path.endswith(".js") else "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    with dev_server.serving(LessonHandler) as url:
        yield url + "/"


@pytest.fixture
def lesson_on_another_origin(site_url):
    yield from serve_lesson(site_url)


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


def test_frames_below_the_fold_are_the_right_height_before_the_reader_scrolls_to_them(lesson_on_another_origin, page, artifacts):
    """Chromium does not draw cross-origin frames that are off screen: their heights must still be right
    before the reader gets there, or the text below each frame jumps when it comes into view."""
    page.set_viewport_size({"width": 1100, "height": 800})
    page.goto(lesson_on_another_origin)
    page.wait_for_function("() => ['first', 'second', 'third'].every((id) => window.live[id])", timeout=180_000)
    # Wait until no frame has changed its height for a second (the views under the heatmap draw last).
    page.wait_for_function(
        """() => {
          const now = [...document.querySelectorAll('iframe')].map((f) => f.height).join();
          if (window.lastHeights !== now) { window.lastHeights = now; window.stableSince = performance.now(); }
          return performance.now() - window.stableSince > 1000;
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


# The server fixture comes first so that it is torn down after the page: the page keeps loading the views it
# imports when idle, and a server gone under it would show up as console errors.
def test_offline_zip_unpacked_and_served_goes_live_with_only_its_own_files(unpacked_zip_server, page):
    paths = []
    page.on("request", lambda request: paths.append(urlsplit(request.url)))
    page.goto(unpacked_zip_server + "index.html")
    page.evaluate("window.attentionPlayground.ready")
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    dog = preset_scene("dog-bites-man")
    assert_same_weights(page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", dog), compute(dog))
    base = urlsplit(unpacked_zip_server)
    assert all(url.netloc == base.netloc and url.path.startswith(base.path) for url in paths), "the zip's site asked for files outside itself"
    # Embed mode works from the zip too.
    page.goto(unpacked_zip_server + "index.html?embed&panels=heatmap,bars#preset=dog-bites-man")
    page.evaluate("window.attentionPlayground.ready")
    expect(page.locator(sel("scene-title"))).to_have_text("dog bites man")


# --- the CDN build -------------------------------------------------------------------------------------------


@pytest.fixture
def cdn_site_url(built_site):
    """dist-cdn/, built as `build.py --cdn` builds it, served the way its README asks a static host to: with
    the response headers its `_headers` file lists (the worker's Content-Security-Policy)."""
    runtime_files = [path.name for path in runtime.VENDOR_DIR.iterdir() if path.is_file()]
    policy = csp.content_security_policy([variants.cdn_origin(runtime.CDN_URL)])
    variants.write_cdn_site(paths.DIST_DIR, paths.CDN_DIR, runtime.CDN_URL, runtime.PYODIDE_VERSION, runtime_files, header_policy=policy)
    headers_file = (paths.CDN_DIR / variants.HEADERS_FILE).read_text().splitlines()
    headers = [line.strip().split(": ", 1) for line in headers_file[1:] if line.strip()]

    class CdnSiteHandler(http.server.SimpleHTTPRequestHandler):
        extensions_map = dev_server.SiteRequestHandler.extensions_map

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(paths.CDN_DIR), **kwargs)

        def end_headers(self):
            for name, value in headers:
                self.send_header(name, value)
            super().end_headers()

        def log_message(self, *args):
            pass

    with dev_server.serving(CdnSiteHandler) as url:
        yield url + "/"


def test_cdn_build_loads_the_runtime_from_the_cdn_address(cdn_site_url, page, page_problems):
    # (cdn_site_url first: its server must outlive the page)
    # The CDN cannot be reached from here, so its address is answered with the same pinned files: what
    # this checks is that the CDN build asks for the runtime there, its policy lets it, and it goes live.
    served = []

    def from_the_pinned_copy(route):
        name = urlsplit(route.request.url).path.rsplit("/", 1)[-1]
        served.append(name)
        types = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json"}
        route.fulfill(
            status=200,
            path=runtime.VENDOR_DIR / name,  # read by the driver itself: 10 MB never cross from Python
            headers={"Content-Type": types.get(Path(name).suffix, "application/octet-stream"), "Access-Control-Allow-Origin": "*"},
        )

    page.context.route(runtime.CDN_URL + "**", from_the_pinned_copy)
    page.goto(cdn_site_url + "index.html")
    page.evaluate("window.attentionPlayground.ready")
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    assert {"pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip"} <= set(served)
    assert any(name.startswith("numpy-") for name in served)
    # Its service worker installs too, keeping the CDN's files beside the site's own.
    page.evaluate("navigator.serviceWorker.ready")
    # The only requests that left 127.0.0.1 went to the CDN.
    assert page_problems.foreign_requests and all(url.startswith(runtime.CDN_URL) for url in page_problems.foreign_requests)
    page_problems.foreign_requests.clear()
