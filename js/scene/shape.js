/**
 * A structural check of a scene that came from outside the page (a link, a saved draft): are its lists
 * lists, its grids the right size, its names strings? The editors build their grids from these shapes,
 * so a scene that fails here is refused with a plain sentence instead of being drawn half-way.
 *
 * This is deliberately not the module's validation: a cell may hold any text ("abc", "-"), because a
 * link or a saved draft keeps exactly what the learner typed, and Python then says what is wrong with
 * it in its own words. Only what would break the page's grids is checked here.
 */

import { MODULE_FACTS } from "../../generated/module-facts.js";

/** The module's limits (scene.LIMITS: tokens, features, dims, value_dims, heads), as the build wrote them. */
export const LIMITS = MODULE_FACTS.limits;

const isCell = (value) => (typeof value === "number" && Number.isFinite(value)) || typeof value === "string";
const isName = (value) => typeof value === "string";

function checkNames(list, what, limit) {
  if (!Array.isArray(list)) return `${what} must be a list`;
  if (list.length > limit) return `${what} has ${list.length} entries; the limit is ${limit}`;
  if (!list.every(isName)) return `every entry of ${what} must be text`;
  return null;
}

function checkGrid(grid, what, rows, columns) {
  if (!Array.isArray(grid) || grid.length !== rows) return `${what} must have ${rows} rows`;
  for (const row of grid) {
    if (!Array.isArray(row) || (columns !== null && row.length !== columns)) return `every row of ${what} must have ${columns} entries`;
    if (!row.every(isCell)) return `every entry of ${what} must be a number or text`;
  }
  return null;
}

/**
 * What JSON.parse can give (a link's or a saved draft's scene): its fields are checked one by one below.
 * @typedef {Record<string, any> | unknown[] | string | number | boolean | null} JsonValue
 */

/**
 * The first structural problem with `scene`, as a short sentence, or null if the page can draw it.
 * @param {JsonValue} scene
 * @returns {string|null}
 */
export function sceneShapeProblem(scene) {
  if (scene === null || typeof scene !== "object" || Array.isArray(scene)) return "the scene is not an object";
  if (scene.title !== undefined && typeof scene.title !== "string") return "title must be text";
  const tokenProblem = checkNames(scene.tokens, "tokens", LIMITS.tokens);
  if (tokenProblem) return tokenProblem;
  const featureProblem = checkNames(scene.features, "features", LIMITS.features);
  if (featureProblem) return featureProblem;
  const n = scene.tokens.length;
  const f = scene.features.length;
  const xProblem = checkGrid(scene.X, "X", n, f);
  if (xProblem) return xProblem;
  if (!Array.isArray(scene.heads) || scene.heads.length === 0) return "heads must be a list with at least one head";
  if (scene.heads.length > LIMITS.heads) return `there are ${scene.heads.length} heads; the limit is ${LIMITS.heads}`;
  for (const [h, head] of scene.heads.entries()) {
    const where = `heads[${h}]`;
    if (head === null || typeof head !== "object" || Array.isArray(head)) return `${where} is not an object`;
    if (head.name !== undefined && typeof head.name !== "string") return `${where}.name must be text`;
    const dimProblem = checkNames(head.dims, `${where}.dims`, LIMITS.dims);
    if (dimProblem) return dimProblem;
    const d = head.dims.length;
    const qProblem = checkGrid(head.Wq, `${where}.Wq`, f, d) ?? checkGrid(head.Wk, `${where}.Wk`, f, d);
    if (qProblem) return qProblem;
    if (head.Wv !== null && head.Wv !== undefined) {
      const width = Array.isArray(head.Wv) && Array.isArray(head.Wv[0]) ? head.Wv[0].length : 0;
      if (width > LIMITS.value_dims) return `${where}.Wv has ${width} columns; the limit is ${LIMITS.value_dims}`;
      const vProblem = checkGrid(head.Wv, `${where}.Wv`, f, f === 0 ? null : width);
      if (vProblem) return vProblem;
      if (head.value_dims !== undefined && head.value_dims !== null) {
        const valueProblem = checkNames(head.value_dims, `${where}.value_dims`, LIMITS.value_dims);
        if (valueProblem) return valueProblem;
        if (head.value_dims.length !== width) return `${where}.value_dims must name the ${width} columns of Wv`;
      }
    }
  }
  const { mask } = scene;
  if (Array.isArray(mask)) {
    if (mask.length !== n || !mask.every((row) => Array.isArray(row) && row.length === n && row.every((cell) => typeof cell === "boolean"))) {
      return `a custom mask must be ${n} × ${n} true/false`;
    }
  } else if (mask !== undefined && mask !== "none" && mask !== "causal") {
    return 'mask must be "none", "causal" or a grid of true/false';
  }
  for (const key of ["scale", "shift"]) {
    if (scene[key] !== undefined && typeof scene[key] !== "boolean") return `${key} must be true or false`;
  }
  return null;
}
