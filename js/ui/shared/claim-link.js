/**
 * "Test this claim by training": the link a place in the page gives to the test of the claim it makes (the
 * ÷√d switch to "Divide by √d", the mask switches to the causal mask's, the shuffle to positions', the Part 6
 * experiment to separate queries and keys). It calls the controller's `openClaim`, which brings "Test a claim"
 * into view with the claim chosen; the learner then presses Train both.
 *
 * The test lives under the trained model's panel: where that panel is not on the page (a link hid it, or a course
 * page's frame left it out), the link hides too, as it does in the notebook widget, which has no test.
 */

import { make } from "./dom.js";

/**
 * Mount the link at the end of `host`.
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, when?: import("../../state/redraw-schedule.js").RedrawTiming,
 *   actions: {openClaim: (id: string) => Promise<any>, panelShown: (name: string) => boolean},
 *   claim: string, text?: string, about?: string}} context `claim` the claim's id (model/claims.py), `text` the
 *   link's words, `about` the claim itself where the words alone do not say which it is: it follows the words in
 *   the link's accessible name ("test by training: the causal mask is what makes …"), out of sight, so that the
 *   name begins with what is on screen, as a learner who speaks the words to a voice control says them (WCAG 2.5.3)
 * @returns {HTMLButtonElement}
 */
export function mountClaimLink(host, { store, when, actions, claim, text = "Test this claim by training", about = "" }) {
  const link = make("button", "link-button claim-link", text);
  link.type = "button";
  if (about) {
    link.append(make("span", "visually-hidden", `: ${about}`));
    link.title = `Test this claim by training: ${about}`;
  }
  link.dataset.testid = "claim-link";
  link.dataset.claim = claim;
  link.addEventListener("click", () => actions.openClaim(claim).catch(() => {})); // a failure is said in a notice
  host.append(link);
  // A host with no claim's test (the notebook widget, which shares the switches) offers no link to one.
  const offered = typeof actions.openClaim === "function" && typeof actions.panelShown === "function";
  const follow = () => {
    link.hidden = !offered || !actions.panelShown("model");
  };
  store.subscribe((state, changes) => {
    if (changes.has("view")) follow();
  }, when);
  follow();
  return link;
}
