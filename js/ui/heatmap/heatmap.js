/**
 * The attention weights as a labelled SVG matrix: row i is token i asking, column j is token j
 * answering, and cell (i, j) is how much of its attention i spends on j.
 *
 * The SVG is built once for a given size and then only updated from data (fills, texts, outlines),
 * so a redraw on every keystroke stays cheap even at 64 × 64. All text goes in via textContent. From 25 tokens
 * on, the weight cells' colours are painted on a canvas under the SVG (cell-canvas.js), which keeps its cells;
 * so do the small heatmaps of a scene's heads. This module says when each part is drawn; the SVG is drawn by
 * heatmap-drawing.js, the tooltip by heatmap-tooltip.js, and the pointer is followed by heatmap-pointer.js.
 */

import { createCellCanvas } from "./cell-canvas.js";
import { el } from "./colour-scale.js";
import { drawHeatmap, layoutFor, paintCell, placeOutline, relabel } from "./heatmap-drawing.js";
import { listenToPointer } from "./heatmap-pointer.js";
import { createHeatmapTooltip } from "./heatmap-tooltip.js";
import { setAttributeIfChanged } from "../shared/dom.js";

let instances = 0;

/** The test ids of a heatmap's parts: the playground's own, or ones named after `testId`. */
function testIds(testId, compact) {
  if (testId) return { heatmap: testId, cell: `${testId}-cell`, rowLabel: `${testId}-row-label`, tooltip: `${testId}-tooltip` };
  return compact
    ? { heatmap: "heatmap-thumb", cell: "thumb-cell", rowLabel: "row-label", tooltip: "heatmap-tooltip" }
    : { heatmap: "heatmap", cell: "heatmap-cell", rowLabel: "row-label", tooltip: "heatmap-tooltip" };
}

/**
 * Create a heatmap.
 * @param {object} options
 * @param {boolean} [options.compact] a small multiple: no labels, no values, no tooltip
 * @param {(row: number, column: number) => void} [options.onCell] a cell was clicked
 * @param {(row: number) => void} [options.onRowLabel] a row label was clicked (or activated by keyboard)
 * @param {(cell: {row: number, column: number}|null) => void} [options.onHover] the pointer moved onto a cell, or away
 * @param {string} [options.testId] names the heatmap for tests (its cells, row labels and tooltip after it), when
 *   a page holds more than the playground's own
 * @param {number} [options.minLabelFont] the smallest its word labels may be at natural size (heatmap-drawing.js)
 * @returns {{element: HTMLElement, update: (view: object) => void}}
 */
export function createHeatmap({ compact = false, onCell = () => {}, onRowLabel = () => {}, onHover = () => {}, testId = null, minLabelFont = 0 } = {}) {
  const hatchId = `heatmap${++instances}-hatch`;
  const wrapper = document.createElement("div");
  wrapper.className = compact ? "heatmap-wrap compact" : "heatmap-wrap";
  const ids = testIds(testId, compact);
  const svg = el("svg", { class: compact ? "heatmap compact" : "heatmap", "data-testid": ids.heatmap });
  // The picture: the SVG, and under it the canvas of a big heatmap's cells; dimmed as one while stale.
  const picture = document.createElement("div");
  picture.className = "heatmap-picture";
  picture.append(svg);
  wrapper.append(picture);
  const tooltip = createHeatmapTooltip(wrapper, ids.tooltip);
  if (!compact) wrapper.append(tooltip.element);

  let layout = null;
  let layoutKey = "";
  let drawn = { cells: [], rowLabels: [], columnLabels: [], focusOutline: null, hoverOutline: null };
  let lastView = null;
  let canvas = null; // paints the weight cells of a big heatmap (cell-canvas.js), else null

  /** Put a canvas under the SVG for the cells of `layout` if it needs one, or take it away. */
  function placeCanvas() {
    svg.classList.toggle("cells-on-canvas", layout.onCanvas);
    if (!layout.onCanvas) {
      canvas?.element.remove();
      canvas = null;
      return;
    }
    if (!canvas) {
      canvas = createCellCanvas();
      picture.prepend(canvas.element);
    }
    canvas.resize(layout);
  }

  /** Draw the grid again for `tokens` if its layout changed, else only rename its labels. */
  function layOut(tokens) {
    const nextLayout = layoutFor(tokens, compact, { minLabelFont });
    const key = `${tokens.length}|${JSON.stringify(nextLayout)}`;
    if (key !== layoutKey) {
      layout = nextLayout;
      drawn = drawHeatmap(svg, tokens, layout, { hatchId, compact, ids });
      layoutKey = key;
      placeCanvas();
    } else if (layout.showLabels) {
      relabel(drawn, tokens);
    }
  }

  /** Paint every cell from `view`'s weights (blank while pending), on the canvas too where there is one. */
  function paintCells({ head, mask, pending }) {
    const { cells } = drawn;
    for (let i = 0; i < cells.length; i += 1) {
      const weights = pending ? [] : head.weights[i];
      const maskRow = mask?.[i];
      for (let j = 0; j < cells[i].length; j += 1) {
        const slot = cells[i][j];
        const before = slot.fill; // null unless the cell shows a weight (a rebuilt canvas starts clear)
        paintCell(slot, weights[j], Boolean(maskRow?.[j]), hatchId);
        if (canvas && slot.fill !== before) canvas.paint(i, j, slot.fill);
      }
    }
  }

  /** Mark the focused row and the hovered cell: on their labels, and with the two outlines. */
  function markFocusAndHover({ focusRow, hover }) {
    const { cells, rowLabels, columnLabels, focusOutline, hoverOutline } = drawn;
    rowLabels.forEach((label, i) => {
      label.classList.toggle("focused", i === focusRow);
      label.classList.toggle("hovered", i === hover?.row);
      setAttributeIfChanged(label, "aria-pressed", String(i === focusRow));
    });
    columnLabels.forEach((label, j) => label.classList.toggle("hovered", j === hover?.column));
    placeOutline(focusOutline, layout, cells.length, focusRow);
    placeOutline(hoverOutline, layout, cells.length, hover?.row ?? null, hover?.column);
  }

  /** The tooltip of the hovered cell, where there is one to show. */
  function showTooltip(view) {
    const { hover, tokens } = view;
    const shown = !compact && !view.pending && hover && hover.row < tokens.length && hover.column < tokens.length;
    tooltip.show(view, shown ? drawn.cells[hover.row][hover.column].rect : null);
  }

  /**
   * Draw `view`: {tokens, head (a result head), mask (the result's boolean mask), scale,
   * focusRow, hover, maskEditable}; or {tokens, pending: true, focusRow} for a scene whose weights are still
   * being computed (the grid at its size, cells blank), so the page keeps its layout until they come.
   */
  function update(view) {
    lastView = view;
    const { tokens, head } = view;
    layOut(tokens);
    paintCells(view);
    svg.classList.toggle("mask-editable", Boolean(view.maskEditable));
    svg.classList.toggle("dense", layout.cell < 24);
    markFocusAndHover(view);
    const label = view.pending
      ? `Attention weights, being computed: ${tokens.length} rows ask, ${tokens.length} columns answer`
      : `Attention weights of ${head.name}: ${tokens.length} rows ask, ${tokens.length} columns answer`;
    setAttributeIfChanged(svg, "aria-label", label);
    showTooltip(view);
  }

  if (!compact) listenToPointer(svg, { onCell, onRowLabel, onHover, hovered: () => lastView?.hover });

  return { element: wrapper, update };
}
