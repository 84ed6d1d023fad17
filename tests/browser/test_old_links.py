"""Links in the formats before today's still open: a version 1 link (a fixture the page once wrote) opens its scene
as the learner's own, a version 2 link made outside the page opens with its panels, and the page's decoder
migrates versions 2 and 3 to the panels of the current format.
"""

import base64
import json
import zlib
from pathlib import Path

from playwright.sync_api import expect

from page_helpers import open_live, preset_scene, sel
from sharing_helpers import deflated, focused_heading, get_scene, v2_link

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def v3_link(site_url, payload):
    """A link in the format before the trained model's panel (version 3), made here without the page."""
    return f"{site_url}/#s=3.{deflated(json.dumps(payload).encode())}"


#: Every panel by name, in page order, as links name them.
ALL_PANELS = ["presets", "controls", "notes", "heatmap", "bars", "features", "weights", "steps", "heads",
              "experiments", "model", "exercise"]


#: A view with every panel shown and none open, as a link without a view opens.
CLOSED_VIEW = {"panels": ALL_PANELS, "steps": False, "table": False, "exercises": False, "exercise": None,
               "experiment": None, "model": None}


def test_an_old_v1_link_still_opens(fresh_page, site_url):
    link = (FIXTURES / "link-v1.txt").read_text().strip()
    assert link.startswith("#s=1.")
    # What the v1 link holds, read here without the page: {scene, focus, head}.
    v1 = json.loads(zlib.decompress(base64.urlsafe_b64decode(link[5:] + "=" * (-len(link[5:]) % 4)), -15))
    open_live(fresh_page, f"{site_url}/{link}")
    assert get_scene(fresh_page) == v1["scene"]
    expect(fresh_page.locator(sel("scene-title"))).to_have_text("dog bites man, from an old link")
    expect(focused_heading(fresh_page)).to_have_text(f"Where “{v1['scene']['tokens'][v1['focus']]}” pays attention")
    # v1 links did not say where a scene came from: it opens as the learner's own scene.
    expect(fresh_page.locator(sel("preset-picker"))).to_have_value("")
    # The page's decoder migrates it to the current version.
    decoded = fresh_page.evaluate(
        """link => import('./js/sharing/permalink.js').then(async (m) => {
            const read = await m.decodePermalinkHash(link);
            return {version: read.version, current: m.LINK_VERSION, payload: read.payload};
        })""",
        link,
    )
    assert decoded["version"] == 1 and decoded["current"] == 4
    assert decoded["payload"]["view"] == {"focus": 2, "head": 0, **CLOSED_VIEW}
    assert decoded["payload"]["preset"] is None


def test_a_v2_link_made_outside_the_page_opens_with_its_panels(fresh_page, site_url, artifacts):
    scene = preset_scene("dog-bites-man")
    link = v2_link(site_url, {"scene": scene, "preset": "dog-bites-man", "edited": False,
                              "view": {"focus": 0, "head": 0, "panels": ["heatmap", "bars"]}})
    open_live(fresh_page, link)
    assert get_scene(fresh_page) == scene
    expect(focused_heading(fresh_page)).to_have_text("Where “dog” pays attention")
    expect(fresh_page.locator(sel("feature-editor"))).to_be_hidden()
    expect(fresh_page.locator(sel("weight-editor"))).to_be_hidden()
    expect(fresh_page.locator(sel("notice-text"))).to_have_text("This link shows only some of the panels.")
    fresh_page.screenshot(path=str(artifacts / "sharing-link-panels.png"), full_page=True)
    fresh_page.locator(sel("notice-action")).click()
    expect(fresh_page.locator(sel("feature-editor"))).to_be_visible()


def test_a_v2_link_is_migrated_to_the_panels_of_the_current_format(live_page, site_url):
    link = v2_link(site_url, {"scene": preset_scene("dog-bites-man"), "preset": "dog-bites-man", "edited": False,
                              "view": {"focus": 1, "head": 0, "panels": ["heatmap", "bars"]}})
    # The page's own decoder reads the link (nothing is opened: the shared page will do).
    decoded = live_page.evaluate(
        "hash => import('./js/sharing/permalink.js').then(async (m) => (await m.decodePermalinkHash(hash)).payload.view)",
        link[link.index("#"):],
    )
    # Version 2 could hide only four panels; the rest were always there, and nothing was open.
    assert decoded == {**CLOSED_VIEW, "focus": 1, "head": 0,
                       "panels": [name for name in ALL_PANELS if name not in ("features", "weights")]}


def test_a_v3_link_keeps_its_panels_and_shows_the_model_panel_closed(live_page, site_url):
    v3_panels = [name for name in ALL_PANELS if name not in ("model", "steps")]
    link = v3_link(site_url, {"scene": preset_scene("dog-bites-man"), "preset": "dog-bites-man", "edited": False,
                              "view": {"focus": 1, "head": 0, "panels": v3_panels, "steps": False, "table": True,
                                       "exercises": False, "exercise": None, "experiment": "order"}})
    decoded = live_page.evaluate(
        "hash => import('./js/sharing/permalink.js').then(async (m) => (await m.decodePermalinkHash(hash)).payload.view)",
        link[link.index("#"):],
    )
    # The model's panel did not exist in version 3: it shows, closed, and the rest is as the link said.
    assert decoded == {**CLOSED_VIEW, "focus": 1, "head": 0, "table": True, "experiment": "order",
                       "panels": [name for name in ALL_PANELS if name != "steps"]}
