"""The trained model's panel in links and saved work: a link keeps the sentence, the knock-outs, the head and its
edits; a knock-out made last is kept by saved work and back after a reload; a link pasted where the panel is open
runs the model on its sentence; a link made with the first model opens its panel on today's model.
"""

import base64
import json
import zlib
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import pytest
from playwright.sync_api import expect

from model_panel_helpers import (  # noqa: F401  (model and model_page are fixtures)
    INFO, N_HEADS, REPEATED_NOUN, REPEATED_RUN, card, model, model_page, native_run, open_model, wait_for_predictions)
from page_helpers import copy_link, open_live, sel, type_into
from sharing_helpers import STORAGE_PREFIX, maker_page  # noqa: F401  (maker_page is a fixture)

# On one worker with the other files that use the trained model's panel on the shared page (model_page), kept
# open from one file to the next (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("model-panel")


def test_a_link_keeps_the_sentence_the_knock_outs_the_head_and_its_edits(maker_page, model_page, fresh_page, model):
    # The link is made on the shared page, whose share menus are put back after (maker_page).
    model_page.locator(sel("model-example-repeated-noun")).click()
    card(model_page, 0, 0).locator(sel("model-knock-out")).check()
    card(model_page, 1, 1).locator(sel("model-head-choose")).click()
    model_page.locator(sel("model-open-head")).click()
    expect(model_page.locator(sel("scene-title"))).to_contain_text("(L1H1)")
    type_into(model_page, model_page.locator(sel("wk-cell", row=3, column=2)), "2.5")
    expect(model_page.locator(sel("model-edited"))).to_contain_text("L1H1 is edited")
    Wk = np.array(model_page.evaluate("window.attentionPlayground.getScene().heads[0].Wk"))
    focus = len(REPEATED_NOUN.split())
    expected = native_run(REPEATED_NOUN, [(0, 0)], {"layer": 1, "head": 1, "Wk": Wk.tolist()})["predictions"][focus]
    wait_for_predictions(model_page, expected)
    link = copy_link(model_page)

    fresh_page.goto(link)
    expect(fresh_page.locator(sel("model-head-card"))).to_have_count(N_HEADS, timeout=60_000)
    expect(fresh_page.locator(sel("model-words"))).to_have_value(REPEATED_NOUN)
    expect(fresh_page.locator(sel("model-head-card", layer=0, head=0)).locator(sel("model-knock-out"))).to_be_checked()
    expect(fresh_page.locator(sel("model-head-card", layer=1, head=1)).locator(sel("model-head-choose"))).to_have_attribute("aria-pressed", "true")
    expect(fresh_page.locator(sel("model-edited"))).to_contain_text("L1H1 is edited")
    # The edited predictions arrive after the "edited" label, so both pages are compared with the native run.
    wait_for_predictions(fresh_page, expected)


#: Click a knock-out box and leave the page at once (as a reload does); gives the knock-outs saved for the scene on screen.
KNOCK_OUT_AND_LEAVE = """([box, prefix]) => {
  box.click();
  window.dispatchEvent(new PageTransitionEvent("pagehide"));
  const id = JSON.parse(localStorage.getItem(`${prefix}/current`));
  return JSON.parse(localStorage.getItem(`${prefix}/draft/${id}`)).view.model.knocked_out;
}"""


def test_a_knock_out_made_last_is_kept_by_saved_work_and_back_after_a_reload(page, site_url):
    """The panel's state is saved from itself (there is no copy in the page's view to go stale): a knock-out made
    just before the reload, in a scene of the learner's own (a head opened in the playground), comes back."""
    open_model(page, f"{site_url}/")
    card(page, 1, 1).locator(sel("model-head-choose")).click()
    page.locator(sel("model-open-head")).click()
    expect(page.locator(sel("scene-title"))).to_contain_text("(L1H1)")
    # The click and the page going away in one task, before the one in which saving would hear of the click (it
    # hears of changes a task late, state/redraw-schedule.js): what the page writes as it goes has the knock-out.
    box = card(page, 0, 2).locator(sel("model-knock-out"))
    assert page.evaluate(KNOCK_OUT_AND_LEAVE, [box.element_handle(), STORAGE_PREFIX]) == [[0, 2]]
    expect(box).to_be_checked()
    page.reload()
    expect(page.locator(sel("model-head-card"))).to_have_count(N_HEADS, timeout=60_000)
    expect(card(page, 0, 2).locator(sel("model-knock-out"))).to_be_checked()
    expect(card(page, 1, 1).locator(sel("model-head-choose"))).to_have_attribute("aria-pressed", "true")
    expect(page.locator(sel("model-edited"))).to_contain_text("L1H1 is open in the playground")


def test_a_link_opened_where_the_panel_is_open_runs_the_model_on_its_sentence(maker_page, model_page):
    """A link pasted into the address of a page whose panel is already open, on another sentence."""
    model_page.locator(sel("model-example-repeated-noun")).click()
    card(model_page, 0, 1).locator(sel("model-knock-out")).check()
    expected = native_run(REPEATED_NOUN, [(0, 1)])["predictions"][len(REPEATED_NOUN.split())]
    wait_for_predictions(model_page, expected)
    link = copy_link(model_page)
    card(model_page, 0, 1).locator(sel("model-knock-out")).uncheck()
    model_page.locator(sel("model-example-repeated-run")).click()
    wait_for_predictions(model_page, native_run(REPEATED_RUN)["predictions"][len(REPEATED_RUN.split())])

    model_page.evaluate("(hash) => { location.hash = hash; }", "#" + urlsplit(link).fragment)
    expect(model_page.locator(sel("model-words"))).to_have_value(REPEATED_NOUN)
    wait_for_predictions(model_page, expected)


def test_a_link_made_with_the_first_model_opens_its_panel_on_todays_model(fresh_page, site_url):
    """fixtures/link-v4-first-model.txt is a format-4 link as the page wrote it when it shipped its first model
    (2 heads a layer of d_head 16, 52 words; made from that checkpoint with today's head_scene): the panel open on
    a sentence with L0H0 knocked out and L1H1 chosen, opened in the playground and edited there. Today's model
    has the same heads and knows the words, but its heads are 8 wide: the panel opens as the link left it, the
    playground keeps the link's scene, and the model runs with its own weights (a 16-wide head cannot be fed in)."""
    link = (Path(__file__).resolve().parent / "fixtures" / "link-v4-first-model.txt").read_text().strip()
    data = link.removeprefix("#s=4.")
    payload = json.loads(zlib.decompress(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)), -15))
    kept = payload["view"]["model"]
    assert len(payload["scene"]["heads"][0]["Wq"][0]) != INFO["config"]["d_head"]  # the old head's width
    open_live(fresh_page, f"{site_url}/{link}")
    expect(fresh_page.locator(sel("model-head-card"))).to_have_count(N_HEADS, timeout=60_000)
    expect(fresh_page.locator(sel("model-words"))).to_have_value(kept["words"])
    expect(card(fresh_page, 0, 0).locator(sel("model-knock-out"))).to_be_checked()
    expect(card(fresh_page, 1, 1).locator(sel("model-head-choose"))).to_have_attribute("aria-pressed", "true")
    wait_for_predictions(fresh_page, native_run(kept["words"], [(0, 0)])["predictions"][kept["focus"]])
    expect(fresh_page.locator(sel("model-error"))).to_be_hidden()
    expect(fresh_page.locator(sel("model-edited"))).not_to_contain_text("is edited")
    assert fresh_page.evaluate("window.attentionPlayground.getScene()") == payload["scene"]
