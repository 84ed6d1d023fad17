/**
 * The head the learner chose, shown large: its weights on the sentence (rows ask, columns answer, as in the
 * playground), "where it pays attention" for the focused word, and the way into the playground: open this
 * head there as a scene, and, once it is edited there, a way back to its trained weights.
 */

import { createAttentionBars } from "../heatmap/attention-bars.js";
import { createHeatmap } from "../heatmap/heatmap.js";
import { make, makeButton } from "../shared/dom.js";
import { causalMask, roleName } from "./head-cards.js";

/** The smallest the large grid's word labels are drawn (CSS pixels): on a phone it scrolls sideways instead. */
const MIN_LABEL_FONT = 11;

/**
 * @param {{onFocus: (row: number) => void, onOpen: () => void, onTrainedWeights: () => void}} handlers
 * @returns {{element: HTMLElement, update: (view: object) => void}}
 */
export function createChosenHead({ onFocus, onOpen, onTrainedWeights }) {
  const element = make("div", "model-chosen");
  element.dataset.testid = "model-chosen-head";
  const heading = make("h3", "model-chosen-title");
  const heatmap = createHeatmap({ testId: "model-heatmap", onRowLabel: onFocus, onCell: (row) => onFocus(row), minLabelFont: MIN_LABEL_FONT });
  const barsHost = make("div", "model-bars");
  const bars = createAttentionBars(barsHost, { testPrefix: "model-" });
  const open = makeButton("small-button", "Open this head in the playground", "model-open-head");
  open.addEventListener("click", onOpen);
  const edited = make("p", "model-edited");
  edited.dataset.testid = "model-edited";
  const back = makeButton("small-button", "Use the trained weights", "model-trained-weights");
  back.addEventListener("click", onTrainedWeights);
  const actionsRow = make("div", "model-chosen-actions");
  actionsRow.append(open, edited, back);
  const body = make("div", "model-chosen-body");
  body.append(heatmap.element, barsHost);
  element.append(heading, body, actionsRow);

  /**
   * view = {label, role (as model_info names it), also (its other jobs: head-cards.js alsoText), weights (n × n),
   * tokens, focus, opened (the opened head or null), edited, training, canOpen (false for a model whose heads do not
   * open in the playground: the English one)}
   */
  function update({ label, role, also, weights, tokens, focus, opened, edited: isEdited, training, canOpen = true }) {
    heading.textContent = role ? `${label}: ${[roleName(role), also].filter(Boolean).join(", ")}` : label;
    const head = { name: label, weights };
    const mask = causalMask(tokens.length);
    heatmap.update({ tokens, head, mask, focusRow: focus, hover: null });
    bars.update({ tokens, head, mask, focusRow: focus, headCount: 2 });
    const thisOne = opened && opened.label === label;
    open.disabled = Boolean(training);
    open.hidden = !canOpen;
    open.textContent = thisOne ? `Open ${label} in the playground again` : `Open ${label} in the playground`;
    edited.hidden = !opened;
    back.hidden = !(opened && isEdited);
    if (opened) {
      edited.textContent = isEdited
        ? `${opened.label} is edited in the playground: these predictions use your Wq, Wk and Wv for it.`
        : `${opened.label} is open in the playground. Edit its Wq, Wk or Wv there and the predictions here follow.`;
      edited.classList.toggle("is-edited", Boolean(isEdited));
    }
  }

  return { element, update };
}
