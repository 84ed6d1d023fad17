"""Sharing and saving, as a learner or a course author does them, in real Chromium with real Pyodide.

Links are opened in fresh browser contexts (nothing saved, nothing cached), files are downloaded
through the browser's own download and opened again through the file picker or a drop, and edits
are checked after a real reload. Screenshots go to tests/artifacts/.
"""

import base64
import csv
import io
import json
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from attention_playground import compute
from attention_playground.presets import random_scene
from conftest import DEFAULT_TIMEOUT_MS
from page_helpers import copy_link, download, module_error, open_live, preset_scene, sel, type_into, wait_live
from sharing_helpers import carry_saved_work, maker_page, saved_work  # noqa: F401  (maker_page is a fixture)
from test_shared_page import assert_reads_as_a_fresh_visitors

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
DEFAULT_PRESET = "it-animal-noun"
STORAGE_PREFIX = "attention-playground/v1/page"

# The default scene, "the cat sat on the mat because it was tired".
IT, CAT = 7, 1
PRONOUN, NOUN_DIM = 2, 1


def expect_cell(page, selector, text):
    """Wait until a grid cell shows `text` (a cell is an input while edited and text otherwise)."""
    page.wait_for_function(
        "([selector, text]) => { const cell = document.querySelector(selector); return cell && (cell.value ?? cell.textContent) === text; }",
        arg=[selector, text],
    )


def get_scene(page):
    return page.evaluate("window.attentionPlayground.getScene()")


def focused_heading(page):
    return page.locator(sel("bars-heading"))


def wait_saved(page):
    """Saving waits for a pause in typing: wait until the status line says the edits are saved."""
    expect(page.locator(sel("save-status"))).to_contain_text("saved in this browser")


def deflated(data):
    """Raw deflate and base64url without padding, as links carry their data."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.urlsafe_b64encode(compressor.compress(data) + compressor.flush()).decode().rstrip("=")


def v2_link(site_url, payload):
    """A link in the format before panels' open states were kept (version 2), made here without the page."""
    return f"{site_url}/#s=2.{deflated(json.dumps(payload).encode())}"


def v3_link(site_url, payload):
    """A link in the format before the trained model's panel (version 3), made here without the page."""
    return f"{site_url}/#s=3.{deflated(json.dumps(payload).encode())}"


#: Every panel by name, in page order, as links name them.
ALL_PANELS = ["presets", "controls", "notes", "heatmap", "bars", "features", "weights", "steps", "heads",
              "experiments", "model", "exercise"]
#: A view with every panel shown and none open, as a link without a view opens.
CLOSED_VIEW = {"panels": ALL_PANELS, "steps": False, "table": False, "exercises": False, "exercise": None,
               "experiment": None, "model": None}


# ---- permalinks ---------------------------------------------------------------------------------


def test_a_copied_link_opens_the_same_scene_and_focus_in_a_fresh_context(maker_page, fresh_page, site_url, artifacts):
    page = maker_page  # the link is made on the shared page; only the page that opens it must be fresh
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    # The learner weakens the noun match and looks at "cat".
    type_into(page, page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "1.5")
    page.locator(sel("row-label")).nth(CAT).click()
    expect(focused_heading(page)).to_have_text("Where “cat” pays attention")
    seen = get_scene(page)
    assert seen["heads"][0]["Wq"][PRONOUN][NOUN_DIM] == 1.5

    link = copy_link(page)
    expect(page.locator(sel("share-link"))).to_be_visible()
    expect(page.locator(sel("share-status"))).to_contain_text("Link copied")
    assert link == page.evaluate("navigator.clipboard.readText()")
    assert link.startswith(f"{site_url}/#s=4.")
    assert all(c.isalnum() or c in "-_" for c in link.split("#s=4.", 1)[1])
    page.screenshot(path=str(artifacts / "sharing-copy-link.png"), full_page=True)

    fresh_page.goto(link)
    wait_live(fresh_page)
    assert get_scene(fresh_page) == seen
    expect(focused_heading(fresh_page)).to_have_text("Where “cat” pays attention")
    assert fresh_page.evaluate("window.attentionPlayground.result()") == page.evaluate("window.attentionPlayground.result()")
    expect(fresh_page.locator(sel("preset-picker"))).to_have_value(DEFAULT_PRESET)
    expect(fresh_page.locator(sel("preset-reset"))).to_be_visible()
    # The link was read; the address is the page's own again, so a reload opens the saved work.
    assert urlsplit(fresh_page.url).fragment == ""
    fresh_page.screenshot(path=str(artifacts / "sharing-link-opened.png"), full_page=True)

    # A half-typed cell travels as typed, and the module's message comes with it. Pasting the new
    # link into the open tab replaces the first link's scene, which is kept and can come back.
    type_into(page, page.locator(sel("x-cell", row=4, column=0)), "-")
    expect(page.locator(sel("x-error"))).to_be_visible()
    seen = get_scene(page)
    assert seen["X"][4][0] == "-"
    fresh_page.goto(copy_link(page))
    expect_cell(fresh_page, sel("x-cell", row=4, column=0), "-")
    expect(fresh_page.locator(sel("x-error"))).to_have_text(f"⚠ {module_error(seen)}")
    assert get_scene(fresh_page) == seen
    expect(fresh_page.locator(sel("notice-text"))).to_contain_text("This replaced your saved edits")


def test_a_link_keeps_the_head_being_edited(maker_page, fresh_page):
    page = maker_page
    two = preset_scene("dog-bites-man")
    second = json.loads(json.dumps(two["heads"][0]))
    second["name"] = "head 2"
    second["Wq"] = [[0, 1], [1, 0]]
    two["heads"].append(second)
    two["title"] = "two heads"
    page.evaluate("s => window.attentionPlayground.setScene(s)", two)
    # The learner picks head 2 by its small heatmap, then copies the link.
    thumbs = page.locator(sel("head-thumb"))
    thumbs.nth(1).click()
    expect(thumbs.nth(1)).to_have_attribute("aria-pressed", "true")
    link = copy_link(page)

    fresh_page.goto(link)
    wait_live(fresh_page)
    assert get_scene(fresh_page) == two
    expect(fresh_page.locator(sel("head-thumb")).nth(1)).to_have_attribute("aria-pressed", "true")
    expect(fresh_page.locator(sel("preset-picker"))).to_have_value("")


def test_a_preset_link_opens_that_example(fresh_page, site_url, artifacts):
    open_live(fresh_page, f"{site_url}/#preset=dog-bites-man")
    assert get_scene(fresh_page) == preset_scene("dog-bites-man")
    expect(fresh_page.locator(sel("scene-title"))).to_have_text("dog bites man")
    expect(fresh_page.locator(sel("preset-picker"))).to_have_value("dog-bites-man")
    expect(fresh_page.locator(sel("heatmap-cell"))).to_have_count(9)
    fresh_page.screenshot(path=str(artifacts / "sharing-preset-link.png"), full_page=True)


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


def open_every_panel_and_pick_tabs(page):
    """Tick "show every step", show the table, open the exercises at "attention", pick the scaling experiment."""
    page.locator(sel("step-toggle")).check()
    page.locator(sel("weights-table-toggle")).click()
    page.locator(sel("exercise-open")).click()
    page.locator(sel("exercise-tab-attention")).click(timeout=90_000)
    page.locator(sel("experiment-tab-scaling")).click()


def expect_every_panel_open_at_the_tabs(page):
    expect(page.locator(sel("step-toggle"))).to_be_checked()
    expect(page.locator(sel("step-explain"))).to_be_visible()
    expect(page.locator(sel("weights-table-toggle"))).to_have_attribute("aria-expanded", "true")
    expect(page.locator(sel("weights-table"))).to_be_visible()
    expect(page.locator(sel("exercise-body"))).to_be_visible()
    expect(page.locator(sel("exercise-tab-attention"))).to_have_attribute("aria-pressed", "true", timeout=90_000)
    expect(page.locator(sel("experiment-tab-scaling"))).to_have_attribute("aria-selected", "true")
    expect(page.locator(sel("experiment-scaling"))).to_be_visible()


def test_a_link_keeps_every_panel_open_and_the_tabs_chosen(maker_page, fresh_page, artifacts):
    page = maker_page
    open_every_panel_and_pick_tabs(page)
    link = copy_link(page)
    assert "#s=4." in link
    open_live(fresh_page, link)
    expect_every_panel_open_at_the_tabs(fresh_page)
    # Nothing was hidden, so nothing to say about hidden panels.
    expect(fresh_page.locator(sel("notice"))).to_be_hidden()
    fresh_page.screenshot(path=str(artifacts / "sharing-link-open-panels.png"), full_page=True)


def test_saved_work_keeps_every_panel_open_and_the_tabs_chosen(page, site_url):
    open_live(page, f"{site_url}/")
    type_into(page, page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "2")
    open_every_panel_and_pick_tabs(page)
    wait_saved(page)
    page.wait_for_function(
        """() => Object.keys(localStorage).some((key) => key.endsWith("/draft/it-animal-noun")
                 && JSON.parse(localStorage.getItem(key)).view.experiment === "scaling")""")
    page.reload()
    wait_live(page)
    expect_every_panel_open_at_the_tabs(page)


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


@pytest.mark.parametrize(
    "damage, says",
    [
        (lambda link: link[: len(link) // 2], "incomplete"),
        (lambda link: link.replace("#s=2.", "#s=2.%%%"), "characters a playground link never has"),
        (lambda link: link.replace("#s=2.", "#s=9."), "newer playground"),
        (lambda link: link.split("#", 1)[0] + "#s=2.", "cut off"),
        (lambda link: link.split("#", 1)[0] + "#preset=no-such-example", "does not have"),
        (lambda link: v2_link(link.split("/#", 1)[0], {"scene": {"tokens": "abc"}}), "cannot be shown: tokens must be a list"),
        (lambda link: link.split("#", 1)[0] + "#s=2." + deflated(b" " * 20_000_000), "too large"),
    ],
    ids=["truncated", "bad-characters", "future-version", "empty-data", "unknown-preset", "hostile-scene", "zip-bomb"],
)
def test_a_broken_link_says_so_and_falls_back_to_the_saved_work(live_page, fresh_page, site_url, artifacts, damage, says):
    # The learner has saved work in this browser (made on the shared page, carried to a fresh browser)…
    type_into(live_page, live_page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "2")
    wait_saved(live_page)
    saved = get_scene(live_page)
    carry_saved_work(fresh_page, site_url, saved_work(live_page))
    good = v2_link(site_url, {"scene": preset_scene("dog-bites-man"), "preset": None, "edited": True, "view": {}})
    # …and opens a damaged link: a clear message, and the saved work instead of a crash. (The page open before
    # is not the playground, so the link is a new visit, not a change of the open page's hash.)
    fresh_page.goto(damage(good))
    notice = fresh_page.locator(sel("notice"))
    expect(notice).to_be_visible()
    expect(notice).to_have_attribute("data-tone", "error")
    expect(fresh_page.locator(sel("notice-text"))).to_contain_text(says)
    # The saved work is the scene shown, before Python is live too (the draft needs no Python).
    fresh_page.wait_for_function(
        "(saved) => JSON.stringify(window.attentionPlayground?.getScene()) === JSON.stringify(saved)", arg=saved)
    if says == "incomplete":
        # One of them all the way: the page goes live on the saved work after the broken link.
        wait_live(fresh_page)
        assert get_scene(fresh_page) == saved
        fresh_page.screenshot(path=str(artifacts / "sharing-broken-link.png"), full_page=True)


def test_a_broken_link_with_nothing_saved_shows_the_default_example(fresh_page, site_url):
    open_live(fresh_page, f"{site_url}/#s=2.AAAA")
    expect(fresh_page.locator(sel("notice-text"))).to_contain_text("This link")
    assert get_scene(fresh_page) == preset_scene(DEFAULT_PRESET)


def test_a_link_that_would_replace_saved_edits_keeps_them(live_page, page, site_url, artifacts):
    # The learner's saved edits (made on the shared page, carried to a fresh browser)…
    type_into(live_page, live_page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "3")
    wait_saved(live_page)
    mine = get_scene(live_page)
    carry_saved_work(page, site_url, saved_work(live_page))
    theirs = preset_scene(DEFAULT_PRESET)
    theirs["heads"][0]["Wq"][PRONOUN][NOUN_DIM] = 7
    # …and a link to the same example, edited otherwise, opened as a new visit.
    page.goto(v2_link(site_url, {"scene": theirs, "preset": DEFAULT_PRESET, "edited": True, "view": {"focus": IT, "head": 0}}))
    wait_live(page)
    assert get_scene(page) == theirs
    expect(page.locator(sel("notice-text"))).to_contain_text("This replaced your saved edits")
    page.screenshot(path=str(artifacts / "sharing-link-kept-edits.png"), full_page=True)
    page.locator(sel("notice-action")).click()
    expect_cell(page, sel("wq-cell", row=PRONOUN, column=NOUN_DIM), "3")
    assert get_scene(page) == mine
    # A swap: the link's version is kept in turn.
    page.locator(sel("notice-action")).click()
    expect_cell(page, sel("wq-cell", row=PRONOUN, column=NOUN_DIM), "7")


# ---- export and import --------------------------------------------------------------------------


def test_exports_hold_the_heatmap_the_weights_and_the_scene(live_page, fresh_page, site_url, artifacts):
    page = live_page  # the files are made on the shared page; the scene file is opened in a fresh one
    type_into(page, page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "0.25")
    scene = get_scene(page)
    native = compute(scene)["heads"][0]["weights"]
    # Typing "0.25" computed "0", "0." … on the way: wait for the answer to the whole number.
    expect(page.locator(f'{sel("bar-row", token_index=CAT)} {sel("bar-value")}')).to_have_text(f"{native[IT][CAT] * 100:.1f}%")
    result = page.evaluate("window.attentionPlayground.result()")
    tokens = result["tokens"]
    weights = result["heads"][0]["weights"]
    assert all(abs(a - b) < 1e-12 for got, want in zip(weights, native, strict=True) for a, b in zip(got, want, strict=True))

    # CSV: answering tokens across, one row per asking token, every weight at full precision.
    name, data = download(page, "download-csv")
    assert name.endswith("-weights.csv")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    assert rows[0][1:] == tokens
    assert [row[0] for row in rows[1:]] == tokens
    assert [[float(value) for value in row[1:]] for row in rows[1:]] == weights

    # SVG: a standalone picture with one cell per weight, styled without the page's stylesheet.
    name, data = download(page, "download-svg")
    assert name.endswith("-heatmap.svg")
    (artifacts / "sharing-export.svg").write_bytes(data)
    root = ET.fromstring(data)
    ns = {"svg": "http://www.w3.org/2000/svg"}
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    cells = [rect for rect in root.iter("{http://www.w3.org/2000/svg}rect") if rect.get("data-testid") == "heatmap-cell"]
    assert len(cells) == len(tokens) ** 2
    assert all(rect.get("fill", "").startswith(("rgb", "url(#")) for rect in cells)
    texts = [node.text for node in root.iter("{http://www.w3.org/2000/svg}text")]
    assert set(tokens) <= set(texts)
    # Fonts every reader has: a generic stack on the picture, monospace for the numbers.
    assert root.get("font-family").endswith("sans-serif")
    number_fonts = {node.get("font-family") for node in root.iter("{http://www.w3.org/2000/svg}text") if node.text == "0.100"}
    assert len(number_fonts) == 1 and number_fonts.pop().endswith("monospace")
    assert b"href=\"http" not in data and b"<style" not in data and b"@import" not in data
    assert root.find("svg:title", ns).text.startswith("Attention weights")

    # PNG: the same picture drawn on a canvas at twice its size.
    name, data = download(page, "download-png")
    assert name.endswith("-heatmap.png")
    (artifacts / "sharing-export.png").write_bytes(data)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (2 * int(float(root.get("width"))), 2 * int(float(root.get("height"))))

    # JSON: the scene, which opens again, in a fresh context, to the same scene.
    name, data = download(page, "download-json")
    assert name.endswith(".json")
    assert json.loads(data) == scene
    scene_file = artifacts / "sharing-export-scene.json"
    scene_file.write_bytes(data)
    open_live(fresh_page, f"{site_url}/#preset=dog-bites-man")
    with fresh_page.expect_file_chooser() as chooser:
        fresh_page.locator(sel("open-scene-file")).click()
    chooser.value.set_files(str(scene_file))
    expect(fresh_page.locator(sel("notice-text"))).to_have_text(f"Opened “{scene_file.name}”.")
    assert get_scene(fresh_page) == scene
    assert fresh_page.evaluate("window.attentionPlayground.result().heads[0].weights") == weights


def test_the_png_shows_the_colours_of_the_heatmap(live_page, artifacts):
    page = live_page
    page.locator(sel("preset-picker")).select_option("repeated-noun")
    expect(page.locator(sel("scene-title"))).to_have_text(preset_scene("repeated-noun")["title"])
    name, data = download(page, "download-png")
    (artifacts / "sharing-export-repeated-noun.png").write_bytes(data)
    # The picture puts a title above the heatmap: where the heatmap starts in it, from the same picture as SVG.
    _, svg = download(page, "download-svg")
    heatmap = next(node for node in ET.fromstring(svg) if node.tag == "{http://www.w3.org/2000/svg}svg")
    left, top = float(heatmap.get("x")), float(heatmap.get("y"))
    # Where each cell is (SVG units) and the colour the page fills it with.
    cells = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="heatmap"] [data-testid="heatmap-cell"]')]
            .filter((rect) => rect.dataset.masked === "false")
            .map((rect) => ({x: +rect.getAttribute("x"), y: +rect.getAttribute("y"), size: +rect.getAttribute("width"),
                             fill: getComputedStyle(rect).fill}))"""
    )
    assert cells
    # Read the same places in the PNG (drawn at twice the size) in a blank page beside it.
    blank = page.context.new_page()
    pixels = blank.evaluate(
        """async ({png, cells}) => {
            const image = new Image();
            image.src = "data:image/png;base64," + png;
            await image.decode();
            const canvas = document.createElement("canvas");
            canvas.width = image.naturalWidth;
            canvas.height = image.naturalHeight;
            const context = canvas.getContext("2d");
            context.drawImage(image, 0, 0);
            return cells.map(({x, y, size}) => {
                const [r, g, b] = context.getImageData(Math.round(2 * (x + size * 0.2)), Math.round(2 * (y + size * 0.2)), 1, 1).data;
                return `rgb(${r}, ${g}, ${b})`;
            });
        }""",
        {"png": base64.b64encode(data).decode(), "cells": [{**cell, "x": cell["x"] + left, "y": cell["y"] + top} for cell in cells]},
    )
    blank.close()
    assert pixels == [cell["fill"] for cell in cells]


def test_opening_a_bad_scene_file_shows_the_module_message_and_keeps_the_page(live_page, artifacts, tmp_path):
    before = get_scene(live_page)
    bad = preset_scene("dog-bites-man")
    bad["heads"][0]["Wq"] = bad["heads"][0]["Wq"][:1]  # one row short
    bad_file = tmp_path / "short-wq.json"
    bad_file.write_text(json.dumps(bad))
    live_page.locator(sel("scene-file-input")).set_input_files(str(bad_file))
    notice = live_page.locator(sel("notice-text"))
    expect(notice).to_have_text(f"“short-wq.json” cannot be shown: {module_error(bad)}")
    expect(live_page.locator(sel("notice"))).to_have_attribute("data-tone", "error")
    assert get_scene(live_page) == before
    live_page.screenshot(path=str(artifacts / "sharing-bad-file.png"), full_page=True)

    notes = tmp_path / "notes.txt"
    notes.write_text("the cat sat on the mat")
    live_page.locator(sel("scene-file-input")).set_input_files(str(notes))
    expect(notice).to_contain_text("“notes.txt” is not a scene file: it is not JSON")
    assert get_scene(live_page) == before

    listing = tmp_path / "list.json"
    listing.write_text("[1, 2, 3]")
    live_page.locator(sel("scene-file-input")).set_input_files(str(listing))
    expect(notice).to_contain_text("“list.json” is JSON but not a scene")


def test_a_scene_file_dropped_on_the_page_opens(live_page):
    scene = preset_scene("dog-bites-man")
    scene["title"] = "dropped"
    transfer = live_page.evaluate_handle(
        """text => {
            const transfer = new DataTransfer();
            transfer.items.add(new File([text], "dropped.json", {type: "application/json"}));
            return transfer;
        }""",
        json.dumps(scene),
    )
    live_page.dispatch_event(sel("heatmap-panel"), "dragenter", {"dataTransfer": transfer})
    expect(live_page.locator("body")).to_have_class("dropping-file")
    live_page.dispatch_event(sel("heatmap-panel"), "drop", {"dataTransfer": transfer})
    expect(live_page.locator(sel("scene-title"))).to_have_text("dropped")
    assert get_scene(live_page) == scene
    expect(live_page.locator("body")).not_to_have_class("dropping-file")


# ---- persistence --------------------------------------------------------------------------------


def test_edits_survive_a_reload_even_an_invalid_one(page, site_url, artifacts):
    open_live(page, f"{site_url}/")
    type_into(page, page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "2.50")
    type_into(page, page.locator(sel("x-cell", row=CAT, column=1)), "abc")
    page.locator(sel("row-label")).nth(CAT).click()
    wait_saved(page)
    expect(page.locator(sel("save-text"))).to_have_text("✓ Your edits, saved in this browser.")
    edited = get_scene(page)
    keys = page.evaluate("Object.keys(localStorage).sort()")
    assert keys == [f"{STORAGE_PREFIX}/current", f"{STORAGE_PREFIX}/draft/{DEFAULT_PRESET}"]

    page.reload()
    wait_live(page)
    # Exactly as typed: "2.50" (not 2.5) and "abc", with the module's message for it.
    expect_cell(page, sel("wq-cell", row=PRONOUN, column=NOUN_DIM), "2.50")
    expect_cell(page, sel("x-cell", row=CAT, column=1), "abc")
    expect(page.locator(sel("x-error"))).to_have_text(f"⚠ {module_error(edited)}")
    assert get_scene(page) == edited
    expect(page.locator(sel("save-text"))).to_have_text("✓ Your edits, saved in this browser.")
    expect(page.locator(sel("preset-reset"))).to_be_visible()
    page.screenshot(path=str(artifacts / "sharing-after-reload.png"), full_page=True)
    # Fixing the cell draws the result, focused on the token the learner had chosen.
    type_into(page, page.locator(sel("x-cell", row=CAT, column=1)), "1")
    expect(page.locator(sel("x-error"))).to_be_hidden()
    expect(focused_heading(page)).to_have_text("Where “cat” pays attention")
    edited["X"][CAT][1] = 1
    assert get_scene(page) == edited


# A course page's script sweeping one weight through 40 values, each shown and waited for, then a pause longer
# than saving waits for; returns the saved scenes of one's own.
SWEEP_ONE_WEIGHT = """async () => {
  const scene = window.attentionPlayground.getScene();
  for (let i = 0; i < 40; i += 1) {
    scene.heads[0].Wq[0][0] = i / 10;
    await window.attentionPlayground.setScene(scene);
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return Object.keys(localStorage).filter((key) => key.includes("/draft/scene-"));
}"""


def test_a_script_stepping_through_scenes_leaves_only_the_last_one_saved(page, site_url):
    """Each scene the script shows is on screen for a moment and nothing of the learner's is in it: only the one
    left on screen is saved (for a reload). Saving every one filled the browser's storage at 64 tokens, after
    which the learner's own edits could not be saved."""
    open_live(page, f"{site_url}/")
    saved = page.evaluate(SWEEP_ONE_WEIGHT)
    assert len(saved) == 1, saved
    shown = get_scene(page)
    assert page.evaluate("(key) => JSON.parse(localStorage.getItem(key)).draft.heads[0].Wq[0][0]", saved[0]) == "3.9"
    assert shown["heads"][0]["Wq"][0][0] == 3.9
    # The learner's edit of the scene on screen is saved as always, and a reload brings it back.
    type_into(page, page.locator(sel("wq-cell", row=1, column=0)), "7")
    wait_saved(page)
    edited = get_scene(page)
    page.reload()
    wait_live(page)
    assert get_scene(page) == edited


def test_an_edited_scene_is_saved_at_once_when_another_replaces_it(live_page):
    """Replacing a scene does not wait for the edits to pause: they are written before the new scene shows."""
    live_page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", random_scene(4, digits=2))
    type_into(live_page, live_page.locator(sel("wq-cell", row=0, column=0)), "5")
    edited = get_scene(live_page)
    live_page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", random_scene(5, digits=2))
    saved = live_page.evaluate("""() => Object.keys(localStorage).filter((key) => key.includes("/draft/scene-"))
      .map((key) => JSON.parse(localStorage.getItem(key)).draft.heads[0].Wq[0][0])""")
    assert "5" in saved, saved
    assert edited["heads"][0]["Wq"][0][0] == 5


def test_reset_to_example_keeps_the_edits_to_bring_back(page, site_url, artifacts):
    open_live(page, f"{site_url}/")
    cell = sel("wq-cell", row=PRONOUN, column=NOUN_DIM)
    type_into(page, page.locator(cell), "0")
    wait_saved(page)
    mine = get_scene(page)
    reset = page.locator(sel("preset-reset"))
    expect(reset).to_have_text("reset to example")
    reset.click()
    expect_cell(page, cell, "4")
    assert get_scene(page) == preset_scene(DEFAULT_PRESET)
    expect(page.locator(sel("notice-text"))).to_contain_text("The example is back as it was")
    expect(reset).to_be_hidden()
    page.screenshot(path=str(artifacts / "sharing-reset.png"), full_page=True)
    # After a reload the example is as shipped; the kept edits can still be brought back.
    page.reload()
    wait_live(page)
    assert get_scene(page) == preset_scene(DEFAULT_PRESET)
    page.locator(sel("restore-kept")).click()
    expect_cell(page, cell, "0")
    assert get_scene(page) == mine


def test_another_example_and_back_brings_the_edits_back(live_page, artifacts):
    type_into(live_page, live_page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "1")
    mine = get_scene(live_page)
    picker = live_page.locator(sel("preset-picker"))
    picker.select_option("dog-bites-man")
    expect(live_page.locator(sel("scene-title"))).to_have_text("dog bites man")
    assert get_scene(live_page) == preset_scene("dog-bites-man")
    # Nothing saved for this example: its line says nothing (it keeps its place, so nothing moves when it does).
    expect(live_page.locator(sel("save-text"))).to_have_text("")
    picker.select_option(DEFAULT_PRESET)
    expect_cell(live_page, sel("wq-cell", row=PRONOUN, column=NOUN_DIM), "1")
    assert get_scene(live_page) == mine
    expect(live_page.locator(sel("save-text"))).to_have_text("✓ Your edits, saved in this browser.")
    expect(live_page.locator(sel("preset-reset"))).to_be_visible()
    live_page.screenshot(path=str(artifacts / "sharing-edits-back.png"), full_page=True)


def test_when_storage_fails_the_page_says_so_and_keeps_working(browser, site_url, artifacts):
    context = browser.new_context()
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    context.add_init_script(
        """Storage.prototype.setItem = function () {
            throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        };"""
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    try:
        open_live(page, f"{site_url}/")
        type_into(page, page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "1")
        status = page.locator(sel("save-status"))
        expect(status).to_contain_text("storage is full")
        expect(status).to_have_attribute("data-tone", "error")
        expect(page.locator(f'{sel("bar-row", token_index=CAT)} {sel("bar-value")}')).not_to_have_text("92.0%")
        page.screenshot(path=str(artifacts / "sharing-storage-full.png"), full_page=True)
        assert errors == []
    finally:
        context.close()


def test_storage_keys_are_built_from_mode_and_scene(live_page):
    keys = live_page.evaluate(
        """() => import('./js/sharing/saved-drafts.js').then((m) => [
            m.storageKey('page', 'dog-bites-man'),
            m.storageKey('embed', 'dog-bites-man'),
            m.storageKey('embed', m.sceneIdentity({tokens: ['a'], b: 1})),
            m.sceneIdentity({b: 1, tokens: ['a']}),
            m.sceneIdentity({tokens: ['a'], b: 2}),
        ])"""
    )
    assert keys[0] == "attention-playground/v1/page/draft/dog-bites-man"
    assert keys[1] == "attention-playground/v1/embed/draft/dog-bites-man"
    assert keys[2] == f"attention-playground/v1/embed/draft/{keys[3]}"  # key order does not matter
    assert keys[3].startswith("scene-") and len(keys[3]) == 22 and keys[3] != keys[4]


# ---- the shared page after a link is made on it ---------------------------------------------------------------


def test_making_links_and_files_on_the_shared_page_leaves_all_it_can(maker_page, site_url):
    """What this module's tests (and test_learner_reports.py's) do on the shared page to make a link, an embed code
    or a file, all at once: the next test must find none of it (test_shared_page.py shows the rest)."""
    page = maker_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    type_into(page, page.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "1.5")
    open_every_panel_and_pick_tabs(page)
    page.locator(sel("link-opens-at")).select_option("experiments")
    expect(page.locator(sel("share-status"))).to_be_empty()
    copy_link(page)
    expect(page.locator(sel("share-status"))).to_contain_text("Link copied")
    page.locator(sel("copy-embed-code")).click()
    page.locator(sel("embed-panels-bars")).uncheck()
    page.locator(sel("embed-locks-Wq")).check()
    page.locator(sel("embed-theme-toggle")).check()
    expect(page.locator(sel("embed-code"))).to_have_value(re.compile("lock=Wq.*theme-toggle|theme-toggle.*lock=Wq"))
    expect(page.locator(sel("embed-code-status"))).to_contain_text("Copied")
    download(page, "download-png")
    toggle = page.locator(sel("theme-toggle"))  # on and off again, as test_learner_reports.py leaves it
    toggle.click()
    expect(toggle).to_have_text("Dark mode: on")
    toggle.click()
    expect(toggle).to_have_text("Dark mode: off")
    page.context.new_page().close()


def test_the_next_test_finds_the_share_menus_as_a_fresh_visitor_does(live_page, page, site_url):
    open_live(page, f"{site_url}/")
    assert_reads_as_a_fresh_visitors(live_page, page)
    clipboard = "() => navigator.permissions.query({name: 'clipboard-read'}).then((status) => status.state)"
    assert live_page.evaluate(clipboard) == page.evaluate(clipboard) == "prompt"
    assert live_page.context.pages == [live_page]
