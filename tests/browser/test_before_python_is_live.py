"""The page before Python is live, and when it cannot start: the default example drawn at once from numbers the build
computed, a scene set meanwhile computed once Python is live, an edit typed meanwhile said to wait beside the grid
and caught up, an author's frame drawing its example's numbers, and, when Python cannot start, the preview kept
with every call settling and saying why.
"""

import json
import re

from playwright.sync_api import expect

from attention_playground import compute
from page_helpers import (
    CAT, DEFAULT_PRESET, IT, LEARNERS_PHONE, PRESETS, assert_weights_equal, await_ready, bar_value, cell_value, preset_scene,
    scene_link_hash, sel, type_into, wait_live)


def test_preview_is_drawn_before_python_is_live_then_the_page_goes_live(page, site_url, artifacts):
    # Hold back Python's WebAssembly so the page is certainly still waiting for it.
    held = []
    page.route("**/vendor/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{site_url}/")

    expect(page.locator(sel("preview-badge"))).to_be_visible()
    # The picker lists every example from the first view, by the titles the preview brings; the list with their
    # descriptions is no part of the first view: it comes once Python is live.
    examples = json.loads((PRESETS / "index.json").read_text())
    expect(page.locator(f'{sel("preset-picker")} option')).to_have_count(len(examples))
    assert [option.strip() for option in page.locator(f'{sel("preset-picker")} option').all_inner_texts()] == \
        [example["title"] for example in examples]
    expect(page.locator(sel("preset-description"))).to_have_text(examples[0]["description"])
    expect(page.locator(sel("heatmap-cell"))).to_have_count(100)
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "preview")
    ready_settled = page.evaluate(
        """() => {
            let settled = false;
            window.attentionPlayground.ready.then(() => (settled = true), () => (settled = true));
            return new Promise((resolve) => setTimeout(() => resolve(settled), 50));
        }"""
    )
    assert ready_settled is False
    assert not [url for url in asked if url.endswith("/presets/index.json")], "the examples' list came before live"
    # The preview is the default example, computed natively by build.py: "it" spends 92% on "cat".
    expect(bar_value(page, CAT)).to_have_text("92.0%")
    expect(cell_value(page, IT, CAT)).to_have_text("0.920")
    expect(page.locator(sel("boot-stage"))).not_to_have_text("Python is live: every edit recomputes")
    page.screenshot(path=str(artifacts / "page-preview.png"), full_page=True)
    # A scene set now waits for Python instead of failing.
    dog = preset_scene("dog-bites-man")
    page.evaluate("s => { window.pendingWeights = window.attentionPlayground.setScene(s).then((r) => r.heads[0].weights); }", dog)

    for route in held:
        route.continue_()
    page.unroute("**/vendor/pyodide/pyodide.asm.wasm")
    await_ready(page)
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    expect(page.locator(sel("preview-badge"))).to_be_hidden()
    expect(page.locator(sel("boot-stage"))).to_contain_text("live")
    page.wait_for_function("() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/presets/index.json'))")
    # The scene set while Python was starting is computed now, and shown.
    weights = page.evaluate("window.pendingWeights")
    assert_weights_equal({"heads": [{"weights": weights}]}, compute(dog))
    expect(page.locator(sel("scene-title"))).to_have_text("dog bites man")
    expect(page.locator(sel("heatmap-cell"))).to_have_count(9)
    page.screenshot(path=str(artifacts / "page-live.png"), full_page=True)


def test_an_edit_typed_while_python_starts_is_said_to_wait_beside_the_grid(page, site_url):
    held = []
    page.context.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(f"{site_url}/")
    expect(page.locator(sel("heatmap-cell", row=7, column=1))).to_be_visible()
    page.wait_for_function("() => document.querySelector('[data-testid=\"playground\"]').dataset.drawn === 'true'")
    pronoun = preset_scene("it-animal-noun")["features"].index("pronoun")
    type_into(page, page.locator(sel("wq-cell", row=pronoun, column=0)), "8")
    waiting = page.locator(sel("waiting-note"))
    expect(waiting).to_be_visible()
    expect(waiting).to_contain_text("waiting for Python")
    assert page.locator(sel("playground")).get_attribute("data-status") == "preview"
    page.wait_for_function("() => true")  # let the route arrive
    for route in held:
        route.continue_()
    page.context.unroute("**/pyodide.asm.wasm")
    wait_live(page)
    expect(waiting).to_be_hidden()
    # It caught up: the weights are those of the scene as typed.
    scene = preset_scene("it-animal-noun")
    scene["heads"][0]["Wq"][pronoun][0] = 8
    want = compute(scene)["heads"][0]["weights"][7][1]
    page.wait_for_function("(w) => Math.abs(window.attentionPlayground.result().heads[0].weights[7][1] - w) < 1e-12", arg=want)


def test_a_frame_draws_its_example_while_python_starts(phone_at, site_url, artifacts):
    """An author's frame of an example as shipped (the embed code's `#preset=<id>`, or a copied link of it) draws
    the example's numbers while Python starts, as the page draws its first example: no grid of empty cells."""
    scene = preset_scene("repeated-noun")
    weights = compute(scene)["heads"][0]["weights"]
    n = len(scene["tokens"])
    copied_link = scene_link_hash({"scene": scene, "preset": "repeated-noun", "edited": False, "view": {"focus": None, "head": 0}})
    for theme, address in [("light", "#preset=repeated-noun"), ("dark", copied_link)]:
        frame = phone_at(LEARNERS_PHONE["width"], LEARNERS_PHONE["height"])
        frame.emulate_media(color_scheme=theme)
        held = []  # Python's WebAssembly, held back: the frame is certainly still starting
        frame.context.route("**/pyodide.asm.wasm", lambda route: held.append(route))
        frame.goto(f"{site_url}/index.html?embed{address}")
        expect(frame.locator(sel("preview-badge"))).to_be_visible()
        expect(frame.locator(sel("heatmap-cell"))).to_have_count(n * n)
        # The last word may read every word under the causal mask: its row is the example's, number for number.
        last_row = frame.locator(f'{sel("heatmap-cell", row=n - 1)} + text').all_text_contents()
        assert last_row == [f"{weight:.3f}" for weight in weights[n - 1]], last_row
        expect(frame.locator(sel("heatmap-cell", row=n - 1, column=0))).not_to_have_class(re.compile("pending"))
        expect(frame.locator(sel("playground"))).to_have_attribute("data-status", "preview")
        frame.screenshot(path=str(artifacts / f"frame-starting-{theme}-390.png"))


def test_when_python_cannot_start_the_page_says_so_and_keeps_the_preview(page, site_url, page_problems, artifacts):
    page.route("**/vendor/pyodide/pyodide.asm.js", lambda route: route.abort())
    page.goto(f"{site_url}/")

    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "failed", timeout=60_000)
    expect(page.locator(sel("boot-stage"))).to_contain_text("Python could not start")
    expect(page.locator(sel("preview-badge"))).to_have_text("preview — Python could not start")
    expect(page.locator(sel("heatmap-cell"))).to_have_count(100)
    expect(bar_value(page, CAT)).to_have_text("92.0%")

    # Every API call still settles, and says why.
    ready = page.evaluate("window.attentionPlayground.ready.then(() => 'resolved', () => 'rejected')")
    assert ready == "rejected"
    outcome = page.evaluate(
        "scene => window.attentionPlayground.setScene(scene).then(() => 'resolved', (error) => error.message)",
        preset_scene("dog-bites-man"),
    )
    assert outcome.startswith("Python could not start"), outcome
    assert page.evaluate("window.attentionPlayground.getScene().tokens") == preset_scene(DEFAULT_PRESET)["tokens"]
    page.screenshot(path=str(artifacts / "page-boot-failed.png"), full_page=True)

    # The refused download is reported on the console by the browser itself; nothing else may be.
    assert all("pyodide.asm.js" in message or "Failed to load resource" in message for message in page_problems.console_errors)
    assert page_problems.page_errors == []
    page_problems.clear()
