"""A course author keeps a frame short: "Copy embed code" says how tall each panel is and how tall the frame will
be, and offers the compact panels of the example on show; pasted into a lesson, the frame is as tall as it said.

The example is the causal exercise: its three 32 × 32 projections in the weight editor make a frame of the default panels
thousands of pixels tall.
"""

import re

from playwright.sync_api import expect

from page_helpers import POLL_EVERY_MS, await_ready, open_share_menu, sel

EXAMPLE = "causal-exercise"
COMPACT = ["controls", "notes", "heatmap", "bars"]  # the mask, the note, the weights and the focused row


def stated_height(page):
    return int(page.locator(sel("embed-frame-height")).get_attribute("data-height"))


def frame_height_in_a_lesson(context, snippet):
    """The height embed-host.js gives the frame of `snippet` in a blank lesson page, once Python has drawn it."""
    author = context.new_page()
    try:
        author.set_viewport_size({"width": 1280, "height": 720})
        author.set_content(f"<!doctype html><html><body style='margin:0'>{snippet}</body></html>")
        frame_element = author.locator("iframe")
        frame = frame_element.element_handle().content_frame()
        frame.wait_for_function("() => window.attentionPlayground !== undefined", polling=POLL_EVERY_MS)
        await_ready(frame)
        expect(frame_element).to_have_attribute("data-resized", "true")
        frame.wait_for_function("() => document.documentElement.scrollHeight <= window.innerHeight", polling=POLL_EVERY_MS)
        return int(frame_element.get_attribute("height"))
    finally:
        author.close()  # a page of the shared page's context


def test_the_embed_code_says_each_frames_height_and_offers_a_compact_one(live_page):
    page = live_page
    page.select_option(sel("preset-picker"), EXAMPLE)
    expect(page.locator(sel("scene-title"))).to_have_text("causal mask on random numbers")
    open_share_menu(page)
    page.click(sel("copy-embed-code"))
    expect(page.locator(sel("embed-code"))).to_have_value(re.compile(f"#preset={EXAMPLE}"))

    # Each panel's height beside its box; the three 32 × 32 projections are the tallest of them.
    heights = {}
    for name in ("heatmap", "bars", "features", "weights"):
        note = page.locator(sel(f"embed-panels-{name}-note")).inner_text()
        heights[name] = int(re.search(r"(\d+) px", note).group(1))
    assert heights["weights"] > 3 * heights["heatmap"]
    default_height = stated_height(page)
    assert default_height > 2000
    expect(page.locator(sel("embed-frame-height"))).to_contain_text(", ".join(COMPACT))

    page.click(sel("embed-compact-panels"))
    expect(page.locator(sel("embed-code"))).to_have_value(re.compile(re.escape(f"panels={','.join(COMPACT)}#")))
    ticked = [name for name in ("presets", "controls", "notes", "heatmap", "bars", "features", "weights")
              if page.locator(sel(f"embed-panels-{name}")).is_checked()]
    assert ticked == COMPACT
    compact_height = stated_height(page)
    assert compact_height < default_height / 3

    # The frame, pasted into a lesson as wide as this page, is about as tall as it said.
    actual = frame_height_in_a_lesson(page.context, page.locator(sel("embed-code")).input_value())
    assert abs(actual - compact_height) < 0.25 * compact_height, (actual, compact_height)
