"""Nothing moves under the reader: the cumulative layout shift over the page's load (until Python is live and
every view has drawn) and over a first edit stays under 0.01 (Web Vitals' "good" is 0.1).

Every layout shift counts here, also those right after an input, which Web Vitals leaves out: a line that
appears on the first edit and pushes down the checkbox just clicked is exactly what a learner notices.
"""

import pytest
from playwright.sync_api import expect

from page_helpers import await_ready, open_share_menu, preset_scene, scene_link_hash, sel


MOST_SHIFT = 0.01


def edited_scene_link():
    """A link to an edited example. Every example as shipped comes with its result computed in advance, drawn
    while Python starts; a scene edited elsewhere has none: its grid waits for Python (and must not move then)."""
    edited = preset_scene("dog-bites-man")
    edited["X"][0][0] += 1
    return scene_link_hash({"scene": edited, "preset": "dog-bites-man", "edited": True, "view": {"focus": None, "head": 0}})


# Collects every layout-shift entry from the start of the page, with what moved.
RECORD_SHIFTS = """
window.layoutShifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.layoutShifts.push({
      value: entry.value, afterInput: entry.hadRecentInput, at: Math.round(entry.startTime),
      moved: entry.sources.map((source) => `${source.node?.dataset?.testid ?? source.node?.className ?? source.node?.nodeName}: `
        + `${Math.round(source.previousRect.y)} -> ${Math.round(source.currentRect.y)}`),
    });
  }
}).observe({ type: "layout-shift", buffered: true });
"""


def shifts_since(page, start):
    shifts = page.evaluate("window.layoutShifts")[start:]
    return sum(shift["value"] for shift in shifts), shifts


def settle(page):
    """Python live, and the views below the heatmap mounted and drawn (they load once Python is live)."""
    await_ready(page)
    expect(page.locator(sel("playground"))).to_have_attribute("data-status", "live")
    expect(page.locator(sel("exercise-open"))).to_be_attached()
    page.wait_for_timeout(1000)  # the views' idle-time redraws (the weights table)


@pytest.mark.parametrize("width", [1280, 1360])
@pytest.mark.parametrize("address", ["", "edited-link"], ids=["default-example", "scene-without-preview"])
def test_loading_the_page_and_a_first_edit_move_nothing(page, site_url, address, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.add_init_script(RECORD_SHIFTS)
    page.goto(f"{site_url}/{edited_scene_link() if address == 'edited-link' else address}")
    expect(page.locator(sel("playground"))).to_have_attribute("data-drawn", "true")
    settle(page)
    # Once the page is live, "Copy embed code" is in its place beside the other buttons, folded away under "Share
    # and download" (it is opened at the end): the shifts counted next include its arrival.
    expect(page.locator(sel("copy-embed-code"))).to_be_attached()
    loaded, shifts = shifts_since(page, 0)
    assert loaded < MOST_SHIFT, f"layout shift {loaded:.4f} while the page loaded: {shifts}"
    # However small the total, the heatmap and the editors keep their places when Python goes live.
    panels = ("heatmap-area", "legend-row", "feature-editor", "weight-editor")
    moved = [shift for shift in shifts if any(source.startswith(panels) for source in shift["moved"])]
    assert moved == [], f"the panels moved while the page loaded: {moved}"

    # The first edit: a number typed into Wq, then the scaling switched off. The "saved in this browser" line
    # appears where it always had its place.
    start = len(page.evaluate("window.layoutShifts"))
    cell = page.locator(sel("wq-cell", row=0, column=0))
    cell.click()
    page.keyboard.type("2")
    expect(page.locator(sel("save-text"))).to_contain_text("saved in this browser")
    page.locator(sel("scale-toggle")).click()
    page.wait_for_function("() => window.attentionPlayground.result().scale === false")
    page.wait_for_timeout(500)
    edited, shifts = shifts_since(page, start)
    assert edited < MOST_SHIFT, f"layout shift {edited:.4f} on the first edit: {shifts}"
    open_share_menu(page)
    expect(page.locator(sel("copy-embed-code"))).to_be_visible()


# The boot status's text and height at every frame from the first one on, each change once.
RECORD_BOOT_STATUS = """
window.bootStatusLog = [];
const look = () => {
  const status = document.querySelector('[data-testid="boot-status"]');
  if (status) {
    const entry = [status.querySelector('[data-testid="boot-stage"]')?.textContent ?? "", status.getBoundingClientRect().height];
    const last = window.bootStatusLog[window.bootStatusLog.length - 1];
    if (!last || last[0] !== entry[0] || last[1] !== entry[1]) window.bootStatusLog.push(entry);
  }
  requestAnimationFrame(look);
};
requestAnimationFrame(look);
"""


@pytest.mark.parametrize("width", [320, 360])
def test_on_a_phone_the_boot_status_keeps_its_height_through_every_stage(page, site_url, width):
    page.set_viewport_size({"width": width, "height": 780})
    page.add_init_script(RECORD_BOOT_STATUS)
    page.goto(f"{site_url}/")
    settle(page)
    log = page.evaluate("window.bootStatusLog")
    stages = [text for text, _ in log if text]
    # Every stage was seen, the longest ones included, and live at the end.
    assert len(stages) >= 3 and stages[-1].startswith("Python is live"), log
    assert any(len(text) >= len("Loading the attention module…") for text in stages), log
    assert len({round(height) for _, height in log}) == 1, f"the boot status changed its height: {log}"
