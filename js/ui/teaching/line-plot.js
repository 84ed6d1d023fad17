/**
 * A small SVG line plot: a few named series over a shared x axis (drawn on a log₂ scale, for vector
 * lengths such as 4, 64, 512), y from 0 to 1. Built from data on every update; it has a handful of
 * points, so there is nothing to cache.
 */

import { el } from "../heatmap/colour-scale.js";

const WIDTH = 460;
const HEIGHT = 240;
const PAD = { left: 46, right: 120, top: 14, bottom: 40 };

/**
 * Create a plot.
 * @param {{testId: string, xLabel: string, yLabel: string}} options
 * @returns {{element: SVGSVGElement, update: (data: {xs: number[], series: Array<{name: string, className: string, ys: number[]}>}) => void}}
 */
export function createLinePlot({ testId, xLabel, yLabel }) {
  const svg = el("svg", { class: "line-plot", "data-testid": testId, viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: "img" });

  function update({ xs, series }) {
    svg.replaceChildren();
    const logs = xs.map((x) => Math.log2(x));
    const low = Math.min(...logs);
    const high = Math.max(...logs);
    const span = high - low || 1;
    const innerWidth = WIDTH - PAD.left - PAD.right;
    const innerHeight = HEIGHT - PAD.top - PAD.bottom;
    const px = (x) => PAD.left + (xs.length === 1 ? innerWidth / 2 : ((Math.log2(x) - low) / span) * innerWidth);
    const py = (y) => PAD.top + (1 - y) * innerHeight;
    const text = (content, attributes) => {
      const node = el("text", attributes);
      node.textContent = content;
      svg.append(node);
      return node;
    };

    for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
      svg.append(el("line", { class: "plot-grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: py(tick), y2: py(tick) }));
      text(tick.toFixed(2), { class: "plot-tick", x: PAD.left - 6, y: py(tick), "text-anchor": "end", "dominant-baseline": "central" });
    }
    for (const x of xs) text(String(x), { class: "plot-tick", x: px(x), y: HEIGHT - PAD.bottom + 16, "text-anchor": "middle" });
    text(xLabel, { class: "plot-axis", x: PAD.left + innerWidth / 2, y: HEIGHT - 6, "text-anchor": "middle" });
    text(yLabel, { class: "plot-axis", x: 12, y: PAD.top + innerHeight / 2, "text-anchor": "middle", transform: `rotate(-90 12 ${PAD.top + innerHeight / 2})` });

    series.forEach(({ name, className, ys }) => {
      const points = xs.map((x, k) => `${px(x)},${py(ys[k])}`).join(" ");
      svg.append(el("polyline", { class: `plot-line ${className}`, points, "data-series": name }));
      xs.forEach((x, k) => {
        const dot = el("circle", { class: `plot-dot ${className}`, cx: px(x), cy: py(ys[k]), r: 4, "data-series": name, "data-x": x, "data-y": ys[k] });
        const title = el("title");
        title.textContent = `${name}, d = ${x}: ${ys[k].toFixed(3)}`;
        dot.append(title);
        svg.append(dot);
      });
      const last = ys.at(-1);
      text(name, { class: `plot-legend ${className}`, x: WIDTH - PAD.right + 8, y: py(last), "dominant-baseline": "central" });
    });
    svg.setAttribute("aria-label", `${yLabel} against ${xLabel}: ${series.map(({ name, ys }) => `${name} ${ys.map((y) => y.toFixed(3)).join(", ")}`).join("; ")}`);
  }

  return { element: svg, update };
}
