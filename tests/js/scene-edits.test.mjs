// A learner's keystroke, run by Node's own test runner (tests/tooling/test_js_units.py): each edit applied to the draft
// (js/scene/edits.js) gives a new draft and leaves the old one as it was; the draft goes back into a scene (draft.js) that
// the structural check (shape.js) accepts, and a scene from outside the page is refused with a plain sentence.
import assert from "node:assert/strict";
import test from "node:test";

import { EDIT_KINDS, LOCKABLE_FIELDS, OWN_SENTENCE_TITLE, applyEdit, fieldsEditedBy, lexiconOf, wordsOf } from "../../js/scene/edits.js";
import { draftFromScene, parseCell, sceneFromDraft, shapeKey, shownValueDims } from "../../js/scene/draft.js";
import { LIMITS, sceneShapeProblem } from "../../js/scene/shape.js";

const SCENE = Object.freeze({
  title: "dog bites man",
  description: "who bites whom",
  positions: "none",
  tokens: ["dog", "bites", "man"],
  features: ["animal", "action"],
  X: [[1, 0], [0, 1], [1, 0.5]],
  heads: [{ name: "head 1", dims: ["d0", "d1"], Wq: [[1, 0], [0, 1]], Wk: [[0.5, 0], [0, -2]], Wv: [[1, 0], [0, 1]], note: "kept" }],
  mask: "none",
  scale: true,
});

/** A fresh copy of the example scene, with `changes` laid over its top-level keys. */
function scene(changes = {}) {
  return { ...structuredClone(SCENE), ...changes };
}

/** The draft of the example scene (or of `changes` laid over it). */
function draft(changes = {}) {
  return draftFromScene(scene(changes));
}

/** A two-head draft: the example's head, then a one-hot head named "head 2". */
function twoHeadDraft() {
  const second = { name: "head 2", dims: ["q"], Wq: [[2], [3]], Wk: [[4], [5]], Wv: null };
  return draft({ heads: [structuredClone(SCENE.heads[0]), second] });
}

/** Freeze `value` and everything in it, so that any change made in place throws. */
function deepFreeze(value) {
  if (value && typeof value === "object") {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

/** Apply `edit` to `from` with head 0 active and no result (unless `context` says otherwise); the new draft. */
function edited(from, edit, context = {}) {
  return applyEdit(from, edit, { activeHead: 0, result: null, ...context }).draft;
}

/** One sample edit of each kind, on the draft `draftFor()` gives (a custom mask for the mask's own edits). */
const SAMPLES = {
  cell: { edit: { kind: "cell", matrix: "Wk", row: 1, column: 0, text: "7" } },
  "token-name": { edit: { kind: "token-name", row: 0, text: "cat" } },
  "feature-name": { edit: { kind: "feature-name", column: 1, text: "verb" } },
  "dim-name": { edit: { kind: "dim-name", column: 0, text: "who" } },
  "value-dim-name": { edit: { kind: "value-dim-name", column: 1, text: "what" } },
  sentence: { edit: { kind: "sentence", words: ["man", "bites", "dog", "again"], lexicon: lexiconOf(draft()) } },
  "add-token": { edit: { kind: "add-token" } },
  "remove-token": { edit: { kind: "remove-token", row: 1 }, draftFor: () => draft({ mask: [[false, true, true], [false, false, true], [false, false, false]] }) },
  "add-feature": { edit: { kind: "add-feature" } },
  "remove-feature": { edit: { kind: "remove-feature", column: 0 } },
  "add-dim": { edit: { kind: "add-dim" } },
  "remove-dim": { edit: { kind: "remove-dim", column: 1 } },
  "add-value-dim": { edit: { kind: "add-value-dim" } },
  "remove-value-dim": { edit: { kind: "remove-value-dim", column: 0 } },
  "one-hot": { edit: { kind: "one-hot", oneHot: true } },
  "add-head": { edit: { kind: "add-head" } },
  "remove-head": { edit: { kind: "remove-head", head: 1 }, draftFor: twoHeadDraft },
  "mask-mode": { edit: { kind: "mask-mode", mode: "custom" }, draftFor: () => draft({ mask: "causal" }) },
  "toggle-mask": { edit: { kind: "toggle-mask", row: 0, column: 2 }, draftFor: () => draft({ mask: [[false, false, false], [false, false, false], [false, false, false]] }) },
  scale: { edit: { kind: "scale", on: false } },
  shift: { edit: { kind: "shift", on: true } },
  positions: { edit: { kind: "positions", mode: "sinusoidal" } },
};

// --- edits.js: every kind, and the draft it leaves alone ---

test("every kind of edit in EDIT_KINDS has a sample edit among these tests", () => {
  assert.deepEqual(Object.keys(SAMPLES).sort(), Object.keys(EDIT_KINDS).sort());
});

for (const [kind, { edit, draftFor = draft }] of Object.entries(SAMPLES)) {
  test(`a "${kind}" edit makes a new draft, leaves the one it was given as it was, and its scene is still drawable`, () => {
    const before = deepFreeze(draftFor());
    const snapshot = structuredClone(before);
    const next = edited(before, edit); // a change made in place would throw on the frozen draft
    assert.notEqual(next, before);
    assert.deepEqual(before, snapshot);
    assert.notDeepEqual(next, before);
    assert.equal(sceneShapeProblem(sceneFromDraft(next)), null);
  });
}

test("renaming a dim copies only that head's names: the matrices stay shared with the old draft", () => {
  const before = draft();
  const next = edited(before, SAMPLES["dim-name"].edit);
  assert.notEqual(next.heads, before.heads);
  assert.equal(next.X, before.X);
  assert.equal(next.heads[0].Wq, before.heads[0].Wq);
});

test("an edit of an unknown kind is refused with its name", () => {
  assert.throws(() => applyEdit(draft(), { kind: "paint" }, { activeHead: 0, result: null }), { message: "unknown edit paint" });
});

test("each edit reports the parts of the state it changes: a number is a value, a name is a label, a switch is a mode", () => {
  const context = { activeHead: 0, result: null };
  assert.deepEqual(applyEdit(draft(), SAMPLES.cell.edit, context).changes, new Set(["values"]));
  assert.deepEqual(applyEdit(draft(), SAMPLES["token-name"].edit, context).changes, new Set(["labels"]));
  assert.deepEqual(applyEdit(draft(), SAMPLES.sentence.edit, context).changes, new Set(["labels", "scene"]));
  assert.deepEqual(applyEdit(draft(), SAMPLES.scale.edit, context).changes, new Set(["mode"]));
  assert.deepEqual(applyEdit(draft(), { kind: "mask-mode", mode: "causal" }, context).changes, new Set(["mode"]));
});

test("typing into one cell copies that matrix's row list and that row, and shares every other row and matrix", () => {
  const before = draft();
  const next = edited(before, { kind: "cell", matrix: "Wq", row: 0, column: 1, text: "3" });
  assert.equal(next.heads[0].Wq[0][1], "3");
  assert.equal(before.heads[0].Wq[0][1], "0");
  assert.notEqual(next.heads[0].Wq, before.heads[0].Wq);
  assert.equal(next.heads[0].Wq[1], before.heads[0].Wq[1]);
  assert.equal(next.heads[0].Wk, before.heads[0].Wk);
  assert.equal(next.heads[0].Wv, before.heads[0].Wv);
  assert.equal(next.X, before.X);
  assert.equal(next.tokens, before.tokens);
});

test("a cell of X is typed into X, and the heads are shared untouched", () => {
  const before = draft();
  const next = edited(before, { kind: "cell", matrix: "X", row: 2, column: 1, text: "-1.5" });
  assert.deepEqual(next.X, [["1", "0"], ["0", "1"], ["1", "-1.5"]]);
  assert.equal(next.X[0], before.X[0]);
  assert.equal(next.heads, before.heads);
});

test("a cell edit goes to the head it names, not the active one", () => {
  const before = twoHeadDraft();
  const next = edited(before, { kind: "cell", matrix: "Wk", row: 1, column: 0, text: "9", head: 1 }, { activeHead: 0 });
  assert.deepEqual(next.heads[1].Wk, [["4"], ["9"]]);
  assert.equal(next.heads[0], before.heads[0]);
});

test("a cell edit that names no head goes to the active head", () => {
  const next = edited(twoHeadDraft(), { kind: "cell", matrix: "Wq", row: 0, column: 0, text: "8" }, { activeHead: 1 });
  assert.deepEqual(next.heads[1].Wq, [["8"], ["3"]]);
  assert.deepEqual(next.heads[0].Wq, [["1", "0"], ["0", "1"]]);
});

test("a half-typed cell is kept exactly as typed in the draft", () => {
  const next = edited(draft(), { kind: "cell", matrix: "Wv", row: 0, column: 0, text: "-" });
  assert.equal(next.heads[0].Wv[0][0], "-");
});

test("renaming a token or a feature changes only that name and shares the matrices", () => {
  const before = draft();
  const renamed = edited(edited(before, { kind: "token-name", row: 2, text: "postman" }), { kind: "feature-name", column: 0, text: "noun" });
  assert.deepEqual(renamed.tokens, ["dog", "bites", "postman"]);
  assert.deepEqual(renamed.features, ["noun", "action"]);
  assert.equal(renamed.X, before.X);
  assert.equal(renamed.heads, before.heads);
  assert.deepEqual(before.tokens, ["dog", "bites", "man"]);
});

test("renaming a dim renames that column of the head and leaves its matrices shared", () => {
  const before = draft();
  const next = edited(before, { kind: "dim-name", column: 1, text: "where" });
  assert.deepEqual(next.heads[0].dims, ["d0", "where"]);
  assert.equal(next.heads[0].Wq, before.heads[0].Wq);
  assert.equal(next.heads[0].Wk, before.heads[0].Wk);
});

test("renaming one value dim of a head that names none names the others as they are shown (the module's defaults)", () => {
  const next = edited(draft(), { kind: "value-dim-name", column: 1, text: "what" });
  assert.deepEqual(next.heads[0].valueDims, ["v0", "what"]);
});

test("renaming a value dim starts from the names the last result gave the head it names", () => {
  const before = twoHeadDraft();
  const result = { heads: [{ value_dims: ["who", "whom"] }, { value_dims: [] }] };
  const next = edited(before, { kind: "value-dim-name", head: 0, column: 0, text: "biter" }, { activeHead: 1, result });
  assert.deepEqual(next.heads[0].valueDims, ["biter", "whom"]);
  assert.equal(next.heads[1].valueDims, null);
});

test("typing a new sentence keeps the feature row of every known word and starts new words at zeros", () => {
  const before = draft();
  const next = edited(before, { kind: "sentence", words: ["man", "bites", "dog", "dog", "again"], lexicon: lexiconOf(before) });
  assert.deepEqual(next.tokens, ["man", "bites", "dog", "dog", "again"]);
  assert.deepEqual(next.X, [["1", "0.5"], ["0", "1"], ["1", "0"], ["1", "0"], ["0", "0"]]);
  assert.notEqual(next.X[2], next.X[3]);
});

test("a word whose lexicon row has the wrong width starts at zeros", () => {
  const lexicon = new Map([["dog", ["1", "2", "3"]], ["man", ["4", "5"]]]);
  const next = edited(draft(), { kind: "sentence", words: ["dog", "man"], lexicon });
  assert.deepEqual(next.X, [["0", "0"], ["4", "5"]]);
});

test("a changed sentence makes the scene the learner's own: their title, no description, other extra keys kept", () => {
  const before = draft();
  const next = edited(before, SAMPLES.sentence.edit);
  assert.equal(next.title, OWN_SENTENCE_TITLE);
  assert.equal("description" in next.extra, false);
  assert.equal(next.extra.positions, "none");
  assert.equal(before.title, "dog bites man");
  assert.equal(before.extra.description, "who bites whom");
});

test("the same sentence typed again keeps the example's title and description", () => {
  const before = draft();
  const next = edited(before, { kind: "sentence", words: ["dog", "bites", "man"], lexicon: lexiconOf(before) });
  assert.equal(next.title, "dog bites man");
  assert.equal(next.extra.description, "who bites whom");
  assert.deepEqual(next.X, before.X);
});

test("a new sentence resets a custom mask to nothing masked, at the new size", () => {
  const before = draft({ mask: [[false, true, true], [false, false, true], [false, false, false]] });
  const next = edited(before, { kind: "sentence", words: ["a", "b"], lexicon: lexiconOf(before) });
  assert.deepEqual(next.mask, [[false, false], [false, false]]);
});

test("a new sentence leaves a named mask mode as it was", () => {
  const next = edited(draft({ mask: "causal" }), { kind: "sentence", words: ["a", "b"], lexicon: new Map() });
  assert.equal(next.mask, "causal");
});

test("an added token is a fresh word at the end with a row of zeros in X", () => {
  const next = edited(draft({ tokens: ["word1", "bites", "man"] }), { kind: "add-token" });
  assert.deepEqual(next.tokens, ["word1", "bites", "man", "word2"]);
  assert.deepEqual(next.X.at(-1), ["0", "0"]);
  assert.equal(next.X.length, 4);
});

test("an added token gets an unmasked row and column in a custom mask", () => {
  const next = edited(draft({ mask: [[false, true, true], [false, false, true], [false, false, false]] }), { kind: "add-token" });
  assert.deepEqual(next.mask, [
    [false, true, true, false],
    [false, false, true, false],
    [false, false, false, false],
    [false, false, false, false],
  ]);
});

test("removing a token removes its row of X and its row and column of a custom mask", () => {
  const next = edited(SAMPLES["remove-token"].draftFor(), SAMPLES["remove-token"].edit);
  assert.deepEqual(next.tokens, ["dog", "man"]);
  assert.deepEqual(next.X, [["1", "0"], ["1", "0.5"]]);
  assert.deepEqual(next.mask, [[false, true], [false, false]]);
});

test("an added feature is a zero column of X and a zero row of every head's Wq, Wk and Wv", () => {
  const next = edited(twoHeadDraft(), { kind: "add-feature" });
  assert.deepEqual(next.features, ["animal", "action", "feature1"]);
  assert.deepEqual(next.X.map((row) => row.at(-1)), ["0", "0", "0"]);
  assert.deepEqual(next.heads[0].Wq.at(-1), ["0", "0"]);
  assert.deepEqual(next.heads[0].Wk.at(-1), ["0", "0"]);
  assert.deepEqual(next.heads[0].Wv.at(-1), ["0", "0"]);
  assert.deepEqual(next.heads[1].Wq.at(-1), ["0"]);
  assert.equal(next.heads[1].Wv, null);
});

test("removing a feature removes its column of X and its row of every W", () => {
  const next = edited(twoHeadDraft(), { kind: "remove-feature", column: 0 });
  assert.deepEqual(next.features, ["action"]);
  assert.deepEqual(next.X, [["0"], ["1"], ["0.5"]]);
  assert.deepEqual(next.heads[0].Wq, [["0", "1"]]);
  assert.deepEqual(next.heads[0].Wk, [["0", "-2"]]);
  assert.deepEqual(next.heads[0].Wv, [["0", "1"]]);
  assert.deepEqual(next.heads[1].Wk, [["5"]]);
});

test("removing every feature and adding one back keeps the named value columns of Wv", () => {
  let next = draft({ heads: [{ ...structuredClone(SCENE.heads[0]), value_dims: ["who", "whom"] }] });
  next = edited(edited(next, { kind: "remove-feature", column: 0 }), { kind: "remove-feature", column: 0 });
  assert.deepEqual(next.heads[0].Wv, []);
  next = edited(next, { kind: "add-feature" });
  assert.deepEqual(next.heads[0].Wv, [["0", "0"]]);
  assert.equal(sceneShapeProblem(sceneFromDraft(next)), null);
});

test("an added dim is a zero column of Wq and Wk with a fresh name", () => {
  const next = edited(draft(), { kind: "add-dim" });
  assert.deepEqual(next.heads[0].dims, ["d0", "d1", "d2"]);
  assert.deepEqual(next.heads[0].Wq, [["1", "0", "0"], ["0", "1", "0"]]);
  assert.deepEqual(next.heads[0].Wk, [["0.5", "0", "0"], ["0", "-2", "0"]]);
  assert.deepEqual(next.heads[0].Wv, [["1", "0"], ["0", "1"]]);
});

test("an added dim's name never repeats one the head already has", () => {
  const next = edited(draft({ heads: [{ ...structuredClone(SCENE.heads[0]), dims: ["d2", "d3"] }] }), { kind: "add-dim" });
  assert.deepEqual(next.heads[0].dims, ["d2", "d3", "d4"]);
});

test("removing a dim removes its column of Wq and of Wk", () => {
  const next = edited(draft(), { kind: "remove-dim", column: 0 });
  assert.deepEqual(next.heads[0].dims, ["d1"]);
  assert.deepEqual(next.heads[0].Wq, [["0"], ["1"]]);
  assert.deepEqual(next.heads[0].Wk, [["0"], ["-2"]]);
});

test("an added value dim is a zero column of Wv, and the names shown before it become the head's own", () => {
  const next = edited(draft(), { kind: "add-value-dim" });
  assert.deepEqual(next.heads[0].valueDims, ["v0", "v1", "v2"]);
  assert.deepEqual(next.heads[0].Wv, [["1", "0", "0"], ["0", "1", "0"]]);
});

test("an added value dim keeps the names the last result showed", () => {
  const next = edited(draft(), { kind: "add-value-dim" }, { result: { heads: [{ value_dims: ["who", "whom"] }] } });
  assert.deepEqual(next.heads[0].valueDims, ["who", "whom", "v2"]);
});

test("a head with one-hot values has no value dims to add", () => {
  const before = twoHeadDraft();
  const next = edited(before, { kind: "add-value-dim", head: 1 });
  assert.equal(next.heads[1].Wv, null);
  assert.equal(next.heads[1].valueDims, null);
  assert.equal(shapeKey(next), shapeKey(before));
});

test("removing a value dim removes its column of Wv and its name", () => {
  const next = edited(draft({ heads: [{ ...structuredClone(SCENE.heads[0]), value_dims: ["who", "whom"] }] }), { kind: "remove-value-dim", column: 0 });
  assert.deepEqual(next.heads[0].valueDims, ["whom"]);
  assert.deepEqual(next.heads[0].Wv, [["0"], ["1"]]);
});

test("switching to one-hot values sets Wv aside, and switching back restores what was typed", () => {
  const named = draft({ heads: [{ ...structuredClone(SCENE.heads[0]), Wv: [[2, 3], [4, 5]], value_dims: ["p", "q"] }] });
  const oneHot = edited(named, { kind: "one-hot", oneHot: true });
  assert.equal(oneHot.heads[0].Wv, null);
  assert.equal(oneHot.heads[0].valueDims, null);
  assert.equal(sceneFromDraft(oneHot).heads[0].Wv, null);
  const back = edited(oneHot, { kind: "one-hot", oneHot: false });
  assert.deepEqual(back.heads[0].Wv, [["2", "3"], ["4", "5"]]);
  assert.deepEqual(back.heads[0].valueDims, ["p", "q"]);
  assert.equal(back.heads[0].hiddenWv, null);
});

test("a matrix set aside follows the features added while values are one-hot", () => {
  let next = edited(draft(), { kind: "one-hot", oneHot: true });
  next = edited(next, { kind: "add-feature" });
  next = edited(next, { kind: "one-hot", oneHot: false });
  assert.deepEqual(next.heads[0].Wv, [["1", "0"], ["0", "1"], ["0", "0"]]);
  assert.equal(sceneShapeProblem(sceneFromDraft(next)), null);
});

test("a head that came one-hot switches to a matrix Wv as the identity on the features", () => {
  const next = edited(twoHeadDraft(), { kind: "one-hot", oneHot: false, head: 1 });
  assert.deepEqual(next.heads[1].Wv, [["1", "0"], ["0", "1"]]);
  assert.deepEqual(next.heads[1].valueDims, ["animal", "action"]);
});

test("asking for the values a head already has changes nothing in it", () => {
  const before = draft();
  const next = edited(before, { kind: "one-hot", oneHot: false });
  assert.deepEqual(next.heads, before.heads);
});

test("an added head has a fresh name, one dim, zero weights and one-hot values", () => {
  const next = edited(draft(), { kind: "add-head" });
  assert.equal(next.heads.length, 2);
  const head = next.heads[1];
  assert.equal(head.name, "head 2");
  assert.deepEqual(head.dims, ["d1"]);
  assert.deepEqual(head.Wq, [["0"], ["0"]]);
  assert.deepEqual(head.Wk, [["0"], ["0"]]);
  assert.equal(head.Wv, null);
  assert.equal(edited(next, { kind: "add-head" }).heads[2].name, "head 3");
});

test("an added head's name never repeats one already taken", () => {
  const next = edited(twoHeadDraft(), { kind: "add-head" });
  assert.equal(next.heads[2].name, "head 3");
  const renamed = draft({ heads: [{ ...structuredClone(SCENE.heads[0]), name: "head 2" }] });
  assert.equal(edited(renamed, { kind: "add-head" }).heads[1].name, "head 3");
});

test("removing a head removes the one it names, or the active one", () => {
  assert.deepEqual(edited(twoHeadDraft(), { kind: "remove-head", head: 0 }).heads.map((head) => head.name), ["head 2"]);
  assert.deepEqual(edited(twoHeadDraft(), { kind: "remove-head" }, { activeHead: 1 }).heads.map((head) => head.name), ["head 1"]);
});

test("the last head cannot be removed", () => {
  const next = edited(draft(), { kind: "remove-head" });
  assert.equal(next.heads.length, 1);
  assert.equal(next.heads[0].name, "head 1");
});

test("a named mask mode replaces the mask, custom or not", () => {
  assert.equal(edited(draft(), { kind: "mask-mode", mode: "causal" }).mask, "causal");
  assert.equal(edited(SAMPLES["toggle-mask"].draftFor(), { kind: "mask-mode", mode: "none" }).mask, "none");
});

test("switching from causal to custom keeps the triangle for the learner to edit", () => {
  const next = edited(draft({ mask: "causal" }), { kind: "mask-mode", mode: "custom" });
  assert.deepEqual(next.mask, [[false, true, true], [false, false, true], [false, false, false]]);
});

test("switching from none to custom starts with nothing masked", () => {
  const next = edited(draft(), { kind: "mask-mode", mode: "custom" });
  assert.deepEqual(next.mask, [[false, false, false], [false, false, false], [false, false, false]]);
});

test("switching to custom starts from the result's mask when it fits the tokens, and ignores it when it does not", () => {
  const mask = [[0, 1, 0], [0, 0, 0], [1, 0, 0]];
  const fitting = edited(draft(), { kind: "mask-mode", mode: "custom" }, { result: { mask } });
  assert.deepEqual(fitting.mask, [[false, true, false], [false, false, false], [true, false, false]]);
  const stale = edited(draft({ mask: "causal" }), { kind: "mask-mode", mode: "custom" }, { result: { mask: [[false, true], [false, false]] } });
  assert.deepEqual(stale.mask, [[false, true, true], [false, false, true], [false, false, false]]);
});

test("switching a custom mask to custom again keeps the cells the learner set", () => {
  const before = draft({ mask: [[false, false, true], [false, false, false], [false, false, false]] });
  const next = edited(before, { kind: "mask-mode", mode: "custom" }, { result: { mask: [[true, true, true], [true, true, true], [true, true, true]] } });
  assert.deepEqual(next.mask, before.mask);
});

test("toggling a mask cell flips it in a new mask and leaves the old mask as it was", () => {
  const before = SAMPLES["toggle-mask"].draftFor();
  const once = edited(before, { kind: "toggle-mask", row: 1, column: 0 });
  assert.equal(once.mask[1][0], true);
  assert.equal(before.mask[1][0], false);
  assert.equal(edited(once, { kind: "toggle-mask", row: 1, column: 0 }).mask[1][0], false);
});

test("toggling a mask cell does nothing while the mask is not custom", () => {
  assert.equal(edited(draft({ mask: "causal" }), { kind: "toggle-mask", row: 0, column: 1 }).mask, "causal");
});

test("scale and shift are switched on and off", () => {
  const next = edited(edited(draft(), { kind: "scale", on: false }), { kind: "shift", on: true });
  assert.equal(next.scale, false);
  assert.equal(next.shift, true);
  assert.equal(sceneFromDraft(next).scale, false);
  assert.equal(sceneFromDraft(next).shift, true);
});

test("the positions mode travels in the scene's extra keys, with the others kept", () => {
  const before = draft();
  const next = edited(before, { kind: "positions", mode: "sinusoidal" });
  assert.deepEqual(next.extra, { description: "who bites whom", positions: "sinusoidal" });
  assert.equal(before.extra.positions, "none");
  assert.equal(sceneFromDraft(next).positions, "sinusoidal");
});

// --- locks: the scene fields each edit changes ---

test("a cell edit changes the field of the matrix it types into", () => {
  assert.deepEqual(fieldsEditedBy({ kind: "cell", matrix: "X" }), ["X"]);
  assert.deepEqual(fieldsEditedBy({ kind: "cell", matrix: "Wv" }), ["Wv"]);
});

test("renaming a dim is locked by the heads, Wq or Wk; adding a feature touches X and every W", () => {
  assert.deepEqual(fieldsEditedBy({ kind: "dim-name" }), ["heads", "Wq", "Wk"]);
  assert.deepEqual(fieldsEditedBy({ kind: "add-feature" }), ["features", "X", "Wq", "Wk", "Wv"]);
  assert.deepEqual(fieldsEditedBy({ kind: "sentence" }), ["tokens", "X"]);
  assert.deepEqual(fieldsEditedBy({ kind: "toggle-mask" }), ["mask"]);
});

test("an unknown edit changes no lockable field", () => {
  assert.deepEqual(fieldsEditedBy({ kind: "paint" }), []);
});

test("the lockable fields are exactly the fields some edit changes", () => {
  const changed = new Set();
  for (const [kind, { edit }] of Object.entries(SAMPLES)) for (const field of fieldsEditedBy({ ...edit, kind })) changed.add(field);
  for (const matrix of ["X", "Wq", "Wk", "Wv"]) changed.add(fieldsEditedBy({ kind: "cell", matrix })[0]);
  assert.deepEqual([...changed].sort(), [...LOCKABLE_FIELDS].sort());
  assert.equal(new Set(LOCKABLE_FIELDS).size, LOCKABLE_FIELDS.length);
});

// --- edits.js: words and lexicon ---

test("a typed sentence splits into lower-case words, punctuation and spaces separating them", () => {
  assert.deepEqual(wordsOf("The dog, bitten!  Man?"), ["the", "dog", "bitten", "man"]);
});

test("apostrophes, hyphens, digits and letters beyond ASCII stay inside words", () => {
  assert.deepEqual(wordsOf("It's a well-known café, Ölaf’s 42nd"), ["it's", "a", "well-known", "café", "ölaf’s", "42nd"]);
});

test("a sentence with no words gives no tokens", () => {
  assert.deepEqual(wordsOf(""), []);
  assert.deepEqual(wordsOf(" ,.;!? "), []);
});

test("the lexicon maps each word to its feature row, the first occurrence winning", () => {
  const lexicon = lexiconOf(draft({ tokens: ["dog", "bites", "dog"] }));
  assert.deepEqual([...lexicon.keys()], ["dog", "bites"]);
  assert.deepEqual(lexicon.get("dog"), ["1", "0"]);
  assert.deepEqual(lexicon.get("bites"), ["0", "1"]);
});

test("the lexicon's rows are copies: changing one leaves the draft alone", () => {
  const source = draft();
  lexiconOf(source).get("dog")[0] = "99";
  assert.equal(source.X[0][0], "1");
});

// --- draft.js: cells, drafts and scenes ---

test("a cell that reads as a finite number becomes that number", () => {
  assert.equal(parseCell("3"), 3);
  assert.equal(parseCell(" -2.5 "), -2.5);
  assert.equal(parseCell("+4"), 4);
  assert.equal(parseCell(".5"), 0.5);
  assert.equal(parseCell("1."), 1);
  assert.equal(parseCell("1e3"), 1000);
  assert.equal(parseCell("2E-2"), 0.02);
});

test("a minus sign copied from an article (U+2212) counts as a minus", () => {
  assert.equal(parseCell("\u22123"), -3);
  assert.equal(parseCell("1e\u22122"), 0.01);
});

test("a cell typed as text stays text, so the module can say what is wrong with it", () => {
  for (const text of ["abc", "-", "", " ", "1,5", "0x10", "Infinity", "NaN", "1e", "1 2", "--1"]) {
    assert.equal(parseCell(text), text, JSON.stringify(text));
  }
});

test("a number too large to be finite stays text", () => {
  assert.equal(parseCell("1e999"), "1e999");
});

test("a value that is not text is given back as it is", () => {
  assert.equal(parseCell(5), 5);
  assert.equal(parseCell(null), null);
  assert.equal(parseCell(undefined), undefined);
});

test("cells still read right after more distinct texts than are remembered", () => {
  for (let k = 0; k < 20_050; k += 1) assert.equal(parseCell(`${k}.25`), k + 0.25);
  assert.equal(parseCell("abc"), "abc");
  assert.equal(parseCell("7"), 7);
});

test("a scene's numbers become the texts of their input boxes in the draft", () => {
  const made = draftFromScene(scene({ X: [[1, -0], [0.5, 1e-7], [-3, 2]] }));
  assert.deepEqual(made.X, [["1", "0"], ["0.5", "1e-7"], ["-3", "2"]]);
  assert.deepEqual(made.heads[0].Wk, [["0.5", "0"], ["0", "-2"]]);
});

test("text cells in a scene stay text in the draft and go back as text", () => {
  const made = draftFromScene(scene({ X: [["abc", 0], [0, "-"], [1, 1]] }));
  assert.deepEqual(made.X[0], ["abc", "0"]);
  assert.deepEqual(sceneFromDraft(made).X, [["abc", 0], [0, "-"], [1, 1]]);
});

test("a draft keeps what the page does not edit: the scene's and each head's other keys", () => {
  const made = draft();
  assert.deepEqual(made.extra, { description: "who bites whom", positions: "none" });
  assert.deepEqual(made.heads[0].extra, { note: "kept" });
  assert.equal(made.heads[0].valueDims, null);
  assert.equal(made.heads[0].hiddenWv, null);
});

test("a custom mask in the draft is true/false, taken from the result's normalised mask when there is one", () => {
  const withMask = scene({ mask: [[0, 1, 1], [0, 0, 1], [0, 0, 0]] });
  assert.deepEqual(draftFromScene(withMask).mask, [[false, true, true], [false, false, true], [false, false, false]]);
  const result = { mask: [[false, false, false], [true, false, false], [true, true, false]] };
  assert.deepEqual(draftFromScene(withMask, result).mask, result.mask);
  assert.notEqual(draftFromScene(withMask, result).mask, result.mask);
});

test("a scene turned into a draft and back is the same scene", () => {
  const full = scene({
    shift: false,
    mask: [[false, true, true], [false, false, true], [false, false, false]],
    heads: [
      { name: "head 1", dims: ["d0", "d1"], value_dims: ["who", "whom"], Wq: [[1, 0], [0, 1]], Wk: [[0.5, 0], [0, -2]], Wv: [[1, 0], [0, 1]], note: { deep: [1, 2] } },
      { name: "head 2", dims: ["q"], Wq: [[2], [3]], Wk: [[4], [5]], Wv: null },
    ],
  });
  assert.deepEqual(sceneFromDraft(draftFromScene(full)), full);
});

test("keys a scene left out stay out of the scene made from its draft", () => {
  const bare = { tokens: ["a"], features: ["f"], X: [[1]], heads: [{ name: "h", dims: ["d"], Wq: [[1]], Wk: [[1]], Wv: [[1]] }] };
  const made = draftFromScene(bare);
  assert.equal(made.title, undefined);
  assert.deepEqual(sceneFromDraft(made), bare);
  for (const key of ["title", "mask", "scale", "shift"]) assert.equal(key in sceneFromDraft(made), false, key);
});

test("the scene made from a draft is a fresh object: changing it leaves the draft alone", () => {
  const source = draftFromScene(scene({ mask: [[false, true, true], [false, false, true], [false, false, false]] }));
  const made = sceneFromDraft(source);
  made.tokens.push("extra");
  made.mask[0][1] = false;
  made.heads[0].note = "changed";
  made.heads[0].dims[0] = "x";
  assert.deepEqual(source.tokens, ["dog", "bites", "man"]);
  assert.equal(source.mask[0][1], true);
  assert.equal(source.heads[0].extra.note, "kept");
  assert.equal(source.heads[0].dims[0], "d0");
});

test("a draft made from a scene shares nothing with it", () => {
  const original = scene({ extraInfo: { list: [1] } });
  const made = draftFromScene(original);
  original.extraInfo.list.push(2);
  original.X[0][0] = 42;
  assert.deepEqual(made.extra.extraInfo, { list: [1] });
  assert.equal(made.X[0][0], "1");
});

test("a learner's keystroke reaches the scene as a number, and half-typed text reaches it as text", () => {
  let next = edited(draft(), { kind: "cell", matrix: "Wq", row: 1, column: 0, text: "\u22120.25" });
  assert.equal(sceneFromDraft(next).heads[0].Wq[1][0], -0.25);
  next = edited(next, { kind: "cell", matrix: "Wq", row: 1, column: 0, text: "-0.x" });
  assert.equal(sceneFromDraft(next).heads[0].Wq[1][0], "-0.x");
});

test("one-hot values and the matrix set aside stay out of the scene", () => {
  const made = sceneFromDraft(edited(draft(), { kind: "one-hot", oneHot: true }));
  assert.equal(made.heads[0].Wv, null);
  assert.equal("hiddenWv" in made.heads[0], false);
  assert.equal("value_dims" in made.heads[0], false);
});

test("the shape key stays the same when a number or a label changes", () => {
  const before = draft();
  for (const edit of [SAMPLES.cell.edit, SAMPLES["token-name"].edit, SAMPLES["dim-name"].edit, SAMPLES["value-dim-name"].edit, SAMPLES.scale.edit]) {
    assert.equal(shapeKey(edited(before, edit)), shapeKey(before), edit.kind);
  }
});

test("the shape key changes when tokens, features, heads, dims or value dims are added or removed, or values go one-hot", () => {
  const before = draft();
  const kinds = ["add-token", "remove-token", "add-feature", "remove-feature", "add-dim", "remove-dim", "add-value-dim", "remove-value-dim", "one-hot", "add-head"];
  for (const kind of kinds) assert.notEqual(shapeKey(edited(before, SAMPLES[kind].edit)), shapeKey(before), kind);
  const two = twoHeadDraft();
  assert.notEqual(shapeKey(edited(two, SAMPLES["remove-head"].edit)), shapeKey(two));
});

test("the shape key tells a one-hot head from a head whose Wv has as many columns as it has dims", () => {
  const oneHot = twoHeadDraft();
  const matrix = edited(oneHot, { kind: "one-hot", oneHot: false, head: 1 });
  assert.notEqual(shapeKey(matrix), shapeKey(oneHot));
});

test("the value dims shown are the head's own names when they fit Wv", () => {
  const head = draft({ heads: [{ ...structuredClone(SCENE.heads[0]), value_dims: ["who", "whom"] }] }).heads[0];
  assert.deepEqual(shownValueDims(head, { value_dims: ["x", "y"] }), ["who", "whom"]);
});

test("without names of its own, the value dims shown are the last result's, if they fit, else the module's defaults", () => {
  const head = draft().heads[0];
  assert.deepEqual(shownValueDims(head, { value_dims: ["x", "y"] }), ["x", "y"]);
  assert.deepEqual(shownValueDims(head, { value_dims: ["x", "y", "z"] }), ["v0", "v1"]);
  assert.deepEqual(shownValueDims(head, undefined), ["v0", "v1"]);
});

test("a head's own value-dim names that no longer fit Wv are not shown", () => {
  const head = { ...draft().heads[0], valueDims: ["only one"] };
  assert.deepEqual(shownValueDims(head), ["v0", "v1"]);
});

test("a one-hot head shows no value dims", () => {
  assert.deepEqual(shownValueDims(twoHeadDraft().heads[1], { value_dims: [] }), []);
  assert.deepEqual(shownValueDims(twoHeadDraft().heads[1]), []);
});

// --- shape.js: the structural check of a scene from outside the page ---

/** The example scene with head 0's keys `changes` laid over it. */
function sceneWithHead(changes) {
  return scene({ heads: [{ ...structuredClone(SCENE.heads[0]), ...changes }] });
}

test("a good scene has no structural problem, even with cells the module will refuse", () => {
  assert.equal(sceneShapeProblem(scene()), null);
  assert.equal(sceneShapeProblem(scene({ X: [["abc", "-"], [0, 1], [1, ""]] })), null);
  assert.equal(sceneShapeProblem(sceneWithHead({ Wv: null })), null);
  assert.equal(sceneShapeProblem(scene({ mask: "causal", shift: false })), null);
  assert.equal(sceneShapeProblem(scene({ mask: [[false, true, true], [false, false, true], [false, false, false]] })), null);
});

test("a scene with no tokens and no features can still be drawn", () => {
  const empty = { tokens: [], features: [], X: [], heads: [{ dims: [], Wq: [], Wk: [], Wv: [] }], mask: [] };
  assert.equal(sceneShapeProblem(empty), null);
});

test("a scene that is not an object is refused", () => {
  for (const value of [null, [], "scene", 3, true]) assert.equal(sceneShapeProblem(value), "the scene is not an object");
});

test("a title that is not text is refused", () => {
  assert.equal(sceneShapeProblem(scene({ title: 5 })), "title must be text");
});

test("tokens and features must be lists of text within the limits", () => {
  assert.equal(sceneShapeProblem(scene({ tokens: "dog bites man" })), "tokens must be a list");
  assert.equal(sceneShapeProblem(scene({ tokens: ["dog", 2, "man"] })), "every entry of tokens must be text");
  const many = Array.from({ length: LIMITS.tokens + 1 }, (_, i) => `t${i}`);
  assert.equal(sceneShapeProblem(scene({ tokens: many })), `tokens has ${LIMITS.tokens + 1} entries; the limit is ${LIMITS.tokens}`);
  assert.equal(sceneShapeProblem(scene({ features: undefined })), "features must be a list");
  assert.equal(sceneShapeProblem(scene({ features: ["animal", null] })), "every entry of features must be text");
  const wide = Array.from({ length: LIMITS.features + 1 }, (_, i) => `f${i}`);
  assert.equal(sceneShapeProblem(scene({ features: wide })), `features has ${LIMITS.features + 1} entries; the limit is ${LIMITS.features}`);
});

test("X must have a row per token, an entry per feature, each a number or text", () => {
  assert.equal(sceneShapeProblem(scene({ X: [[1, 0], [0, 1]] })), "X must have 3 rows");
  assert.equal(sceneShapeProblem(scene({ X: null })), "X must have 3 rows");
  assert.equal(sceneShapeProblem(scene({ X: [[1, 0], [0], [1, 1]] })), "every row of X must have 2 entries");
  assert.equal(sceneShapeProblem(scene({ X: [[1, 0], "01", [1, 1]] })), "every row of X must have 2 entries");
  for (const bad of [null, true, NaN, Infinity, [1]]) {
    assert.equal(sceneShapeProblem(scene({ X: [[1, 0], [0, bad], [1, 1]] })), "every entry of X must be a number or text", String(bad));
  }
});

test("there must be at least one head and no more than the limit", () => {
  assert.equal(sceneShapeProblem(scene({ heads: [] })), "heads must be a list with at least one head");
  assert.equal(sceneShapeProblem(scene({ heads: {} })), "heads must be a list with at least one head");
  const heads = Array.from({ length: LIMITS.heads + 1 }, () => structuredClone(SCENE.heads[0]));
  assert.equal(sceneShapeProblem(scene({ heads })), `there are ${LIMITS.heads + 1} heads; the limit is ${LIMITS.heads}`);
});

test("a head must be an object with a text name, if it has one", () => {
  assert.equal(sceneShapeProblem(scene({ heads: [structuredClone(SCENE.heads[0]), [1]] })), "heads[1] is not an object");
  assert.equal(sceneShapeProblem(scene({ heads: [null] })), "heads[0] is not an object");
  assert.equal(sceneShapeProblem(sceneWithHead({ name: 1 })), "heads[0].name must be text");
  assert.equal(sceneShapeProblem(sceneWithHead({ name: undefined })), null);
});

test("a head's dims must be a list of text within the limit", () => {
  assert.equal(sceneShapeProblem(sceneWithHead({ dims: "d0" })), "heads[0].dims must be a list");
  assert.equal(sceneShapeProblem(sceneWithHead({ dims: ["d0", 1] })), "every entry of heads[0].dims must be text");
  const dims = Array.from({ length: LIMITS.dims + 1 }, (_, i) => `d${i}`);
  assert.equal(sceneShapeProblem(sceneWithHead({ dims })), `heads[0].dims has ${LIMITS.dims + 1} entries; the limit is ${LIMITS.dims}`);
});

test("Wq and Wk must have a row per feature and a column per dim", () => {
  assert.equal(sceneShapeProblem(sceneWithHead({ Wq: [[1, 0]] })), "heads[0].Wq must have 2 rows");
  assert.equal(sceneShapeProblem(sceneWithHead({ Wk: [[1, 0], [0]] })), "every row of heads[0].Wk must have 2 entries");
  assert.equal(sceneShapeProblem(sceneWithHead({ Wk: [[1, 0], [0, false]] })), "every entry of heads[0].Wk must be a number or text");
  assert.equal(sceneShapeProblem(sceneWithHead({ dims: ["d0"] })), "every row of heads[0].Wq must have 1 entries");
});

test("a matrix Wv must have a row per feature, rows of one width within the limit", () => {
  assert.equal(sceneShapeProblem(sceneWithHead({ Wv: [[1, 0]] })), "heads[0].Wv must have 2 rows");
  assert.equal(sceneShapeProblem(sceneWithHead({ Wv: [[1, 0, 0], [0, 1]] })), "every row of heads[0].Wv must have 3 entries");
  assert.equal(sceneShapeProblem(sceneWithHead({ Wv: [[1, 0], [0, {}]] })), "every entry of heads[0].Wv must be a number or text");
  const width = LIMITS.value_dims + 1;
  const Wv = [Array(width).fill(0), Array(width).fill(0)];
  assert.equal(sceneShapeProblem(sceneWithHead({ Wv })), `heads[0].Wv has ${width} columns; the limit is ${LIMITS.value_dims}`);
});

test("value dims must be a list of text naming every column of Wv", () => {
  assert.equal(sceneShapeProblem(sceneWithHead({ value_dims: "v0" })), "heads[0].value_dims must be a list");
  assert.equal(sceneShapeProblem(sceneWithHead({ value_dims: ["v0", 1] })), "every entry of heads[0].value_dims must be text");
  assert.equal(sceneShapeProblem(sceneWithHead({ value_dims: ["v0"] })), "heads[0].value_dims must name the 2 columns of Wv");
  assert.equal(sceneShapeProblem(sceneWithHead({ value_dims: null })), null);
});

test("the first head with a problem is the one named", () => {
  const second = { ...structuredClone(SCENE.heads[0]), Wq: [[1, 0]] };
  assert.equal(sceneShapeProblem(scene({ heads: [structuredClone(SCENE.heads[0]), second] })), "heads[1].Wq must have 2 rows");
});

test("a custom mask must be a square of true/false, one row and column per token", () => {
  const message = "a custom mask must be 3 × 3 true/false";
  assert.equal(sceneShapeProblem(scene({ mask: [[false, false], [false, false]] })), message);
  assert.equal(sceneShapeProblem(scene({ mask: [[false, false, false], [false, false], [false, false, false]] })), message);
  assert.equal(sceneShapeProblem(scene({ mask: [[0, 1, 1], [0, 0, 1], [0, 0, 0]] })), message);
});

test("a mask that is neither a mode nor a grid is refused", () => {
  for (const mask of ["Causal", "", null, true]) {
    assert.equal(sceneShapeProblem(scene({ mask })), 'mask must be "none", "causal" or a grid of true/false', String(mask));
  }
});

test("scale and shift must be true or false", () => {
  assert.equal(sceneShapeProblem(scene({ scale: "yes" })), "scale must be true or false");
  assert.equal(sceneShapeProblem(scene({ shift: 1 })), "shift must be true or false");
});

test("the problem given is the first one in the scene's order", () => {
  assert.equal(sceneShapeProblem(scene({ title: 1, tokens: "x", scale: "no" })), "title must be text");
  assert.equal(sceneShapeProblem(scene({ X: [], scale: "no" })), "X must have 3 rows");
});
