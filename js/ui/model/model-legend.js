/**
 * What the head cards say, defined where they stand: the start token, each role a head can have (with the score
 * and the threshold that give it, as model/analysis.py measures them: model_info's `role_thresholds`), and the
 * three scores on every card. Short and plain; a learner who reads "attention sink" or "induction 0.83" on a card
 * finds here what it means. Only the roles this model's heads have are listed, and "diffuse" when one has none.
 */

import { formatWeight } from "../shared/format.js";
import { make, withTestId } from "../shared/dom.js";
import { START_TOKEN } from "../shared/positions.js";
import { createDisclosure } from "./disclosure.js";
import { SCORE_WORDS, roleName } from "./head-cards.js";

/** What each role means, in the order model/analysis.py tests them; "diffuse" is a head that reaches none. */
const ROLE_MEANINGS = Object.freeze({
  "previous-token": "reads the word just before it.",
  induction: "at a word seen before, reads the word that came right after it last time, the best guess for " +
    "what comes next (… fox came … fox → came). With nothing to copy yet it parks on the start token too.",
  pronoun: "at “it”, reads the animal “it” stands for.",
  "duplicate-token": "at a word seen before, reads that earlier copy itself.",
  "first-token": `puts its weight on ${START_TOKEN} when it has nothing to find: the weights of a row must add up ` +
    "to 1 somewhere, and the start is always there to read. The lab's name for it.",
  diffuse: "reaches none of these: its weight is spread out over many words.",
});

/** What each score on a card measures (on repeated runs of random words, where copying is all there is to learn). */
const SCORE_MEANINGS = Object.freeze({
  previous_token: "the mean weight on the word just before",
  induction: "on the word after an earlier copy of the current word",
  first_token: `on ${START_TOKEN}, in the first run of words, where there is nothing to copy yet`,
});
const MEASURED_ON = "Each is measured on repeated runs of random words, where copying is all there is to learn.";

/** The English model's scores (english/analysis.py): two on running text, one on random tokens said twice. */
const ENGLISH_SCORE_MEANINGS = Object.freeze({
  previous_token: "the mean weight on the token just before",
  induction: "on the token after an earlier copy of the current one",
  first_token: `on ${START_TOKEN}`,
});
const ENGLISH_MEASURED_ON = `prev and ${START_TOKEN} are measured on text the model never trained on, induction on runs ` +
  "of random word tokens said twice, where only copying can find the next one.";

/** One term and its meaning, as a row of the legend's list. */
function entry(term, meaning, testId) {
  const row = withTestId(make("div", "model-legend-entry"), testId);
  row.append(make("dt", "", term), make("dd", "", meaning));
  return row;
}

/**
 * @returns {{element: HTMLElement, update: (info: object) => void}} `update` takes model_info
 */
export function createModelLegend() {
  const { element, body } = createDisclosure({ summary: "What the cards say: the start, attention sink, induction…", testId: "model-legend", className: "model-legend" });
  const list = make("dl", "model-legend-list");
  body.append(list);
  let shown = "";

  function update(info) {
    const present = new Set(info.heads.flatMap((head) => [head.role, ...(head.roles ?? [])]));
    const roles = [...Object.keys(info.role_thresholds ?? {}), "diffuse"].filter((role) => present.has(role));
    const english = info.model === "english";
    const key = `${info.model}:${roles.join()}`;
    if (key === shown) return;
    shown = key;
    const thresholds = info.role_thresholds ?? {};
    const reached = (role) => {
      const rule = thresholds[role];
      return rule ? ` (${SCORE_WORDS[rule.score] ?? rule.score} ≥ ${formatWeight(rule.at_least, 1)})` : "";
    };
    const meanings = english ? ENGLISH_SCORE_MEANINGS : SCORE_MEANINGS;
    list.replaceChildren(
      entry(START_TOKEN, "the start: a token the model reads before every sentence. Word 1 comes after it.", "model-legend-start"),
      ...roles.map((role) => entry(`${roleName(role)}${reached(role)}`, ROLE_MEANINGS[role] ?? "", `model-legend-${role}`)),
      entry(
        Object.keys(meanings).map((score) => SCORE_WORDS[score]).join(" · "),
        `each card's scores, from 0 to 1: ${Object.entries(meanings).map(([score, meaning]) => `${SCORE_WORDS[score]}, ${meaning}`).join("; ")}. ` +
          (english ? ENGLISH_MEASURED_ON : MEASURED_ON),
        "model-legend-scores",
      ),
    );
  }

  return { element, update };
}
