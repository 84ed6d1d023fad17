/**
 * The words a sentence may use for how much something moved, and the numbers behind them, stated once. A
 * verdict such as "barely moves the prediction" is only written where the number says so: every sentence that
 * judges a size asks these functions, and a test checks each word at its edges.
 *
 * Sizes are total variation distances between two next-word distributions (0: the same guess, 1: a completely
 * different one), as model_run's `effects` gives them.
 */

/** Below this a shift is "barely" one: the guess keeps almost all of its probability where it was. */
export const BARELY_BELOW = 0.05;
/** From this on a shift is "a lot": a quarter or more of the probability has gone to other words. */
export const A_LOT_FROM = 0.25;
/** A head puts "most of its weight" on a word from this share on. */
export const MOST_WEIGHT_FROM = 0.5;

/** Below this share a head "reads" a word hardly at all: a sentence says "no head reads" it. */
export const READS_LITTLE_BELOW = 0.1;

/** "barely", "somewhat" or "a lot", for a total variation distance. */
export function effectWord(distance) {
  if (distance < BARELY_BELOW) return "barely";
  if (distance < A_LOT_FROM) return "somewhat";
  return "a lot";
}

/** True when a head's largest weight is "most of its weight". */
export function isMostWeight(weight) {
  return weight >= MOST_WEIGHT_FROM;
}

/** True when a weight is too small to say a head reads that word. */
export function readsLittle(weight) {
  return weight < READS_LITTLE_BELOW;
}
