/**
 * One-line notes next to the softmax switches, shown only when they explain what is on screen:
 *
 *   - the overflow trap: nan appears when the shift is off and the scores are large; the note says
 *     why, and that ticking "subtract each row's max" brings the same weights back;
 *   - the causal mask: each row re-normalises over the words it may read; the note gives the
 *     focused row's count and its sum.
 */

import { formatScore } from "../shared/format.js";
import { namedToken } from "../shared/positions.js";
import { make } from "../shared/dom.js";

/** True when some weight that is not masked came out as nan (null). */
function hasNanWeights(result) {
  return result.heads.some((head) => head.weights.some((row, i) => row.some((weight, j) => weight === null && !result.mask[i][j])));
}

/**
 * Mount the notes in `host`.
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, when?: import("../../state/redraw-schedule.js").RedrawTiming}} context
 */
export function mountTeachingNotes(host, { store, when }) {
  const trap = make("p", "teaching-note trap-note");
  trap.dataset.testid = "softmax-trap-note";
  const causal = make("p", "teaching-note causal-note");
  causal.dataset.testid = "causal-note";
  trap.hidden = true; // until a result says there is something to explain
  causal.hidden = true;
  host.append(trap, causal);

  function render(state) {
    const { result, draft } = state;
    if (!result) return;
    const nan = hasNanWeights(result);
    trap.hidden = !nan && result.shift !== false;
    if (nan) {
      trap.textContent = "nan: without the shift, e^score overflows (e^710 is already ∞ in float64), and ∞ ÷ ∞ is not a number. Tick “subtract each row’s max”: every exponential is divided by the same e^max, which the division by the total cancels, so the weights are the same, and finite.";
    } else if (result.shift === false) {
      trap.textContent = "The shift is off. These scores are small enough that nothing overflows; with scores near 1000 (the softmax-trap example) the weights turn into nan.";
    }
    const isCausal = draft?.mask === "causal";
    causal.hidden = !isCausal;
    if (isCausal) {
      const row = Math.min(state.focusToken ?? result.tokens.length - 1, result.tokens.length - 1);
      const head = result.heads[Math.min(state.activeHead, result.heads.length - 1)];
      const readable = result.mask[row].filter((blocked) => !blocked).length;
      const sum = head.weights[row].reduce((total, weight, j) => total + (result.mask[row][j] ? 0 : weight ?? Number.NaN), 0);
      causal.textContent = `Causal mask: each row re-normalises over the words it may read. Row ${namedToken(result.tokens, row)} may read ${readable} of ${result.tokens.length} words, and its weights over them add up to ${Number.isNaN(sum) ? "nan" : formatScore(Number(sum.toFixed(6)))}.`;
    }
  }

  store.subscribe((state, changes) => {
    if (["result", "focus", "mode", "scene", "head"].some((part) => changes.has(part))) render(state);
  }, when);
}
