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

/** The exponentials of a row, each named by its word, as one list ("“dog” e^0.7071 = 2.0281, …"), and their total. */
function exponentialsText(tokens, powers, exps, readable) {
  const term = (k) => `${quoted(tokens[k])} ${readable[k] ? `e^${number(powers[k])} = ${expText(exps[k])}` : "0 (masked)"}`;
  const listed = exps.length > MAX_TERMS ? [...exps.slice(0, MAX_TERMS).map((_, k) => term(k)), "…"] : exps.map((_, k) => term(k));
  return `${listed.join(", ")}; total = ${expText(exps.reduce((a, b) => a + b, 0))}`;
}

/**
 * The softmax of row i, worked out: the exponentials, their total, and cell j's share. With the shift on (the
 * code's default) it is worked both ways: e to each score as the tutorial's Part 3 writes it, and e to each score
 * minus the row's largest, as the code runs it (so e never overflows); the shift divides every exponential and
 * the total by the same number, so the shares are the same.
 */
function explainSoftmax(i, j, { result, head }) {
  const { tokens } = result;
  const row = head.stages.masked[i];
  const weight = head.stages.weights[i][j];
  const readable = row.map((_, k) => !result.mask[i][k]);
  if (!readable.some(Boolean)) return [`${quoted(tokens[i])} may read no token at all: every weight of its row is 0`];
  const shift = result.shift !== false;
  const rowMax = Math.max(...row.filter((value, k) => readable[k] && !isBlank(value)));
  const powers = row.map((value) => (shift ? value - rowMax : value));
  const exps = powers.map((value, k) => (readable[k] ? Math.exp(value) : 0));
  const total = exps.reduce((a, b) => a + b, 0);
  const plain = row.map((value, k) => (readable[k] ? Math.exp(value) : 0));
  const plainTotal = plain.reduce((a, b) => a + b, 0);
  const bothWays = shift && Number.isFinite(plainTotal) && plainTotal > 0;
  const lines = [`softmax of row ${quoted(tokens[i])}: e to the power of each score, each divided by their total`];
  if (shift) {
    lines.push(`as Part 3 writes it: ${exponentialsText(tokens, row, plain, readable)}`);
    lines.push(`as the code runs it, minus the row's largest (${number(rowMax)}): ${exponentialsText(tokens, powers, exps, readable)}`);
    lines.push(bothWays
      ? `the same weights: subtracting ${number(rowMax)} divides every exponential and the total by e^${number(rowMax)} = ${expText(Math.exp(rowMax))}, so each share is unchanged, and e never overflows`
      : "e to the scores themselves overflows here; minus the row's largest, every exponential is at most 1");
  } else {
    lines.push(`as Part 3 writes it (no shift): ${exponentialsText(tokens, row, exps, readable)}`);
  }
  const share = `${expText(exps[j])} ÷ ${expText(total)}`;
  const alsoAsPart3 = bothWays ? ` (as Part 3 writes it: ${expText(plain[j])} ÷ ${expText(plainTotal)}, the same)` : "";
  if (!readable[j]) lines.push(`${quoted(tokens[j])} is masked: e^(−∞) = 0, so its share is 0`);
  else if (isBlank(weight)) lines.push(`share of ${quoted(tokens[j])} = ${share} = nan: e^score overflowed, and ∞ ÷ ∞ is not a number. Turn the shift back on.`);
  else lines.push(`share of ${quoted(tokens[j])} = ${share} = ${formatWeight(weight, STEP_DIGITS)}${alsoAsPart3}`);
  return lines;
}

function expText(value) {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? "nan" : "∞";
  if (value === 0) return "0";
  // Four decimals, as Part 3 prints its exponentials (2.0281, total 8.1695).
  return value >= 1e5 || value < 1e-4 ? value.toExponential(3) : String(Number(value.toFixed(4)));
}
