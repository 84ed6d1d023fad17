/**
 * The Part 6 variations of the "it" example, as the experiments panel offers them (experiments.js): the pronoun row of
 * Wq, looking for [animal, noun], and what each shows. Each is one of the shipped examples
 * (py/attention_playground/presets/`preset`.json), whose row this repeats: tests/js/variations.test.mjs holds them
 * to it.
 */

export const VARIATIONS = Object.freeze([
  { id: "original", preset: "it-animal-noun", label: "original [4, 4]", row: [4, 4], says: "“it” asks for an animal and for a noun; “cat” is both, so it wins clearly." },
  { id: "no-noun", preset: "it-no-noun-match", label: "no noun match [4, 0]", row: [4, 0], says: "“it” no longer asks for a noun: “cat” still wins as the only animal, but without its extra noun score the lead shrinks." },
  { id: "strength-1", preset: "it-strength-1", label: "strength 1", row: [1, 1], says: "The same question asked quietly: the score gaps shrink, so the weights spread out; “cat” still ranks first." },
  { id: "strength-5", preset: "it-strength-5", label: "strength 5", row: [5, 5], says: "A little louder than the original: the gaps grow, and the softmax is a little more decisive." },
  { id: "strength-8", preset: "it-strength-8", label: "strength 8", row: [8, 8], says: "Twice as loud: the gaps double, and softmax puts nearly everything on “cat”." },
]);
