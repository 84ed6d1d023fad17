/**
 * How the page names a position, everywhere a learner reads one: the word's own text beside its number, the
 * number counted from 1 over the words of the sentence as the learner typed them. The model's `<bos>` is not a
 * word the learner typed, so it is "the start", and the first word after it is word 1 (as in the sentence's
 * chips), not row 2 of the grid. One scheme: the bars, the knock-out picker, the weight-against-effect note and
 * every sentence that names a repeated word use these functions.
 */

import { MODULE_FACTS } from "../../../generated/module-facts.js";
import { quoted } from "./format.js";

/** The model's beginning-of-sequence token, which stands before the first word: the module's (model/corpus.py:
 * BOS), as the build writes it into the facts. */
export const START_TOKEN = MODULE_FACTS.startToken;

/** The word number (from 1) of the token at `index`, or 0 for the model's `<bos>`. */
function wordNumber(tokens, index) {
  return tokens[0] === START_TOKEN ? index : index + 1;
}

/** The short mark beside a bar: "8", or "start" for `<bos>`. */
export function positionMark(tokens, index) {
  const number = wordNumber(tokens, index);
  return number === 0 ? "start" : String(number);
}

/** True when the token at `index` occurs more than once, so its text alone does not say which one is meant. */
function isRepeated(tokens, index) {
  return tokens.indexOf(tokens[index]) !== tokens.lastIndexOf(tokens[index]);
}

/** A token with its position always: “fox” (word 8). */
export function wordAt(tokens, index) {
  const number = wordNumber(tokens, index);
  return number === 0 ? quoted(tokens[index]) : `${quoted(tokens[index])} (word ${number})`;
}

/** A token as a sentence names it: “cat” when it occurs once, “fox” (word 8) when the text alone is ambiguous. */
export function namedToken(tokens, index) {
  return isRepeated(tokens, index) ? wordAt(tokens, index) : quoted(tokens[index]);
}
