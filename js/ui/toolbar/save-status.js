/**
 * A quiet line under the example picker that says whether the learner's edits are saved in this
 * browser, says so plainly when they cannot be, and offers edits that were put aside.
 */

import { make } from "../shared/dom.js";

/**
 * Mount the line in `host`.
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, actions: {restoreKept: Function}}} context
 */
export function mountSaveStatus(host, { store, actions }) {
  const line = make("p", "save-status");
  line.dataset.testid = "save-status";
  const text = make("span", "save-text");
  text.dataset.testid = "save-text";
  const kept = make("button", "link-button", "bring back your earlier edits");
  kept.type = "button";
  kept.dataset.testid = "restore-kept";
  line.append(text, kept);
  host.append(line);
  kept.addEventListener("click", () => actions.restoreKept());

  function render(state) {
    const status = state.saveStatus ?? {};
    let message = "";
    if (status.problem) message = `⚠ ${status.problem} Copy a link to your work or download the scene to keep them.`;
    // In a course platform (js/lms/) a lesson's edits are kept in the learner's record there; the rest of the
    // page's edits last for the visit, so nothing is promised of them.
    else if (status.keptBy === "course") message = status.saved && state.edited && state.lesson ? "✓ Your edits, kept by your course." : "";
    else if (status.saved && state.edited && state.presetId) message = "✓ Your edits, saved in this browser.";
    else if (status.saved && !state.presetId) message = "✓ This scene is saved in this browser.";
    line.dataset.tone = status.problem ? "error" : "info";
    text.textContent = message;
    // While a notice offers the same button, one is enough.
    kept.hidden = !status.kept || Boolean(status.problem) || Boolean(state.notice?.action);
    // Never hidden: an empty line keeps its place (see .save-status), so saving moves nothing below it.
    line.dataset.empty = String(!message && kept.hidden);
  }
  store.subscribe((state, changes) => {
    if (["saved", "example", "scene", "notice"].some((part) => changes.has(part))) render(state);
  });
  render(store.state);
}
