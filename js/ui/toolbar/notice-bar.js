/**
 * One line for what the page has to tell the learner about their work: a link that could not be
 * opened, a file that is not a scene, edits that were put aside and can be brought back.
 */

import { make } from "../shared/dom.js";

/**
 * Mount the notice line in `host`; it shows `state.notice` (see page/controller.js).
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, actions: {dismissNotice: Function}}} context
 */
export function mountNoticeBar(host, { store, actions }) {
  const bar = make("div", "notice-bar");
  bar.dataset.testid = "notice";
  bar.setAttribute("role", "status");
  bar.setAttribute("aria-live", "polite");
  bar.hidden = true;
  const text = make("span", "notice-text");
  text.dataset.testid = "notice-text";
  const action = make("button", "link-button notice-action");
  action.type = "button";
  action.dataset.testid = "notice-action";
  const close = make("button", "notice-close", "×");
  close.type = "button";
  close.title = "Dismiss";
  close.setAttribute("aria-label", "Dismiss this message");
  bar.append(text, action, close);
  host.append(bar);

  let run = null;
  action.addEventListener("click", () => run?.());
  close.addEventListener("click", () => actions.dismissNotice());

  store.subscribe((state, changes) => {
    if (!changes.has("notice")) return;
    const { notice } = state;
    bar.hidden = !notice;
    if (!notice) return;
    bar.dataset.tone = notice.tone;
    text.textContent = notice.text;
    run = notice.action?.run ?? null;
    action.hidden = !notice.action;
    action.textContent = notice.action?.label ?? "";
  });
}
