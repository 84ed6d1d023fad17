/**
 * The axes a training-loss chart draws on: grid lines and ticks at 0, half and the top loss, the first and
 * last step, and the axis names. The single run's curve (loss-curve.js) and a claim's two (claim-curves.js)
 * draw their lines on them.
 */

import { el } from "../heatmap/colour-scale.js";

/**
 * Empty `svg` and draw the axes for `steps` steps and losses up to `top` (a whole number at least 1).
 * Returns where a step and a loss fall, and a way to add a text.
 * @param {SVGSVGElement} svg
 * @param {{width: number, height: number, pad: {left: number, right: number, top: number, bottom: number},
 *   steps: number, top: number}} frame
 */
export function drawLossAxes(svg, { width, height, pad, steps, top }) {
  svg.replaceChildren();
  const innerWidth = width - pad.left - pad.right;
  const innerHeight = height - pad.top - pad.bottom;
  const px = (step) => pad.left + ((step - 1) / Math.max(1, steps - 1)) * innerWidth;
  const py = (loss) => pad.top + (1 - loss / top) * innerHeight;
  const text = (content, attributes) => {
    const node = el("text", attributes);
    node.textContent = content;
    svg.append(node);
  };
  for (const tick of [0, top / 2, top]) {
    svg.append(el("line", { class: "plot-grid", x1: pad.left, x2: width - pad.right, y1: py(tick), y2: py(tick) }));
    text(tick.toFixed(tick % 1 ? 1 : 0), { class: "plot-tick", x: pad.left - 6, y: py(tick), "text-anchor": "end", "dominant-baseline": "central" });
  }
  text("1", { class: "plot-tick", x: pad.left, y: height - pad.bottom + 14, "text-anchor": "middle" });
  text(String(steps), { class: "plot-tick", x: width - pad.right, y: height - pad.bottom + 14, "text-anchor": "end" });
  text("step", { class: "plot-axis", x: pad.left + innerWidth / 2, y: height - 4, "text-anchor": "middle" });
  text("loss", { class: "plot-axis", x: 10, y: pad.top + innerHeight / 2, "text-anchor": "middle", transform: `rotate(-90 10 ${pad.top + innerHeight / 2})` });
  return { px, py, text, innerWidth };
}

/** The polyline's points for `losses`, step 1 first. */
export const lossPoints = (losses, px, py) => losses.map((loss, i) => `${px(i + 1).toFixed(1)},${py(loss).toFixed(1)}`).join(" ");
