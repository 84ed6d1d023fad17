/**
 * Designed against learned: on the tutorial's sentence, the Part 6 head the learner set by hand next to the head
 * the model learned, their weights at "it" on "cat" and "mat", and what knocking the learned head out does to the
 * animal's word after "it", and each head's stages at "it" side by side (its query, the keys of the words it may
 * read, the scores, ÷√d and the softmax weights), drawn as the step view draws them. Every number is Python's
 * (`model_info`: `designed` from the preset and model/stage_rows.py, `pronoun` from model/analysis.py); this view
 * only writes them out.
 */

import { formatWeight, quoted } from "../shared/format.js";
import { make } from "../shared/dom.js";
import { START_TOKEN, namedToken, wordAt } from "../shared/positions.js";
import { createLabelledMatrix } from "../teaching/labelled-matrix.js";
import { drawStage, stageFormula } from "../teaching/step-view.js";
import { createDisclosure } from "./disclosure.js";
import { SCORE_WORDS, aRole } from "./head-cards.js";

/** The stages each head shows at "it", in the step view's order. */
const ROW_STAGES = ["Q", "K", "scores", "scaled", "weights"];

/**
 * The view. `onShow(layer, head)` puts the tutorial's sentence in the panel with the learned head chosen.
 * @param {{onShow: (layer: number, head: number) => void}} handlers
 */
export function createDesignedVsLearned({ onShow }) {
  const element = make("section", "model-designed");
  element.dataset.testid = "model-designed";
  const title = make("h3", "", "Designed against learned: does “it” find the cat?");
  const table = document.createElement("table");
  table.className = "model-designed-table";
  const text = make("p", "panel-note");
  text.dataset.testid = "model-designed-text";
  const show = make("button", "small-button", "Show it on the sentence");
  show.type = "button";
  show.dataset.testid = "model-designed-show";
  const stagesNote = make("p", "panel-note");
  const stages = make("div", "model-designed-stages");
  const steps = createDisclosure({ summary: "The steps at “it”, head by head: query, keys, scores, ÷√d, weights", testId: "model-designed-steps" });
  steps.body.append(stagesNote, stages);
  element.append(title, table, text, show, steps.element);
  const columns = [createStageColumn("model-designed-stages-hand"), createStageColumn("model-designed-stages-learned")];
  stages.append(...columns.map((column) => column.element));
  let head = null;
  show.addEventListener("click", () => head && onShow(head[0], head[1]));

  /** Draw from the model's description (`info`); hidden for a model without the measurement. */
  function update(info) {
    const { pronoun, designed } = info;
    element.hidden = !pronoun || !designed;
    if (element.hidden) return;
    head = pronoun.head;
    const row = (name, cat, mat, testid) => {
      const tr = document.createElement("tr");
      tr.dataset.testid = testid;
      tr.append(make("th", "", name), make("td", "", formatWeight(cat, 2)), make("td", "", formatWeight(mat, 2)));
      return tr;
    };
    const header = document.createElement("tr");
    header.append(make("th", "", `At “it” in ${quoted(designed.words)}`), make("th", "", "on “cat”"), make("th", "", "on “mat”"));
    table.replaceChildren(header,
      row("the Part 6 head, set by hand (features: noun, animal)", designed.cat, designed.mat, "model-designed-hand"),
      row(`${pronoun.label}, learned (nobody labelled “animal”)`, pronoun.tutorial.cat, pronoun.tutorial.mat, "model-designed-learned"));
    const knocks = pronoun.knock_outs.map((entry) =>
      `knocking out ${entry.label} takes the animal's word after “it” (cat → purred, dog → barked, …) from ` +
      `${formatWeight(entry.intact, 2)} to ${formatWeight(entry.knocked, 2)}`);
    text.textContent = `Both put the most weight on “cat”. The hand-set head asks for nouns and animals because Part 6 ` +
      `labelled them; ${pronoun.label} learned its question from the stories, where the word after “it” depends on the ` +
      `animal. Averaged over the pronoun sentences of every word order, ${knocks.join("; ")}.${twoJobs(info)}`;
    const rows = designed.stages ?? [];
    stages.hidden = rows.length !== columns.length;
    stagesNote.hidden = stages.hidden;
    steps.element.hidden = stages.hidden;
    if (stages.hidden) return;
    rows.forEach((row, k) => columns[k].update(row));
    const [hand, learned] = rows;
    stagesNote.textContent = `The same three steps in both, at “it”: its query against every key it may read (scores), ` +
      `÷ √d (√${hand.d_k} for the hand-set head's ${hand.d_k} labelled dims, √${learned.d_k} for ${learned.label}'s ` +
      `${learned.d_k} dims nobody named), then softmax. ${learned.label} reads only the words up to “it”: the model ` +
      `predicts each next word from the words before it.`;
  }

  return { element, update };
}

/**
 * Where the pronoun head's card names it for another job (the shipped model's L1H2 is an induction head), the
 * sentence that says both are true, with both scores; "" where its card says "pronoun head".
 * @param {object} info model_info
 */
function twoJobs({ pronoun, heads, role_thresholds: thresholds = {} }) {
  const [layer, head] = pronoun.head;
  const card = heads.find((entry) => entry.layer === layer && entry.head === head);
  if (!card || card.role === "pronoun" || card.role === "diffuse") return "";
  const score = thresholds[card.role]?.score;
  const given = score ? ` (${SCORE_WORDS[score] ?? score} ${formatWeight(card.scores[score], 2)})` : "";
  return ` Its card calls ${pronoun.label} ${aRole(card.role)}${given}, and both are true: at “it” it ` +
    `finds the cat (pronoun ${formatWeight(card.scores.pronoun, 2)}), and at a word seen before it reads the word ` +
    "that came right after it last time. One head can do two jobs.";
}

/**
 * One head's stages at one word, as a column of labelled matrices (the step view's drawing).
 * @param {string} testId the column's data-testid
 */
function createStageColumn(testId) {
  const element = make("div", "model-designed-stage-column");
  element.dataset.testid = testId;
  const heading = make("h4", "");
  const matrices = ROW_STAGES.map((name) => createLabelledMatrix({ testId: "model-designed-stage", name }));
  element.append(heading, ...matrices.map((matrix) => matrix.element));

  /** Draw `row` (model/stage_rows.py's StageRow): Q of the word, K of the keys, then its row of each stage. */
  function update(row) {
    heading.textContent = `${row.label} at ${quoted(row.word)}`;
    const head = { d_k: row.d_k };
    const result = { scale: row.scale };
    const word = [row.word];
    const views = {
      Q: { rowLabels: word, columnLabels: row.dims, values: [row.query] },
      K: { rowLabels: row.keys, columnLabels: row.dims, values: row.K },
      scores: { rowLabels: word, columnLabels: row.keys, values: [row.scores] },
      scaled: { rowLabels: word, columnLabels: row.keys, values: [row.scaled] },
      weights: { rowLabels: word, columnLabels: row.keys, values: [row.weights] },
    };
    ROW_STAGES.forEach((name, k) => drawStage(matrices[k], name, { ...views[name], formula: stageFormula(name, head, result) }));
  }

  return { element, update };
}

/**
 * One sentence about the focused row, written from the numbers on screen: where the chosen head reads most and
 * what the model expects next. Positions are named as everywhere else (shared/positions.js): the focused word
 * with its number, the word read with its number when its text alone is ambiguous.
 * @param {{tokens: string[], row: number[], label: string, focus: number, prediction?: [string, number]}} at
 * @returns {string}
 */
export function focusSentence({ tokens, row, label, focus, prediction }) {
  let best = 0;
  row.forEach((weight, key) => { if (weight > row[best]) best = key; });
  const read = best === 0 ? `${START_TOKEN} (it parks there: nothing to find)` : namedToken(tokens, best);
  const next = prediction ? ` The model's likeliest next word is ${quoted(prediction[0])} (${formatWeight(prediction[1], 2)}).` : "";
  return `At ${wordAt(tokens, focus)}, ${label} puts the most weight on ${read}: ${formatWeight(row[best], 2)}.${next}`;
}
