"""The trained model's panel on a phone (390 × 844, touch), as a learner finds it: a few screens, not a dozen (the
cards compact, the secondary parts folded until tapped open), the large grid's word labels readable, the grid
scrolling sideways inside the panel rather than shrinking them; and on the playground's grid, a tap's tooltip clear
of the row labels it explains."""

from playwright.sync_api import expect

from attention_playground.model import requests as model_requests
from page_helpers import open_live, sel

PHONE = {"width": 390, "height": 844}
#: The panel's height on that phone, open on its first example, at most (it was some 7,100 px with every part
#: laid out at full length and the cards two a row).
MOST_PANEL_HEIGHT = 4800
#: The smallest a word label of the large grid may be drawn, in CSS pixels (js/ui/model/chosen-head.js).
MIN_LABEL_PX = 11
#: The parts folded on a phone (js/ui/model/disclosure.js), each a tap away.
FOLDED = ["model-legend", "model-weight-effect-heads", "model-designed-steps", "model-training-run"]

INFO = model_requests.model_info({})

# The rendered size of every word label of the large grid: its font size times the SVG's scale on screen.
LABEL_SIZES = """() => {
  const svg = document.querySelector('[data-testid="model-heatmap"]');
  const scale = svg.getScreenCTM().a;
  return [...svg.querySelectorAll(".row-label text, .column-label")].map((label) => Number(label.getAttribute("font-size")) * scale);
}"""


def open_on_phone(phone_at, site_url):
    phone = phone_at(PHONE["width"], PHONE["height"])
    open_live(phone, f"{site_url}/", "light")
    phone.locator(sel("model-open")).tap()
    expect(phone.locator(sel("model-head-card"))).to_have_count(len(INFO["heads"]), timeout=60_000)
    expect(phone.locator(sel("model-prediction")).first).to_be_visible(timeout=60_000)
    return phone


def test_on_a_phone_the_model_panel_is_a_few_screens_and_its_grid_stays_readable(phone_at, site_url, artifacts):
    phone = open_on_phone(phone_at, site_url)
    panel = phone.locator(sel("model-panel"))
    height = panel.bounding_box()["height"]
    assert height <= MOST_PANEL_HEIGHT, height
    # The cards are one a row, each as wide as the panel allows, and no taller than a thumbnail and its words.
    cards = phone.locator(sel("model-head-card"))
    boxes = [cards.nth(k).bounding_box() for k in range(cards.count())]
    assert len({round(box["x"]) for box in boxes}) == 1 and max(box["height"] for box in boxes) < 130, boxes
    # The secondary parts are folded, and a tap opens one.
    for testid in FOLDED:
        assert not phone.locator(sel(testid)).evaluate("(details) => details.open"), testid
    phone.locator(sel("model-legend")).locator("summary").tap()
    expect(phone.locator(sel("model-legend-first-token"))).to_be_visible()
    # The large grid's word labels stay readable; the grid scrolls sideways inside the panel, the page does not.
    sizes = phone.evaluate(LABEL_SIZES)
    assert sizes and min(sizes) >= MIN_LABEL_PX - 0.01, sizes
    scroller = phone.locator(f'{sel("model-chosen-head")} .heatmap-wrap')
    assert scroller.evaluate("(wrap) => wrap.scrollWidth > wrap.clientWidth && getComputedStyle(wrap).overflowX === 'auto'")
    assert phone.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    panel.screenshot(path=str(artifacts / "model-panel-phone-390.png"))

    # The playground's grid: a tap on a cell of the first column shows its tooltip beside the row labels it
    # explains, not over them.
    tokens = phone.evaluate("window.attentionPlayground.result().tokens")
    phone.locator(f'{sel("heatmap-cell")}[data-row="{len(tokens) // 2}"][data-column="0"]').tap()
    tooltip = phone.locator(sel("heatmap-tooltip"))
    expect(tooltip).to_be_visible()
    tip = tooltip.bounding_box()
    labels = phone.locator(sel("row-label"))
    assert labels.count() == len(tokens)
    for k in range(labels.count()):
        label = labels.nth(k).bounding_box()
        apart = (tip["x"] >= label["x"] + label["width"] or label["x"] >= tip["x"] + tip["width"] or
                 tip["y"] >= label["y"] + label["height"] or label["y"] >= tip["y"] + tip["height"])
        assert apart, (k, tip, label)
    phone.screenshot(path=str(artifacts / "model-panel-phone-tooltip.png"))

    # A long sentence: its labels would shrink further to fit; they keep their size and the grid scrolls further.
    run = model_requests.EXAMPLES[0]["words"].split()
    long = " ".join((run * 2)[:28])
    phone.locator(sel("model-words")).fill(long)
    expect(phone.locator(sel("model-heatmap-row-label"))).to_have_count(len(long.split()) + 1)
    sizes = phone.evaluate(LABEL_SIZES)
    assert min(sizes) >= MIN_LABEL_PX - 0.01, sizes
    # A tap on a row label still focuses that word.
    phone.locator(sel("model-heatmap-row-label")).nth(3).tap()
    expect(phone.locator(sel("model-bars-heading"))).to_contain_text("(word 3)")

    # The same in dark mode, which the page follows from the system.
    phone.emulate_media(color_scheme="dark")
    phone.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    assert phone.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    panel.screenshot(path=str(artifacts / "model-panel-phone-390-dark.png"))

