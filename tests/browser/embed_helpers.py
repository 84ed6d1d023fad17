"""What the tests of embedding (test_embed_*.py) share: embedded pages that join one live Python, the frames of a
course page driven by postMessage as a page on another origin drives them, an author's page holding a pasted embed
code, and a lesson page on another origin with three frames, served from its own server.

The course page and the locks are read from a page's address, so their tests open pages of their own; but
embedded pages share one Python (a SharedWorker, as the frames of one course page do), so they open them in a
context where one embedded page keeps that Python live: each such page is new, its storage empty,
and none of them boots Python again (conftest.py's `embed_page`; its context lives for the test process, so the
files that use it pay for one Python between them).
"""

import time

from playwright.sync_api import expect

from course_pages import course_page
from page_helpers import POLL_EVERY_MS, await_ready, sel

COURSE_PAGE = "/examples/course-page.html"
REQUEST = "attention-playground:request"
INITIAL_FRAME_HEIGHT = "520"  # what the course page's <iframe>s say before they are resized


# --- pages that share one Python ----------------------------------------------------------------------------

def python_workers(page):
    """The shared workers (each one Python) running in `page`'s browser context."""
    context_id = page.context.new_cdp_session(page).send("Target.getTargetInfo")["targetInfo"]["browserContextId"]
    targets = page.context.browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
    return [target for target in targets if target["type"] == "shared_worker" and target["browserContextId"] == context_id]


# --- the course page's side of the protocol -----------------------------------------------------------------

def live_frame(page, test_id):
    """The Frame inside the <iframe> with `test_id`, once its playground is live."""
    frame = page.locator(sel(test_id)).element_handle().content_frame()
    frame.wait_for_function("() => window.attentionPlayground !== undefined", polling=POLL_EVERY_MS)
    await_ready(frame)
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


# --- an author's page holding an embed code -----------------------------------------------------------------

def snippet_page(context, snippet):
    """A blank author's page holding `snippet`, as an author pastes it."""
    author = context.new_page()
    author.set_content(f"<!doctype html><html><body><h1>My lesson</h1>{snippet}</body></html>")
    return author


def author_page(context, snippet, html_theme=None):
    author = context.new_page()
    theme = f' data-theme="{html_theme}"' if html_theme else ""
    author.set_content(f"<!doctype html><html{theme}><body><h1>My lesson</h1>{snippet}</body></html>")
    frame = author.locator("iframe").element_handle().content_frame()
    frame.wait_for_function("() => window.attentionPlayground !== undefined", polling=POLL_EVERY_MS)
    await_ready(frame)
    return author, frame


# --- a lesson on another origin -----------------------------------------------------------------------------

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
    with course_page(lambda url: {"/": THREE_FRAMES_PAGE.format(site=site_url), "/record.js": RECORD_FRAMES}) as url:
        yield url + "/"
