// The rows and heads of the weights a lesson step holds back (js/ui/lessons/held-parts.js), run by Node's own test
// runner: which holds are parts, and the style rules that hide them, by head and by row, until they are answered.
import assert from "node:assert/strict";
import test from "node:test";

import { heldParts, heldPartsRules } from "../../js/ui/lessons/held-parts.js";

const lesson = (holds, answers = {}) => ({ content: { holds }, answers });

test("a hold of a row or a head is a part, until its question is answered; a hold of a whole stage is not", () => {
  const holds = [
    { stage: "weights", head: 0, row: 7, until: "early" },
    { stage: "weights", head: 3, until: "sink" },
    { stage: "weights", until: "whole" },
    { stage: "scores", until: "scores" },
  ];
  assert.deepEqual(heldParts(lesson(holds)), [{ head: 0, row: 7 }, { head: 3, row: null }]);
  assert.deepEqual(heldParts(lesson(holds, { early: { attempts: 1 } })), [{ head: 3, row: null }]);
  assert.deepEqual(heldParts(null), []);
  assert.deepEqual(heldParts({ answers: {} }), []);
});

test("the rules hide the held row of the held head, wherever it shows, and nothing when nothing is held", () => {
  assert.equal(heldPartsRules([]), "");
  const rules = heldPartsRules([{ head: 0, row: 7 }]);
  assert.match(rules, /^:is\(\.heatmap-panel\[data-head="0"\] \.heatmap-wrap:not\(\.compact\), \.head-thumb\[data-head="0"\]\) rect\.cell\[data-row="7"\]:not\(\[data-masked="true"\]\) \{ fill: var\(--hidden-cell\) !important; \}/);
  for (const shown of [
    '.heatmap-panel[data-head="0"] .heatmap-wrap:not(.compact) text.cell-value[data-row="7"]',
    '.heatmap-panel[data-head="0"] .heatmap-tooltip',
    '.weights-table[data-head="0"] td[data-row="7"]',
    '.bars-panel[data-head="0"][data-row="7"] .bars',
    '.multi-head-panel .labelled-matrix[data-head="0"] td[data-row="7"]:not(.masked)',
    '[data-testid="attention-summary"][data-head="0"][data-focus-row="7"]',
  ]) assert.ok(rules.includes(shown), shown);
  assert.match(rules, /\.preset-description, \.teaching-notes/, "captions that may state the answer are hidden too");
  assert.ok(rules.includes('.cells-on-canvas rect.cell[data-row="7"]:not([data-masked="true"]) { visibility: visible; }'),
    "a big scene's held row covers its canvas, grey");
  assert.ok(!rules.includes(".heatmap-canvas"), "the canvas of the other rows still shows");
});

test("a held head hides all its rows, and no other head's", () => {
  const rules = heldPartsRules([{ head: 3, row: null }]);
  assert.ok(rules.includes('.multi-head-panel .labelled-matrix[data-head="3"] td:not(.masked)'));
  assert.ok(!rules.includes("data-row"), "every row of it");
  assert.ok(rules.includes(".heatmap-canvas"), "a big scene's canvas too");
  assert.ok(!/data-head="[^3]"/.test(rules), "no other head");
});

test("the marks are numbers: nothing a lesson's file says is written into a rule as it is", () => {
  const rules = heldPartsRules([{ head: /** @type {any} */ ('0"] body, [x="'), row: 1 }]);
  assert.ok(!rules.includes("body,"), "not a selector of its own");
  assert.ok(rules.includes('[data-head="NaN"]'));
});
