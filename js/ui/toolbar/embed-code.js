/**
 * "Copy embed code": the button, under "Share and download", and the place of its dialog after it. The dialog (the
 * frame's choices and the snippet: embed-code-dialog.js) loads when the button is first pressed.
 */

import { make } from "../shared/dom.js";

/**
 * Mount the button in `host`, and its dialog's place.
 * @param {HTMLElement} host
 * @param {object} context
 * @param {{embedCode: (options: object) => Promise<string>, compactEmbedPanels: () => string[]}} context.actions
 *   the controller's
 * @param {string[]} context.panels the panels a frame can show; `defaultPanels` those it shows unless told
 * @param {string[]} context.defaultPanels
 * @param {string[]} context.lockable the parts of a scene a frame can lock
 * @param {(name: string) => HTMLElement|null} context.panelElement the page's panel of that name, to measure it
 * @param {() => Promise<void>} [context.stylesheet] loads the dialog's rules (static/embed-code.css)
 */
export function mountEmbedCode(host, context) {
  const button = make("button", "tool-button", "Copy embed code");
  button.type = "button";
  button.dataset.testid = "copy-embed-code";
  const panel = make("div", "embed-code");
  panel.hidden = true;
  host.append(button, panel);
  let dialog = null;
  button.addEventListener("click", async () => {
    dialog ??= Promise.all([import("./embed-code-dialog.js"), context.stylesheet?.()]).then(([{ fillEmbedCode }]) => fillEmbedCode(panel, context), (error) => {
      dialog = null; // the next press tries again
      throw error;
    });
    await (await dialog).open();
  });
}
