/**
 * Moving around the editable grids with the keyboard, the way a spreadsheet works.
 *
 * The model: Tab reaches every cell. A cell that gets focus shows its number selected, so typing replaces it
 * at once (there is no separate "edit mode" to enter); the result updates as you type.
 *   Arrow Up / Down   the cell above / below
 *   Arrow Left / Right the cell before / after, once the caret is at the edge of the text (or all of it is
 *                     selected, as it is on arrival), so the arrows still move the caret inside a number
 *   Enter             the cell below (like a spreadsheet); Shift+Enter the cell above
 *   Escape            undo what was typed in this cell since it got focus
 * The same keys work on the tabs of a tablist (Left / Right, Home / End), as ARIA's tab pattern expects.
 *
 * Clicks, as in a spreadsheet: the first click on a cell selects its number, even when the cell already has
 * focus (after Tab, Enter or Escape it keeps it), so typing replaces the number rather than being added
 * beside it ("1" typed into "0" must give 1, not 10). A second click places the caret, for editing inside.
 */

/** Number cells and name inputs of the grids: anything with a row/column position inside a table. */
const GRID_CELL = "table .cell-input, table .label-input";

/** What each cell held when it got focus, for Escape. */
const valueOnArrival = new WeakMap();
/** Cells clicked since they got focus: the next click places the caret instead of selecting. */
const clickedSinceFocus = new WeakSet();
/** Where the pointer is pressed, from pointerdown to pointerup: focus arriving there counts as a click. */
let pressed = null;

/** The same cell of the same grid: a drawn cell and the input that replaced it when it took focus count as one. */
function samePlace(press, cell) {
  if (press.target === cell) return true;
  const a = press.target.dataset;
  const b = cell.dataset;
  return press.table === cell.closest("table") && a.edit === b.edit && a.matrix === b.matrix &&
    a.row === b.row && a.column === b.column;
}

/** The cell of the same table and kind (the same edit, of the same matrix) at (row, column), or null. */
function cellAt(from, row, column) {
  const table = from.closest("table");
  const { edit, matrix } = from.dataset;
  if (!table || !edit) return null;
  const kindPart = `[data-edit="${CSS.escape(edit)}"]${matrix ? `[data-matrix="${CSS.escape(matrix)}"]` : ""}`;
  const rowPart = row === null ? "" : `[data-row="${row}"]`;
  const columnPart = column === null ? "" : `[data-column="${column}"]`;
  return table.querySelector(`${kindPart}${rowPart}${columnPart}`);
}

/** The neighbour of `cell` one step in (dRow, dColumn), within its own table and kind. */
function neighbour(cell, dRow, dColumn) {
  const row = cell.dataset.row === undefined ? null : Number(cell.dataset.row) + dRow;
  const column = cell.dataset.column === undefined ? null : Number(cell.dataset.column) + dColumn;
  if ((row === null && dRow) || (column === null && dColumn)) return null; // a list of names has one axis
  return cellAt(cell, row, column);
}

function atStart(input) {
  return !(input instanceof HTMLInputElement) || (input.selectionStart === 0 && input.selectionEnd === 0) || allSelected(input);
}

function atEnd(input) {
  if (!(input instanceof HTMLInputElement)) return true;
  const end = input.value.length;
  return (input.selectionStart === end && input.selectionEnd === end) || allSelected(input);
}

function allSelected(input) {
  return input.selectionStart === 0 && input.selectionEnd === input.value.length;
}

function moveTo(target) {
  if (!target) return false;
  target.focus();
  if (target instanceof HTMLInputElement) target.select();
  return true;
}

function onGridKey(event, cell) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  let target = null;
  switch (event.key) {
    case "ArrowUp":
      target = neighbour(cell, -1, 0);
      break;
    case "ArrowDown":
      target = neighbour(cell, 1, 0);
      break;
    case "ArrowLeft":
      if (atStart(cell)) target = neighbour(cell, 0, -1);
      break;
    case "ArrowRight":
      if (atEnd(cell)) target = neighbour(cell, 0, 1);
      break;
    case "Enter":
      target = neighbour(cell, event.shiftKey ? -1 : 1, 0);
      if (!target) {
        // Nothing below: stay, with the number selected as on arrival (and submit no form).
        event.preventDefault();
        clickedSinceFocus.delete(cell);
        if (cell instanceof HTMLInputElement) cell.select();
      }
      break;
    case "Escape": {
      const before = valueOnArrival.get(cell);
      clickedSinceFocus.delete(cell); // the number is selected again: a click selects it, as on arrival
      if (cell instanceof HTMLInputElement && before !== undefined && cell.value !== before) {
        event.preventDefault();
        cell.value = before;
        // The grid's own input handler turns this into an edit, exactly as if it had been typed back.
        cell.dispatchEvent(new Event("input", { bubbles: true }));
        cell.select();
      }
      return;
    }
    default:
      return;
  }
  if (moveTo(target)) event.preventDefault();
}

function onTabKey(event, tab) {
  const tabs = [...tab.closest('[role="tablist"]').querySelectorAll('[role="tab"]')];
  const index = tabs.indexOf(tab);
  const next = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: tabs.length - 1 }[event.key];
  if (next === undefined || !tabs[next]) return;
  event.preventDefault();
  tabs[next].focus();
  tabs[next].click();
}

/**
 * Install the keys on `root` (the page's main element). Call once.
 * @param {HTMLElement} root
 */
export function installGridKeyboard(root) {
  root.addEventListener("focusin", (event) => {
    const cell = event.target;
    if (!(cell instanceof HTMLInputElement) || !cell.matches(GRID_CELL)) return;
    valueOnArrival.set(cell, cell.value);
    // Focus by a click (a drawn cell becomes an input and arrives selected) counts as the first click;
    // focus by a key (Tab, Enter, an arrow) does not, even while a press elsewhere is still being handled.
    if (pressed && samePlace(pressed, cell)) clickedSinceFocus.add(cell);
    else clickedSinceFocus.delete(cell);
  });
  for (const type of ["pointerup", "pointercancel"]) {
    root.addEventListener(type, () => {
      pressed = null;
    });
  }
  root.addEventListener("pointerdown", (event) => {
    const cell = event.target;
    pressed = cell instanceof HTMLElement ? { target: cell, table: cell.closest("table") } : null;
    if (!(cell instanceof HTMLInputElement) || !cell.matches(GRID_CELL) || event.button !== 0) return;
    if (document.activeElement === cell && !clickedSinceFocus.has(cell)) {
      // Keep the focus and the selection where they are (the browser would put the caret at the pointer).
      event.preventDefault();
      cell.select();
    }
    clickedSinceFocus.add(cell);
  });
  root.addEventListener("keydown", (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement)) return;
    if (target.matches(GRID_CELL)) onGridKey(event, target);
    else if (target.matches('[role="tablist"] [role="tab"]')) onTabKey(event, target);
  });
}
