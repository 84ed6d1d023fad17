/**
 * Drawing a heatmap's SVG: its size for a number of tokens, the labels, one rect per weight (and its number,
 * where there is room), the two outlines, and painting each cell from its weight. Only what changed is written,
 * so a redraw of 64 × 64 stays cheap (heatmap.js says when each is done).
 */

import { el, hatchPattern, textColourOn, weightColour } from "./colour-scale.js";
import { setAttributeIfChanged } from "../shared/dom.js";
import { formatWeight } from "../shared/format.js";
import { namedToken } from "../shared/positions.js";

/** From this many tokens, a heatmap's weight colours are painted on a canvas under its SVG (cell-canvas.js). */
const CANVAS_FROM_TOKENS = 25;

/** The width of "answers →" (12 px italics) and 10 px beside it; the height of it over "asks ↓" with their gaps. */
const AXIS_TITLE_WIDTH = 76;
const AXIS_TITLES_HEIGHT = 44;

/**
 * Size of everything, in SVG user units (equal to CSS pixels at natural size). `minLabelFont`: the smallest the
 * word labels may be at natural size; the cells grow to give them room (a grid that scrolls sideways on a phone
 * keeps its labels readable instead of shrinking them).
 */
export function layoutFor(tokens, compact, { minLabelFont = 0 } = {}) {
  const n = tokens.length;
  if (compact) {
    const cell = Math.max(3, Math.min(16, Math.floor(150 / Math.max(n, 1))));
    return { cell, onCanvas: n >= CANVAS_FROM_TOKENS, left: 0, top: 0, labelFont: 0, valueFont: 0, rotate: false, showLabels: false, showValues: false, width: n * cell, height: n * cell };
  }
  const cell = Math.max(n <= 12 ? 48 : Math.max(12, Math.floor(576 / n)), Math.ceil((minLabelFont - 2) / 0.32));
  const labelFont = Math.min(14, Math.max(7, cell * 0.32 + 2));
  const charWidth = labelFont * 0.6;
  const longest = Math.max(1, ...tokens.map((token) => token.length));
  const labelWidth = Math.min(longest, 16) * charWidth;
  const rotate = labelWidth > cell - 6;
  // The axis titles share the top left corner, "answers →" over "asks ↓": the column labels leave it empty, and
  // a line of its own over them cost every heatmap 22 px of height.
  const left = Math.ceil(Math.max(labelWidth + 22, AXIS_TITLE_WIDTH)); // room for the row labels and the axis titles
  const columnHeader = rotate ? Math.ceil(labelWidth * 0.72 + labelFont + 8) : labelFont + 12;
  const top = Math.max(columnHeader + 6, AXIS_TITLES_HEIGHT);
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

/** The axis titles and the token labels along the top (answering) and the left (asking, each a button). */
function drawLabels(svg, tokens, layout, ids) {
  const { cell, left, top } = layout;
  const answers = el("text", { x: left - 10, y: top - 24, class: "axis-title", "text-anchor": "end" });
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
          class: "cell-value", "text-anchor": "middle", "dominant-baseline": "central", "font-size": layout.valueFont, "data-row": i,
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
export function drawHeatmap(svg, tokens, layout, { hatchId, compact, ids }) {
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
export function paintCell(slot, weight, masked, hatchId) {
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
export function placeOutline(outline, layout, rows, row, column) {
  if (row === null || row === undefined || row >= rows) {
    setAttributeIfChanged(outline, "visibility", "hidden");
    return;
  }
  setAttributeIfChanged(outline, "y", String(layout.top + row * layout.cell));
  if (column !== undefined) setAttributeIfChanged(outline, "x", String(layout.left + column * layout.cell));
  setAttributeIfChanged(outline, "visibility", "visible");
}

/** Rename the labels drawn (`drawn` as drawHeatmap returns it) in place: the same number of tokens, other words. */
export function relabel(drawn, tokens) {
  tokens.forEach((token, i) => {
    const text = shortLabel(token);
    if (drawn.columnLabels[i].textContent !== text) drawn.columnLabels[i].textContent = text;
    const rowText = drawn.rowLabels[i].lastChild;
    if (rowText.textContent !== text) rowText.textContent = text;
    // Every row's name, not only a renamed one's: renaming a word can make another one a repeat.
    setAttributeIfChanged(drawn.rowLabels[i], "aria-label", `Show where ${namedToken(tokens, i)} pays attention`);
  });
}
