"""A lesson step's question is drawn before the grids its scene rebuilds: the self-attention lab's step on √d moves
from “dog bites man” to six words with 32 × 32 projections, whose three weight grids took longer to build and lay
out than the question's whole budget (docs/benchmarks.md, lesson_step.py). The question's form is seen as it is
put in the player (a mutation observer): the weight grid is then still the step before's, and it is the new
scene's once `lessons.open` resolves."""

import pytest

pytestmark = pytest.mark.browser

LESSON = "self-attention-lab"
BEFORE, STEP = "block-the-future-yourself", "the-root-d-detail-on-random-numbers"

# Open STEP from BEFORE: the count of Wq's cells when the question's form appears, and once the call resolves.
OPEN_WATCHING = """async ([lesson, step]) => {
  const area = document.querySelector('[data-testid="lesson-question"]');
  const cells = () => document.querySelectorAll('[data-testid="wq-cell"]').length;
  let atQuestion = null;
  const observer = new MutationObserver(() => {
    if (atQuestion === null && area.querySelector("form")) atQuestion = cells();
  });
  observer.observe(area, { childList: true, subtree: true });
  const before = cells();
  await window.attentionPlayground.lessons.open(lesson, { step });
  observer.disconnect();
  return { before, atQuestion, opened: cells() };
}"""


def test_the_question_is_drawn_before_the_weight_grids_are_rebuilt(live_page):
    page = live_page
    page.evaluate("([lesson, step]) => window.attentionPlayground.lessons.open(lesson, { step })", [LESSON, BEFORE])
    try:
        counts = page.evaluate(OPEN_WATCHING, [LESSON, STEP])
        wq = page.evaluate("window.attentionPlayground.getScene()")["heads"][0]["Wq"]
    finally:
        page.evaluate("window.attentionPlayground.lessons.close()")
    shipped = len(wq) * len(wq[0])
    assert counts["before"] != shipped, "the step before shows another shape of Wq"
    assert counts["atQuestion"] == counts["before"], "the question waited for the new grids"
    assert counts["opened"] == shipped, "once open resolves, Wq is the step's scene's"
