/**
 * The error detail the page shows for a scene: the module's own ({type, message, field, row, column, row_index,
 * column_index}: a SceneError names where the mistake is), or one of the page's, in the same shape.
 */

/**
 * An error detail in the module's shape; `where` gives any of field, row, column, row_index, column_index.
 * @param {string} message
 * @param {{type?: string, field?: string|null, row?: string|null, column?: string|null,
 *   row_index?: number|null, column_index?: number|null}} [where]
 */
export function errorDetail(message, { type = "Error", field = null, row = null, column = null, row_index = null, column_index = null } = {}) {
  return { type, message, field, row, column, row_index, column_index };
}

/** @typedef {Error & {detail: object}} DetailedError */

/**
 * An Error carrying an error detail as `.detail`, whatever shape the failure came in: a reply's error (already
 * carrying one), any other Error, or a value that is not an Error at all.
 * @param {unknown} error
 * @returns {DetailedError}
 */
export function withErrorDetail(error) {
  if (error instanceof Error && /** @type {DetailedError} */ (error).detail) return /** @type {DetailedError} */ (error);
  const message = error instanceof Error ? error.message : String(error);
  return Object.assign(new Error(message), { detail: errorDetail(message) });
}
