"""js/state/redraw-schedule.js in real Chromium, on its own: the store's subscribers that hear a task after the
heatmap all hear in one task, in the order they were owed, each once with every part that changed; one that fails
does not keep the others from drawing; and one far from the screen waits for the updates to pause.

Each test opens tests/browser/harness.html and drives the page's own store (state/session.js createStore) in it:
`makeStore()` gives the store and `put(n, part)`, which writes the number `n` (kept in the store's `notice`
slice) with the change `part`, as the scene session writes a new result.
"""


HARNESS = "/tests/browser/harness.html"

# The store every test drives, put on the harness page first.
INSTALL_STORE = """() => {
  window.makeStore = async () => {
    const { createStore } = await import("/js/state/session.js");
    const store = createStore();
    const write = store.takeSceneWriter();
    const put = (n, part) => write({ notice: { n } }, part);
    const numberIn = (state) => state.notice?.n ?? 0;
    return { store, put, numberIn };
  };
}"""

# Three deferred views and one that is not, each logging its calls. Every call also queues a microtask that
# advances `epoch`: calls made in one run of code, with no microtask checkpoint between them (one task), log
# the same epoch, and calls in separate tasks log different ones.
DEFERRED_REDRAWS = """async () => {
  const { store, put, numberIn } = await makeStore();
  let epoch = 0;
  const log = [];
  const record = (name, state, changes) => {
    log.push({ name, epoch, n: numberIn(state), changes: [...changes].sort() });
    queueMicrotask(() => { epoch += 1; });
  };
  const view = (name, when) => store.subscribe((state, changes) => record(name, state, changes), when);
  view("bars", {});
  view("steps", {});
  view("editors", { urgent: (changes) => changes.has("values") });
  view("heatmap"); // no timing: at once

  const updateEpoch = epoch;
  put(1, "result");
  put(2, "focus");
  put(3, "values");
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { updateEpoch, log };
}"""

A_FAILING_VIEW = """async () => {
  const { store, put } = await makeStore();
  const drawn = [];
  const reported = [];
  window.addEventListener("error", (event) => { reported.push(event.message); event.preventDefault(); });
  store.subscribe(() => { drawn.push("first"); throw new Error("the first view broke"); }, {});
  store.subscribe(() => drawn.push("second"), {});
  put(1, "result");
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { drawn, reported };
}"""


def test_redraw_schedule_redraw_together_in_the_next_task_in_the_order_they_were_owed(page, site_url):
    page.goto(site_url + HARNESS)
    page.evaluate(INSTALL_STORE)
    outcome = page.evaluate(DEFERRED_REDRAWS)
    start, log = outcome["updateEpoch"], outcome["log"]

    heatmap = [entry for entry in log if entry["name"] == "heatmap"]
    assert [entry["epoch"] for entry in heatmap] == [start] * 3, "the heatmap draws each update at once"

    # The editors' "values" change is urgent: they draw at once, first what they were owed, then the edit.
    editors = [entry for entry in log if entry["name"] == "editors"]
    assert [(entry["epoch"], entry["changes"]) for entry in editors] == [
        (start, ["focus", "result"]),
        (start, ["values"]),
    ]

    # The other two wait, and then draw once each, in one task after the update, in the order they were owed.
    later = [entry for entry in log if entry["name"] in ("bars", "steps")]
    assert [entry["name"] for entry in later] == ["bars", "steps"]
    assert len({entry["epoch"] for entry in later}) == 1, f"the deferred views drew in separate tasks: {later}"
    assert later[0]["epoch"] > start
    for entry in later:
        assert entry["changes"] == ["focus", "result", "values"], "every part that changed, once"
        assert entry["n"] == 3, "the state as it is when they draw"


def test_a_failing_deferred_view_is_reported_and_the_others_still_draw(browser, site_url):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(site_url + HARNESS)
        page.evaluate(INSTALL_STORE)
        outcome = page.evaluate(A_FAILING_VIEW)
    finally:
        context.close()
    assert outcome["drawn"] == ["first", "second"]
    assert len(outcome["reported"]) == 1 and "the first view broke" in outcome["reported"][0]


# One view near the screen and one far below it, each logging its calls with the time since the first update.
# The far one gets a stream of updates 50 ms apart (quicker than the pause it waits for), then a pause; then
# two more updates, of which the second is urgent; then one more, and it is scrolled into view. (Near the screen,
# a view hears a task after the heatmap, as every deferred view does.)
NEAR_AND_FAR_VIEWS = """async () => {
  const { nearScreen, FAR_VIEW_STILL_MS } = await import("/js/state/redraw-schedule.js");
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const near = document.createElement("div");
  const far = document.createElement("div");
  far.style.marginTop = "20000px";
  far.style.height = "10px";
  document.body.append(near, far);
  const { store, put, numberIn } = await makeStore();
  const log = [];
  let started = 0;
  // The views' observers, made as they mount, count their reports on each element here, so that the test
  // waits for them rather than for a number of frames (two frames were not always enough on a loaded machine).
  const reports = new Map();
  const listeners = new Set();
  const NativeObserver = window.IntersectionObserver;
  window.IntersectionObserver = class extends NativeObserver {
    constructor(callback, options) {
      super((entries, observer) => {
        callback(entries, observer);
        for (const entry of entries) reports.set(entry.target, (reports.get(entry.target) ?? 0) + 1);
        for (const listener of listeners) listener();
      }, options);
    }
  };
  const reported = (element, count) => new Promise((resolve) => {
    const check = () => {
      if ((reports.get(element) ?? 0) < count) return;
      listeners.delete(check);
      resolve();
    };
    listeners.add(check);
    check();
  });
  const view = (name, element) => store.subscribe(
    (state, changes) => log.push({ name, n: numberIn(state), changes: [...changes].sort(), at: performance.now() - started }),
    nearScreen(element)); // urgent: the learner opening a panel ("view")
  view("near", near);
  view("far", far);
  await Promise.all([reported(near, 1), reported(far, 1)]); // both views know where their elements are
  window.IntersectionObserver = NativeObserver;

  started = performance.now();
  let lastUpdateAt = 0;
  for (let n = 1; n <= 6; n += 1) {
    put(n, n % 2 ? "result" : "focus");
    lastUpdateAt = performance.now() - started;
    await sleep(50);
  }
  await sleep(FAR_VIEW_STILL_MS + 200);
  const afterPause = log.length;
  put(7, "result");
  put(8, "view");
  const afterUrgent = log.length;
  put(9, "result");
  far.scrollIntoView();
  await reported(far, 2); // the far view has seen its element come near
  const afterScroll = log.length;
  return { log, lastUpdateAt, still: FAR_VIEW_STILL_MS, afterPause, afterUrgent, afterScroll };
}"""


def test_a_view_far_from_the_screen_catches_up_once_the_updates_pause(page, site_url):
    page.goto(site_url + HARNESS)
    page.evaluate(INSTALL_STORE)
    outcome = page.evaluate(NEAR_AND_FAR_VIEWS)
    log = outcome["log"]
    near = [entry for entry in log if entry["name"] == "near"]
    far = [entry for entry in log if entry["name"] == "far"]

    # Near the screen: every update, a task after it comes; the urgent one at once, after what it was owed. (Then
    # the far view is scrolled into view, and this one out of it.)
    assert [entry["n"] for entry in near][:8] == [1, 2, 3, 4, 5, 6, 8, 8]

    # Far from it: nothing during the stream, then once, a pause after the last update, with every part
    # that changed and the state as it is then.
    first = far[0]
    assert first["at"] >= outcome["lastUpdateAt"] + outcome["still"] - 1, (first, outcome["lastUpdateAt"])
    assert (first["n"], first["changes"]) == (6, ["focus", "result"])
    assert outcome["afterPause"] == 6 + 1
    # An urgent change: what was waiting first (the result of n = 7), then the urgent one, both at once.
    urgent = [entry for entry in far if entry["n"] in (7, 8)]
    assert [(entry["n"], entry["changes"]) for entry in urgent] == [(8, ["result"]), (8, ["view"])]
    assert len([entry for entry in log[:outcome["afterUrgent"]] if entry["name"] == "far"]) == 3
    # Scrolled into view: the waiting update at once, not after a pause.
    assert [(entry["n"], entry["changes"]) for entry in far[3:]] == [(9, ["result"])]
    assert outcome["afterScroll"] == len(log)
    assert far[3]["at"] - far[2]["at"] < outcome["still"], far
