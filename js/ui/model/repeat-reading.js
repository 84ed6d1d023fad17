/**
 * At a word the sentence has had before (the second "fox"), what the row reads and why, written from the
 * numbers on screen: does any head read the earlier copy itself (the lab's picture), which head reads the word
 * that came right after it (the induction route), how much knocking that head out moves the prediction here, and
 * what the model expects. The lab's picture, a second mention reading the first, is what larger trained models
 * show; this note says so beside what this small model measurably does instead (model_info's `second_mention`,
 * measured over stories of that kind, model/analysis.py).
 */

import { make, withTestId } from "../shared/dom.js";
import { formatWeight, quoted } from "../shared/format.js";
import { START_TOKEN, wordAt } from "../shared/positions.js";
import { effectWord, isMostWeight, readsLittle } from "../shared/verdicts.js";

const ORDINALS = ["first", "second", "third", "fourth", "fifth"];

/** “fox” at `index` as a sentence names a repeated word: the second “fox” (word 10). */
function mention(tokens, index) {
  const count = tokens.slice(0, index + 1).filter((token) => token === tokens[index]).length;
  const number = tokens[0] === START_TOKEN ? index : index + 1;
  return `the ${ORDINALS[count - 1] ?? `${count}th`} ${quoted(tokens[index])} (word ${number})`;
}

/** The head (over every layer) whose row `focus` puts the most weight on `keys` together: {label, layer, head, weight}. */
function mostOn(weights, labels, focus, keys) {
  let best = null;
  weights.forEach((layer, l) => layer.forEach((rows, h) => {
    const weight = keys.reduce((sum, key) => sum + rows[focus][key], 0);
    if (best === null || weight > best.weight) best = { label: labels[l][h], layer: l, head: h, weight };
  }));
  return best;
}

/** The largest number of a nested list (model_info's (n_layers, n_heads) arrays). */
const largest = (nested) => Math.max(...nested.flat(Infinity));

/** The words after the earlier copies, as the induction sentence names them: “came” (word 3), or several with each weight. */
function followersText(tokens, followers, rows, focus) {
  if (followers.length === 1) return wordAt(tokens, followers[0]);
  return followers.map((key) => `${formatWeight(rows[focus][key], 2)} on ${wordAt(tokens, key)}`).join(", ");
}

/**
 * @param {{tokens: string[], weights: number[][][][], effects: number[][][], labels: string[][], focus: number,
 *   prediction?: [string, number], previousToken?: string, secondMention?: {first_mention: number[][]}}} view
 *   `previousToken`: the label of the model's previous-token head, if it has one
 * @returns {string|null} null where the focused word is not a repeat
 */
export function repeatReading({ tokens, weights, effects, labels, focus, prediction, previousToken, secondMention }) {
  const earlier = tokens.slice(1, focus).flatMap((token, k) => (token === tokens[focus] ? [k + 1] : []));
  if (focus <= 0 || !earlier.length) return null;
  const lines = [];
  const copies = earlier.length === 1 ? mention(tokens, earlier[0]) : `the earlier ${quoted(tokens[focus])}s`;
  const onCopies = mostOn(weights, labels, focus, earlier);
  lines.push(`At ${mention(tokens, focus)}, ${readsLittle(onCopies.weight) ? "no head reads" : `${onCopies.label} reads`} ` +
    `${copies} itself (the most any head puts there: ${formatWeight(onCopies.weight, 2)}, ${onCopies.label}).`);
  const followers = earlier.map((k) => k + 1).filter((k) => k < focus);
  const onFollowers = followers.length ? mostOn(weights, labels, focus, followers) : null;
  if (onFollowers && isMostWeight(onFollowers.weight)) {
    const { label, layer, head, weight } = onFollowers;
    const rows = weights[layer][head];
    const effect = effects?.[layer]?.[head]?.[focus];
    const writer = previousToken ? ` (the previous-token head ${previousToken} marks each word with the one before it)` : "";
    const on = followers.length === 1 ? `${formatWeight(weight, 2)} on ${followersText(tokens, followers, rows, focus)}, the word`
      : `${formatWeight(weight, 2)} on the words (${followersText(tokens, followers, rows, focus)})`;
    lines.push(`${label} puts ${on} right after ${copies}: the induction route, which finds an earlier ` +
      `${quoted(tokens[focus])} by the word that followed it${writer}.` +
      (Number.isFinite(effect) ? ` Knocking ${label} out moves the prediction here by ${formatWeight(effect, 2)} (${effectWord(effect)}).` : "") +
      (prediction ? ` The model expects ${quoted(prediction[0])} (${formatWeight(prediction[1], 2)}).` : ""));
  }
  const measured = secondMention ? ` In this model, at a noun's second mention in its test stories, no head puts ` +
    `more than ${formatWeight(largest(secondMention.first_mention), 2)} on the first.` : "";
  lines.push(`The lab's picture, a second mention reading the first (a duplicate-token head), is of larger trained ` +
    `models.${measured}`);
  return lines.join(" ");
}

/**
 * The note as the panel shows it, under the sentence about the focused row; hidden where the word is not a repeat.
 * @returns {{element: HTMLElement, update: (view: {info: object, result: object, labels: string[][], focus: number}) => void}}
 *   `info` model_info, `result` model_run, `labels` each head's label by [layer][head]
 */
export function createRepeatNote() {
  const element = withTestId(make("p", "panel-note model-repeat-note"), "model-repeat-note");

  function update({ info, result, labels, focus }) {
    const reading = repeatReading({ tokens: result.tokens, weights: result.weights, effects: result.effects, labels, focus,
      prediction: result.predictions[focus]?.[0], secondMention: info.second_mention,
      previousToken: info.heads.find((head) => head.role === "previous-token")?.label });
    element.textContent = reading ?? "";
    element.hidden = !reading;
  }

  return { element, update };
}
