/**
 * Every step, worked by hand: the inputs X, Wq, Wk, Wv, then each stage of one head exactly as the
 * module returned it (Q, K, V, scores, scaled, masked, weights, output), each a labelled matrix.
 *
 * Hover or focus any cell and the line above the matrices works that number out with the actual
 * numbers (a dot product, a division by √d_k, a mask, a softmax, a weighted sum), while the cells
 * it came from light up in the matrices before it (the arithmetic, in words: cell-arithmetic.js). Everything
 * needed is already in the result, so a hover never waits for Python.
 *
 * The view is off until the learner asks for it ("show every step"), so the main view stays calm,
 * and it draws at most MAX_SHOWN tokens (and features, and dims) of a big scene.
 */

import { weightColour, textColourOn } from "../heatmap/colour-scale.js";
import { formatScore, formatWeight, quoted } from "../shared/format.js";
import { make, markShown, withTestId } from "../shared/dom.js";
import { explainCell, STEP_DIGITS } from "./cell-arithmetic.js";
import { createLabelledMatrix } from "./labelled-matrix.js";
import { mountClaimLink } from "../shared/claim-link.js";

/** The most tokens, features or dims drawn per matrix; the rest is summarised in a note. */
const MAX_SHOWN = 16;
/** What each stage is made of, by the stage names the module uses. Unknown names still draw, without a formula. */
const STAGE_FORMULAS = {
  Q: () => "= X · Wq   what each token looks for",
  K: () => "= X · Wk   what each token offers",
  V: (head) => (head.Wv === null ? "one-hot markers: each token hands over its own position" : "= X · Wv   what each token hands over"),
  scores: () => "= Q · Kᵀ   row asks, column answers",
  scaled: (head, result) => (result.scale ? `= scores ÷ √${head.d_k}` : "= scores (scaling is off)"),
  masked: () => "−∞ where a token may not read",
  weights: () => "= softmax of each row",
  output: () => "= weights · V",
};

/** For a cell of each matrix: which cells of the matrices before it it came from. */
const SOURCES = {
  Q: (i, j) => [["X", { rows: [i] }], ["Wq", { columns: [j] }]],
  K: (i, j) => [["X", { rows: [i] }], ["Wk", { columns: [j] }]],
  V: (i, j) => [["X", { rows: [i] }], ["Wv", { columns: [j] }]],
  scores: (i, j) => [["Q", { rows: [i] }], ["K", { rows: [j] }]],
  scaled: (i, j) => [["scores", { cells: [[i, j]] }]],
  masked: (i, j) => [["scaled", { cells: [[i, j]] }]],
  weights: (i) => [["masked", { rows: [i] }]],
  output: (i, j) => [["weights", { rows: [i] }], ["V", { columns: [j] }]],
};

const isBlank = (value) => value === null || value === undefined;

/**
 * Draw one stage into a labelled matrix as this view draws it: weights to four decimals on the weight colours,
 * scores and everything else as scores, "−∞" (masked stage) or "0" (weights) where the mask hides a cell, "nan"
 * where a number is not one. The designed-against-learned view draws its stages with it too.
 * @param {ReturnType<typeof import("./labelled-matrix.js").createLabelledMatrix>} matrix
 * @param {string} name the stage ("Q", "K", "scores", "scaled", "masked", "weights", …) or "X", "Wq", …
 * @param {{rowLabels: string[], columnLabels: string[], values: Array<Array<number|null>>, formula: string,
 *          mask?: boolean[][]}} view `mask[i][j]` true where row i may not read column j (none: all readable)
 */
export function drawStage(matrix, name, { rowLabels, columnLabels, values, formula, mask = [] }) {
  const isWeights = name === "weights";
  const isMaskedStage = name === "masked" || isWeights;
  const hidden = (i, j) => isMaskedStage && Boolean(mask[i]?.[j]);
  matrix.update({
    rowLabels,
    columnLabels,
    values,
    formula,
    format: (value, i, j) => {
      if (hidden(i, j)) return name === "masked" ? "−∞" : "0";
      if (isWeights) return formatWeight(value, STEP_DIGITS);
      return isBlank(value) ? "nan" : formatScore(value);
    },
    classify: (value, i, j) => (hidden(i, j) ? "masked" : isBlank(value) ? "nan" : ""),
    colour: (value, i, j) => (isWeights && !hidden(i, j) && !isBlank(value) ? weightColour(value) : ""),
    // Dark cells need light text.
    textColour: (value, i, j) => (isWeights && !hidden(i, j) && !isBlank(value) ? textColourOn(value) : ""),
  });
}

/**
 * What a stage is made of, as the step view writes it above the matrix ("= Q · Kᵀ   row asks, column answers").
 * @param {string} name a stage name
 * @param {{d_k: number, Wv?: unknown}} head
 * @param {{scale: boolean}} result
 * @returns {string}
 */
export function stageFormula(name, head, result) {
  return STAGE_FORMULAS[name] ? STAGE_FORMULAS[name](head, result) : "";
}

/** True when the scene's mask hides nothing: the "masked" stage would only repeat the scaled scores. */
function masksNothing(result) {
  return result.mask.every((row) => row.every((hidden) => !hidden));
}

/**
 * The matrices the view draws, in pipeline order: the inputs, then each stage of the head; "masked" only where
 * the mask hides something (a note stands in its place otherwise).
 */
function matrixOrder(head, result) {
  const stages = Object.keys(head.stages).filter((name) => name !== "masked" || !masksNothing(result));
  return ["X", "Wq", "Wk", ...(head.Wv === null ? [] : ["Wv"]), ...stages];
}

/** The note that stands where the "masked" matrix would only repeat the scaled one. */
function noMaskNote() {
  return withTestId(make("p", "panel-note step-no-mask",
    "No mask: every token may read every token, so nothing is set to −∞ and the softmax reads the scaled scores as they are."), "step-no-mask");
}

/** The row and column labels of matrix `name`: [rows, columns]. */
function labelsFor(name, result, head) {
  const { tokens, features } = result;
  if (name === "X") return [tokens, features];
  if (name === "Wq" || name === "Wk") return [features, head.dims];
  if (name === "Wv") return [features, head.value_dims];
  const matrix = head.stages[name];
  const width = matrix[0]?.length ?? 0;
  if (name === "Q" || name === "K") return [tokens, head.dims];
  if (width === tokens.length && name !== "V" && name !== "output") return [tokens, tokens];
  return [tokens, head.value_dims.length === width ? head.value_dims : Array.from({ length: width }, (_, k) => String(k + 1))];
}

function valuesFor(name, result, head) {
  if (name === "X") return result.X;
  if (name === "Wq" || name === "Wk" || name === "Wv") return head[name];
  return head.stages[name];
}

function formulaFor(name, result, head) {
  if (name === "X") return result.positions && result.positions !== "none" ? "the words' features + positions" : "the words' features";
  if (name === "Wq" || name === "Wk" || name === "Wv") return "features → dims";
  return stageFormula(name, head, result);
}

/**
 * The outlines matrix `matrixName` gets while cell (row, column) of matrix `name` is worked out; where no
 * "masked" matrix is drawn (`drawn` lacks it), the softmax's numbers come from the scaled scores.
 */
function marksIn(matrixName, { name, row, column }, drawn) {
  const sources = (SOURCES[name]?.(row, column) ?? []).map(([source, mark]) => [source === "masked" && !drawn.has("masked") ? "scaled" : source, mark]);
  const marks = sources.filter(([sourceName]) => sourceName === matrixName).map(([, mark]) => mark);
  return marks.length ? Object.assign({}, ...marks) : {};
}

/** The matrix cell an event happened in: {name of its matrix, row, column}, or null. */
function cellFromEvent(event) {
  const td = event.target.closest?.("td[data-row]");
  const figure = td?.closest("figure[data-stage]");
  if (!td || !figure) return null;
  return { name: figure.dataset.stage, row: Number(td.dataset.row), column: Number(td.dataset.column) };
}

/** The switch that shows every step, in the view's heading. */
function createStepsHeader() {
  const header = make("div", "panel-head");
  header.append(make("h2", "", "Every step, worked by hand"));
  const toggleLabel = make("label", "choice step-toggle");
  const toggle = withTestId(make("input"), "step-toggle");
  toggle.type = "checkbox";
  toggleLabel.append(toggle, make("span", "", "show every step"));
  header.append(toggleLabel);
  return { header, toggle };
}

/** The lines above the matrices: which head is shown, and how much of a big scene. */
function describeShown(result, head, { headLine, capNote }) {
  const big = Math.max(result.tokens.length, result.features.length, head.dims.length, head.value_dims.length);
  capNote.hidden = big <= MAX_SHOWN;
  capNote.textContent = big > MAX_SHOWN ? `This scene is big: each matrix shows its first ${MAX_SHOWN} rows and columns. The sums still use every number.` : "";
  headLine.textContent = result.heads.length > 1
    ? `Showing ${quoted(head.name)} (head ${result.heads.indexOf(head) + 1} of ${result.heads.length}); pick another head in the strip above the heatmap.`
    : `Showing ${quoted(head.name)}, d_k = ${head.d_k}.`;
}

/**
 * Mount the view in `host`.
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, when?: import("../../state/redraw-schedule.js").RedrawTiming, actions: {setView: Function,
 *   openClaim: (id: string) => Promise<unknown>, panelShown: (name: string) => boolean}}} context
 *   "show every step" is the view's `steps` (layout/panels.js), so a link or saved work opens it again;
 *   openClaim and panelShown are for the claim link
 */
export function mountStepView(host, { store, actions, when }) {
  const { header, toggle } = createStepsHeader();
  const body = make("div", "step-body");
  body.hidden = true;
  const intro = make("p", "panel-note", "Hover over or tab to any number: the line below works it out with the actual numbers, and the numbers it came from light up in the matrices before it.");
  const explain = withTestId(make("div", "step-explain"), "step-explain");
  explain.setAttribute("role", "status");
  explain.setAttribute("aria-live", "polite");
  const headLine = withTestId(make("p", "panel-note step-head-line"), "step-head-line");
  const capNote = withTestId(make("p", "panel-note step-cap-note"), "step-cap-note");
  const grid = make("div", "step-grid");
  const scaleClaim = make("p", "panel-note step-scale-claim", "The “scaled” stage divides every score by √d_k: without it, longer vectors give wider scores, the softmax saturates and learning weakens. ");
  mountClaimLink(scaleClaim, { store, actions, when, claim: "scale" });
  body.append(intro, headLine, capNote, scaleClaim, explain, grid);
  host.append(header, body);

  /** name -> labelled matrix, in pipeline order */
  let matrices = new Map();
  let layoutKey = "";
  let selected = null; // {name, row, column}
  let context = null; // {result, head}

  function render() {
    const { result } = store.state;
    if (body.hidden || !result) return;
    const shownHead = Math.min(store.state.activeHead, result.heads.length - 1);
    const head = result.heads[shownHead];
    markShown(host, { head: shownHead });
    context = { result, head };
    const names = matrixOrder(head, result);
    const cut = (list) => list.slice(0, MAX_SHOWN);
    const key = names.join(",");
    if (key !== layoutKey) {
      matrices = new Map(names.map((name) => [name, createLabelledMatrix({ testId: "step-matrix", name })]));
      const drawn = [...matrices].flatMap(([name, matrix]) => (name === "scaled" && !matrices.has("masked") ? [matrix.element, noMaskNote()] : [matrix.element]));
      grid.replaceChildren(...drawn);
      layoutKey = key;
      selected = null;
    }
    for (const name of names) {
      const [rows, columns] = labelsFor(name, result, head);
      drawStage(matrices.get(name), name, {
        rowLabels: cut(rows),
        columnLabels: cut(columns),
        values: valuesFor(name, result, head),
        formula: formulaFor(name, result, head),
        mask: result.mask,
      });
    }
    describeShown(result, head, { headLine, capNote });
    if (selected && matrices.has(selected.name)) show(selected);
    else explain.replaceChildren(make("span", "panel-note", "Point at a number to see where it comes from."));
  }

  /** Work out `cell` ({name, row, column}) above the matrices, and light up the numbers it came from. */
  function show(cell) {
    if (!context) return;
    const { name, row, column } = cell;
    selected = { name, row, column };
    let lines;
    try {
      lines = explainCell(name, row, column, context);
    } catch {
      lines = ["(this number cannot be worked out from the current result)"];
    }
    explain.replaceChildren(...lines.map((line, k) => make("div", k === 0 ? "step-explain-title" : "", line)));
    for (const [matrixName, matrix] of matrices) {
      matrix.highlight(marksIn(matrixName, selected, matrices));
      if (matrixName === name) matrix.highlight({ cells: [[row, column]] });
    }
  }

  const onPoint = (event) => {
    const cell = cellFromEvent(event);
    if (!cell) return;
    if (selected && cell.name === selected.name && cell.row === selected.row && cell.column === selected.column) return;
    show(cell);
  };
  grid.addEventListener("pointerover", onPoint);
  grid.addEventListener("focusin", onPoint);

  toggle.addEventListener("change", () => actions.setView({ steps: toggle.checked }));

  function showSteps(shown) {
    if (toggle.checked !== shown) toggle.checked = shown;
    if (body.hidden === !shown) return;
    body.hidden = !shown;
    host.classList.toggle("open", shown);
    render();
  }

  store.subscribe((state, changes) => {
    if (changes.has("view")) showSteps(state.view.steps);
    if (["result", "head", "scene"].some((part) => changes.has(part))) render();
  }, when);
  showSteps(store.state.view.steps);
}
