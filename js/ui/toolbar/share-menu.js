/**
 * "Copy link": makes a link to exactly what is on screen (the scene, the focused token, the head,
 * the panels shown), puts it on the clipboard, and shows it so it can also be copied by hand.
 */

import { make } from "../shared/dom.js";

/**
 * Mount the link button in `host`.
 * @param {HTMLElement} host
 * @param {{actions: {link: () => Promise<string>}}} context
 */
export function mountShareMenu(host, { actions }) {
  const button = make("button", "tool-button", "Copy link");
  button.type = "button";
  button.dataset.testid = "copy-link";
  button.title = "A link that opens this scene, as it is now, for anyone";
  const field = make("input", "share-link");
  field.type = "text";
  field.readOnly = true;
  field.hidden = true;
  field.dataset.testid = "share-link";
  field.setAttribute("aria-label", "Link to this scene");
  const status = make("span", "share-status");
  status.dataset.testid = "share-status";
  status.setAttribute("role", "status");
  const group = make("div", "share-group");
  group.append(button, field, status);
  host.append(group);

  button.addEventListener("click", async () => {
    status.textContent = ""; // the previous link's message goes at once: the new one follows
    let link;
    try {
      link = await actions.link();
    } catch (error) {
      status.textContent = `No link yet: ${error.message}`;
      return;
    }
    field.value = link;
    field.hidden = false;
    field.select();
    try {
      await navigator.clipboard.writeText(link);
      status.textContent = `Link copied (${link.length.toLocaleString("en")} characters).`;
    } catch {
      // No clipboard permission (an iframe, an old browser): the link is selected for copying by hand.
      status.textContent = "Select the link and copy it (Ctrl+C / ⌘C).";
    }
  });
  field.addEventListener("focus", () => field.select());
}
