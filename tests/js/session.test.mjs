// The scene session (js/state/session.js) and the state it writes (js/state/state.js), run by Node's own test runner
// (tests/tooling/test_js_units.py): the one owner of the scene, one notification per change, new values never
// changed in place.
import assert from "node:assert/strict";
import test from "node:test";

import { createSceneSession, createStore } from "../../js/state/session.js";
import { CHANGES, SCENE_SLICES } from "../../js/state/state.js";

const SCENE = {
  title: "dog bites man",
  tokens: ["dog", "bites", "man"],
  features: ["f0", "f1"],
  X: [[1, 0], [0, 1], [1, 1]],
  heads: [{ name: "head 1", dims: ["d0", "d1"], Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv: [[1, 0], [0, 1]] }],
  mask: "none",
  scale: true,
};

/** A session whose compute answers at once with a result naming the scene it was given. */
function liveSession({ lockedFields } = {}) {
  const store = createStore();
  const asked = [];
  const compute = async (scene) => {
    asked.push(scene);
    return { tokens: scene.tokens, heads: [{ name: "head 1", weights: [] }], computedFrom: scene };
  };
  const session = createSceneSession({ store, compute, lockedFields });
  const heard = [];
  store.subscribe((state, changes) => heard.push([...changes].sort()));
  session.setLive(true);
  return { store, session, asked, heard };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("only the session writes the scene: the store refuses the scene's slices from anyone else", () => {
  const store = createStore();
  createSceneSession({ store, compute: async () => ({}) });
  for (const slice of SCENE_SLICES) {
    assert.throws(() => store.update({ [slice]: null }, "scene"), /only the scene session/);
  }
  assert.throws(() => store.takeSceneWriter(), /already writes/);
  // Nor may a slice derived from others be one of the scene's.
  store.derive(() => ({ patch: { draft: null }, changes: ["scene"] }));
  assert.throws(() => store.update({ view: store.state.view }, "view"), /only the scene session/);
});

test("every slice and every change is declared: anything else is refused at once", () => {
  const store = createStore();
  assert.throws(() => store.update({ notAslice: 1 }, "view"), /no slice "notAslice"/);
  assert.throws(() => store.update({}, "not-a-change"), /no change is called/);
  for (const change of ["scene", "values", "result", "lesson", "exercises"]) assert.ok(Object.hasOwn(CHANGES, change));
});

test("an edit is one notification, makes a new draft and leaves the old one as it was", async () => {
  const { session, store, heard } = liveSession();
  session.show({ scene: SCENE, presetId: "dog-bites-man" });
  await settle();
  const before = store.state.draft;
  const beforeRow = before.heads[0].Wq[0];
  heard.length = 0;
  assert.equal(session.edit({ kind: "cell", matrix: "Wq", row: 0, column: 1, text: "3" }), true);
  assert.deepEqual(heard, [["example", "values"]]);
  assert.notEqual(store.state.draft, before);
  assert.equal(before.heads[0].Wq[0][1], "0");
  assert.equal(store.state.draft.heads[0].Wq[0][1], "3");
  assert.equal(beforeRow[1], "0");
  // What the edit left alone is shared, not copied.
  assert.equal(store.state.draft.heads[0].Wq[1], before.heads[0].Wq[1]);
  assert.equal(store.state.draft.X, before.X);
  await settle();
  assert.deepEqual(heard.at(-1), ["error", "result"]);
  assert.equal(heard.length, 2);
  assert.equal(store.state.result.computedFrom.heads[0].Wq[0][1], 3);
});

test("the newest draft wins: edits made while Python computes are sent once, as they are then", async () => {
  const { session, asked } = liveSession();
  session.show({ scene: SCENE });
  for (const text of ["1", "12", "123"]) session.edit({ kind: "cell", matrix: "X", row: 0, column: 0, text });
  await settle();
  await settle();
  const sentX = asked.map((scene) => scene.X[0][0]);
  assert.equal(sentX.at(-1), 123);
  assert.ok(sentX.length <= 3, sentX);
});

test("a locked field is not edited, and nothing is told", async () => {
  const { session, store, heard } = liveSession({ lockedFields: new Set(["Wq"]) });
  session.show({ scene: SCENE });
  await settle();
  heard.length = 0;
  const draft = store.state.draft;
  assert.equal(session.edit({ kind: "cell", matrix: "Wq", row: 0, column: 0, text: "9" }), false);
  assert.equal(store.state.draft, draft);
  assert.deepEqual(heard, []);
  assert.equal(session.edit({ kind: "cell", matrix: "Wk", row: 0, column: 0, text: "9" }), true);
});

test("a scene refused by the module leaves the page as it was; one it accepts is shown with its result", async () => {
  const store = createStore();
  const session = createSceneSession({
    store,
    compute: async (scene) => {
      if (scene.tokens.length === 0) throw Object.assign(new Error("tokens: a scene needs a word"), { detail: { type: "SceneError", message: "tokens: a scene needs a word", field: "tokens" } });
      return { tokens: scene.tokens, heads: [] };
    },
  });
  session.setLive(true);
  session.show({ scene: SCENE });
  await settle();
  const shown = store.state.draft;
  await assert.rejects(session.check({ ...SCENE, tokens: [] }), (error) => error.detail.field === "tokens");
  assert.equal(store.state.draft, shown);
  const result = await session.check({ ...SCENE, title: "again" });
  assert.equal(store.state.draft.title, "again");
  assert.equal(store.state.result, result);
  // The same scene set again, unchanged, once the page is settled, is answered with the result it holds.
  await settle();
  const sceneCount = store.state.sceneCount;
  assert.equal(await session.check({ ...SCENE, title: "again" }), result);
  assert.equal(store.state.sceneCount, sceneCount);
});

test("a derived slice changes in the notification that made it stale, not in one of its own", () => {
  const { store, session, heard } = liveSession();
  store.derive((state, changes) => (changes.has("values") ? { patch: { experiments: { shuffle: null, knockOut: null } }, changes: ["experiments"] } : null));
  session.show({ scene: SCENE });
  heard.length = 0;
  session.edit({ kind: "cell", matrix: "X", row: 1, column: 1, text: "2" });
  assert.deepEqual(heard, [["example", "experiments", "values"]]);
});

test("the controller's actions name each action once: a name two groups give is refused, not silently replaced", async () => {
  const { combineActions } = await import("../../js/page/actions.js");
  const actions = combineActions({ scene: { edit: () => 1 }, model: { openModel: () => 2 } });
  assert.deepEqual(Object.keys(actions), ["edit", "openModel"]);
  assert.throws(() => combineActions({ model: { openHeadInPlayground: () => 1 }, page: { openHeadInPlayground: () => 2 } }),
    /"openHeadInPlayground" is both model's and page's/);
});

test("the page keeps what it sent: a packed scene's inputs, left out of the reply, are put back in Python's order", async () => {
  const { packScene, withInputsSent } = await import("../../js/runtime/client.js");
  const scene = { ...SCENE, heads: [{ ...SCENE.heads[0], Wv: null }, { ...SCENE.heads[0], Wq: [["a", 0], [0, 1]] }] };
  const { payload, matrices, sent } = packScene(scene);
  assert.equal(matrices.length, 6 + 4 + 4 + 4 + 4); // X; head 1's Wq and Wk; head 2's Wk and Wv (its Wq has text)
  assert.equal(typeof payload.scene.heads[1].Wq[0][0], "string");
  // A reply as Python writes it for this request: the inputs sent packed left out, the others there.
  const reply = {
    tokens: scene.tokens,
    heads: [
      { name: "head 1", dims: [], value_dims: [], d_k: 2, stages: {}, weights: [[1]], Wv: null },
      { name: "head 2", dims: [], value_dims: [], d_k: 2, stages: {}, weights: [[1]], Wq: [[null, 0], [0, 1]] },
    ],
  };
  const whole = withInputsSent(reply, sent);
  assert.deepEqual(whole.X, SCENE.X);
  assert.notEqual(whole.X, SCENE.X); // a copy: the result never shares rows with the scene sent
  assert.deepEqual(Object.keys(whole.heads[0]), ["name", "dims", "value_dims", "d_k", "stages", "weights", "Wq", "Wk", "Wv"]);
  assert.deepEqual(whole.heads[0].Wk, SCENE.heads[0].Wk);
  assert.equal(whole.heads[0].Wv, null);
  assert.deepEqual(whole.heads[1].Wq, [[null, 0], [0, 1]]); // what Python read, kept
  assert.deepEqual(whole.heads[1].Wv, SCENE.heads[0].Wv);
  // Not a computed scene: as it came.
  const other = { order: [1, 0] };
  assert.equal(withInputsSent(other, sent), other);
});
