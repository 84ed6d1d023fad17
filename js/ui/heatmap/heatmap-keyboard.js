/**
 * The heatmap's cells from the keyboard. The cells form one tab stop (a "roving" focus: Tab enters the grid
 * at the cell last visited, arrow keys move inside it), so a 64 × 64 grid does not cost 4,096 presses of Tab.
 *   Arrow keys, Home / End   move between cells (Home / End: first / last cell of the row)
 *   Enter or Space           what a click does: forbid or allow that read with a custom mask, else show
 *                            where that row's token looks
 * A focused cell shows its tooltip, as hovering does, and is named for screen readers ("“it” asks, “cat”
 * answers: weight 92.0%").
 */

import { formatPercent, quoted } from "../shared/format.js";

/** A cell of the big heatmap (not of the heads' small ones). */
const CELL = "svg.heatmap:not(.compact) rect.cell";

/** The accessible name of cell (row, column) of the result's head on screen. */
function cellName(state, row, column) {
  const { result } = state;
  if (!result || row >= result.tokens.length || column >= result.tokens.length) return "";
  const head = result.heads[Math.min(state.activeHead, result.heads.length - 1)];
  const asks = quoted(result.tokens[row]);
  const answers = quoted(result.tokens[column]);
  if (result.mask?.[row]?.[column]) return `${asks} asks, ${answers} answers: masked, may not read`;
  return `${asks} asks, ${answers} answers: weight ${formatPercent(head.weights[row][column])}`;
}

/**
 * Make the heatmap in `area` usable from the keyboard.
 * @param {HTMLElement} area the heatmap's wrapper (it keeps its element when the SVG inside is rebuilt)
 * @param {{store: import("../../state/session.js").StoreView, actions: object}} context
 */
export function installHeatmapKeyboard(area, { store, actions }) {
  let current = { row: 0, column: 0 };

  // CELL matches only the heatmap's <rect>s.
  const cellAt = ({ row, column }) => /** @type {SVGRectElement|null} */ (area.querySelector(`${CELL}[data-row="${row}"][data-column="${column}"]`));

  /** Exactly one cell takes Tab: the current one (or the first, after the grid was rebuilt smaller). */
  function settleTabStop() {
    let stop = cellAt(current);
    if (!stop) {
      // The grid was rebuilt smaller (or is empty): only then are its cells counted (4,096 at 64 tokens).
      const cells = area.querySelectorAll(CELL);
      if (!cells.length) return;
      const n = Math.round(Math.sqrt(cells.length));
      current = { row: Math.min(current.row, n - 1), column: Math.min(current.column, n - 1) };
      stop = cellAt(current);
    }
    for (const cell of area.querySelectorAll(`${CELL}[tabindex="0"]`)) if (cell !== stop) cell.setAttribute("tabindex", "-1");
    if (stop && stop.getAttribute("tabindex") !== "0") {
      stop.setAttribute("tabindex", "0");
      stop.setAttribute("role", "button");
      stop.setAttribute("aria-label", cellName(store.state, current.row, current.column));
    }
  }

  function moveTo(position) {
    const target = cellAt(position);
    if (!target) return;
    cellAt(current)?.setAttribute("tabindex", "-1");
    current = position;
    target.setAttribute("tabindex", "0");
    target.setAttribute("role", "button");
    target.setAttribute("aria-label", cellName(store.state, position.row, position.column));
    target.focus();
  }

  area.addEventListener("keydown", (event) => {
    const cell = /** @type {SVGRectElement|null} */ (/** @type {Element} */ (event.target).closest?.(CELL));
    if (!cell || event.altKey || event.ctrlKey || event.metaKey) return;
    const row = Number(cell.dataset.row);
    const column = Number(cell.dataset.column);
    const last = store.state.result ? store.state.result.tokens.length - 1 : 0;
    const moves = {
      ArrowUp: { row: Math.max(0, row - 1), column },
      ArrowDown: { row: Math.min(last, row + 1), column },
      ArrowLeft: { row, column: Math.max(0, column - 1) },
      ArrowRight: { row, column: Math.min(last, column + 1) },
      Home: { row, column: 0 },
      End: { row, column: last },
    };
    if (moves[event.key]) {
      event.preventDefault();
      moveTo(moves[event.key]);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      cell.dispatchEvent(new MouseEvent("click", { bubbles: true })); // the heatmap's own click: one behaviour
      cellAt({ row, column })?.setAttribute("aria-label", cellName(store.state, row, column));
    }
  });
  area.addEventListener("focusin", (event) => {
    const cell = /** @type {SVGRectElement|null} */ (/** @type {Element} */ (event.target).closest?.(CELL));
    if (!cell) return;
    current = { row: Number(cell.dataset.row), column: Number(cell.dataset.column) };
    actions.hover(current); // the tooltip, as for the pointer
  });
  area.addEventListener("focusout", (event) => {
    if (/** @type {Element} */ (event.target).closest?.(CELL) && !area.contains(/** @type {Node|null} */ (event.relatedTarget))) actions.hover(null);
  });

  store.subscribe((state, changes) => {
    if (!["result", "scene", "shape", "head", "mode"].some((part) => changes.has(part))) return;
    // A whole new scene is another grid: Tab enters it at its first cell, as on a fresh page (unless the learner
    // is in the grid right now, whose place stays).
    if (changes.has("scene") && !area.contains(document.activeElement)) current = { row: 0, column: 0 };
    settleTabStop();
    const stop = cellAt(current);
    if (stop) stop.setAttribute("aria-label", cellName(state, current.row, current.column));
  });
}
