/**
 * Whether the page runs embedded in another page (`index.html?embed`), as a rule of its own: boot.js needs it
 * before anything else of the page has loaded, and embed-mode.js reads the rest of the embed options.
 */

/** True for `?embed`, `?embed=1`, …; false without it, or for `?embed=0` and `?embed=false`. */
export function isEmbedded(search) {
  const params = new URLSearchParams(search);
  return params.has("embed") && params.get("embed") !== "0" && params.get("embed") !== "false";
}
