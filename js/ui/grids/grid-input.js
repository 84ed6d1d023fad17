/**
 * The building blocks of the editable grids (the feature table and the weight matrices).
 *
 * A number cell is drawn as text and becomes a real <input> only while it has focus (click it or Tab
 * to it; the number is selected, so typing replaces it). A page of 64 × 64 matrices would otherwise
 * hold some 16,000 inputs, and the browser repaints every one of them on each update, which makes a
 * keystroke cost half a second. Labels (token, feature and dim names) are few and stay inputs.
 */

import { parseCell } from "../../scene/draft.js";
import { make } from "../shared/dom.js";


/** The text a cell shows: an input's value or a drawn cell's text. */
const textOf = (cell) => (cell instanceof HTMLInputElement ? cell.value : cell.textContent);

/** Tint a number cell that holds something other than 0, so a matrix's pattern shows at a glance. */
export function markNonZero(cell) {
  if (cell.classList.contains("cell-input")) {
    const value = parseCell(textOf(cell));
    cell.classList.toggle("nonzero", typeof value === "number" && value !== 0);
  }
}

/** Copy the identity of a cell (its edit, test id, position, name, error marks) from one element to another. */
function copyIdentity(from, to) {
  for (const name of ["data-edit", "data-matrix", "data-testid", "data-row", "data-column", "aria-label", "aria-invalid", "aria-describedby", "title"]) {
    if (from.hasAttribute(name)) to.setAttribute(name, from.getAttribute(name));
  }
}

/**
 * Mark `element` with the edit it makes (scene/edits.js EDIT_KINDS): what the page's handlers, its keyboard
 * and a course page's locks go by. The test id is for tests only.
 */
export function markEdit(element, edit, matrix) {
  if (edit) element.dataset.edit = edit;
  if (matrix) element.dataset.matrix = matrix;
}

/**
 * A text input for a grid: a number cell (`kind` "cell") or a label (`kind` "label").
 * @param {object} options
 * @param {string} options.testId
 * @param {string} options.edit the kind of edit it makes ("cell", "token-name", …)
 * @param {string} [options.matrix] for a number cell: its matrix ("X", "Wq", "Wk", "Wv")
 * @param {string} options.value
 * @param {string} options.label the accessible name, e.g. "noun of “cat”"
 * @param {number} [options.row]
 * @param {number} [options.column]
 * @param {"cell"|"label"} [options.kind]
 */
function gridInput({ testId, edit, matrix, value, label, row, column, kind = "cell" }) {
  const input = document.createElement("input");
  input.type = "text";
  input.className = kind === "cell" ? "cell-input" : "label-input";
  input.value = value;
  input.spellcheck = false;
  input.autocomplete = "off";
  markEdit(input, edit, matrix);
  input.dataset.testid = testId;
  if (kind === "cell") input.inputMode = "decimal";
  if (row !== undefined) input.dataset.row = String(row);
  if (column !== undefined) input.dataset.column = String(column);
  input.setAttribute("aria-label", label);
  input.size = kind === "cell" ? 4 : Math.max(3, Math.min(10, value.length + 1));
  markNonZero(input);
  return input;
}

/** A number cell drawn as text, focusable, that turns into an input on focus (see CellGrid). */
function drawnCell({ testId, edit, matrix, value, label, row, column }) {
  const cell = make("span", "cell-input", value);
  cell.tabIndex = 0;
  cell.setAttribute("role", "textbox");
  markEdit(cell, edit, matrix);
  cell.dataset.testid = testId;
  cell.dataset.row = String(row);
  cell.dataset.column = String(column);
  cell.setAttribute("aria-label", label);
  markNonZero(cell);
  return cell;
}

/**
 * A small button with a visible symbol and a spoken name.
 * @param {object} options
 * @param {string} options.testId
 * @param {string} options.edit the kind of edit it makes ("add-token", "remove-feature", …)
 * @param {string} options.symbol the visible text
 * @param {string} options.label the spoken name (and tooltip)
 * @param {number} [options.row] for a button that acts on one row
 * @param {number} [options.column] for a button that acts on one column
 * @param {string} [options.className]
 */
export function iconButton({ testId, edit, symbol, label, row, column, className = "icon-button" }) {
  const button = make("button", className, symbol);
  button.type = "button";
  markEdit(button, edit);
  button.dataset.testid = testId;
  button.setAttribute("aria-label", label);
  button.title = label;
  if (row !== undefined) button.dataset.row = String(row);
  if (column !== undefined) button.dataset.column = String(column);
  return button;
}

/**
 * Set a cell's text from the draft, unless the learner is typing in it (their text is the truth
 * there, and resetting it would move the caret).
 */
function syncValue(cell, value) {
  if (textOf(cell) === value || document.activeElement === cell) return;
  if (cell instanceof HTMLInputElement) cell.value = value;
  else cell.textContent = value;
  markNonZero(cell);
}

/**
 * The cells of one matrix (or one list of labels) by [row][column], with the text each was last
 * given, so that putting a new draft on screen touches only the cells whose text changed.
 *
 * Number cells are drawn as text and swapped for an input while focused (`lazy`); `attach(container)`
 * does the swapping for the cells of this grid inside `container`.
 */
export class CellGrid {
  /** @param {{lazy?: boolean}} [options] lazy: number cells drawn as text until focused */
  constructor({ lazy = false } = {}) {
    this.lazy = lazy;
    /** @type {HTMLElement[][]} */
    this.inputs = [];
    /** @type {string[][]} */
    this.shown = [];
  }

  /** Create number cell (row, column) showing `value` (options as for gridInput) and remember it. */
  create(options) {
    const cell = this.lazy ? drawnCell(options) : gridInput(options);
    (this.inputs[options.row] ??= [])[options.column] = cell;
    (this.shown[options.row] ??= [])[options.column] = options.value;
    return cell;
  }

  /** Remember a label input at position `index` of a one-row list (token names, feature names, dims). */
  createLabel(index, options) {
    const input = gridInput({ ...options, kind: "label" });
    (this.inputs[0] ??= [])[index] = input;
    (this.shown[0] ??= [])[index] = options.value;
    return input;
  }

  /** The learner typed `value` into cell (row, column): that is what it shows now. */
  typed(row, column, value) {
    if (this.shown[row]) this.shown[row][column] = value;
  }

  /** Forget every cell (the grid is being rebuilt). */
  clear() {
    this.inputs = [];
    this.shown = [];
  }

  /** Show `grid` (rows of cell text), changing only the cells that differ from what was shown. */
  sync(grid) {
    this.inputs.forEach((cells, i) => {
      const shown = this.shown[i];
      cells.forEach((cell, j) => {
        const value = grid[i]?.[j] ?? "";
        if (shown[j] !== value) {
          syncValue(cell, value);
          shown[j] = value;
        }
      });
    });
  }

  /** Where `element` sits in this grid, or null if it is not one of its cells. */
  positionOf(element) {
    const row = Number(element.dataset?.row);
    const column = Number(element.dataset?.column);
    return this.inputs[row]?.[column] === element ? { row, column } : null;
  }

  /** Put `next` in place of cell (row, column). */
  swap({ row, column }, next) {
    const current = this.inputs[row][column];
    copyIdentity(current, next);
    markNonZero(next);
    current.replaceWith(next);
    this.inputs[row][column] = next;
  }

  /** Turn a drawn cell into an input while it has focus, and back into text when focus leaves. */
  attach(container) {
    if (!this.lazy) return;
    container.addEventListener("focusin", (event) => {
      const cell = event.target;
      const position = cell instanceof HTMLInputElement ? null : this.positionOf(cell);
      if (!position) return;
      const input = gridInput({ testId: cell.dataset.testid, edit: cell.dataset.edit, matrix: cell.dataset.matrix, value: cell.textContent, label: cell.getAttribute("aria-label"), ...position });
      this.swap(position, input);
      input.focus();
      input.select();
    });
    container.addEventListener("focusout", (event) => {
      const input = event.target;
      const position = input instanceof HTMLInputElement ? this.positionOf(input) : null;
      if (!position) return;
      const cell = drawnCell({ testId: input.dataset.testid, edit: input.dataset.edit, matrix: input.dataset.matrix, value: input.value, label: input.getAttribute("aria-label"), ...position });
      // Swap after the focus has moved, so that the element taking focus is already settled.
      queueMicrotask(() => {
        if (this.inputs[position.row]?.[position.column] === input) this.swap(position, cell);
      });
    });
  }
}
