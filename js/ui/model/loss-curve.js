/**
 * The training loss, step by step, drawn as it falls: one SVG polyline, x from step 1 to the run's last
 * step, y from 0 to the highest loss so far. Redrawn from the losses on every report (a few hundred points).
 */

import { el } from "../heatmap/colour-scale.js";
import { drawLossAxes, lossPoints } from "./loss-axes.js";

const WIDTH = 420;
const HEIGHT = 170;
const PAD = { left: 40, right: 12, top: 10, bottom: 30 };

/** @returns {{element: SVGSVGElement, update: (view: {losses: number[], steps: number}) => void}} */
export function createLossCurve() {
  const svg = el("svg", { class: "loss-curve", "data-testid": "model-loss-curve", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: "img" });

  function update({ losses, steps }) {
    const top = Math.max(1, ...losses.map((loss) => Math.ceil(loss)));
    const { px, py } = drawLossAxes(svg, { width: WIDTH, height: HEIGHT, pad: PAD, steps, top });
    if (losses.length) {
      const points = lossPoints(losses, px, py);
      svg.append(el("polyline", { class: "plot-line loss-line", points }));
    }
    const last = losses.at(-1);
    svg.setAttribute("aria-label", losses.length
      ? `Training loss over ${losses.length} of ${steps} steps: from ${losses[0].toFixed(2)} to ${last.toFixed(2)}`
      : "Training loss: no steps yet");
    svg.dataset.points = String(losses.length);
  }

  update({ losses: [], steps: 1 });
  return { element: svg, update };
}
