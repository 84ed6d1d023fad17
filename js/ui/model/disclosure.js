/**
 * A part of the model's panel a learner may fold away: open where the screen is wide, folded on a phone, where
 * the panel would otherwise run to thousands of pixels. The learner opens or folds it either way.
 */

import { make, withTestId } from "../shared/dom.js";

/** Narrower than this (CSS pixels), secondary parts start folded. */
export const FOLDED_BELOW = 700;

/**
 * @param {{summary: string, testId: string, className?: string}} options
 * @returns {{element: HTMLDetailsElement, summary: HTMLElement, body: HTMLElement}} put the part in `body`
 */
export function createDisclosure({ summary: text, testId, className = "" }) {
  const element = withTestId(make("details", `model-disclosure ${className}`.trim()), testId);
  const summary = make("summary", "", text);
  const body = make("div", "model-disclosure-body");
  element.append(summary, body);
  element.open = !window.matchMedia(`(max-width: ${FOLDED_BELOW - 1}px)`).matches;
  return { element, summary, body };
}
