"""Small helpers the browser tests share: selectors by test id, opening the page live, putting a shared page
back as a fresh visitor finds it, typing into a cell, the shipped presets, the module's messages."""

import base64
import json
import math
import re
import zlib
from pathlib import Path

import pytest
from playwright.sync_api import expect

from attention_playground import DEFAULT_PRESET_ID, compute
from attention_playground.scene import SceneError

ROOT = Path(__file__).resolve().parents[2]
PRESETS = ROOT / "generated" / "presets"


#: The default example, "the cat sat on the mat because it was tired", and positions in it: the tokens "it",
#: "cat" and "mat"; rows of Wq are features (noun, animal, pronoun, …), its columns the dims (animal, noun).
DEFAULT_PRESET = "it-animal-noun"
IT, CAT, MAT = 7, 1, 5
PRONOUN, ANIMAL_DIM, NOUN_DIM = 2, 0, 1

#: How often a wait on a frame (or a page behind another) asks again, in ms: `wait_for_function` asks on every animation
#: frame unless told otherwise, and Chromium may give a frame out of sight none, so a frame that went live after the
#: first ask was never asked again (a live frame waited for until the timeout, seen once in some twenty runs).
POLL_EVERY_MS = 100


def sel(test_id, **data):
    """A CSS selector for a data-testid, narrowed by data-* attributes (row=1 → [data-row="1"])."""
    extra = "".join(f'[data-{key.replace("_", "-")}="{value}"]' for key, value in data.items())
    return f'[data-testid="{test_id}"]{extra}'


def preset_scene(preset_id):
    """A preset's scene exactly as the page fetches it."""
    return json.loads((PRESETS / f"{preset_id}.json").read_text())


def module_error(scene):
    """The message the native module gives for `scene` (which must be invalid)."""
    with pytest.raises(SceneError) as raised:
        compute(scene)
    return str(raised.value)


#: How long a page (or a frame) may take to go live before a test fails: booting takes seconds on a busy machine.
LIVE_TIMEOUT_MS = 120_000

# `attentionPlayground.ready`, awaited for at most `ms`: Playwright's evaluate has no time limit of its own, and a page
# that never went live would hold the test run for ever.
READY_WITHIN = """(ms) => Promise.race([window.attentionPlayground.ready, new Promise((_, reject) => setTimeout(() => {
  const said = document.querySelector('[data-testid="boot-stage"]')?.textContent ?? "nothing";
  reject(new Error(`not live after ${ms} ms; the page says: ${said}`));
}, ms))])"""


def await_ready(target, timeout_ms=LIVE_TIMEOUT_MS):
    """Wait until `attentionPlayground.ready` resolves in `target` (a page or a frame); fails if it rejects, or after
    `timeout_ms`."""
    target.evaluate(READY_WITHIN, timeout_ms)


def wait_live(page):
    """Wait until Python is live in the page and the page says so (booting takes seconds on a busy machine)."""
    await_ready(page)
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")


def open_live(page, url, color_scheme=None, viewport=None):
    """Open the page at `url` (with the system's colour scheme and the window size, if given) and wait until live."""
    if color_scheme:
        page.emulate_media(color_scheme=color_scheme)
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(url)
    wait_live(page)


def scene_link_hash(payload, version=4):
    """The hash of a scene link (`#s=<version>.<data>`) for `payload`, made here without the page: its JSON,
    raw-deflated and in base64url without padding, as js/sharing/permalink.js writes them."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = compressor.compress(json.dumps(payload).encode()) + compressor.flush()
    return f"#s={version}.{base64.urlsafe_b64encode(data).decode().rstrip('=')}"


def page_constant(path, name):
    """A number the page's code sets (`const NAME = 600;` in js/`path`), read where it is set."""
    return int(re.search(rf"const {name} = (\d+);", (ROOT / "js" / path).read_text()).group(1))


#: How long the page waits before it speaks a summary of a change.
SUMMARY_DELAY_MS = page_constant("ui/heatmap/weights-table.js", "ANNOUNCE_AFTER_MS")
#: The phone a learner reported from, in CSS pixels (2 device pixels each, touch): `phone_at(**LEARNERS_PHONE)`.
LEARNERS_PHONE = {"width": 390, "height": 844}
#: The window a fresh context opens with (Playwright's default), and the colour scheme it reports.
FRESH_VIEWPORT = {"width": 1280, "height": 720}
FRESH_COLOR_SCHEME = "light"

#: Lines of JavaScript, for an async function run in the page: wait until no animation runs. An animation that a
#: newer one replaces is cancelled and its `finished` promise rejects (AbortError); it has ended all the same, so
#: each is awaited settled, and the page asked again (replacing one may have started another). An animation that
#: repeats for ever (the boot status's pulse) never ends and is not waited for; after 10 s the wait fails, naming
#: what still runs, rather than hold the test for ever.
ANIMATIONS_ENDED = """  {
    const giveUpAt = performance.now() + 10000;
    const endless = (animation) => animation.effect?.getComputedTiming().iterations === Infinity;
    for (let running; (running = document.getAnimations().filter((animation) => animation.playState === "running" && !endless(animation))).length;) {
      if (performance.now() > giveUpAt) {
        throw new Error(`animations still running after 10 s: ${running.map((animation) => animation.animationName ?? "unnamed").join(", ")}`);
      }
      await Promise.race([Promise.allSettled(running.map((animation) => animation.finished)), new Promise((resolve) => setTimeout(resolve, 500))]);
    }
  }
"""

# Put the page back through what the page offers anyone: links in its address (it opens a link pasted into an
# open page) and the browser's own storage. A first link to another example makes the page write what the last
# test left pending (a half-saved edit) on its way out; then saved work is cleared, so the link to the default
# example, every panel shown and none open, finds nothing to put aside; the page then notes that example as the
# one on screen, as it does for a fresh visitor.
RESET_TO_DEFAULT_EXAMPLE = """async ({ away, home, tokens, summaryDelayMs }) => {
  const api = window.attentionPlayground;
  // Each wait below fails after 30 s, saying what it waited for, rather than hold the test for ever.
  const within = (promise, what) => Promise.race([promise, new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`the reset waited 30 s for ${what}`)), 30000))]);
  await within(api.ready, "Python to be live");
  const settled = () => new Promise((resolve) => setTimeout(resolve, 20));
  const until = (holds, what) => within((async () => { while (!holds()) await settled(); })(), what);
  async function open(hash, shown) {
    location.hash = hash;
    // opened, then taken out of the address
    await until(() => !location.hash && shown(api.getScene()), `the link ${hash} to be opened (the address: ${location.href})`);
  }
  document.activeElement?.blur();
  await within(api.lessons.close(), "the lesson to close");  // a lesson left open: the playground whole again
  await open(away, (scene) => scene?.tokens.length !== tokens.length);
  // It follows a new scene into saved work when idle (at most SAVE_DELAY_MS later); a page being hidden writes
  // what it owes at once (saved-work.js), so the test does not wait the delay out.
  window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: false }));
  localStorage.clear();
  sessionStorage.clear();
  await open(home, (scene) => JSON.stringify(scene?.tokens) === JSON.stringify(tokens));
  // Leaving the scene shown "away" saves it at once if it is edited (a link to the example the last test
  // left edited keeps the edits): forget that too, or the next test to pick the example would find them. The
  // pointer to the scene on show stays, as on a fresh visitor's page: it is written once the page has followed
  // the scene, when idle (saved-work.js), which may be before this line or after it.
  for (const key of Object.keys(localStorage)) if (!key.endsWith("/page/current")) localStorage.removeItem(key);
  sessionStorage.clear();
  await until(() => JSON.stringify(api.result()?.tokens) === JSON.stringify(tokens), "the example's result");
""" + ANIMATIONS_ENDED + """  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));  // views drawn a task later
  window.scrollTo(0, 0);
  // The spoken summary of a change waits 600 ms (weights-table.js), and says only what differs from what it said
  // last; a page that has just opened says nothing. Nothing said since the last reset (the summary is empty,
  // after the reset's own change has replaced any summary a test left waiting): what was said last is the
  // example's, so the reset's change says nothing. Else it will be said: wait for it, and take it back.
  const summary = document.querySelector('[data-testid="attention-summary"]');
  if (summary.textContent) {
    await new Promise((resolve) => setTimeout(resolve, summaryDelayMs + 100));
    summary.textContent = "";
  }
}"""


def reset_to_default_example(page):
    """Put a live page back as a fresh visitor finds it, without booting Python again: the default example as
    shipped with every panel closed, no saved work, no notice, nothing focused or hovered, the fresh window size
    and colour scheme. (test_shared_page.py shows that nothing a test does there is left for the next.)"""
    page.mouse.move(-1, -1)
    page.set_viewport_size(FRESH_VIEWPORT)
    page.emulate_media(color_scheme=FRESH_COLOR_SCHEME)
    default = preset_scene(DEFAULT_PRESET_ID)
    home = scene_link_hash({"scene": default, "preset": DEFAULT_PRESET_ID, "edited": False, "view": {"focus": None, "head": 0}})
    page.evaluate(RESET_TO_DEFAULT_EXAMPLE, {"away": "#preset=dog-bites-man", "home": home, "tokens": default["tokens"],
                                             "summaryDelayMs": SUMMARY_DELAY_MS})
    notice = page.locator(sel("notice"))
    if notice.is_visible():
        notice.locator(".notice-close").click()
        expect(notice).to_be_hidden()
    if page.locator(sel("share-menu-button")).get_attribute("aria-expanded") == "true":
        close_share_menu(page)
        page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")  # as the reset above left it
    page.mouse.move(-1, -1)  # off the page: nothing hovered, as before a visitor's first move
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")


def bar_value(page, token_index):
    """The number beside the focused token's bar for `token_index`."""
    return page.locator(f'{sel("bar-row", token_index=token_index)} {sel("bar-value")}')


def cell_value(page, row, column):
    """The number written in heatmap cell (row, column)."""
    return page.locator(sel("heatmap-cell", row=row, column=column)).locator("xpath=following-sibling::*[1]")


def assert_weights_equal(browser_result, native_result, tolerance=1e-12):
    """Every head's weights in the page's result equal the native module's, to `tolerance`."""
    assert len(browser_result["heads"]) == len(native_result["heads"])
    for browser_head, native_head in zip(browser_result["heads"], native_result["heads"]):
        for browser_row, native_row in zip(browser_head["weights"], native_head["weights"], strict=True):
            for got, want in zip(browser_row, native_row, strict=True):
                if want is None:  # nan from the overflow trap crosses as null on both sides
                    assert got is None
                else:
                    assert got is not None and math.isclose(got, want, rel_tol=0, abs_tol=tolerance)


def type_into(page, locator, text):
    """Select what the cell holds and type `text` over it, key by key, as a learner does."""
    locator.click()
    locator.press("Control+a")
    locator.press_sequentially(text)


def shown_bar_shares(page, row_test_id):
    """How much of its track each bar's fill covers on screen, once every animation has ended: a list of
    (the row's data attributes, share), in the rows' order on the page."""
    return page.evaluate("""async (testId) => {
""" + ANIMATIONS_ENDED + """      return [...document.querySelectorAll(`[data-testid="${testId}"]`)].map((row) => {
        const track = row.querySelector(".bar-track").getBoundingClientRect();
        const fill = row.querySelector(".bar-fill").getBoundingClientRect();
        const covered = Math.max(0, Math.min(fill.right, track.right) - Math.max(fill.left, track.left));
        return [{ ...row.dataset }, covered / track.width];
      });
    }""", row_test_id)


def open_share_menu(page):
    """Open "Share and download", under which the links, downloads, scene files and embed code fold away (a learner
    opens it before reaching any of them); an open one stays open."""
    button = page.locator(sel("share-menu-button"))
    if button.get_attribute("aria-expanded") != "true":
        button.click()
    expect(page.locator(sel("share-area"))).to_be_visible()


def close_share_menu(page):
    """Fold "Share and download" away again, as a fresh page has it."""
    button = page.locator(sel("share-menu-button"))
    if button.get_attribute("aria-expanded") == "true":
        button.click()
    expect(page.locator(sel("share-area"))).to_be_hidden()


def copy_link(page):
    """Open "Share and download", click "Copy link" and read the link the page shows."""
    open_share_menu(page)
    page.locator(sel("copy-link")).click()
    expect(page.locator(sel("share-status"))).not_to_be_empty()
    return page.locator(sel("share-link")).input_value()


def download(page, test_id):
    """Click the control `test_id` (under "Share and download", opened first) and catch what the browser downloads:
    (its suggested file name, its bytes)."""
    open_share_menu(page)
    with page.expect_download() as waiting:
        page.locator(sel(test_id)).click()
    saved = waiting.value
    return saved.suggested_filename, Path(saved.path()).read_bytes()


def editor_text(page):
    """The code as the editor holds it, line by line (CodeMirror draws one .cm-line per line)."""
    lines = page.locator(f'{sel("code-editor")} .cm-line').all_inner_texts()
    # An empty line holds a <br>, which reads as "\n".
    return "\n".join(line.rstrip("\n") for line in lines).replace("\u00a0", " ")


def paste_code(page, code, frame=None):
    """Select everything in the editor (of `frame`, if given, a frame of `page`) and paste `code` over it, as
    Ctrl+V does: a paste event carrying the text, which the editor inserts itself. (Playwright's insert_text would
    instead let the browser edit the DOM directly, with inline styles that the page's Content-Security-Policy
    rightly refuses.)"""
    where = frame or page
    where.locator(sel("code-input")).click()
    page.keyboard.press("Control+a")
    where.locator(sel("code-input")).evaluate(
        """(editor, code) => {
            const clipboardData = new DataTransfer();
            clipboardData.setData("text/plain", code);
            editor.dispatchEvent(new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true }));
        }""",
        code,
    )
    assert editor_text(where) == code


def open_every_panel(page):
    """Open and fill every panel of the page, as a learner who tries everything would."""
    await_ready(page)
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    open_share_menu(page)
    page.locator(sel("weights-table-toggle")).click()
    page.locator(sel("step-toggle")).check()
    # Point at a weight: the worked-by-hand box fills with a softmax written out.
    page.locator(f'{sel("step-view")} figure[data-stage="weights"] td[data-row="7"][data-column="1"]').hover()
    expect(page.locator(sel("step-explain"))).to_contain_text("softmax")
    page.locator(sel("exercise-open")).click()
    expect(page.locator(sel("code-input"))).to_be_visible(timeout=90_000)
    page.locator(sel("exercise-run")).click()  # the starter code: checks fail, with messages
    expect(page.locator(sel("exercise-status"))).to_have_attribute("data-outcome", "failed", timeout=90_000)
    page.locator(sel("exercise-hint")).click()
    page.locator(sel("exercise-show-solution")).click()
    expect(page.locator(sel("exercise-solution"))).to_be_visible()
    # The trained model: a head knocked out, the guided contrast shown, then a word it does not know.
    page.locator(sel("model-open")).click()
    expect(page.locator(sel("model-prediction")).first).to_be_visible(timeout=90_000)
    page.locator(sel("model-guided")).click()
    expect(page.locator(sel("model-contrast"))).to_be_visible()
    page.locator(sel("model-head-card", layer=0, head=0)).locator(sel("model-knock-out")).check()
    page.locator(sel("model-words")).fill("the fox mett a crow")
    expect(page.locator(sel("model-error"))).to_be_visible()
