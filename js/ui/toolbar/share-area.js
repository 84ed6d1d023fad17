/**
 * What "Share and download" holds, in its order: "Copy link" (share-menu.js), the downloads and "Open scene file…"
 * (export-import.js), and, on the full page, "Copy embed code" (embed-code.js). One module, so that the page loads
 * them together, once, when the area is first opened (or once Python is live).
 */

import { mountEmbedCode } from "./embed-code.js";
import { mountExportImport } from "./export-import.js";
import { mountShareMenu } from "./share-menu.js";

/**
 * Fill `area` with the sharing and file controls.
 * @param {HTMLElement} area
 * @param {object} context
 * @param {object} context.store
 * @param {object} context.actions the controller's actions (link, download, openFile, embedSnippet, …)
 * @param {Object<string, string>} context.places the panels a link may open at, with the words that name them
 * @param {() => {heatmap: SVGSVGElement, legend: SVGSVGElement}} context.picture the heatmap as drawn now
 * @param {object|null} context.embedCode "Copy embed code"'s choices (see embed-code.js), or null for none (in a
 *   course page's frame)
 */
export function mountShareArea(area, { store, actions, places, picture, embedCode }) {
  mountShareMenu(area, { store, actions, places });
  mountExportImport(area, { store, actions, picture });
  if (embedCode) mountEmbedCode(area, { actions, ...embedCode });
}
