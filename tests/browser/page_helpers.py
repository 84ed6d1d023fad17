"""Small helpers the browser tests share: selectors by test id, opening the page live, typing into a cell, the
shipped presets, the module's messages."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from attention_playground import compute
from attention_playground.scene import SceneError

ROOT = Path(__file__).resolve().parents[2]
PRESETS = ROOT / "generated" / "presets"


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


def wait_live(page):
    """Wait until Python is live in the page and the page says so (booting takes seconds on a busy machine)."""
    page.evaluate("window.attentionPlayground.ready")
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")


def open_live(page, url, color_scheme=None, viewport=None):
    """Open the page at `url` (with the system's colour scheme and the window size, if given) and wait until live."""
    if color_scheme:
        page.emulate_media(color_scheme=color_scheme)
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(url)
    wait_live(page)


def type_into(page, locator, text):
    """Select what the cell holds and type `text` over it, key by key, as a learner does."""
    locator.click()
    locator.press("Control+a")
    locator.press_sequentially(text)


def shown_bar_shares(page, row_test_id):
    """How much of its track each bar's fill covers on screen, once every animation has ended: a list of
    (the row's data attributes, share), in the rows' order on the page."""
    return page.evaluate("""async (testId) => {
      await Promise.all(document.getAnimations().map((animation) => animation.finished));
      return [...document.querySelectorAll(`[data-testid="${testId}"]`)].map((row) => {
        const track = row.querySelector(".bar-track").getBoundingClientRect();
        const fill = row.querySelector(".bar-fill").getBoundingClientRect();
        const covered = Math.max(0, Math.min(fill.right, track.right) - Math.max(fill.left, track.left));
        return [{ ...row.dataset }, covered / track.width];
      });
    }""", row_test_id)


def copy_link(page):
    """Click "Copy link" and read the link the page shows."""
    page.locator(sel("copy-link")).click()
    expect(page.locator(sel("share-status"))).not_to_be_empty()
    return page.locator(sel("share-link")).input_value()


def download(page, test_id):
    """Click the control `test_id` and catch what the browser downloads: (its suggested file name, its bytes)."""
    with page.expect_download() as waiting:
        page.locator(sel(test_id)).click()
    saved = waiting.value
    return saved.suggested_filename, Path(saved.path()).read_bytes()


def editor_text(page):
    """The code as the editor holds it, line by line (CodeMirror draws one .cm-line per line)."""
    lines = page.locator(f'{sel("code-editor")} .cm-line').all_inner_texts()
    # An empty line holds a <br>, which reads as "\n".
    return "\n".join(line.rstrip("\n") for line in lines).replace("\u00a0", " ")


def paste_code(page, code):
    """Select everything in the editor and paste `code` over it, as Ctrl+V does: a paste event carrying
    the text, which the editor inserts itself. (Playwright's insert_text would instead let the browser edit
    the DOM directly, with inline styles that the page's Content-Security-Policy rightly refuses.)"""
    page.locator(sel("code-input")).click()
    page.keyboard.press("Control+a")
    page.locator(sel("code-input")).evaluate(
        """(editor, code) => {
            const clipboardData = new DataTransfer();
            clipboardData.setData("text/plain", code);
            editor.dispatchEvent(new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true }));
        }""",
        code,
    )
    assert editor_text(page) == code


def open_every_panel(page):
    """Open and fill every panel of the page, as a learner who tries everything would."""
    page.evaluate("window.attentionPlayground.ready")
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
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
