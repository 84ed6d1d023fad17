/**
 * The colours of a big heatmap's weights, painted on a canvas under its SVG.
 *
 * A heatmap of 25 tokens or more (heatmap.js's layout) has hundreds to thousands of cells, and the browser
 * repainting that many SVG rects was the dearest part of redrawing a 64-token scene (painting them here took
 * 5 to 9 ms off the p95 of a 64-token update, same-run A/B). So there each weight cell's colour is painted on
 * this canvas, and the style sheet stops the SVG painting the rect (`.cells-on-canvas`). The rects stay in the SVG,
 * each with its fill, at its place: the pointer, the keyboard, the tooltip, the exported picture and the tests
 * use them as before. Masked, not-a-number and pending cells are left to the SVG (their hatch and greys follow
 * the theme), and so is the cell that holds the keyboard's tab stop (a hidden element could not take focus).
 */

/**
 * A canvas, the size of the heatmap's SVG, that paints its weight cells.
 * @returns {{element: HTMLCanvasElement, resize: (layout: object) => void, paint: (row: number, column: number, fill: string|null) => void}}
 */
export function createCellCanvas() {
  const canvas = document.createElement("canvas");
  canvas.className = "heatmap-canvas";
  canvas.setAttribute("aria-hidden", "true");
  let context = null;
  let layout = null;

  return {
    element: canvas,

    /** Size the canvas to the SVG of `layout`, in device pixels for sharp edges, and clear it. */
    resize(nextLayout) {
      layout = nextLayout;
      const scale = window.devicePixelRatio || 1;
      canvas.width = Math.round(layout.width * scale);
      canvas.height = Math.round(layout.height * scale);
      // On the page it covers the SVG's box, whatever size the style sheet gives the SVG (style.css).
      context = canvas.getContext("2d");
      context.setTransform(scale, 0, 0, scale, 0, 0);
    },

    /**
     * Paint cell (row, column) with `fill`, or clear it (null: the SVG draws that cell). The rect's own stroke,
     * the panel's colour, is left as the gap between cells, as the SVG draws it.
     */
    paint(row, column, fill) {
      const { cell, left, top } = layout;
      const x = left + column * cell;
      const y = top + row * cell;
      context.clearRect(x, y, cell, cell);
      if (fill === null) return;
      context.fillStyle = fill;
      context.fillRect(x + 0.35, y + 0.35, cell - 0.7, cell - 0.7);
    },
  };
}
