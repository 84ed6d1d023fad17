/**
 * The weight colour scale (viridis) and its legend.
 *
 * Viridis runs from dark purple (weight 0) to yellow (weight 1). Its lightness rises evenly, so equal
 * steps in weight look like equal steps in colour, and it stays readable for the common kinds of
 * colour blindness and in greyscale. Text on a cell is black or white, whichever contrasts more.
 */

const SVG_NS = "http://www.w3.org/2000/svg";

// Viridis sampled at 0, 0.1, …, 1 (matplotlib's values); between samples we interpolate in RGB,
// which is visually indistinguishable from the full 256-entry table at this spacing.
const VIRIDIS = [
  [68, 1, 84], [72, 36, 117], [65, 68, 135], [53, 95, 141], [42, 120, 142], [33, 145, 140],
  [34, 168, 132], [68, 191, 112], [122, 209, 81], [189, 223, 38], [253, 231, 37],
];

/** The viridis colour for a weight in [0, 1], as [r, g, b] (0–255). */
function viridisRgb(weight) {
  const t = Math.min(1, Math.max(0, weight)) * (VIRIDIS.length - 1);
  const low = Math.floor(t);
  const high = Math.min(low + 1, VIRIDIS.length - 1);
  const mix = t - low;
  return VIRIDIS[low].map((channel, k) => Math.round(channel + (VIRIDIS[high][k] - channel) * mix));
}

/** The viridis colour for a weight in [0, 1], as a CSS colour. */
export function weightColour(weight) {
  const [r, g, b] = viridisRgb(weight);
  return `rgb(${r} ${g} ${b})`;
}

/**
 * WCAG relative luminance of a colour.
 * @param {number[]} rgb [r, g, b], 0–255
 * @returns {number}
 */
function relativeLuminance([r, g, b]) {
  const linear = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** Black or white: whichever has the higher WCAG contrast on the weight's colour. */
export function textColourOn(weight) {
  const luminance = relativeLuminance(viridisRgb(weight));
  // Contrast with white is 1.05 / (L + 0.05), with black (L + 0.05) / 0.05; they are equal at L ≈ 0.179.
  return luminance > 0.179 ? "#111" : "#fff";
}

/**
 * Build the legend: the colour ramp from 0 to 1 with ticks, and the symbol for a masked cell.
 * @param {string} hatchId the id of the hatch pattern used for masked cells (defined by `hatchPattern`)
 * @returns {SVGSVGElement}
 */
export function createLegend(hatchId) {
  const svg = document.createElementNS(SVG_NS, "svg");
  const width = 360;
  svg.setAttribute("viewBox", `0 0 ${width} 46`);
  svg.setAttribute("class", "legend");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Colour scale: dark purple is weight 0, yellow is weight 1; hatched grey cells with × are masked");
  const defs = el("defs");
  const gradient = el("linearGradient", { id: `${hatchId}-ramp` });
  VIRIDIS.forEach((_, k) => {
    const offset = k / (VIRIDIS.length - 1);
    gradient.append(el("stop", { offset: String(offset), "stop-color": weightColour(offset) }));
  });
  defs.append(gradient, hatchPattern(`${hatchId}-legend`));
  svg.append(defs);
  const rampWidth = 200;
  svg.append(el("rect", { x: 0, y: 4, width: rampWidth, height: 14, rx: 2, fill: `url(#${hatchId}-ramp)` }));
  for (const value of [0, 0.25, 0.5, 0.75, 1]) {
    const x = value * rampWidth;
    svg.append(el("line", { x1: x, x2: x, y1: 18, y2: 23, class: "legend-tick" }));
    const label = el("text", { x, y: 35, "text-anchor": value === 0 ? "start" : value === 1 ? "end" : "middle", class: "legend-text" });
    label.textContent = value === 0 ? "0" : value === 1 ? "1" : String(value);
    svg.append(label);
  }
  const caption = el("text", { x: rampWidth / 2, y: 45, "text-anchor": "middle", class: "legend-caption" });
  caption.textContent = "weight";
  svg.append(caption);
  const swatchX = rampWidth + 30;
  svg.append(el("rect", { x: swatchX, y: 2, width: 18, height: 18, fill: `url(#${hatchId}-legend)`, class: "legend-masked" }));
  const cross = el("text", { x: swatchX + 9, y: 15.5, "text-anchor": "middle", class: "masked-symbol" });
  cross.textContent = "×";
  const maskedLabel = el("text", { x: swatchX + 26, y: 15, class: "legend-text" });
  maskedLabel.textContent = "masked";
  const maskedNote = el("text", { x: swatchX + 26, y: 30, class: "legend-caption" });
  maskedNote.textContent = "may not read";
  svg.append(cross, maskedLabel, maskedNote);
  return svg;
}

/** The diagonal hatch that marks a masked cell (pattern, not colour, so it reads without colour vision). */
export function hatchPattern(id) {
  const pattern = el("pattern", { id, width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  pattern.append(el("rect", { width: 6, height: 6, class: "hatch-back" }), el("line", { x1: 0, y1: 0, x2: 0, y2: 6, class: "hatch-line" }));
  return pattern;
}

/** Create an SVG element with attributes. */
export function el(name, attributes = {}) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}
