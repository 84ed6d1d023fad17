/**
 * Finding the LMS's runtime, as SCORM's run-time environment asks content to: the object `API` (SCORM 1.2) or
 * `API_1484_11` (SCORM 2004) on this window or one of its parents, else on the window that opened it (and that
 * window's parents). The LMS puts it there before it launches the content; the content never makes one.
 *
 * The search follows ADL's published algorithm: up the chain of parents at most MAX_HOPS windows, stopping at a
 * window of another origin (reading its properties throws), then the same from `window.opener`.
 */

/** The runtime's global name in each version. */
export const API_NAMES = Object.freeze({ "1.2": "API", 2004: "API_1484_11" });

/** How many parents the search climbs before it gives up (ADL's algorithm uses 500 and 7 in its samples). */
const MAX_HOPS = 500;

/** `name` on window `win`, or null (absent, or `win` of another origin). */
function globalOf(win, name) {
  try {
    const found = win?.[name];
    return found && typeof found === "object" ? found : null;
  } catch {
    return null;
  }
}

/** `name` on `start` or one of its parents, or null. */
function searchUp(start, name) {
  let win = start;
  for (let hops = 0; win && hops <= MAX_HOPS; hops += 1) {
    const found = globalOf(win, name);
    if (found) return found;
    let parent = null;
    try {
      parent = win.parent;
    } catch {
      return null;
    }
    if (!parent || parent === win) return null;
    win = parent;
  }
  return null;
}

/**
 * Every runtime the LMS offers around `win`, in `versions`' order (the package's own first): each version's object
 * searched up the parents of `win`, then up from its opener. An LMS may offer one version's runtime under the other's
 * name too (wagtail-lms puts its SCORM 1.2 runtime under `API_1484_11` as well), so the caller tries each in turn.
 * @param {Window} win this window
 * @param {Array<"1.2"|"2004">} versions
 * @returns {Array<{version: "1.2"|"2004", api: object}>}
 */
export function findApis(win, versions = ["2004", "1.2"]) {
  let opener = null;
  try {
    opener = win.opener;
  } catch {
    opener = null;
  }
  const found = [];
  for (const version of versions) {
    const api = searchUp(win, API_NAMES[version]) ?? (opener ? searchUp(opener, API_NAMES[version]) : null);
    if (api) found.push({ version, api });
  }
  return found;
}
