/**
 * The training loss, step by step, drawn as it falls: one SVG polyline, x from step 1 to the run's last
 * step, y from 0 to the highest loss so far. Redrawn from the losses on every report (a few hundred points).
 */

import { el } from "../heatmap/colour-scale.js";

const WIDTH = 420;
const HEIGHT = 170;
const PAD = { left: 40, right: 12, top: 10, bottom: 30 };

/** @returns {{element: SVGSVGElement, update: (view: {losses: number[], steps: number}) => void}} */
export function createLossCurve() {
  const svg = el("svg", { class: "loss-curve", "data-testid": "model-loss-curve", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: "img" });

  function update({ losses, steps }) {
    svg.replaceChildren();
    const innerWidth = WIDTH - PAD.left - PAD.right;
    const innerHeight = HEIGHT - PAD.top - PAD.bottom;
    const top = Math.max(1, ...losses.map((loss) => Math.ceil(loss)));
    const px = (step) => PAD.left + ((step - 1) / Math.max(1, steps - 1)) * innerWidth;
    const py = (loss) => PAD.top + (1 - loss / top) * innerHeight;
    const text = (content, attributes) => {
      const node = el("text", attributes);
      node.textContent = content;
      svg.append(node);
    };
    for (const tick of [0, top / 2, top]) {
      svg.append(el("line", { class: "plot-grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: py(tick), y2: py(tick) }));
      text(tick.toFixed(tick % 1 ? 1 : 0), { class: "plot-tick", x: PAD.left - 6, y: py(tick), "text-anchor": "end", "dominant-baseline": "central" });
    }
    text("1", { class: "plot-tick", x: PAD.left, y: HEIGHT - PAD.bottom + 14, "text-anchor": "middle" });
    text(String(steps), { class: "plot-tick", x: WIDTH - PAD.right, y: HEIGHT - PAD.bottom + 14, "text-anchor": "end" });
    text("step", { class: "plot-axis", x: PAD.left + innerWidth / 2, y: HEIGHT - 4, "text-anchor": "middle" });
    text("loss", { class: "plot-axis", x: 10, y: PAD.top + innerHeight / 2, "text-anchor": "middle", transform: `rotate(-90 10 ${PAD.top + innerHeight / 2})` });
    if (losses.length) {
      const points = losses.map((loss, i) => `${px(i + 1).toFixed(1)},${py(loss).toFixed(1)}`).join(" ");
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
