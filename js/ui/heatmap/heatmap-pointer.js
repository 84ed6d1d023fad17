/**
 * The big heatmap under the pointer: hovering a cell, clicking (or tapping) a cell or a row label, and a row
 * label activated from the keyboard. (The cells' own keys are heatmap-keyboard.js.)
 */

/** The cell or row label an event's target belongs to: {row, column} (column null for a row label), or null. */
function cellAt(target) {
  const node = target.closest?.("[data-row]");
  if (!node) return null;
  const row = Number(node.dataset.row);
  return node.dataset.column === undefined ? { row, column: null } : { row, column: Number(node.dataset.column) };
}

/**
 * Follow the pointer and the clicks on `svg`, the heatmap's (its cells and row labels carry data-row and
 * data-column, and keep them when the SVG's contents are rebuilt).
 * @param {SVGSVGElement} svg
 * @param {{onCell: Function, onRowLabel: Function, onHover: Function, hovered: () => {row: number, column: number}|null|undefined}} handlers
 *   as createHeatmap takes them; `hovered`: the cell the heatmap shows as hovered now
 */
export function listenToPointer(svg, { onCell, onRowLabel, onHover, hovered }) {
  svg.addEventListener("pointermove", (event) => {
    const cell = cellAt(event.target);
    const hover = cell && cell.column !== null ? cell : null;
    const shown = hovered();
    if (hover?.row !== shown?.row || hover?.column !== shown?.column) onHover(hover);
  });
  // A finger leaves the screen as it lifts, so a tap ends in pointerleave: that must not take away the score
  // the tap has just shown (below).
  svg.addEventListener("pointerleave", (event) => {
    if (event.pointerType !== "touch") onHover(null);
  });
  svg.addEventListener("click", (event) => {
    const cell = cellAt(event.target);
    if (!cell) return;
    if (cell.column === null) onRowLabel(cell.row);
    else onCell(cell.row, cell.column);
    // On a touch screen there is no hover: a tap on a cell shows its score, as pointing at it does.
    if (event.pointerType === "touch" && cell.column !== null) onHover(cell);
  });
  svg.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const cell = cellAt(event.target);
    if (cell && cell.column === null) {
      event.preventDefault();
      onRowLabel(cell.row);
    }
  });
}
