/**
 * Which model the panel shows, and how its weights are drawn: the story-world model or the English one (trained on
 * the Brown corpus; its part of the module is fetched only once it is chosen), and a switch that hides `<bos>`.
 *
 * Hiding `<bos>`: a trained head parks most of a row's weight on the first token when it has nothing to find (the
 * attention sink), and next to 0.9 on `<bos>` the rest of the row is too faint to read. With the switch on, every
 * head's weights are drawn without the `<bos>` column, each row divided by what is left, so the row shows where the
 * head reads among the words. It changes the drawing only: the model, its predictions and effects are the same.
 */

import { make, withTestId } from "../shared/dom.js";
import { START_TOKEN } from "../shared/positions.js";

/** The models a learner chooses between, by the names the service asks them by. */
export const MODEL_CHOICES = Object.freeze([
  { name: "shipped", label: "story world (160 words)" },
  { name: "english", label: "English (any text)" },
]);

/**
 * One head's weights without `<bos>`: its column set to 0 and every row divided by what is left (row 0, which can
 * read only `<bos>`, becomes all 0).
 * @param {number[][]} weights n × n, row i the weights token i reads with
 * @returns {number[][]}
 */
export function withoutStart(weights) {
  return weights.map((row) => {
    const rest = 1 - row[0];
    return row.map((value, column) => (column === 0 || rest <= 1e-12 ? 0 : value / rest));
  });
}

/**
 * Every head's weights, [layer][head], without `<bos>` (see `withoutStart`).
 * @param {number[][][][]} weights
 */
export function everyHeadWithoutStart(weights) {
  return weights.map((layer) => layer.map(withoutStart));
}

/**
 * One line, short enough for a phone's: the model, and the switch.
 * @param {{onModel: (name: string) => void, onHideStart: (hide: boolean) => void}} handlers
 * @returns {{element: HTMLElement, update: (view: {name: string, hideStart: boolean}) => void}}
 */
export function createModelChoice({ onModel, onHideStart }) {
  const element = withTestId(make("div", "model-choice"), "model-choice");
  const label = make("label", "model-choice-model");
  const select = document.createElement("select");
  select.dataset.testid = "model-choice-select";
  select.title = "The story world's model knows 160 words; the English one, trained on the Brown corpus, reads any text";
  for (const { name, label: text } of MODEL_CHOICES) {
    const option = make("option", "", text);
    option.value = name;
    select.append(option);
  }
  select.addEventListener("change", () => onModel(select.value));
  label.append("Model ", select);
  const hide = make("label", "model-hide-start");
  hide.title = `Draw every head without ${START_TOKEN}, each row divided by what is left: the model is unchanged`;
  const box = document.createElement("input");
  box.type = "checkbox";
  box.dataset.testid = "model-hide-start";
  box.addEventListener("change", () => onHideStart(box.checked));
  hide.append(box, ` hide ${START_TOKEN}`);
  element.append(label, hide);

  function update({ name, hideStart }) {
    // The learner's own trained story-world model is the story world's choice too.
    select.value = name === "english" ? "english" : "shipped";
    box.checked = hideStart;
  }

  return { element, update };
}
