/**
 * A deep copy of plain data: what JSON.parse and the packed-matrix unpacking make (objects, arrays, numbers,
 * strings, booleans, null) and nothing else.
 *
 * The page hands course pages copies of its results, so that a script changing one cannot change what the page
 * shows. For such data a walk is many times faster than structuredClone, which must be ready for any value:
 * a 64-token result (some 30,000 numbers) takes about 1 ms instead of 5 to 8.
 */

/** @template T @param {T} value plain data @returns {T} */
export function copyPlainData(value) {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      copy[i] = item !== null && typeof item === "object" ? copyPlainData(item) : item;
    }
    return /** @type {T} */ (copy);
  }
  const copy = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    copy[key] = item !== null && typeof item === "object" ? copyPlainData(item) : item;
  }
  return /** @type {T} */ (copy);
}
