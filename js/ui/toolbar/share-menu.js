/**
 * "Copy link": makes a link to exactly what is on screen (the scene, the focused token, the head,
 * the panels shown), puts it on the clipboard, and shows it so it can also be copied by hand. "Opens at" lets
 * the link say where the page opens: at the top, or at a panel further down (the trained model set up for a
 * lesson, say), which the page then scrolls to.
 */

import { make } from "../shared/dom.js";

/**
 * Mount the link button in `host`.
 * @param {HTMLElement} host
 * @param {{actions: {link: (options: {at: string|null}) => Promise<string>}, places: Object<string, string>}} context
 *   `places`: the panels a link may open at, by name, with the words that name them
 */
export function mountShareMenu(host, { actions, places = {} }) {
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
  const opensAt = make("label", "share-opens-at", "opens at ");
  const place = make("select", "share-place");
  place.dataset.testid = "link-opens-at";
  place.append(new Option("the top", ""), ...Object.entries(places).map(([name, words]) => new Option(words, name)));
  opensAt.append(place);
  const group = make("div", "share-group");
  group.append(button, opensAt, field, status);
  host.append(group);

  button.addEventListener("click", async () => {
    status.textContent = ""; // the previous link's message goes at once: the new one follows
    let link;
    try {
      link = await actions.link({ at: place.value || null });
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
