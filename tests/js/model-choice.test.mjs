// Hiding <bos> in the model's panel (js/ui/model/model-choice.js), run by Node's own test runner: every row of every
// head drawn without the first token's share and divided by what is left, so that a sink does not hide the rest.
import assert from "node:assert/strict";
import test from "node:test";

import { everyHeadWithoutStart, withoutStart } from "../../js/ui/model/model-choice.js";

/** The same numbers, to the last bits a division leaves (0.2 / (1 - 0.8) is 1.0000000000000002). */
function assertClose(actual, expected) {
  assert.equal(actual.length, expected.length);
  actual.forEach((row, i) => row.forEach((value, j) => assert.ok(Math.abs(value - expected[i][j]) < 1e-12, `[${i}][${j}] ${value}`)));
}

test("a row without <bos> is what is left of it, renormalised; the row that reads only <bos> is empty", () => {
  const weights = [
    [1, 0, 0],
    [0.8, 0.2, 0],
    [0.5, 0.125, 0.375],
  ];
  assertClose(withoutStart(weights), [
    [0, 0, 0],
    [0, 1, 0],
    [0, 0.25, 0.75],
  ]);
  for (const row of withoutStart(weights).slice(1)) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  assert.deepEqual(weights[1], [0.8, 0.2, 0]); // the model's own numbers are left as they were
});

test("every head of every layer is drawn the same way", () => {
  const head = [
    [1, 0],
    [0.9, 0.1],
  ];
  const shown = everyHeadWithoutStart([[head, head], [head]]);
  assert.equal(shown.length, 2);
  assertClose(shown[1][0], [
    [0, 0],
    [0, 1],
  ]);
});
