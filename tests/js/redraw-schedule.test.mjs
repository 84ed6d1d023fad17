// When the store's subscribers hear of changes (js/state/redraw-schedule.js, kept by js/state/session.js's store), run
// by Node's own test runner (tests/tooling/test_js_units.py): a subscriber with a timing hears once, a task late,
// with every part that changed; an urgent change at once, after what it was owed; and at once when it asks to
// catch up, as saving does before the page goes away.
import assert from "node:assert/strict";
import test from "node:test";

import { AFTER_HEATMAP, BELOW_HEATMAP, EDITOR } from "../../js/state/redraw-schedule.js";
import { createStore } from "../../js/state/session.js";

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A new page store, one subscriber with timing `when`, and what it heard: [knocked-out pairs, changes]. */
function subscriberWith(when) {
  const store = createStore();
  const heard = [];
  const listener = (state, changes) => heard.push([state.model.knockedOut, [...changes].sort()]);
  const leave = store.subscribe(listener, when);
  const knockOut = (pair) => store.update({ model: { ...store.state.model, knockedOut: [pair] } }, "model");
  return { store, heard, knockOut, listener, leave };
}

test("a subscriber that hears after the heatmap hears nothing at once, then once in the next task, of the newest state", async () => {
  const { heard, knockOut, store } = subscriberWith(AFTER_HEATMAP);
  knockOut([0, 1]);
  store.update({ notice: null }, "notice");
  knockOut([0, 2]);
  assert.deepEqual(heard, []);
  await nextTask();
  assert.deepEqual(heard, [[[[0, 2]], ["model", "notice"]]]);
});

test("a subscriber with no timing hears every change at once, as it comes", () => {
  const { heard, knockOut } = subscriberWith(undefined);
  knockOut([0, 1]);
  knockOut([0, 2]);
  assert.deepEqual(heard, [[[[0, 1]], ["model"]], [[[0, 2]], ["model"]]]);
});

test("an urgent change is heard at once, after what was owed, so the changes arrive in their order", async () => {
  const { heard, knockOut, store } = subscriberWith(EDITOR); // urgent: anything but a result
  store.update({ notice: null }, "notice"); // urgent for an editor: at once
  assert.equal(heard.length, 1);
  knockOut([1, 0]);
  assert.equal(heard.length, 2);
  const below = subscriberWith(BELOW_HEATMAP); // urgent: the view
  below.knockOut([0, 3]);
  below.store.update({ view: { ...below.store.state.view, table: true } }, "view");
  assert.deepEqual(below.heard.map(([, changes]) => changes), [["model"], ["view"]]);
  await nextTask();
  assert.equal(below.heard.length, 2, "nothing is owed any more");
});

test("catchUp tells a subscriber now what it is owed, and the next task tells it nothing again", async () => {
  const { store, heard, knockOut, listener } = subscriberWith(AFTER_HEATMAP);
  knockOut([0, 2]);
  store.catchUp(listener);
  assert.deepEqual(heard, [[[[0, 2]], ["model"]]]);
  store.catchUp(listener); // nothing owed: nothing heard
  await nextTask();
  assert.equal(heard.length, 1);
});

test("a subscriber that left hears nothing, caught up or not", async () => {
  const { store, heard, listener, leave } = subscriberWith(AFTER_HEATMAP);
  store.update({ notice: null }, "notice");
  leave();
  store.catchUp(listener);
  await nextTask();
  assert.deepEqual(heard, []);
});

test("a subscriber that comes late hears what it is owed from the start with the next redraws, once", async () => {
  const store = createStore();
  const heard = [];
  store.subscribe((state, changes) => heard.push([...changes].sort()), { ...BELOW_HEATMAP, owed: ["scene", "result"] });
  assert.deepEqual(heard, []);
  store.update({ notice: null }, "notice");
  await nextTask();
  assert.deepEqual(heard, [["notice", "result", "scene"]]);
});

test("every deferred subscriber of a store hears in one task, in the order they were first owed", async () => {
  const store = createStore();
  const order = [];
  store.subscribe(() => order.push("bars"), BELOW_HEATMAP);
  store.subscribe(() => order.push("steps"), BELOW_HEATMAP);
  store.subscribe(() => order.push("heatmap"));
  store.update({ notice: null }, "notice");
  assert.deepEqual(order, ["heatmap"]);
  let between = false;
  setTimeout(() => { between = order.length < 3; }, 0); // queued after the store's one task
  await nextTask();
  assert.deepEqual(order, ["heatmap", "bars", "steps"]);
  assert.equal(between, false);
});

test("a hold keeps its own store's deferred subscribers waiting until it is released, and no other store's", async () => {
  globalThis.requestAnimationFrame = (callback) => setTimeout(callback, 0);
  try {
    const stores = [createStore(), createStore()];
    const heard = { held: [], free: [] };
    stores[0].subscribe((state, changes) => heard.held.push([...changes]), { urgent: () => true });
    stores[1].subscribe((state, changes) => heard.free.push([...changes]), AFTER_HEATMAP);
    const release = stores[0].hold();
    for (const store of stores) store.update({ notice: null }, "notice");
    await nextTask();
    assert.deepEqual(heard, { held: [], free: [["notice"]] }, "held, an urgent change waits too; the other store's draw");
    await release();
    assert.deepEqual(heard.held, [["notice"]], "released: heard once, before the release resolves");
    assert.equal(release(), release(), "releasing again changes nothing");
  } finally {
    delete globalThis.requestAnimationFrame;
  }
});
