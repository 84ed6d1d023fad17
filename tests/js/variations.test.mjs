// The experiments panel's "try changing one thing" (js/ui/teaching/variations.js), run by Node's own test runner
// (tests/tooling/test_js_units.py): each variation's row is the pronoun row of Wq in the shipped example it stands
// for, so the panel and the examples cannot drift apart.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { VARIATIONS } from "../../js/ui/teaching/variations.js";

const preset = (id) => JSON.parse(readFileSync(new URL(`../../py/attention_playground/presets/${id}.json`, import.meta.url), "utf8"));

test("each variation's row is its example's pronoun row of Wq, looking for [animal, noun]", () => {
  assert.equal(VARIATIONS.length, 5);
  for (const variation of VARIATIONS) {
    const scene = preset(variation.preset);
    const [head] = scene.heads;
    const row = head.Wq[scene.features.indexOf("pronoun")];
    assert.deepEqual([row[head.dims.indexOf("animal")], row[head.dims.indexOf("noun")]], variation.row, variation.id);
    // Every other number of the scene is the original example's: one thing changed.
    const original = preset("it-animal-noun");
    original.heads[0].Wq[original.features.indexOf("pronoun")] = row;
    assert.deepEqual(scene.heads[0].Wq, original.heads[0].Wq, `${variation.id}: only the pronoun row differs`);
    assert.deepEqual(scene.X, original.X, variation.id);
  }
  assert.deepEqual(new Set(VARIATIONS.map((variation) => variation.preset)).size, VARIATIONS.length);
});

test("a label that gives numbers gives the row's", () => {
  for (const variation of VARIATIONS) {
    const given = /\[(\d+), (\d+)\]/.exec(variation.label);
    if (given) assert.deepEqual([Number(given[1]), Number(given[2])], variation.row, variation.id);
  }
});
