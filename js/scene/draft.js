/**
 * The draft: the scene exactly as the learner typed it.
 *
 * Every number cell is kept as the string in its input box, so nothing typed is ever lost, not even
 * "abc" or a half-typed "-". Turning the draft into a scene parses each cell: a cell that reads as a
 * finite number becomes that number; anything else goes to Python as the raw string, so the message
 * the learner sees is the module's own ("X, row "cat", column "animal": "abc" is not a number").
 *
 * Draft shape (camelCase where it is ours, scene keys where it mirrors the scene):
 *   { title, tokens: [str], features: [str], X: [[str]],
 *     heads: [{ name, dims: [str], valueDims: [str] | null, Wq, Wk: [[str]], Wv: [[str]] | null,
 *               hiddenWv: [[str]] | null, hiddenValueDims, extra }],
 *     mask: "none" | "causal" | [[bool]], scale, shift, extra }
 * A key the scene left out stays undefined here (the module applies its default) and stays out of
 * the scene made from the draft.
 * `extra` keeps keys this page does not edit, so a scene survives a round trip unchanged.
 */

import { MODULE_FACTS } from "../../generated/module-facts.js";

const SCENE_KEYS = new Set(["title", "tokens", "features", "X", "heads", "mask", "scale", "shift"]);

/** The names the module gives Wv's columns when a scene does not name them (v0, v1, …: facts.py). */
function defaultValueDims(count) {
  const { prefix, first } = MODULE_FACTS.valueDimNames;
  return Array.from({ length: count }, (_, j) => `${prefix}${first + j}`);
}

/**
 * The names of a draft head's value columns as the page shows them: the scene's own, else the ones the module
 * gave them in the last result (`resultHead`), else the module's defaults.
 * @param {object} head a draft head
 * @param {object|undefined} resultHead the same head in the last result
 * @returns {string[]}
 */
export function shownValueDims(head, resultHead) {
  const count = head.Wv ? (head.Wv[0]?.length ?? head.valueDims?.length ?? 0) : 0;
  if (head.valueDims && head.valueDims.length === count) return head.valueDims;
  const fromResult = resultHead?.value_dims;
  if (Array.isArray(fromResult) && fromResult.length === count) return fromResult;
  return defaultValueDims(count);
}
const HEAD_KEYS = new Set(["name", "dims", "value_dims", "Wq", "Wk", "Wv"]);

// A plain decimal number, optionally signed, with an exponent. "−" (U+2212) counts as a minus sign
// because it is what text copied from an article often contains.
const NUMBER_PATTERN = /^\s*[+\-\u2212]?(\d+\.?\d*|\.\d+)(e[+\-\u2212]?\d+)?\s*$/i;

/** What a text reads as (see parseCell), worked out afresh. */
function readCell(text) {
  if (!NUMBER_PATTERN.test(text)) return text;
  const value = Number(text.replace(/\u2212/g, "-"));
  return Number.isFinite(value) ? value : text;
}

// Every edit reads the whole draft again (16,000 cells at the size limits), but its cells hold far fewer
// distinct texts: each is read once and remembered, a bounded number of them.
const readTexts = new Map();
const READ_TEXTS_KEPT = 20_000;

/**
 * The value a cell's text stands for: a finite number if it reads as one, otherwise the text itself.
 * @param {string} text
 * @returns {number|string}
 */
export function parseCell(text) {
  if (typeof text !== "string") return text;
  let value = readTexts.get(text);
  if (value === undefined) {
    value = readCell(text);
    if (readTexts.size >= READ_TEXTS_KEPT) readTexts.clear();
    readTexts.set(text, value);
  }
  return value;
}

/**
 * The text an input box shows for a value in a scene.
 * @param {unknown} value
 * @returns {string}
 */
function cellText(value) {
  if (typeof value === "string") return value;
  if (typeof value === "number") return Object.is(value, -0) ? "0" : String(value);
  return value === null || value === undefined ? "" : String(value);
}

const textGrid = (rows) => (Array.isArray(rows) ? rows.map((row) => (Array.isArray(row) ? row.map(cellText) : [])) : []);
const parsedGrid = (rows) => rows.map((row) => row.map(parseCell));
const strings = (list) => (Array.isArray(list) ? list.map(cellText) : []);

function extraKeys(source, known) {
  const extra = {};
  for (const [key, value] of Object.entries(source)) if (!known.has(key)) extra[key] = structuredClone(value);
  return extra;
}

/**
 * Build a draft from a scene (a scene the module accepted, or a shipped preset).
 * @param {object} scene
 * @param {object} [result] the module's result for this scene: its normalised mask is used for a custom mask
 * @returns {object} the draft
 */
export function draftFromScene(scene, result) {
  const heads = (Array.isArray(scene.heads) ? scene.heads : []).map((head) => ({
    name: cellText(head.name ?? ""),
    dims: strings(head.dims),
    valueDims: Array.isArray(head.value_dims) ? strings(head.value_dims) : null,
    Wq: textGrid(head.Wq),
    Wk: textGrid(head.Wk),
    Wv: head.Wv === null || head.Wv === undefined ? null : textGrid(head.Wv),
    hiddenWv: null,
    hiddenValueDims: null,
    extra: extraKeys(head, HEAD_KEYS),
  }));
  let mask = scene.mask;
  if (Array.isArray(mask)) mask = Array.isArray(result?.mask) ? result.mask.map((row) => row.map(Boolean)) : mask.map((row) => row.map(Boolean));
  return {
    title: scene.title === undefined ? undefined : cellText(scene.title),
    tokens: strings(scene.tokens),
    features: strings(scene.features),
    X: textGrid(scene.X),
    heads,
    mask,
    scale: scene.scale,
    shift: scene.shift,
    extra: extraKeys(scene, SCENE_KEYS),
  };
}

/**
 * The scene a draft stands for, in the scene format (docs/reference.md): a fresh plain object the caller may keep.
 * @param {object} draft
 * @returns {object}
 */
export function sceneFromDraft(draft) {
  const scene = structuredClone(draft.extra);
  if (draft.title !== undefined) scene.title = draft.title;
  scene.tokens = [...draft.tokens];
  scene.features = [...draft.features];
  scene.X = parsedGrid(draft.X);
  scene.heads = draft.heads.map((head) => {
    const sceneHead = structuredClone(head.extra);
    sceneHead.name = head.name;
    sceneHead.dims = [...head.dims];
    if (head.valueDims) sceneHead.value_dims = [...head.valueDims];
    sceneHead.Wq = parsedGrid(head.Wq);
    sceneHead.Wk = parsedGrid(head.Wk);
    sceneHead.Wv = head.Wv ? parsedGrid(head.Wv) : null;
    return sceneHead;
  });
  // Keys the scene left out stay out (the module fills in its defaults), so a scene round-trips unchanged.
  if (draft.mask !== undefined) scene.mask = Array.isArray(draft.mask) ? draft.mask.map((row) => [...row]) : draft.mask;
  if (draft.scale !== undefined) scene.scale = draft.scale;
  if (draft.shift !== undefined) scene.shift = draft.shift;
  return scene;
}

/**
 * A string that changes whenever the draft's shape changes (the number of tokens, features, heads,
 * dims or value dims, or Wv switching to one-hot markers), but not when a number or a label changes:
 * editors rebuild their grids only when this changes, so focus and caret survive everything else.
 * @param {object} draft
 * @returns {string}
 */
export function shapeKey(draft) {
  const heads = draft.heads.map((head) => `${head.dims.length}:${head.Wv ? head.Wv[0]?.length ?? 0 : "onehot"}`);
  return `${draft.tokens.length}x${draft.features.length}|${heads.join(",")}`;
}
