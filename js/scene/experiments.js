/**
 * The experiments' bookkeeping on plain scenes and results: reorder the words, knock one out, and
 * compare two results. No maths of attention happens here (Python computes every result); these
 * functions only move rows around and measure how far two outputs are apart.
 */

/**
 * A random order of `n` places that is not the identity (for n ≥ 2).
 * @param {number} n
 * @param {() => number} [random] a source of numbers in [0, 1)
 * @returns {number[]} order[i] = the old place of the word that now stands at place i
 */
export function shuffledOrder(n, random = Math.random) {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i -= 1) {
    const k = Math.floor(random() * (i + 1));
    [order[i], order[k]] = [order[k], order[i]];
  }
  if (n >= 2 && order.every((old, i) => old === i)) order.push(order.shift()); // never "shuffle" into the same order
  return order;
}

/**
 * `scene` with its words in `order`: each word keeps its row of X (and its mask entries move with it).
 * @param {object} scene
 * @param {number[]} order
 * @returns {object} a new scene
 */
export function reorderScene(scene, order) {
  const moved = structuredClone(scene);
  moved.tokens = order.map((old) => scene.tokens[old]);
  moved.X = order.map((old) => structuredClone(scene.X[old]));
  if (Array.isArray(scene.mask)) moved.mask = order.map((oldRow) => order.map((oldColumn) => scene.mask[oldRow][oldColumn]));
  return moved;
}

/**
 * The largest |difference| between each word's output before and after the words were put in `order`.
 * A head whose values are one-hot place markers (Wv null) hands over "where", so its output columns
 * are places too and move with the words as well.
 * @param {object} before the result before
 * @param {object} after  the result of the reordered scene
 * @param {number[]} order
 * @returns {number} 0 when every output row just moved with its word; NaN if an output is not a number
 */
export function movedRowDifference(before, after, order) {
  let largest = 0;
  before.heads.forEach((head, h) => {
    const oneHot = head.value_dims.length === before.tokens.length && head.Wv === null;
    const old = head.stages.output;
    const now = after.heads[h].stages.output;
    now.forEach((row, i) => {
      row.forEach((value, c) => {
        const was = old[order[i]][oneHot ? order[c] : c];
        if (value === null || was === null) largest = Number.NaN;
        else largest = Math.max(largest, Math.abs(value - was));
      });
    });
  });
  return largest;
}

/**
 * `scene` with word `column` knocked out: no word may read it (its column of the mask is blocked),
 * on top of the mask the scene already had.
 * @param {object} scene
 * @param {boolean[][]} currentMask the result's mask for `scene` (true = may not read)
 * @param {number} column
 * @returns {object} a new scene
 */
export function knockOutScene(scene, currentMask, column) {
  const knocked = structuredClone(scene);
  knocked.mask = currentMask.map((row) => row.map((blocked, j) => blocked || j === column));
  return knocked;
}

/**
 * How far each word's output moved: the length (L2 norm) of the difference of its output rows.
 * @param {Array<Array<number|null>>} before
 * @param {Array<Array<number|null>>} after
 * @returns {number[]} one number per row (NaN where an output is not a number)
 */
export function outputChanges(before, after) {
  return before.map((row, i) => {
    let sum = 0;
    for (let c = 0; c < row.length; c += 1) {
      if (row[c] === null || after[i][c] === null) return Number.NaN;
      sum += (row[c] - after[i][c]) ** 2;
    }
    return Math.sqrt(sum);
  });
}
