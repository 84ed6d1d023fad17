/**
 * Weight against effect, for the focused word: how much weight each head puts where, next to how much
 * knocking that head out moves the model's prediction. The standing warning, measured: a weight shows where
 * a head read from, not whether what it read mattered.
 *
 * Both columns come from Python (model_run): the weights, and for each head the total variation distance
 * between the prediction with and without it (0: the same guess; 1: a completely different one).
 */

import { formatPercent, formatWeight } from "../shared/format.js";
import { make, makeButton } from "../shared/dom.js";
import { createDisclosure } from "./disclosure.js";
import { namedToken, wordAt } from "../shared/positions.js";
import { effectWord, isMostWeight } from "../shared/verdicts.js";

/** The largest weight of a row and where it goes. */
function strongest(row) {
  let best = 0;
  row.forEach((weight, j) => {
    if (weight > row[best]) best = j;
  });
  return { at: best, weight: row[best] };
}

function bar(fraction, className) {
  const track = make("span", "bar-track");
  const fill = make("span", `bar-fill ${className}`);
  fill.style.width = `${Math.max(0, Math.min(1, fraction)) * 100}%`;
  track.append(fill);
  return track;
}

/**
 * The heads at `focus`, each with its strongest read and its effect, and the sentence that contrasts the
 * busiest head that barely matters with the one that matters most (null when no pair shows it).
 */
export function weightAgainstEffect({ tokens, weights, effects, labels, knockedOut, focus }) {
  const rows = [];
  weights.forEach((layer, l) => layer.forEach((headWeights, h) => {
    const knocked = knockedOut.some(([a, b]) => a === l && b === h);
    rows.push({ layer: l, head: h, label: labels[l][h], knocked, read: strongest(headWeights[focus]), effect: effects[l][h][focus] });
  }));
  const live = rows.filter((row) => !row.knocked);
  const mattersMost = live.reduce((best, row) => (best === null || row.effect > best.effect ? row : best), null);
  // The contrast is written only when its words are true (shared/verdicts.js): a head with most of its weight on
  // one word whose knock-out barely moves the prediction, beside one whose knock-out moves it a lot.
  const busyButIdle = live
    .filter((row) => row !== mattersMost && isMostWeight(row.read.weight))
    .reduce((best, row) => (best === null || row.effect < best.effect ? row : best), null);
  let contrast = null;
  if (mattersMost && busyButIdle && effectWord(busyButIdle.effect) === "barely" && effectWord(mattersMost.effect) === "a lot") {
    contrast = `${busyButIdle.label} puts ${formatPercent(busyButIdle.read.weight)} of its weight on ${namedToken(tokens, busyButIdle.read.at)}, ` +
      `yet knocking it out barely moves the prediction (${formatWeight(busyButIdle.effect, 2)}); ` +
      `knocking out ${mattersMost.label}, which reads ${namedToken(tokens, mattersMost.read.at)}, moves it a lot (${formatWeight(mattersMost.effect, 2)}). ` +
      "Large weights show where a head read from, not whether that mattered.";
  }
  return { rows, contrast, mattersMost, busyButIdle };
}

/**
 * For the guided example: the position where the contrast is starkest (the head that matters most moves the
 * prediction the most beyond the busy head that does not), or null when no position shows one.
 */
export function guidedFocus({ tokens, weights, effects, labels, knockedOut }) {
  let best = null;
  for (let focus = 1; focus < tokens.length; focus += 1) {
    const { contrast, mattersMost, busyButIdle } = weightAgainstEffect({ tokens, weights, effects, labels, knockedOut, focus });
    if (!contrast) continue;
    const gap = mattersMost.effect - busyButIdle.effect;
    if (best === null || gap > best.gap) best = { focus, gap };
  }
  return best?.focus ?? null;
}

/**
 * @param {{onGuided: () => void}} handlers
 * @returns {{element: HTMLElement, update: (view: object) => void}}
 */
export function createWeightEffect({ onGuided }) {
  const element = make("div", "model-weight-effect");
  element.dataset.testid = "model-weight-effect";
  const heading = make("h3", "", "Weight against effect");
  const note = make("p", "panel-note");
  const table = document.createElement("table");
  table.className = "weight-effect-table";
  const head = table.createTHead().insertRow();
  for (const title of ["head", "its strongest read", "knocking it out moves the prediction by"]) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = title;
    head.append(cell);
  }
  const body = table.createTBody();
  const contrast = make("p", "model-contrast");
  contrast.dataset.testid = "model-contrast";
  const guided = makeButton("small-button", "Show me: a busy head that does not matter, and one that does", "model-guided");
  guided.addEventListener("click", onGuided);
  // The table of every head is folded on a phone: the sentence and the button below say its point.
  const heads = createDisclosure({ summary: "Every head: its strongest read and its effect", testId: "model-weight-effect-heads" });
  heads.body.append(table);
  element.append(heading, note, heads.element, contrast, guided);

  /** view: see weightAgainstEffect */
  function update(view) {
    const { rows, contrast: sentence } = weightAgainstEffect(view);
    note.textContent = `At ${wordAt(view.tokens, view.focus)}. The effect is how far the ` +
      "predicted next-word distribution moves when that head's output is zeroed: 0 is the same guess, 1 a completely different one.";
    body.replaceChildren(...rows.map((row) => {
      const tr = body.insertRow();
      tr.dataset.testid = "weight-effect-row";
      tr.dataset.head = row.label;
      tr.classList.toggle("knocked-out", row.knocked);
      const name = document.createElement("th");
      name.scope = "row";
      name.textContent = row.label;
      const read = tr.insertCell();
      read.append(bar(row.read.weight, "weight-fill"), make("span", "bar-value", `${formatPercent(row.read.weight)} on ${namedToken(view.tokens, row.read.at)}`));
      const effect = tr.insertCell();
      // null while the English model measures it at a newly focused word (it measures at the focus alone)
      const measuring = row.effect === null || row.effect === undefined;
      effect.append(bar(measuring ? 0 : row.effect, "effect-fill"), make("span", "bar-value",
        row.knocked ? "knocked out" : measuring ? "…" : `${formatWeight(row.effect, 2)} (${effectWord(row.effect)})`));
      tr.prepend(name);
      return tr;
    }));
    contrast.textContent = sentence ?? "";
    contrast.hidden = !sentence;
    guided.hidden = view.guided === false; // the guided example is the story world's
  }

  return { element, update };
}
