/**
 * A claim's two training losses on one chart: the model with the design choice and the model without it,
 * step by step, x from step 1 to the pair's last step, y from 0 to the highest loss so far. The two lines
 * differ in colour and in dash, and the legend names them, so colour is never the only signal.
 */

import { el } from "../heatmap/colour-scale.js";
import { drawLossAxes, lossPoints } from "./loss-axes.js";

const WIDTH = 460;
const HEIGHT = 190;
const PAD = { left: 40, right: 12, top: 28, bottom: 30 };

/** The two runs, in drawing order: [side, the chart's class for its colour (teaching.css), dash]. */
const SIDES = [["with", "scaled", ""], ["without", "unscaled", "5 3"]];

/**
 * @returns {{element: SVGSVGElement, update: (view: {losses: {with: number[], without: number[]}, steps: number,
 *   labels: {with: string, without: string}}) => void}}
 */
export function createClaimCurves() {
  const svg = el("svg", { class: "line-plot claim-curves", "data-testid": "claim-curves", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: "img" });

  function update({ losses, steps, labels }) {
    const top = Math.max(1, ...losses.with.map(Math.ceil), ...losses.without.map(Math.ceil));
    const { px, py, text, innerWidth } = drawLossAxes(svg, { width: WIDTH, height: HEIGHT, pad: PAD, steps, top });
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
    svg.setAttribute("aria-label", `Training loss over ${losses.with.length} of ${steps} steps. ${said.join("; ")}`);
    svg.dataset.points = String(losses.with.length);
  }

  update({ losses: { with: [], without: [] }, steps: 1, labels: { with: "with", without: "without" } });
  return { element: svg, update };
}
