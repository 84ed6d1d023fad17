/**
 * Several heads side by side: each head's weights as a small labelled matrix (small multiples, one
 * colour scale), and the heads' outputs joined column by column into the one output matrix the
 * next layer would read. With a single head it offers the two-heads example instead.
 */

import { textColourOn, weightColour } from "../heatmap/colour-scale.js";
import { formatScore, formatWeight } from "../shared/format.js";
import { make } from "../shared/dom.js";
import { createLabelledMatrix } from "./labelled-matrix.js";

/** The most tokens drawn per head; a bigger scene shows its first ones. */
const MAX_SHOWN = 16;

/**
 * Mount the view in `host`.
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, when?: import("../../state/redraw-schedule.js").RedrawTiming, actions: object}} context
 */
export function mountMultiHead(host, { store, actions, when }) {
  host.append(make("h2", "", "Heads side by side"));
  const note = make("p", "panel-note");
  note.dataset.testid = "multi-head-note";
  const load = make("button", "small-button", "load the two-heads example");
  load.type = "button";
  load.dataset.testid = "load-two-heads";
  load.addEventListener("click", () => actions.pickPreset("two-heads"));
  const heads = make("div", "head-multiples");
  heads.dataset.testid = "head-multiples";
  const output = createLabelledMatrix({ testId: "concat-output", name: "output", formula: "= [head 1 output | head 2 output | …]" });
  host.append(note, load, heads, output.element);
  let matrices = [];

  function render(state) {
    const { result } = state;
    if (!result) return;
    const several = result.heads.length > 1;
    load.hidden = several;
    heads.hidden = !several;
    output.element.hidden = !several;
    if (!several) {
      note.textContent = "This scene has one head. Each head has its own Wq, Wk and Wv, so each can look for something else; add a head in the weight editor, or load an example with two.";
      return;
    }
    note.textContent = `${result.heads.length} heads read the same words with their own Wq, Wk and Wv. Their outputs are joined side by side: ${result.output_dims.length} columns in all.`;
    if (matrices.length !== result.heads.length) {
      matrices = result.heads.map(() => createLabelledMatrix({ testId: "head-weights", name: "" }));
      heads.replaceChildren(...matrices.map((matrix) => matrix.element));
    }
    const tokens = result.tokens.slice(0, MAX_SHOWN);
    result.heads.forEach((head, h) => {
      const matrix = matrices[h];
      matrix.element.querySelector(".matrix-name").textContent = head.name;
      matrix.element.dataset.head = String(h);
      matrix.update({
        rowLabels: tokens,
        columnLabels: tokens,
        values: head.weights,
        formula: `weights, d_k = ${head.d_k}`,
        format: (value, i, j) => (result.mask[i][j] ? "×" : formatWeight(value)),
        classify: (value, i, j) => (result.mask[i][j] ? "masked" : ""),
        colour: (value, i, j) => (result.mask[i][j] || value === null ? "" : weightColour(value)),
        textColour: (value, i, j) => (result.mask[i][j] || value === null ? "" : textColourOn(value)),
      });
    });
    const blockOf = result.heads.flatMap((head, h) => head.value_dims.map(() => h));
    output.update({
      rowLabels: tokens,
      columnLabels: result.output_dims.slice(0, MAX_SHOWN * result.heads.length),
      values: result.output,
      format: (value) => (value === null ? "nan" : formatScore(Number(value.toFixed(3)))),
      // Alternate shading per head, so each head's block of columns reads as one.
      classify: (value, i, j) => `head-block-${blockOf[j] % 2}`,
    });
  }

  store.subscribe((state, changes) => {
    if (["result", "scene", "head"].some((part) => changes.has(part))) render(state);
  }, when);
}
