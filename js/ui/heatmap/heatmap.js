/**
 * The attention weights as a labelled SVG matrix: row i is token i asking, column j is token j
 * answering, and cell (i, j) is how much of its attention i spends on j.
 *
 * The SVG is built once for a given size and then only updated from data (fills, texts, outlines),
 * so a redraw on every keystroke stays cheap even at 64 × 64. All text goes in via textContent. From 25 tokens
 * on, the weight cells' colours are painted on a canvas under the SVG (cell-canvas.js), which keeps its cells;
 * so do the small heatmaps of a scene's heads.
 */

import { createCellCanvas } from "./cell-canvas.js";
import { el, hatchPattern, textColourOn, weightColour } from "./colour-scale.js";
import { setAttributeIfChanged } from "../shared/dom.js";
import { formatPercent, formatScore, formatWeight } from "../shared/format.js";
import { namedToken } from "../shared/positions.js";

let instances = 0;

/** From this many tokens, a heatmap's weight colours are painted on a canvas under its SVG (cell-canvas.js). */
const CANVAS_FROM_TOKENS = 25;

/** Size of everything, in SVG user units (equal to CSS pixels at natural size). */
function layoutFor(tokens, compact) {
  const n = tokens.length;
  if (compact) {
    const cell = Math.max(3, Math.min(16, Math.floor(150 / Math.max(n, 1))));
    return { cell, onCanvas: n >= CANVAS_FROM_TOKENS, left: 0, top: 0, labelFont: 0, valueFont: 0, rotate: false, showLabels: false, showValues: false, width: n * cell, height: n * cell };
  }
  const cell = n <= 12 ? 48 : Math.max(12, Math.floor(576 / n));
  const labelFont = Math.min(14, Math.max(7, cell * 0.32 + 2));
  const charWidth = labelFont * 0.6;
  const longest = Math.max(1, ...tokens.map((token) => token.length));
  const labelWidth = Math.min(longest, 16) * charWidth;
  const rotate = labelWidth > cell - 6;
  const left = Math.ceil(Math.max(labelWidth + 22, 52)); // room for the row labels and for "asks ↓"
  const columnHeader = rotate ? Math.ceil(labelWidth * 0.72 + labelFont + 8) : labelFont + 12;
  const top = columnHeader + 22;
  return {
    cell, left, top, labelFont, rotate, showLabels: true,
    onCanvas: n >= CANVAS_FROM_TOKENS,
    valueFont: Math.min(13, cell * 0.27),
    showValues: cell >= 34,
    width: left + n * cell + (rotate ? 8 : 4),
    height: top + n * cell + 4,
  };
}

/** The tail of a long label, cut to fit. */
const shortLabel = (token) => (token.length > 16 ? `${token.slice(0, 15)}…` : token);

/** The test ids of a heatmap's parts: the playground's own, or ones named after `testId`. */
function testIds(testId, compact) {
  if (testId) return { heatmap: testId, cell: `${testId}-cell`, rowLabel: `${testId}-row-label`, tooltip: `${testId}-tooltip` };
  return compact
    ? { heatmap: "heatmap-thumb", cell: "thumb-cell", rowLabel: "row-label", tooltip: "heatmap-tooltip" }
    : { heatmap: "heatmap", cell: "heatmap-cell", rowLabel: "row-label", tooltip: "heatmap-tooltip" };
}

/** The axis titles and the token labels along the top (answering) and the left (asking, each a button). */
function drawLabels(svg, tokens, layout, ids) {
  const { cell, left, top } = layout;
  const answers = el("text", { x: left, y: 14, class: "axis-title" });
  answers.textContent = "answers →";
  const asks = el("text", { x: left - 10, y: top - 8, class: "axis-title", "text-anchor": "end" });
  asks.textContent = "asks ↓";
  svg.append(answers, asks);
  const columnLabels = tokens.map((token, j) => {
    const x = left + j * cell + cell / 2;
    const y = top - 8;
    const label = el("text", {
      class: "column-label", "data-column": j, "font-size": layout.labelFont,
      x, y, "text-anchor": layout.rotate ? "start" : "middle",
      transform: layout.rotate ? `rotate(-45 ${x} ${y})` : "",
    });
    label.textContent = shortLabel(token);
    svg.append(label);
    return label;
  });
  const rowLabels = tokens.map((token, i) => {
    const group = el("g", {
      class: "row-label", "data-row": i, "data-testid": ids.rowLabel, tabindex: 0, role: "button",
      "aria-label": `Show where ${namedToken(tokens, i)} pays attention`,
    });
    group.append(el("rect", { x: 0, y: top + i * cell, width: left - 4, height: cell, class: "row-label-hit" }));
    const label = el("text", { x: left - 10, y: top + i * cell + cell / 2, "text-anchor": "end", "dominant-baseline": "central", "font-size": layout.labelFont });
    label.textContent = shortLabel(token);
    group.append(label);
    svg.append(group);
    return group;
  });
  return { rowLabels, columnLabels };
}

/** One rect per weight (and its number, where there is room): cells[i][j] = {rect, text, what it last showed}. */
function drawCells(svg, tokens, layout, ids) {
  const { cell, left, top } = layout;
  const grid = el("g", { class: "cells" });
  const cells = tokens.map((_, i) =>
    tokens.map((__, j) => {
      const rect = el("rect", {
        x: left + j * cell, y: top + i * cell, width: cell, height: cell,
        class: "cell", "data-row": i, "data-column": j, "data-testid": ids.cell,
      });
      grid.append(rect);
      let text = null;
      if (layout.showValues) {
        text = el("text", {
          x: left + j * cell + cell / 2, y: top + i * cell + cell / 2,
          class: "cell-value", "text-anchor": "middle", "dominant-baseline": "central", "font-size": layout.valueFont,
        });
        grid.append(text);
      }
      return { rect, text, weight: undefined, masked: undefined, kind: "", fill: null, painted: false };
    }),
  );
  svg.append(grid);
  return cells;
}

/**
 * Draw the whole heatmap for `tokens` into `svg` (emptied first): its size, the hatch for masked cells, the
 * labels, the cells and the two outlines (the focused row's, the hovered cell's).
 */
function drawHeatmap(svg, tokens, layout, { hatchId, compact, ids }) {
  const { cell, left, width, height } = layout;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(height));
  const defs = el("defs");
  defs.append(hatchPattern(hatchId));
  svg.append(defs);
  const labels = layout.showLabels ? drawLabels(svg, tokens, layout, ids) : { rowLabels: [], columnLabels: [] };
  const cells = drawCells(svg, tokens, layout, ids);
  const focusOutline = el("rect", { class: "focus-outline", x: left - 2, width: tokens.length * cell + 4, height: cell, rx: 3, visibility: "hidden" });
  const hoverOutline = el("rect", { class: "hover-outline", width: cell, height: cell, visibility: "hidden" });
  svg.append(focusOutline, hoverOutline);
  return { ...labels, cells, focusOutline, hoverOutline };
}

/**
 * Draw one cell; only what changed is written, so a redraw of 64 × 64 stays cheap. A weight of `undefined`
 * is a cell still being computed: drawn plain, at its place, so nothing moves when the number arrives.
 */
function paintCell(slot, weight, masked, hatchId) {
  if (slot.weight === weight && slot.masked === masked && slot.painted) return;
  const { rect, text } = slot;
  const kind = weight === undefined ? "pending" : masked ? "masked" : weight === null ? "nan" : "weight";
  if (kind !== slot.kind) {
    rect.setAttribute("class", kind === "weight" ? "cell" : `cell ${kind}`);
    rect.dataset.masked = String(masked);
    if (kind === "masked") rect.setAttribute("fill", `url(#${hatchId})`);
    if (kind === "nan") rect.setAttribute("fill", "#c9c9c9");
    if (kind === "pending") rect.removeAttribute("fill"); // the style sheet's quiet fill
    if (text) text.setAttribute("class", masked ? "cell-value masked-symbol" : "cell-value");
  }
  if (kind === "weight") {
    // Most weights of a big scene move by less than one step of the colour scale: leave those cells alone.
    const fill = weightColour(weight);
    if (fill !== slot.fill) rect.setAttribute("fill", fill);
    slot.fill = fill;
  } else {
    slot.fill = null;
  }
  if (text) {
    text.textContent = kind === "pending" ? "" : masked ? "×" : formatWeight(weight);
    if (kind !== "pending") text.setAttribute("fill", masked ? "#555" : weight === null ? "#222" : textColourOn(weight));
  }
  Object.assign(slot, { weight, masked, kind, painted: true });
}

/** Put an outline on row `row` (and column `column`, for a cell), or hide it. */
function placeOutline(outline, layout, rows, row, column) {
  if (row === null || row === undefined || row >= rows) {
    setAttributeIfChanged(outline, "visibility", "hidden");
    return;
  }
  setAttributeIfChanged(outline, "y", String(layout.top + row * layout.cell));
  if (column !== undefined) setAttributeIfChanged(outline, "x", String(layout.left + column * layout.cell));
  setAttributeIfChanged(outline, "visibility", "visible");
}

/** What the tooltip says about the hovered cell: [text, class name] per line. */
function tooltipLines({ hover, tokens, head, mask, maskEditable, scale }) {
  const { row, column } = hover;
  const masked = Boolean(mask?.[row]?.[column]);
  const asker = namedToken(tokens, row);
  const answerer = namedToken(tokens, column);
  const lines = [[`${asker} asks, ${answerer} answers`, "tooltip-title"]];
  if (masked) {
    lines.push([`masked: ${asker} may not read ${answerer}`, ""], ["weight 0", ""]);
  } else {
    const weight = head.weights[row][column];
    lines.push([`weight ${formatWeight(weight)} (${formatPercent(weight)})`, "tooltip-weight"]);
    if (head.stages) {
      // A scene's head carries its stages; a trained model's head on the model panel only its weights.
      const score = head.stages.scores[row][column];
      const scaled = head.stages.masked[row][column];
      lines.push([
        scale ? `score q·k = ${formatScore(score)}, ÷ √${head.d_k} = ${formatScore(scaled)}` : `score q·k = ${formatScore(score)} (not scaled)`,
        "",
      ]);
    }
  }
  if (maskEditable) lines.push([masked ? "click to let it read again" : "click to forbid this read", "tooltip-hint"]);
  return lines;
}

/** Put the tooltip above the cell (below it where there is no room), inside the heatmap's width. */
function placeTooltip(tooltip, wrapper, cellRect) {
  const cellBox = cellRect.getBoundingClientRect();
  const box = wrapper.getBoundingClientRect();
  const tipBox = tooltip.getBoundingClientRect();
  let x = cellBox.left - box.left + cellBox.width / 2 - tipBox.width / 2;
  x = Math.max(0, Math.min(x, box.width - tipBox.width));
  let y = cellBox.top - box.top - tipBox.height - 8;
  if (y < 0) y = cellBox.bottom - box.top + 8;
  tooltip.style.left = `${Math.round(x)}px`;
  tooltip.style.top = `${Math.round(y)}px`;
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
 * @returns {{element: HTMLElement, update: (view: object) => void}}
 */
export function createHeatmap({ compact = false, onCell = () => {}, onRowLabel = () => {}, onHover = () => {}, testId = null } = {}) {
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
  const tooltip = document.createElement("div");
  tooltip.className = "heatmap-tooltip";
  tooltip.setAttribute("role", "tooltip");
  tooltip.dataset.testid = ids.tooltip;
  tooltip.hidden = true;
  if (!compact) wrapper.append(tooltip);

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

  function showTooltip(view) {
    const { hover, tokens } = view;
    if (compact || view.pending || !hover || hover.row >= tokens.length || hover.column >= tokens.length) {
      tooltip.hidden = true;
      return;
    }
    tooltip.replaceChildren(...tooltipLines(view).map(([text, className]) => {
      const line = document.createElement("div");
      line.textContent = text;
      if (className) line.className = className;
      return line;
    }));
    tooltip.hidden = false;
    placeTooltip(tooltip, wrapper, drawn.cells[hover.row][hover.column].rect);
  }

  /** Rename the labels in place (the same number of tokens, other words). */
  function relabel(tokens) {
    tokens.forEach((token, i) => {
      const text = shortLabel(token);
      if (drawn.columnLabels[i].textContent !== text) drawn.columnLabels[i].textContent = text;
      const rowText = drawn.rowLabels[i].lastChild;
      if (rowText.textContent !== text) rowText.textContent = text;
      // Every row's name, not only a renamed one's: renaming a word can make another one a repeat.
      setAttributeIfChanged(drawn.rowLabels[i], "aria-label", `Show where ${namedToken(tokens, i)} pays attention`);
    });
  }

  /**
   * Draw `view`: {tokens, head (a result head), mask (the result's boolean mask), scale,
   * focusRow, hover, maskEditable}; or {tokens, pending: true, focusRow} for a scene whose weights are still
   * being computed (the grid at its size, cells blank), so the page keeps its layout until they come.
   */
  function update(view) {
    lastView = view;
    const { tokens, head, mask } = view;
    const nextLayout = layoutFor(tokens, compact);
    const key = `${tokens.length}|${JSON.stringify(nextLayout)}`;
    if (key !== layoutKey) {
      layout = nextLayout;
      drawn = drawHeatmap(svg, tokens, layout, { hatchId, compact, ids });
      layoutKey = key;
      placeCanvas();
    } else if (layout.showLabels) {
      relabel(tokens);
    }
    const { cells, rowLabels, columnLabels, focusOutline, hoverOutline } = drawn;
    for (let i = 0; i < cells.length; i += 1) {
      const weights = view.pending ? [] : head.weights[i];
      const maskRow = mask?.[i];
      for (let j = 0; j < cells[i].length; j += 1) {
        const slot = cells[i][j];
        const before = slot.fill; // null unless the cell shows a weight (a rebuilt canvas starts clear)
        paintCell(slot, weights[j], Boolean(maskRow?.[j]), hatchId);
        if (canvas && slot.fill !== before) canvas.paint(i, j, slot.fill);
      }
    }
    svg.classList.toggle("mask-editable", Boolean(view.maskEditable));
    svg.classList.toggle("dense", layout.cell < 24);
    rowLabels.forEach((label, i) => {
      label.classList.toggle("focused", i === view.focusRow);
      label.classList.toggle("hovered", i === view.hover?.row);
      setAttributeIfChanged(label, "aria-pressed", String(i === view.focusRow));
    });
    columnLabels.forEach((label, j) => label.classList.toggle("hovered", j === view.hover?.column));
    placeOutline(focusOutline, layout, cells.length, view.focusRow);
    placeOutline(hoverOutline, layout, cells.length, view.hover?.row ?? null, view.hover?.column);
    const label = view.pending
      ? `Attention weights, being computed: ${tokens.length} rows ask, ${tokens.length} columns answer`
      : `Attention weights of ${head.name}: ${tokens.length} rows ask, ${tokens.length} columns answer`;
    setAttributeIfChanged(svg, "aria-label", label);
    showTooltip(view);
  }

  function cellAt(target) {
    const node = target.closest?.("[data-row]");
    if (!node) return null;
    const row = Number(node.dataset.row);
    return node.dataset.column === undefined ? { row, column: null } : { row, column: Number(node.dataset.column) };
  }

  if (!compact) {
    svg.addEventListener("pointermove", (event) => {
      const cell = cellAt(event.target);
      const hover = cell && cell.column !== null ? cell : null;
      if (hover?.row !== lastView?.hover?.row || hover?.column !== lastView?.hover?.column) onHover(hover);
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

  return { element: wrapper, update };
}
