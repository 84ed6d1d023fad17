/**
 * A claim's two training losses on one chart: the model with the design choice and the model without it,
 * step by step, x from step 1 to the pair's last step, y from 0 to the highest loss so far. The two lines
 * differ in colour and in dash, and the legend names them, so colour is never the only signal.
 */

import { el } from "../heatmap/colour-scale.js";
import { drawLossAxes, lossPoints } from "../model/loss-axes.js";

const WIDTH = 460;
const HEIGHT = 190;
const PAD = { left: 40, right: 12, top: 28, bottom: 30 };

/** The two runs, in drawing order: [side, the chart's class for its colour (teaching.css), dash]. */
const SIDES = [["with", "scaled", ""], ["without", "unscaled", "5 3"]];

/** The most characters of a line of the chart's note, and the height of a line. */
const NOTE_LINE_CHARACTERS = 70;
const NOTE_LINE_HEIGHT = 14;

/** `text` broken into lines of at most NOTE_LINE_CHARACTERS (a longer word stands alone). */
function noteLines(text) {
  const lines = [];
  for (const word of text.split(" ")) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= NOTE_LINE_CHARACTERS) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * The note written on the chart, between the legend and the plot, and a leader from it to the end of the line
 * it is about (its `side`). The note is drawn in that line's colour.
 */
function drawNote(svg, { note, lines, points }) {
  const colour = SIDES.find(([side]) => side === note.side)?.[1] ?? "";
  const body = el("text", { class: `plot-legend claim-chart-note ${colour}`, "data-testid": "claim-chart-note", "data-side": note.side });
  lines.forEach((line, k) => {
    const span = el("tspan", { x: PAD.left, y: PAD.top + k * NOTE_LINE_HEIGHT });
    span.textContent = line;
    body.append(span);
  });
  svg.append(body);
  const end = points.split(" ").at(-1)?.split(",").map(Number);
  if (end?.length === 2) {
    const below = PAD.top + (lines.length - 1) * NOTE_LINE_HEIGHT + 4;
    svg.append(el("line", { class: `plot-line claim-note-leader ${colour}`, x1: end[0], y1: below, x2: end[0], y2: end[1] - 3, "stroke-dasharray": "2 2" }));
  }
}

/**
 * @returns {{element: SVGSVGElement, update: (view: {losses: {with: number[], without: number[]}, steps: number,
 *   labels: {with: string, without: string}, note?: {side: string, text: string}|null}) => void}} `note`: a
 *   sentence the chart itself says about one side's line (claim-results.js writes it from the measurements)
 */
export function createClaimCurves() {
  const svg = el("svg", { class: "line-plot claim-curves", "data-testid": "claim-curves", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: "img" });

  function update({ losses, steps, labels, note = null }) {
    const lines = note && losses[note.side]?.length ? noteLines(note.text) : [];
    const room = lines.length ? lines.length * NOTE_LINE_HEIGHT + 6 : 0; // the note's lines, above the plot
    const height = HEIGHT + room;
    svg.setAttribute("viewBox", `0 0 ${WIDTH} ${height}`);
    svg.setAttribute("height", String(height));
    const top = Math.max(1, ...losses.with.map(Math.ceil), ...losses.without.map(Math.ceil));
    const pad = { ...PAD, top: PAD.top + room };
    const { px, py, text, innerWidth } = drawLossAxes(svg, { width: WIDTH, height, pad, steps, top });
    SIDES.forEach(([side, colour, dash], index) => {
      const x = PAD.left + index * (innerWidth / 2);
      svg.append(el("line", { class: `plot-line ${colour}`, x1: x, x2: x + 22, y1: 10, y2: 10, ...(dash ? { "stroke-dasharray": dash } : {}) }));
      text(labels[side], { class: `plot-legend ${colour}`, x: x + 28, y: 10, "dominant-baseline": "central" });
      if (!losses[side].length) return;
      const points = lossPoints(losses[side], px, py);
      svg.append(el("polyline", { class: `plot-line ${colour}`, points, "data-side": side, ...(dash ? { "stroke-dasharray": dash } : {}) }));
    });
    const said = SIDES.map(([side]) => losses[side].length
      ? `${labels[side]}: from ${losses[side][0].toFixed(2)} to ${losses[side].at(-1).toFixed(2)}`
      : `${labels[side]}: no steps yet`);
    if (lines.length) drawNote(svg, { note, lines, points: lossPoints(losses[note.side], px, py) });
    const noted = lines.length ? `. ${note.text}` : "";
    svg.setAttribute("aria-label", `Training loss over ${losses.with.length} of ${steps} steps. ${said.join("; ")}${noted}`);
    svg.dataset.points = String(losses.with.length);
  }

  update({ losses: { with: [], without: [] }, steps: 1, labels: { with: "with", without: "without" } });
  return { element: svg, update };
}
