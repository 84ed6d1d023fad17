"""What the tests of the trained model's panel (test_model_panel_*.py, and the learner's reports on it) share: the
shipped model's facts read natively, the model's answers run natively, the panel opened on a page, and the panel
on the shared page put back as it first opens (`model_page`).

The model's panel keeps Python state of its own (its sentence, knock-outs, the head opened in the playground), and
the shared page's reset puts the playground back, not the panel: `model_page` puts the panel back too, as a learner
would, before each test. test_model_panel_put_back.py shows that the next test finds it as it first opened; a
test of another module gets a page booted again (conftest.py's `live_page`).
"""

import pytest
from playwright.sync_api import expect

from attention_playground.model import load_model
from attention_playground.model import requests as model_requests
from page_helpers import ANIMATIONS_ENDED, open_live, sel

EXAMPLES = {example["id"]: example["words"] for example in model_requests.EXAMPLES}
REPEATED_RUN = EXAMPLES["repeated-run"]
REPEATED_NOUN = EXAMPLES["repeated-noun"]
INFO = model_requests.model_info({})
N_HEADS = INFO["config"]["n_layers"] * INFO["config"]["n_heads"]
ROLES = {(h["layer"], h["head"]): h["role"] for h in INFO["heads"]}
(PREVIOUS,) = [pair for pair, role in ROLES.items() if role == "previous-token"]
INDUCTION = [pair for pair, role in ROLES.items() if role == "induction"]


@pytest.fixture(scope="module")
def model():
    return load_model()


def native_run(words, knocked_out=(), edited_head=None):
    payload = {"words": words, "knocked_out": [list(pair) for pair in knocked_out]}
    if edited_head:
        payload["edited_head"] = edited_head
    return model_requests.model_run(payload)


def open_model(page, url):
    open_live(page, url)
    page.locator(sel("model-open")).click()
    # The panel's first answer waits for Python to fetch and import the model: on a busy machine, seconds.
    expect(page.locator(sel("model-head-card"))).to_have_count(N_HEADS, timeout=60_000)
    expect(page.locator(sel("model-prediction")).first).to_be_visible(timeout=60_000)


def model_panel_opened(page):
    """Whether the model's panel on the shared page is open. The panel is one of the views mounted after the page is
    live (playground.js: mountLaterViews), so this waits until it is there: a page just booted may not have it yet."""
    button = page.locator(sel("model-open"))
    expect(button).to_have_count(1, timeout=60_000)
    return button.is_hidden()


def open_model_on_live_page(page):
    """Open the model's panel on the shared page, where an earlier test may have left it open (the
    shared page's reset puts the playground back, not the model's panel)."""
    if not model_panel_opened(page):
        page.locator(sel("model-open")).click()


def put_the_model_panel_back(page):
    """The model's panel on the shared page, open and as it first opens: the shipped model on the first
    example, no head knocked out, the default head chosen (L1H0), the last word focused, the known words folded,
    no error. Done as a learner would (the shared page's reset has already put the playground back, which sends
    a head opened there back to its trained weights); the panel stays open, so its model is not loaded again."""
    open_model_on_live_page(page)
    expect(page.locator(sel("model-head-card"))).to_have_count(N_HEADS, timeout=60_000)
    expect(page.locator(sel("model-summary"))).to_contain_text("The model that comes with the page")
    known = page.locator(sel("model-known-words"))
    if known.evaluate("(details) => details.open"):
        known.locator("summary").click()
    for box in page.locator(sel("model-knock-out")).all():
        if box.is_checked():
            box.uncheck()
    page.locator(sel(f"model-example-{model_requests.EXAMPLES[0]['id']}")).click()
    default = card(page, 1, 0).locator(sel("model-head-choose"))
    if default.get_attribute("aria-pressed") != "true":
        default.click()
    expect(default).to_have_attribute("aria-pressed", "true")
    expect(page.locator(sel("model-words"))).to_have_value(model_requests.EXAMPLES[0]["words"])
    wait_for_predictions(page, native_run(model_requests.EXAMPLES[0]["words"])["predictions"][-1])
    expect(page.locator(sel("model-error"))).to_be_hidden()
    expect(page.locator(sel("model-edited"))).to_be_hidden()
    page.evaluate("window.scrollTo(0, 0)")


# What a learner can see or a script can read of the model's panel, once nothing is moving any more.
MODEL_PANEL_STATE = """async () => {
""" + ANIMATIONS_ENDED + """  const panel = document.querySelector('[data-panel="model"]');
  const visible = (element) => element.checkVisibility();
  return {
    text: panel.innerText,
    shown: [...panel.querySelectorAll("[data-testid]")].filter(visible).map((element) => element.dataset.testid),
    controls: [...panel.querySelectorAll("input, button, details")].filter(visible).map((control) => ({
      testid: control.closest("[data-testid]")?.dataset.testid ?? null, value: control.value ?? null,
      checked: control.checked ?? null, pressed: control.getAttribute("aria-pressed"), open: control.open ?? null,
    })),
    scene: window.attentionPlayground.getScene(),
  };
}"""


#: The model's panel as put back on the shared page the first time it was opened there since its boot (model_page).
FIRST_OPENED = {}


@pytest.fixture
def model_page(live_page):
    """The shared page with the model's panel open and put back (put_the_model_panel_back): a test that
    only uses the panel pays for its own work, not for booting Python and loading the model."""
    first = not model_panel_opened(live_page)
    put_the_model_panel_back(live_page)
    if first:
        FIRST_OPENED["state"] = live_page.evaluate(MODEL_PANEL_STATE)
    return live_page


def card(page, layer, head):
    return page.locator(sel("model-head-card", layer=layer, head=head))


def shown_predictions(page):
    """The panel's predictions at the focused position: [(word, probability)] with every digit it has."""
    return page.eval_on_selector_all(sel("model-prediction"), "items => items.map((i) => [i.dataset.word, Number(i.dataset.probability)])")


def wait_for_predictions(page, expected):
    page.wait_for_function(
        """(want) => {
          const got = [...document.querySelectorAll('[data-testid="model-prediction"]')].map((i) => [i.dataset.word, Number(i.dataset.probability)]);
          return got.length === want.length && got.every(([w, p], k) => w === want[k][0] && Math.abs(p - want[k][1]) <= 1e-9);
        }""",
        arg=expected,
    )


def focus_position(page, position):
    page.locator(sel("model-heatmap-row-label")).nth(position).click()
