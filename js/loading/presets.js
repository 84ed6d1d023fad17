/**
 * The shipped examples, read from generated/presets/ (the build writes them from the module's presets): the
 * list once, each scene when it is asked for. An id that is not in the list is never fetched. Beside each, in
 * generated/previews/, its result as the module computed it at build time: what a page that opens on an example
 * draws while Python starts.
 */

import { fetchJson } from "./fetch-json.js";

const PRESETS_URL = "generated/presets/";
const PREVIEWS_URL = "generated/previews/";

/**
 * @returns {{list: () => Promise<Array<{id: string, title: string, description: string}>>,
 *            scene: (id: string) => Promise<object>, preview: (id: string) => Promise<object>}}
 *   `list()` resolves to the examples in the picker's order (fetched once); `scene(id)` to that example's
 *   scene, or rejects with an Error saying why ("there is no such example", an HTTP status); `preview(id)` to
 *   the result of that scene as shipped (compute()'s result), or rejects the same way.
 */
export function createPresetLibrary() {
  let listing = null;
  const list = () => {
    listing ??= fetchJson(`${PRESETS_URL}index.json`);
    return listing;
  };
  /** Fetch `id`'s file from `folder`, for an id the list knows. */
  async function shipped(folder, id) {
    let known;
    try {
      known = (await list()).some((preset) => preset.id === id);
    } catch {
      known = true; // the list could not be read: the file's own fetch says why, if it fails too
    }
    if (!known) throw new Error("there is no such example");
    return fetchJson(`${folder}${encodeURIComponent(id)}.json`);
  }
  return {
    list,
    scene: (id) => shipped(PRESETS_URL, id),
    preview: (id) => shipped(PREVIEWS_URL, id),
  };
}
