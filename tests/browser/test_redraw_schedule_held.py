"""The store's hold (js/state/redraw-schedule.js), in real Chromium, on its own: while a hold is on, the deferred views wait, even
for a change they would draw at once; once it is released they draw after the next frame is painted, once, with
every part that changed, and the release resolves only after they have. (A lesson step holds them so that its
question is painted before the grids its scene rebuilds: test_lesson_question_first.py.)"""

import pytest

from test_redraw_schedule import HARNESS, INSTALL_STORE

pytestmark = pytest.mark.browser

# One deferred view for which "values" is urgent, logging each call with whether a frame was painted since the
# release. A change it would draw at once and one it would wait for come while held; then the release; then,
# released, an urgent change again.
HELD_VIEWS = """async () => {
  const { store, put, numberIn } = await makeStore();
  const log = [];
  let framed = false;
  store.subscribe((state, changes) => log.push({ n: numberIn(state), changes: [...changes].sort(), framed }),
    { urgent: (changes) => changes.has("values") });
  const release = store.hold();
  put(1, "scene");
  put(2, "values");
  await new Promise((resolve) => setTimeout(resolve, 50));
  const whileHeld = log.length;
  const released = release();
  requestAnimationFrame(() => { framed = true; });
  await released;
  const whenResolved = log.length;
  await release(); // again: nothing more
  put(3, "values");
  const urgentAfter = log.length;
  return { whileHeld, whenResolved, urgentAfter, log };
}"""


def test_held_views_wait_and_draw_once_after_the_next_frame(page, site_url):
    page.goto(site_url + HARNESS)
    page.evaluate(INSTALL_STORE)
    outcome = page.evaluate(HELD_VIEWS)
    assert outcome["whileHeld"] == 0, "a held view drew, even an urgent change, before the release"
    assert outcome["whenResolved"] == 1, "the release resolves once the held view has drawn"
    first = outcome["log"][0]
    assert first == {"n": 2, "changes": ["scene", "values"], "framed": True}, \
        "drawn once, after a painted frame, with every part that changed while held"
    assert outcome["urgentAfter"] == 2, "released, an urgent change is drawn at once again"
