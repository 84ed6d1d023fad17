/**
 * The arithmetic behind one number of the step view, worked out in words with the actual numbers: a dot
 * product, a division by √d_k, a mask, a softmax, a weighted sum. Everything needed is in the result, so
 * working a number out never waits for Python.
 */

import { formatScore, formatWeight, quoted } from "../shared/format.js";

/** Decimals of a weight in the worked steps: the tutorial's four, as the scores beside them have. */
export const STEP_DIGITS = 4;
/** The most terms written out in one sum before the rest is abbreviated. */
const MAX_TERMS = 10;

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
