// The actions whose code loads after the first view (js/panels/panel-actions.js names them, js/page/actions.js
// lazyActions stands in for them until then), run by Node's own test runner (tests/tooling/test_js_units.py).
import assert from "node:assert/strict";
import test from "node:test";

import { lazyActions } from "../../js/page/actions.js";
import { createPanelControllers } from "../../js/panels/panel-controllers.js";
import { CLAIM_ACTIONS, EXERCISE_WORK_ACTIONS, EXPERIMENT_ACTIONS, MODEL_ACTIONS } from "../../js/panels/panel-actions.js";
import { createStore } from "../../js/state/session.js";

test("the names the page has from the start are every action of each panel's controller, and no other", () => {
  const store = createStore();
  const panels = createPanelControllers({ store, python: {}, reveal() {}, notify() {}, panelShown: () => true, showChecked: () => async () => {},
    openExample: async () => {}, session: { settled: () => true }, onCodeNotKept() {} });
  assert.deepEqual(Object.keys(panels.model.actions).sort(), [...MODEL_ACTIONS].sort());
  assert.deepEqual(Object.keys(panels.claims.actions).sort(), [...CLAIM_ACTIONS].sort());
  assert.deepEqual(Object.keys(panels.experiments).sort(), [...EXPERIMENT_ACTIONS].sort());
  assert.deepEqual(Object.keys(panels.exercises.work).sort(), [...EXERCISE_WORK_ACTIONS].sort());
});

test("a lazy group loads once, answers through a promise until loaded, then as its own actions do", async () => {
  let loads = 0;
  const group = { place: (id) => `the place of ${id}`, train: async (steps) => steps * 2 };
  const { actions, ready } = lazyActions(async () => {
    loads += 1;
    return group;
  }, ["place", "train"]);
  assert.equal(loads, 0, "nothing loads before it is needed");
  const early = actions.place("mask");
  assert.ok(early instanceof Promise);
  assert.equal(await early, "the place of mask");
  assert.equal(await actions.train(3), 6);
  await ready();
  assert.equal(actions.place("scale"), "the place of scale", "loaded, an action that answers at once still does");
  assert.equal(loads, 1);
});
