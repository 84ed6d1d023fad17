/**
 * The sign that a wide grid scrolls sideways. On a phone the feature table is cut at the panel's edge, and a cut
 * table looks like a whole one: while columns are out of sight, the edge they are behind is shaded and a line
 * over the grid says which way they are ("more features →"). Nothing shows while the grid fits.
 */

import { make, setAttributeIfChanged, setText } from "../shared/dom.js";

/**
 * Frame `scroller` (a grid's `.grid-scroll`) with its cue and its edge shades.
 * @param {HTMLElement} scroller
 * @param {string} what the grid's columns, as the cue names them ("features", "dims")
 * @returns {HTMLElement} the frame, to put where the scroller was to go
 */
export function frameSideScroll(scroller, what) {
  const frame = make("div", "side-scroll");
  // For the eyes: a screen reader reads the table cell by cell, out of sight or not.
  const cue = make("p", "scroll-cue");
  cue.setAttribute("aria-hidden", "true");
  const view = make("div", "side-scroll-view");
  view.append(scroller);
  frame.append(cue, view);

  function follow() {
    const hidden = scroller.scrollWidth - scroller.clientWidth;
    const left = scroller.scrollLeft > 1;
    const right = scroller.scrollLeft < hidden - 1;
    setAttributeIfChanged(view, "data-more", left && right ? "both" : left ? "left" : right ? "right" : "none");
    setText(cue, right ? `scroll sideways: more ${what} →` : left ? `← more ${what}` : "");
  }
  scroller.addEventListener("scroll", follow, { passive: true });
  // The scroller's width follows the window's; its grid's, what the grid holds (a column added, a name typed).
  const sizes = new ResizeObserver(follow);
  sizes.observe(scroller);
  if (scroller.firstElementChild) sizes.observe(scroller.firstElementChild);
  // A resize is only observed where the page is drawn, and Chromium does not draw a course page's frame until it
  // is scrolled into view: the cue would then appear late and change the frame's height under the reader. So a
  // grid built or changed is measured too, drawn or not (followSoon).
  const followSoon = soon(follow);
  new MutationObserver(followSoon).observe(scroller, { childList: true, subtree: true });
  followSoon();
  return frame;
}

/** How long a change waits to be measured where no frame is drawn (a course page's frame out of view). */
const UNDRAWN_WAIT_MS = 100;

/**
 * `measure`, called once at the next frame after any number of calls, or UNDRAWN_WAIT_MS later where no frame comes.
 * Reading a grid's widths lays the page out: read in the middle of an update (every edit changes the grid's cells),
 * the page was laid out there and again when the update was drawn (60 calls of `await setScene` at 10 tokens made 87
 * to 95 layouts, 28 once measured here: bench/await_trace.py). At the next frame the page is laid out anyway.
 * @param {() => void} measure
 */
function soon(measure) {
  let frame = 0;
  let timer = 0;
  const run = () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    timer = 0;
    measure();
  };
  return () => {
    if (timer) return;
    frame = requestAnimationFrame(run);
    timer = setTimeout(run, UNDRAWN_WAIT_MS);
  };
}
