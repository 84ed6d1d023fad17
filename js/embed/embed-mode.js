/**
 * Embed mode: the playground inside a course page's <iframe>.
 *
 * Turned on by `?embed` in the page's URL. The options an author can add:
 *
 *   panels=heatmap,bars,features,weights   which panels show (names in PANELS; default: DEFAULT_PANELS)
 *   lock=X,Wq,mask                         which parts of the scene the learner may not change (names in
 *                                          locks.js's LOCKABLE_FIELDS, or "all"); the editors show them read-only, each
 *                                          panel says what is locked in it, and a locked control's name
 *                                          ends in "locked by this page"
 *   origins=https://a.example,...          which pages may drive the playground by postMessage (see
 *                                          post-message-api.js); default: any. Also the sites besides the
 *                                          playground's own that a lesson file may come from (below)
 *   lesson=ID&step=STEP                    open a lesson the playground ships, at a step
 *   lesson-src=URL&step=STEP               open a course's own lesson file (lessons/lesson-sources.js), its
 *                                          address relative to the playground's page
 *   theme=light|dark                       the frame's theme from the start (default: the host page's, see below)
 *   theme-toggle                           show the frame's own "Dark mode" button (default: hidden; the frame
 *                                          follows its host page)
 *
 * A frame follows the host page's theme: the host sends {type: "attention-playground:theme", theme: "light" |
 * "dark" | null} (js/embed-host.js sends the frame's `data-theme` attribute, else the host page's, and again
 * whenever either changes); null goes back to the reader's system setting.
 *
 * Locks are locks.js's.
 *
 * The frame also tells its parent how tall it is, whenever that changes, so the parent can size the
 * <iframe> to fit (js/embed-host.js does it for any page; embed-frame.js sends it):
 *
 *   {type: "attention-playground:resize", height}      height in CSS pixels
 *
 * and sends it again whenever the parent asks with {type: "attention-playground:measure"}. A frame whose parent has
 * sent neither a theme nor a request to measure HOST_SCRIPT_WAIT_MS after it started, and whose content is taller
 * than its window, says so once (a console warning for the author, a line at its top for the learner).
 */

import { PANEL_SELECTORS, host } from "../layout/panels.js";
import { isEmbedded } from "./embedded.js";
import { THEME_MESSAGE } from "./frame-messages.js";
import { locksFromOption } from "./locks.js";

/** The panels an author can choose, by name (layout/panels.js). */
export const PANELS = PANEL_SELECTORS;

/** The panels shown when the URL names none: the playground itself, without the longer teaching views. */
export const DEFAULT_PANELS = Object.freeze(["presets", "controls", "notes", "heatmap", "bars", "features", "weights"]);


/** The themes a frame can be told to show. */
const THEMES = ["light", "dark"];

/** Split a comma-separated URL option into its non-empty, trimmed items. */
function listOption(params, name) {
  const value = params.get(name);
  if (value === null) return null;
  return value.split(",").map((item) => item.trim()).filter(Boolean);
}

/**
 * Read the embed options from a URL.
 * @param {{search: string}} location the page's location (or a URL)
 * @returns {{embedded: boolean, panels: string[], locks: Set<string>, origins: string[]|null, theme: string|null,
 *            themeToggle: boolean, lesson: ReturnType<typeof lessonOption>}}
 *   `panels`: the panel names to show, in PANELS order (DEFAULT_PANELS unless `panels=` names some);
 *   `locks`: the locked fields; `origins`: the origins allowed to send messages, null for any; `theme`: the
 *   theme asked for ("light", "dark") or null; `themeToggle`: the frame shows its own theme button.
 *   Unknown names are left out.
 */
export function readEmbedOptions(location) {
  const params = new URLSearchParams(location.search);
  const embedded = isEmbedded(location.search);
  const asked = listOption(params, "panels");
  const lesson = lessonOption(params);
  // A lesson's frame shows what each step asks for, unless its author chose the panels.
  const panels = Object.keys(PANELS).filter((name) => (asked ?? (lesson ? Object.keys(PANELS) : DEFAULT_PANELS)).includes(name));
  const locks = locksFromOption(listOption(params, "lock") ?? []);
  const origins = listOption(params, "origins");
  const theme = THEMES.includes(params.get("theme")) ? params.get("theme") : null;
  return {
    embedded, panels, locks, origins: origins === null ? null : origins.map(normalOrigin).filter(Boolean),
    theme, themeToggle: params.has("theme-toggle"), lesson,
  };
}

/**
 * The lesson a frame opens (`lesson=ID&step=STEP`: the step's id or number; or `lesson-src=URL&step=STEP`, a course's
 * own lesson file, its address relative to the page), or null; a malformed one is none.
 */
function lessonOption(params) {
  const id = params.get("lesson");
  const src = params.get("lesson-src");
  const step = params.get("step");
  const at = step && /^([1-9][0-9]{0,3}|[a-z0-9][a-z0-9-]{0,99})$/.test(step) ? step : null;
  if (src && src.length <= 2000) return { src, step: at };
  if (!id || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(id)) return null;
  return { id, step: at };
}

/** An origin as the browser writes it in `event.origin` ("https://a.example", no path, no slash), or "". */
function normalOrigin(text) {
  try {
    const { origin } = new URL(text);
    return origin === "null" ? "" : origin;
  } catch {
    return "";
  }
}

/**
 * Switch the page to embed mode: compact layout and only the chosen panels. Call it before the views mount, so the
 * first paint is already compact. The rest of a frame's part (locked fields read-only, its height reported to its
 * parent) is embed-frame.js's, which the page loads beside its own code.
 * @param {ReturnType<typeof readEmbedOptions>} options
 */
export function startEmbedMode({ panels, themeToggle = false }) {
  document.documentElement.classList.add("embedded");
  // A frame follows its host page's theme; its own button shows only when the author asks for it.
  document.documentElement.classList.toggle("theme-toggle-asked", themeToggle);
  const root = host("playground");
  // A mark of its own, not `hidden`: a permalink's view may show or hide panels too, and a panel the
  // author left out must stay out whatever the link says.
  const leaveOut = (element, out) => element?.toggleAttribute("data-embed-hidden", out);
  for (const [name, selector] of Object.entries(PANELS)) leaveOut(document.querySelector(selector), !panels.includes(name));
  leaveOut(host("share-area"), true); // sharing belongs to the full page
  // Sections that hold several panels: with none of theirs shown they would leave an empty strip. The toolbar
  // also holds the notices (a refused example, say), so with none of its panels it shows only while one is up.
  root.querySelector(".toolbar")?.toggleAttribute("data-only-notices", !["presets", "controls", "notes"].some((name) => panels.includes(name)));
  leaveOut(host("teaching"), !["steps", "heads", "experiments", "exercise"].some((name) => panels.includes(name)));
}

/**
 * Follow the host page's theme: `theme.followHost` with the URL's `theme=` at once, then with every theme the
 * parent window sends (THEME_MESSAGE). Only the parent is listened to: the theme is its to choose.
 * @param {{followHost: (theme: string|null) => void}} theme page/theme.js
 * @param {string|null} initial the URL's theme option
 */
export function followHostTheme(theme, initial) {
  if (initial) theme.followHost(initial);
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || event.data?.type !== THEME_MESSAGE) return;
    const asked = event.data.theme;
    theme.followHost(THEMES.includes(asked) ? asked : initial);
  });
}
