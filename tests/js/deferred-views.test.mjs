// The views that hear of changes late (js/state/deferred-views.js), run by Node's own test runner
// (tests/tooling/test_js_units.py): a deferred subscriber hears once, a task late, with every part that changed;
// and at once when it asks to catch up, as saving does before the page goes away.
import assert from "node:assert/strict";
import test from "node:test";

import { createDeferredViews } from "../../js/state/deferred-views.js";
import { createStore } from "../../js/state/session.js";

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A deferred store over a new page store, and what its one subscriber heard: [knocked-out pairs, changes]. */
function deferredSubscriber() {
  const store = createStore();
  const deferred = createDeferredViews().deferredStore(store);
  const heard = [];
  deferred.subscribe((state, changes) => heard.push([state.model.knockedOut, [...changes].sort()]));
  const knockOut = (pair) => store.update({ model: { ...store.state.model, knockedOut: [pair] } }, "model");
  return { store, deferred, heard, knockOut };
}

test("a deferred subscriber hears nothing at once, then once in the next task, of the newest state", async () => {
  const { heard, knockOut, store } = deferredSubscriber();
  knockOut([0, 1]);
  store.update({ notice: null }, "notice");
  knockOut([0, 2]);
  assert.deepEqual(heard, []);
  await nextTask();
  assert.deepEqual(heard, [[[[0, 2]], ["model", "notice"]]]);
});

test("catchUp tells a deferred subscriber now what it is owed, and the next task tells it nothing again", async () => {
  const { deferred, heard, knockOut } = deferredSubscriber();
  knockOut([0, 2]);
  deferred.catchUp();
  assert.deepEqual(heard, [[[[0, 2]], ["model"]]]);
  deferred.catchUp(); // nothing owed: nothing heard
  await nextTask();
  assert.equal(heard.length, 1);
});

test("a subscriber that left hears nothing, caught up or not", async () => {
  const store = createStore();
  const deferred = createDeferredViews().deferredStore(store);
  const heard = [];
  const leave = deferred.subscribe((state, changes) => heard.push(changes));
  store.update({ notice: null }, "notice");
  leave();
  deferred.catchUp();
  await nextTask();
  assert.deepEqual(heard, []);
});

test("a hold keeps its own page's deferred views waiting until it is released, and no other page's", async () => {
  globalThis.requestAnimationFrame = (callback) => setTimeout(callback, 0);
  try {
    const [held, free] = [createDeferredViews(), createDeferredViews()];
    const stores = [createStore(), createStore()];
    const heard = { held: [], free: [] };
    held.deferredStore(stores[0], { urgent: () => true }).subscribe((state, changes) => heard.held.push([...changes]));
    free.deferredStore(stores[1]).subscribe((state, changes) => heard.free.push([...changes]));
    const release = held.hold();
    for (const store of stores) store.update({ notice: null }, "notice");
    await nextTask();
    assert.deepEqual(heard, { held: [], free: [["notice"]] }, "held, an urgent change waits too; the other page draws");
    await release();
    assert.deepEqual(heard.held, [["notice"]], "released: drawn once, before the release resolves");
    assert.equal(release(), release(), "releasing again changes nothing");
  } finally {
    delete globalThis.requestAnimationFrame;
  }
});
