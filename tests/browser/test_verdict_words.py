"""Verdict words ("barely", "somewhat", "a lot") from thresholds stated once (js/ui/shared/verdicts.js): they change
exactly at their thresholds, no sentence calls a large effect "only", and the model's guided contrast says "barely"
and "a lot" only of numbers that are.
"""

import re

import pytest
from playwright.sync_api import expect

from model_panel_helpers import model_page  # noqa: F401  (a fixture)
from page_helpers import sel

# On one worker with the other files that use the trained model's panel on the shared page (model_page), kept
# open from one file to the next (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("model-panel")


def import_module(page, path):
    """Evaluate `path`'s exports in the page (the site serves js/ as written)."""
    return f"import(new URL({path!r}, document.baseURI).href)"


def test_the_guided_contrast_says_barely_and_a_lot_only_of_numbers_that_are(model_page):
    page = model_page
    page.locator(sel("model-guided")).click()
    contrast = page.locator(sel("model-contrast"))
    expect(contrast).to_be_visible()
    text = contrast.inner_text()
    small, large = (float(x) for x in re.findall(r"\((\d\.\d\d)\)", text))
    thresholds = page.evaluate(f"{import_module(page, 'js/ui/shared/verdicts.js')}.then((v) => [v.BARELY_BELOW, v.A_LOT_FROM])")
    assert "barely moves" in text and small < thresholds[0], text
    assert "a lot" in text and large >= thresholds[1], text
    assert "only" not in text


def test_verdict_words_change_exactly_at_their_thresholds(live_page):
    page = live_page
    words = page.evaluate(f"""async () => {{
      const v = await {import_module(page, "js/ui/shared/verdicts.js")};
      const at = (x) => v.effectWord(x);
      const below = (x) => x - Number.EPSILON * 4;
      return {{
        barely: v.BARELY_BELOW, aLot: v.A_LOT_FROM, most: v.MOST_WEIGHT_FROM,
        words: [at(0), at(below(v.BARELY_BELOW)), at(v.BARELY_BELOW), at(below(v.A_LOT_FROM)), at(v.A_LOT_FROM), at(1)],
        most: [v.isMostWeight(below(v.MOST_WEIGHT_FROM)), v.isMostWeight(v.MOST_WEIGHT_FROM)],
      }};
    }}""")
    assert words["words"] == ["barely", "barely", "somewhat", "somewhat", "a lot", "a lot"]
    assert words["most"] == [False, True]
    # A total variation shift of 0.32, as the learner saw, is "a lot": no sentence may call it "only".
    sentences = page.evaluate(f"""async () => {{
      const w = await {import_module(page, "js/ui/model/weight-effect.js")};
      const view = (busyEffect) => ({{
        tokens: ["<bos>", "a", "b"], labels: [["L0H0", "L0H1"]], knockedOut: [], focus: 2,
        weights: [[[[1, 0, 0], [1, 0, 0], [0.002, 0.998, 0]], [[1, 0, 0], [0.5, 0.5, 0], [0.4, 0.3, 0.3]]]],
        effects: [[[0, 0, busyEffect], [0, 0, 0.6]]],
      }});
      return [0.32, 0.0499, 0.05].map((effect) => w.weightAgainstEffect(view(effect)).contrast);
    }}""")
    assert sentences[0] is None, sentences[0]
    assert "barely moves the prediction (0.05)" in sentences[1] and "moves it a lot (0.60)" in sentences[1]
    assert sentences[2] is None
