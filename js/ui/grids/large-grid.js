/**
 * Large grids are skipped by the browser while they are off screen.
 *
 * A 64 × 64 scene puts some 16,000 number cells on the page, and every frame (each keystroke makes several)
 * would lay out and paint all of them. A grid with at least LARGE_GRID_CELLS cells is therefore marked so that
 * the browser skips its layout and paint until it comes near the screen (CSS `content-visibility: auto`). Its
 * cells stay in the document, so Tab, the arrow keys, find-in-page and screen readers reach every one of them;
 * the placeholder height comes from the row count, so the page does not jump when a grid is drawn.
 */

export const LARGE_GRID_CELLS = 1024;

/**
 * Mark `scroller` (a grid's .grid-scroll) for a grid of `rows` × `columns` number cells.
 * @param {HTMLElement} scroller
 * @param {number} rows
 * @param {number} columns
 */
export function markGridSize(scroller, rows, columns) {
  scroller.classList.toggle("skip-offscreen", rows * columns >= LARGE_GRID_CELLS);
  scroller.style.setProperty("--grid-rows", String(rows));
}
