/**
 * What testing a claim shows of its two models: both losses on one chart, what each scores where the claim is
 * measured, the verdict (a sentence Python writes from the two measurements, model/claims.py), and each model's
 * heads as cards.
 */

import { make, setText, withTestId } from "../shared/dom.js";
import { createClaimCurves } from "./claim-curves.js";
import { createHeadCards } from "../model/head-cards.js";

/** The two models of a claim's test: with the design choice, and without it. */
const SIDES = ["with", "without"];

const percent = (value) => `${(value * 100).toFixed(0)}%`;

/** Each side's box of head cards, under a title naming its model: {with, without} of {box, title, cards}. */
function createSides(heads) {
  return Object.fromEntries(SIDES.map((side) => {
    const box = withTestId(make("div", "claim-side"), `claim-heads-${side}`);
    const title = make("h4", "");
    const cards = createHeadCards(); // to read: a claim's models are not the one the panel knocks heads out of
    box.append(title, cards.element);
    heads.append(box);
    return [side, { box, title, cards }];
  }));
}

/**
 * What the chart itself says when the model without the mask has the lower loss: it reads the word it must
 * predict, so its loss looks better and is not, and what it predicts with that word hidden (the verdict's
 * measurement). Null for any other claim, or before both losses and the verdict are in.
 * @param {object} claim state.claim
 * @param {object|undefined} chosen the claim tested (model_claims' entry)
 * @returns {{side: string, text: string}|null}
 */
export function chartNote(claim, chosen) {
  const { with: honest, without: reading } = claim.losses;
  if (!chosen?.measured_with_mask || !claim.verdict || !honest.length || !reading.length) return null;
  if (!(reading.at(-1) < honest.at(-1))) return null;
  return {
    side: "without",
    text: `${chosen.without_label.charAt(0).toUpperCase()}${chosen.without_label.slice(1)}, the loss falls to ${reading.at(-1).toFixed(2)} (${chosen.with_label}: ` +
      `${honest.at(-1).toFixed(2)}): the model reads the word it must predict, so it looks better, and is not. ` +
      `With that word hidden it predicts ${percent(claim.verdict.without_accuracy)} of the repeated part.`,
  };
}

/**
 * @returns {{elements: Element[], update: (claim: object, chosen: object|undefined) => void}} `elements`, in the
 *   order they are shown; `update` draws state.claim, whose results are those of `chosen`, the claim tested
 */
export function createClaimResults() {
  const curves = createClaimCurves();
  const scores = withTestId(make("p", "model-metrics"), "claim-scores");
  const verdict = withTestId(make("p", "claim-verdict"), "claim-verdict");
  verdict.setAttribute("aria-live", "polite");
  const heads = make("div", "claim-heads");
  const sides = createSides(heads);

  function update(claim, chosen) {
    const labels = chosen ? { with: chosen.with_label, without: chosen.without_label } : { with: "with", without: "without" };
    curves.element.toggleAttribute("hidden", claim.status === "idle"); // an SVG element has no .hidden
    curves.update({ losses: claim.losses, steps: claim.steps || 1, labels, note: chartNote(claim, chosen) });
    const measured = claim.metrics && chosen;
    scores.hidden = !measured;
    if (measured) {
      const where = chosen.measured_with_mask ? "repeated part predicted, with the next word hidden" : "repeated part predicted";
      setText(scores, `${where}: ${labels.with} ${percent(claim.metrics.with.repeat_accuracy)} · ${labels.without} ${percent(claim.metrics.without.repeat_accuracy)}`);
    }
    verdict.hidden = !claim.verdict;
    setText(verdict, claim.verdict?.sentence ?? "");
    verdict.classList.toggle("shown", Boolean(claim.verdict?.shown));
    heads.hidden = !claim.heads;
    if (!claim.heads) return;
    for (const side of SIDES) {
      const { info, tokens, weights } = claim.heads[side];
      setText(sides[side].title, `The heads of the model ${labels[side]}`);
      sides[side].cards.update({ info, weights, tokens, knockedOut: [], chosen: { layer: -1, head: -1 }, training: false });
    }
  }

  return { elements: [curves.element, scores, verdict, heads], update };
}
