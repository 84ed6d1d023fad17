/**
 * "Copy link": makes a link to exactly what is on screen (the scene, the focused token, the head,
 * the panels shown), puts it on the clipboard, and shows it so it can also be copied by hand. "Opens at" lets
 * the link say where the page opens: at the top, or at a panel further down (the trained model set up for a
 * lesson, say), which the page then scrolls to. Once a claim is chosen in "Test a claim", "and start its test" makes
 * a link that trains the claim's pair as it opens (for a course author's lesson).
 */

import { make } from "../shared/dom.js";
import { makeLinkField } from "./link-field.js";

/**
 * Mount the link button in `host`.
 * @param {HTMLElement} host
 * @param {{store?: {state: object, subscribe: Function},
 *   actions: {link: (options: {at: string|null, startClaim?: boolean}) => Promise<string>}, places: Object<string, string>}} context
 *   `places`: the panels a link may open at, by name, with the words that name them
 */
export function mountShareMenu(host, { store = null, actions, places = {} }) {
  const button = make("button", "tool-button", "Copy link");
  button.type = "button";
  button.dataset.testid = "copy-link";
  button.title = "A link that opens this scene, as it is now, for anyone";
  const { field, status } = makeLinkField("share-link", "Link to this scene");
  status.dataset.testid = "share-status";
  const opensAt = make("label", "share-opens-at", "opens at ");
  const place = make("select", "share-place");
  place.dataset.testid = "link-opens-at";
  place.append(new Option("the top", ""), ...Object.entries(places).map(([name, words]) => new Option(words, name)));
  opensAt.append(place);
  const startsClaim = make("label", "share-starts-claim");
  const startBox = make("input");
  startBox.type = "checkbox";
  startBox.dataset.testid = "link-starts-claim";
  const startWords = make("span", "");
  startsClaim.append(startBox, startWords);
  startsClaim.hidden = true;
  const group = make("div", "share-group");
  group.append(button, opensAt, startsClaim, field, status);
  host.append(group);
  // Offered once a claim is chosen in "Test a claim": its title, as Python gave it, names it. The menu may be
  // mounted after one was chosen (its code loads when it is first opened), so it shows the claim as it is, too.
  const showClaim = (state) => {
    const chosen = state.claim?.id ?? null;
    startsClaim.hidden = !chosen;
    if (!chosen) startBox.checked = false;
    const title = state.claim?.claims?.find((entry) => entry.id === chosen)?.title ?? chosen ?? "";
    const words = `and start the test “${title}”`;
    if (startWords.textContent !== words) startWords.textContent = words;
  };
  store?.subscribe((state, changes) => {
    if (changes.has("claim")) showClaim(state);
  });
  if (store) showClaim(store.state);

  button.addEventListener("click", async () => {
    status.textContent = ""; // the previous link's message goes at once: the new one follows
    let link;
    try {
      link = await actions.link({ at: place.value || null, startClaim: !startsClaim.hidden && startBox.checked });
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
