"""Numbers and words as a learner reads them: a decimal comma gets a suggestion, the worked steps write
weights to the tutorial's four decimals, the knock-out sentence names every word in quotes, an exported
picture carries its title and its colour legend and no outline from the pointer or the keyboard, and a CSV of
weights cannot turn a hostile token into a spreadsheet formula.
"""

import csv
import io
import re
import xml.etree.ElementTree as ET

from playwright.sync_api import expect

from attention_playground import compute
from page_helpers import download, preset_scene, sel


SVG = "{http://www.w3.org/2000/svg}"
# The default scene, "the cat sat on the mat because it was tired".
IT, CAT = 7, 1


def test_a_decimal_comma_is_refused_with_the_number_it_probably_means(live_page):
    live_page.locator(sel("x-cell", row=CAT, column=0)).click()
    live_page.keyboard.type("0,5")
    error = live_page.locator(sel("x-error"))
    expect(error).to_contain_text("\"0,5\" is not a number; did you mean 0.5? Write decimals with a point")


def test_the_worked_steps_write_weights_to_four_decimals_like_the_tutorial(live_page):
    live_page.locator(sel("step-toggle")).check()
    weights = live_page.locator(f'{sel("step-view")} figure[data-stage="weights"]')
    result = live_page.evaluate("window.attentionPlayground.result()")
    it_cat = result["heads"][0]["weights"][IT][CAT]
    cell = weights.locator(f'td[data-row="{IT}"][data-column="{CAT}"]')
    expect(cell).to_have_text(f"{it_cat:.4f}")
    texts = weights.locator("td").all_inner_texts()
    assert texts and all(re.fullmatch(r"\d\.\d{4}", text) for text in texts), texts
    cell.hover()
    expect(live_page.locator(sel("step-explain"))).to_contain_text(f"= {it_cat:.4f}")


def test_the_knock_out_sentence_names_each_word_in_quotes(live_page):
    """The default sentence contains "it": "the largest weight on it is in row “it”" said nothing clear."""
    live_page.locator(sel("experiment-tab-knockout")).click()
    live_page.locator(sel("knockout-token")).select_option(str(CAT))
    live_page.locator(sel("knockout-run")).click()
    summary = live_page.locator(sel("knockout-summary"))
    result = live_page.evaluate("window.attentionPlayground.result()")
    it_cat = result["heads"][0]["weights"][IT][CAT]
    expect(summary).to_contain_text(f"With “cat” knocked out: the row that gave “cat” the most weight is the row of “it” ({it_cat:.3f})")
    assert " on it " not in summary.inner_text()


def test_an_exported_picture_has_its_title_and_legend_and_no_outlines(live_page, artifacts):
    # The learner points at a cell and has a row focused: neither outline belongs in the picture.
    live_page.locator(sel("heatmap-cell", row=2, column=3)).hover()
    expect(live_page.locator(".heatmap .hover-outline")).to_have_attribute("visibility", "visible")
    name, data = download(live_page, "download-svg")
    (artifacts / "export-with-legend.svg").write_bytes(data)
    root = ET.fromstring(data)
    texts = [node.text for node in root.iter(f"{SVG}text")]
    title = f"Attention weights: {live_page.evaluate('window.attentionPlayground.result().title')}"
    assert texts[0] == title, "the title is written on the picture, first"
    assert root.find(f"{SVG}title").text == title
    # The colour legend: its ramp labels, "weight", and the masked swatch's words.
    assert {"0", "0.25", "0.5", "0.75", "1", "weight", "masked", "may not read"} <= set(texts)
    assert not [node for node in root.iter() if node.get("class") in ("hover-outline", "focus-outline")]
    labels = {node.text: node for node in root.iter(f"{SVG}text") if node.text in ("it", "cat")}
    # The focused row ("it") is drawn like the others, not in the focus colour.
    fill_of = lambda node: node.get("fill") or next(  # noqa: E731
        (parent.get("fill") for parent in root.iter() if node in list(parent) and parent.get("fill")), None)
    assert fill_of(labels["it"]) == fill_of(labels["cat"])
    assert "tabindex" not in data.decode()

    name, data = download(live_page, "download-png")
    (artifacts / "export-with-legend.png").write_bytes(data)
    width, height = int(root.get("width")), int(root.get("height"))
    assert data[16:24] == (2 * width).to_bytes(4, "big") + (2 * height).to_bytes(4, "big")


def test_a_csv_of_weights_escapes_tokens_a_spreadsheet_would_run(live_page):
    scene = preset_scene("dog-bites-man")
    scene["tokens"] = ["=HYPERLINK(\"http://x\")", "+SUM(A1:A9)", "-2+3"]
    live_page.evaluate("(scene) => window.attentionPlayground.setScene(scene)", scene)
    name, data = download(live_page, "download-csv")
    text = data.decode("utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    escaped = ["'=HYPERLINK(\"http://x\")", "'+SUM(A1:A9)", "'-2+3"]
    assert rows[0] == ["asks \\ answers", *escaped]
    assert [row[0] for row in rows[1:]] == escaped
    # No field, as a spreadsheet reads it, starts like a formula.
    assert not any(re.match(r"[=+\-@\t\r]", field) for row in rows for field in row)
    # The weights are untouched numbers.
    weights = compute(scene)["heads"][0]["weights"]
    assert [[float(value) for value in row[1:]] for row in rows[1:]] == weights
