/**
 * The shipped examples, read from generated/presets/ (the build writes them from the module's presets): the
 * list once, each scene when it is asked for. An id that is not in the list is never fetched.
 */

const PRESETS_URL = "generated/presets/";

async function fetchJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

/**
 * @returns {{list: () => Promise<Array<{id: string, title: string, description: string}>>,
 *            scene: (id: string) => Promise<object>}}
 *   `list()` resolves to the examples in the picker's order (fetched once); `scene(id)` to that example's
 *   scene, or rejects with an Error saying why ("there is no such example", an HTTP status).
 */
export function createPresetLibrary() {
  let listing = null;
  const list = () => {
    listing ??= fetchJson(`${PRESETS_URL}index.json`);
    return listing;
  };
  return {
    list,
    async scene(id) {
      let known;
      try {
        known = (await list()).some((preset) => preset.id === id);
      } catch {
        known = true; // the list could not be read: the scene's own fetch says why, if it fails too
      }
      if (!known) throw new Error("there is no such example");
      return fetchJson(`${PRESETS_URL}${encodeURIComponent(id)}.json`);
    },
  };
}
