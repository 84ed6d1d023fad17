/**
 * A frame's part in its course page once the page is up: the controls of locked fields made read-only
 * (locked-controls.js), and the frame's height told to its parent (embed-mode.js's header gives the messages).
 * main.js loads it beside the page's own code, in a frame only; the frame's first paint is already compact
 * (embed-mode.js startEmbedMode), and the page refuses edits of locked fields from the start (state/session.js).
 */

import { MEASURE_MESSAGE, RESIZE_MESSAGE, THEME_MESSAGE } from "./frame-messages.js";
import { keepLocked } from "./locked-controls.js";

/** How long a frame waits for the page around it to answer (embed-host.js sends the theme as a frame first reports). */
export const HOST_SCRIPT_WAIT_MS = 5000;

/**
 * Say, once, that the page around the frame does not size it: no answer came (no theme, no request to measure), and
 * the frame's content is taller than its window, so the learner has to scroll inside it. The author reads it in the
 * console; the learner sees a quiet line that says to scroll, and why.
 */
function sayHostScriptMissing() {
  console.warn("Attention Playground: this frame is not sized to fit its content, because the page around it did not load "
    + "js/embed-host.js (or the script was not found). Add <script src=\".../js/embed-host.js\" async></script> to the page.");
  const note = document.createElement("p");
  note.className = "host-script-missing";
  note.dataset.testid = "host-script-missing";
  note.textContent = "Scroll inside this frame to see all of it: the page around it does not size it to fit (its author can add embed-host.js).";
  document.body.prepend(note);
}

/**
 * Tell the parent page this document's height whenever it changes, so that it is right before the reader
 * first sees the frame.
 *
 * The height is measured after every change to the page, on a timer, not in the browser's rendering steps: a
 * browser does not render a frame that is off screen (Chromium throttles cross-origin frames), so a
 * ResizeObserver there fires only once the reader scrolls to it, and the text below the frame would jump. A
 * MutationObserver's callback and a timer run whether or not the frame is drawn, and reading the height lays
 * the page out on the spot. The parent can also ask for the height at any time (MEASURE_MESSAGE), as
 * embed-host.js does when its own window is resized, which changes the frame's width.
 */
function reportHeight() {
  if (window.parent === window) return;
  let last = -1;
  let scheduled = false;
  // Whether the page around answered (embed-host.js does), and whether the frame has said that it did not.
  let answered = false;
  let waited = false;
  let said = false;
  const checkAnswered = () => {
    if (answered || said || !waited || last <= window.innerHeight) return;
    said = true;
    sayHostScriptMissing();
  };
  const send = () => {
    scheduled = false;
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    // Only a number: nothing about the scene leaves the frame this way, so any parent may know it.
    window.parent.postMessage({ type: RESIZE_MESSAGE, height }, "*");
    checkAnswered();
  };
  setTimeout(() => {
    waited = true;
    checkAnswered();
  }, HOST_SCRIPT_WAIT_MS);
  // One measurement per burst of changes (a new result redraws many elements at once).
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(send, 0);
  };
  new MutationObserver(schedule).observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
  new ResizeObserver(schedule).observe(document.body);
  window.addEventListener("resize", schedule);
  window.addEventListener("load", schedule);
  document.fonts?.ready.then(schedule, () => {});
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    if (event.data?.type === THEME_MESSAGE) answered = true;
    if (event.data?.type !== MEASURE_MESSAGE) return;
    answered = true;
    last = -1; // asked: answer even if nothing changed
    send();
  });
  send();
}

/**
 * Keep the locked fields' controls read-only, and report the frame's height to its parent.
 * @param {{locks: Set<string>}} options the embed options (embed-mode.js readEmbedOptions)
 */
export function startFrame({ locks }) {
  keepLocked(document.body, locks); // the body: the teaching views (the positions switch) are outside the playground
  reportHeight();
}
