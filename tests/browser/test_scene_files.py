"""Scene files and pictures, through the browser's own downloads, file picker and drop: the exports hold the heatmap
(CSV, SVG, PNG), the weights and the scene, which opens again in a fresh context; the PNG shows the heatmap's
colours; a bad scene file shows the module's message and keeps the page; a scene file dropped on the page
opens.
"""

import base64
import csv
import io
import json
import struct
import xml.etree.ElementTree as ET

from playwright.sync_api import expect

from attention_playground import compute
from page_helpers import CAT, IT, NOUN_DIM, PRONOUN, download, module_error, open_live, open_share_menu, preset_scene, sel, type_into
from sharing_helpers import get_scene


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
    open_share_menu(fresh_page)
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
