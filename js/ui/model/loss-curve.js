/**
 * The training loss, step by step, drawn as it falls: one SVG polyline, x from step 1 to the run's last
 * step, y from 0 to the highest loss so far. Redrawn from the losses on every report (a few hundred points).
 * The sudden drop Python found in the curve (model/loss_drop.py), if any, is marked: a band over its steps
 * and a line at the loss before it and after it.
 */

import { el } from "../heatmap/colour-scale.js";
import { drawLossAxes, lossPoints } from "./loss-axes.js";

const WIDTH = 420;
const HEIGHT = 170;
const PAD = { left: 40, right: 12, top: 10, bottom: 30 };

/**
 * @returns {{element: SVGSVGElement,
 *   update: (view: {losses: number[], steps: number, drop?: {start: number, end: number, before: number, after: number}|null}) => void}}
 */
export function createLossCurve() {
  const svg = el("svg", { class: "loss-curve", "data-testid": "model-loss-curve", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: "img" });

  function update({ losses, steps, drop = null }) {
    const top = Math.max(1, ...losses.map((loss) => Math.ceil(loss)));
    const { px, py } = drawLossAxes(svg, { width: WIDTH, height: HEIGHT, pad: PAD, steps, top });
    if (drop) {
      // Under the line: the band over the drop's steps, and the level it fell from and to either side.
      const x1 = px(drop.start);
      const x2 = Math.max(px(drop.end), x1 + 2);
      svg.append(el("rect", { class: "loss-drop-band", "data-testid": "model-loss-drop-mark", "data-start": drop.start,
        "data-end": drop.end, x: x1, y: PAD.top, width: x2 - x1, height: HEIGHT - PAD.top - PAD.bottom }));
      svg.append(el("line", { class: "loss-drop-level", x1: Math.max(PAD.left, x1 - 40), x2: x1, y1: py(drop.before), y2: py(drop.before) }));
      svg.append(el("line", { class: "loss-drop-level", x1: x2, x2: Math.min(WIDTH - PAD.right, x2 + 40), y1: py(drop.after), y2: py(drop.after) }));
    }
    if (losses.length) {
      const points = lossPoints(losses, px, py);
      svg.append(el("polyline", { class: "plot-line loss-line", points }));
    }
    const last = losses.at(-1);
    const dropText = drop ? `; a sudden drop from ${drop.before.toFixed(2)} to ${drop.after.toFixed(2)} between steps ${drop.start} and ${drop.end}` : "";
    svg.setAttribute("aria-label", losses.length
      ? `Training loss over ${losses.length} of ${steps} steps: from ${losses[0].toFixed(2)} to ${last.toFixed(2)}${dropText}`
      : "Training loss: no steps yet");
    svg.dataset.points = String(losses.length);
  }

  update({ losses: [], steps: 1 });
  return { element: svg, update };
}
