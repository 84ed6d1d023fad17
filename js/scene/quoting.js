/**
 * A word or a title as the page quotes it in a sentence: in curly quotes, with a visible mark for an empty
 * name. The views (ui/shared/format.js) and the page's own messages quote alike.
 */

/** `token` in curly quotes; an empty name shows as a quoted space. */
export function quoted(token) {
  return token === "" ? "“ ”" : `“${token}”`;
}
