/**
 * A sentence the learner typed over an example's: the scene is theirs now. The example's title and description
 * spoke of its own words ("“it” looks for an animal noun", "92%"), so they no longer fit: the scene is retitled
 * as the learner's own, the description goes, and the learner is told what changed. New words start with every
 * feature at 0, so they ask and answer nothing yet and their rows come out even; the page says so and offers
 * what makes sense: setting their features, or the example built for a sentence with a repeated word.
 */

import { quoted } from "../scene/quoting.js";

/** The example built for a sentence in which a word comes back (presets/repeated-noun.json). */
const REPEATED_WORD_EXAMPLE = "repeated-noun";

/**
 * What to tell the learner about a sentence they typed (the sentence edit retitles the scene as theirs:
 * scene/edits.js OWN_SENTENCE_TITLE).
 * @param {{before: string[], words: string[], lexicon: Map<string, string[]>}} sentence the tokens before, the
 *   words typed, and the words that keep their features
 * @returns {{text: string, repeats: boolean}|null} what to say, or null when the words did not change
 */
export function ownSentence({ before, words, lexicon }) {
  if (words.length === before.length && words.every((word, i) => word === before[i])) return null;
  const fresh = [...new Set(words.filter((word) => !lexicon.has(word)))];
  const repeats = new Set(words).size < words.length;
  if (!fresh.length) return { text: "Your own sentence: every word kept its features from the example.", repeats };
  const named = fresh.slice(0, 4).map(quoted).join(", ") + (fresh.length > 4 ? ` and ${fresh.length - 4} more` : "");
  return {
    text: `Your own sentence. New words start with every feature at 0, so ${named} ask and offer nothing yet, and their weights come out even. Give them features in the table below.`,
    repeats,
  };
}

/** What the notice offers for a sentence with a repeated word: the example built for one. */
export function repeatedWordOffer(presets, pickPreset) {
  const example = presets?.find((preset) => preset.id === REPEATED_WORD_EXAMPLE);
  return { label: `or open the example ${quoted(example?.title ?? "a repeated noun")}`, run: () => pickPreset(REPEATED_WORD_EXAMPLE) };
}
