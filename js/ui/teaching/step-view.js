/**
 * Every step, worked by hand: the inputs X, Wq, Wk, Wv, then each stage of one head exactly as the
 * module returned it (Q, K, V, scores, scaled, masked, weights, output), each a labelled matrix.
 *
 * Hover or focus any cell and the line above the matrices works that number out with the actual
 * numbers (a dot product, a division by √d_k, a mask, a softmax, a weighted sum), while the cells
 * it came from light up in the matrices before it. Everything needed is already in the result, so a
 * hover never waits for Python.
 *
 * The view is off until the learner asks for it ("show every step"), so the main view stays calm,
 * and it draws at most MAX_SHOWN tokens (and features, and dims) of a big scene.
 */

import { weightColour, textColourOn } from "../heatmap/colour-scale.js";
import { formatScore, formatWeight, quoted } from "../shared/format.js";
import { make } from "../shared/dom.js";
import { createLabelledMatrix } from "./labelled-matrix.js";
import { mountClaimLink } from "../shared/claim-link.js";

/** The most tokens, features or dims drawn per matrix; the rest is summarised in a note. */
export const MAX_SHOWN = 16;
/** Decimals of a weight in the worked steps: the tutorial's four, as the scores beside them have. */
const STEP_DIGITS = 4;
/** The most terms written out in one sum before the rest is abbreviated. */
const MAX_TERMS = 10;

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

const number = (value) => formatScore(value);
const isBlank = (value) => value === null || value === undefined;

/** `a×b + c×d + …` for paired lists, abbreviated to the non-zero terms when there are many. */
function sumOfProducts(left, right) {
  const terms = left.map((a, k) => [a, right[k]]);
  let shown = terms;
  let note = "";
  if (terms.length > MAX_TERMS) {
    shown = terms.filter(([a, b]) => a !== 0 && b !== 0).slice(0, MAX_TERMS);
    note = shown.length ? " (only the non-zero products shown)" : " (every product is 0)";
  }
  const text = shown.map(([a, b]) => `${number(a)}×${number(b)}`).join(" + ") || "0";
  return text + note;
}

/** `[a, b, c]`, abbreviated for long vectors. */
function vector(values) {
  const shown = values.length > MAX_TERMS ? [...values.slice(0, MAX_TERMS).map(number), "…"] : values.map(number);
  return `[${shown.join(", ")}]`;
}

const column = (matrix, j) => matrix.map((row) => row[j]);

/**
 * The arithmetic of one cell, as lines of text.
 * @param {string} name the matrix ("X", "Wq", …, or a stage name)
 * @param {number} i row
 * @param {number} j column
 * @param {{result: object, head: object}} context
 * @returns {string[]}
 */
export function explainCell(name, i, j, { result, head }) {
  const { tokens, features } = result;
  const stages = head.stages;
  const token = (k) => quoted(tokens[k]);
  const dims = head.dims;
  const valueDims = head.value_dims;
  switch (name) {
    case "X":
      return [`${token(i)}, feature ${quoted(features[j])}: ${number(result.X[i][j])}`,
        result.positions && result.positions !== "none" ? `(its own feature plus the ${result.positions} position of place ${i + 1})` : "(typed in the feature table)"];
    case "Wq":
    case "Wk":
    case "Wv": {
      const part = { Wq: "query", Wk: "key", Wv: "value" }[name];
      const names = name === "Wv" ? valueDims : dims;
      return [`${name}[${quoted(features[i])}, ${quoted(names[j])}] = ${number(head[name][i][j])}`,
        `each unit of feature ${quoted(features[i])} adds this much to the ${part}'s ${quoted(names[j])}`];
    }
    case "Q":
    case "K":
    case "V": {
      const weightsName = `W${name.toLowerCase()}`;
      const names = name === "V" ? valueDims : dims;
      const value = stages[name][i][j];
      if (name === "V" && head.Wv === null) {
        return [`value of ${token(i)}, entry ${quoted(names[j])}: ${number(value)}`, "a one-hot marker: 1 at the token's own place, 0 elsewhere"];
      }
      const x = result.X[i];
      const w = column(head[weightsName], j);
      const part = { Q: "query", K: "key", V: "value" }[name];
      return [`${part} of ${token(i)}, dim ${quoted(names[j])}: row ${token(i)} of X · column ${quoted(names[j])} of ${weightsName}`,
        `${vector(x)} · ${vector(w)} = ${sumOfProducts(x, w)} = ${number(value)}`];
    }
    case "scores": {
      const q = stages.Q[i];
      const k = stages.K[j];
      return [`${token(i)} asks, ${token(j)} answers: ${vector(q)} · ${vector(k)} = ${sumOfProducts(q, k)} = ${number(stages.scores[i][j])}`];
    }
    case "scaled":
      return result.scale
        ? [`scaled: ${number(stages.scores[i][j])} ÷ √${head.d_k} = ${number(stages.scaled[i][j])}`,
          `√${head.d_k} = ${number(Math.sqrt(head.d_k))}: longer query/key vectors give wider-spread scores; this undoes that`]
        : [`scaling is off: the score stays ${number(stages.scaled[i][j])}`];
    case "masked":
      return result.mask[i][j]
        ? [`masked: ${token(i)} may not read ${token(j)} → −∞`, "e^(−∞) = 0, so this read gets weight 0"]
        : [`${token(i)} may read ${token(j)}: the score stays ${number(stages.masked[i][j])}`];
    case "weights":
      return explainSoftmax(i, j, { result, head });
    case "output": {
      const weights = stages.weights[i];
      const values = column(stages.V, j);
      return [`output of ${token(i)}, entry ${quoted(valueDims[j])}: each weight of row ${token(i)} × that token's value ${quoted(valueDims[j])}`,
        `${sumOfProducts(weights, values)} = ${number(stages.output[i][j])}`];
    }
    default:
      return [`${name}[${i + 1}, ${j + 1}] = ${number(stages[name]?.[i]?.[j])}`];
  }
}

/** The softmax of row i, worked out: the exponentials, their total, and cell j's share. */
function explainSoftmax(i, j, { result, head }) {
  const { tokens } = result;
  const row = head.stages.masked[i];
  const weight = head.stages.weights[i][j];
  const readable = row.map((_, k) => !result.mask[i][k]);
  if (!readable.some(Boolean)) return [`${quoted(tokens[i])} may read no token at all: every weight of its row is 0`];
  const shift = result.shift !== false;
  const rowMax = Math.max(...row.filter((value, k) => readable[k] && !isBlank(value)));
  const exps = row.map((value, k) => (readable[k] ? Math.exp(shift ? value - rowMax : value) : 0));
  const total = exps.reduce((a, b) => a + b, 0);
  const term = (k) => `${quoted(tokens[k])} ${readable[k] ? expText(exps[k]) : "0 (masked)"}`;
  const listed = exps.length > MAX_TERMS ? [...exps.slice(0, MAX_TERMS).map((_, k) => term(k)), "…"] : exps.map((_, k) => term(k));
  const lines = [
    `softmax of row ${quoted(tokens[i])}: e to the power of each ${shift ? `score minus the row's largest (${number(rowMax)})` : "score (no shift)"}`,
    `exponentials: ${listed.join(", ")}`,
    `total = ${expText(total)}`,
  ];
  if (!readable[j]) lines.push(`${quoted(tokens[j])} is masked: e^(−∞) = 0, so its share is 0`);
  else if (isBlank(weight)) lines.push(`share of ${quoted(tokens[j])} = ${expText(exps[j])} ÷ ${expText(total)} = nan: e^score overflowed, and ∞ ÷ ∞ is not a number. Turn the shift back on.`);
  else lines.push(`share of ${quoted(tokens[j])} = ${expText(exps[j])} ÷ ${expText(total)} = ${formatWeight(weight, STEP_DIGITS)}`);
  return lines;
}

function expText(value) {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? "nan" : "∞";
  if (value === 0) return "0";
  return value >= 1e5 || value < 1e-4 ? value.toExponential(3) : String(Number(value.toPrecision(4)));
}

/**
 * Draw one stage into a labelled matrix as this view draws it: weights to four decimals on the weight colours,
 * scores and everything else as scores, "−∞" (masked stage) or "0" (weights) where the mask hides a cell, "nan"
 * where a number is not one. The designed-against-learned view draws its stages with it too.
 * @param {ReturnType<typeof createLabelledMatrix>} matrix
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

/**
 * Mount the view in `host`.
 * @param {HTMLElement} host
 * @param {{store: ReturnType<import("../../page/state.js").createStore>, actions: {setView: Function}}} context
 *   "show every step" is the view's `steps` (page/view.js), so a link or saved work opens it again
 */
export function mountStepView(host, { store, actions }) {
  const header = make("div", "panel-head");
  header.append(make("h2", "", "Every step, worked by hand"));
  const toggleLabel = make("label", "choice step-toggle");
  const toggle = make("input");
  toggle.type = "checkbox";
  toggle.dataset.testid = "step-toggle";
  toggleLabel.append(toggle, make("span", "", "show every step"));
  header.append(toggleLabel);
  const body = make("div", "step-body");
  body.hidden = true;
  const intro = make("p", "panel-note", "Hover over or tab to any number: the line below works it out with the actual numbers, and the numbers it came from light up in the matrices before it.");
  const explain = make("div", "step-explain");
  explain.dataset.testid = "step-explain";
  explain.setAttribute("role", "status");
  explain.setAttribute("aria-live", "polite");
  const headLine = make("p", "panel-note step-head-line");
  headLine.dataset.testid = "step-head-line";
  const capNote = make("p", "panel-note step-cap-note");
  capNote.dataset.testid = "step-cap-note";
  const grid = make("div", "step-grid");
  const scaleClaim = make("p", "panel-note step-scale-claim", "The “scaled” stage divides every score by √d_k: without it, longer vectors give wider scores, the softmax saturates and learning weakens. ");
  mountClaimLink(scaleClaim, { store, actions, claim: "scale" });
  body.append(intro, headLine, capNote, scaleClaim, explain, grid);
  host.append(header, body);

  /** name -> labelled matrix, in pipeline order */
  let matrices = new Map();
  let layoutKey = "";
  let selected = null; // {name, row, column}
  let context = null; // {result, head}

  function matrixOrder(head) {
    return ["X", "Wq", "Wk", ...(head.Wv === null ? [] : ["Wv"]), ...Object.keys(head.stages)];
  }

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

  function render() {
    const { result } = store.state;
    if (body.hidden || !result) return;
    const head = result.heads[Math.min(store.state.activeHead, result.heads.length - 1)];
    context = { result, head };
    const names = matrixOrder(head);
    const cut = (list) => list.slice(0, MAX_SHOWN);
    const key = names.join(",");
    if (key !== layoutKey) {
      matrices = new Map(names.map((name) => [name, createLabelledMatrix({ testId: "step-matrix", name })]));
      grid.replaceChildren(...[...matrices.values()].map((matrix) => matrix.element));
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
    const big = Math.max(result.tokens.length, result.features.length, head.dims.length, head.value_dims.length);
    capNote.hidden = big <= MAX_SHOWN;
    capNote.textContent = big > MAX_SHOWN ? `This scene is big: each matrix shows its first ${MAX_SHOWN} rows and columns. The sums still use every number.` : "";
    headLine.textContent = result.heads.length > 1
      ? `Showing ${quoted(head.name)} (head ${result.heads.indexOf(head) + 1} of ${result.heads.length}); pick another head in the strip above the heatmap.`
      : `Showing ${quoted(head.name)}, d_k = ${head.d_k}.`;
    if (selected && matrices.has(selected.name)) show(selected.name, selected.row, selected.column);
    else explain.replaceChildren(make("span", "panel-note", "Point at a number to see where it comes from."));
  }

  function show(name, row, columnIndex) {
    if (!context) return;
    selected = { name, row, column: columnIndex };
    let lines;
    try {
      lines = explainCell(name, row, columnIndex, context);
    } catch {
      lines = ["(this number cannot be worked out from the current result)"];
    }
    explain.replaceChildren(...lines.map((line, k) => make("div", k === 0 ? "step-explain-title" : "", line)));
    for (const [matrixName, matrix] of matrices) {
      const marks = [];
      for (const [sourceName, mark] of SOURCES[name]?.(row, columnIndex) ?? []) if (sourceName === matrixName) marks.push(mark);
      matrix.highlight(marks.length ? Object.assign({}, ...marks) : {});
      if (matrixName === name) matrix.highlight({ cells: [[row, columnIndex]] });
    }
  }

  function cellFromEvent(event) {
    const td = event.target.closest?.("td[data-row]");
    const figure = td?.closest("figure[data-stage]");
    if (!td || !figure) return null;
    return { name: figure.dataset.stage, row: Number(td.dataset.row), column: Number(td.dataset.column) };
  }
  const onPoint = (event) => {
    const cell = cellFromEvent(event);
    if (!cell) return;
    if (selected && cell.name === selected.name && cell.row === selected.row && cell.column === selected.column) return;
    show(cell.name, cell.row, cell.column);
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
  });
  showSteps(store.state.view.steps);
}
