/**
 * Where the module's error points on the page, and the message display under a grid.
 *
 * The module names the place of every mistake: `field` is the key ("X", "tokens", "features", "mask",
 * …); inside a head it is the head's key ("Wq", "dims", …) with the head's position in `head` (a path
 * such as "heads[0].Wq" is understood too); `row_index` / `column_index` give the 0-based position.
 * Editors use `errorTarget` to find the cell to mark; the message itself is always the module's.
 */

/**
 * @typedef {object} ErrorTarget
 * @property {string} field   "X" | "tokens" | "features" | "Wq" | "Wk" | "Wv" | "dims" | "value_dims" | "heads" | "mask" | other
 * @property {number|null} head    the head's index for fields inside a head
 * @property {number|null} row
 * @property {number|null} column
 */

/**
 * Read an error's place.
 * @param {object|null} error the module's error fields
 * @returns {ErrorTarget|null}
 */
export function errorTarget(error) {
  if (!error) return null;
  const field = typeof error.field === "string" ? error.field : "";
  const inHead = /^heads\[(\d+)\](?:\.(\w+))?/.exec(field);
  const index = (value) => (Number.isInteger(value) ? value : null);
  // Inside a head, the place comes either as a path ("heads[1].Wq") or as a head key plus `head`.
  let head = inHead ? Number(inHead[1]) : null;
  if (head === null && Number.isInteger(error.head)) head = error.head;
  return {
    field: inHead ? inHead[2] ?? "heads" : field.split(/[.[]/)[0],
    head,
    row: index(error.row_index),
    column: index(error.column_index),
  };
}

/**
 * The cells of a matrix that an error points at. A null row or column in the error means "the whole
 * column" or "the whole row"; an error with neither marks nothing (its message says what is wrong).
 * @param {ErrorTarget|null} target
 * @param {string} field the matrix's field ("X", "Wq", …)
 * @param {number|null} head the head the matrix belongs to (null outside heads)
 * @param {HTMLElement[][]} inputs the matrix's cells by [row][column] (inputs, or drawn cells in lazy grids)
 * @returns {HTMLElement[]}
 */
export function inputsAt(target, field, head, inputs) {
  if (!target || target.field !== field || (head !== null && target.head !== head)) return [];
  const { row, column } = target;
  if (row === null && column === null) return [];
  if (row !== null && column !== null) return inputs[row]?.[column] ? [inputs[row][column]] : [];
  if (row !== null) return inputs[row] ?? [];
  return inputs.map((cells) => cells[column]).filter(Boolean);
}

/**
 * A message line for under a grid: shows `message` (or hides when null).
 * @param {string} testId
 * @returns {{element: HTMLElement, show: (message: string|null, id?: string) => void}}
 */
export function createErrorLine(testId) {
  const element = document.createElement("p");
  element.className = "grid-error";
  element.dataset.testid = testId;
  element.setAttribute("role", "alert");
  element.hidden = true;
  return {
    element,
    show(message) {
      element.hidden = !message;
      element.textContent = message ? `⚠ ${message}` : "";
    },
  };
}

/**
 * aria-invalid marks on the cells an error points at, each linked to the message that explains it.
 * Only the cells marked before and after are touched, so this stays cheap on a 64 × 64 grid.
 * @param {string} messageId the id of the message element
 * @param {HTMLElement} container the grid(s) whose cells are marked
 * @returns {{set: (cells: HTMLElement[]) => void}}
 */
export function createInvalidMarks(messageId, container) {
  let anyMarked = false;
  return {
    set(cells) {
      // Most redraws have nothing to mark and nothing marked: then the grid is not searched at all.
      if (!anyMarked && cells.length === 0) return;
      anyMarked = cells.length > 0;
      const next = new Set(cells);
      // Cells can be swapped (text ↔ input) while marked, so the marked ones are found afresh.
      // Only cells are ever marked, and cells are HTML elements.
      const marked = /** @type {NodeListOf<HTMLElement>} */ (container.querySelectorAll(`[aria-describedby="${messageId}"]`));
      for (const cell of marked) {
        if (!next.has(cell)) {
          cell.removeAttribute("aria-invalid");
          cell.removeAttribute("aria-describedby");
          cell.removeAttribute("title");
        }
      }
      const message = document.getElementById(messageId)?.textContent ?? "";
      for (const cell of next) {
        cell.setAttribute("aria-invalid", "true");
        cell.setAttribute("aria-describedby", messageId);
        cell.title = message;
      }
    },
  };
}
