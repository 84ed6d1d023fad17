/**
 * Light or dark, as the page decides it: the system's setting (prefers-color-scheme) until the learner picks one
 * with the toggle, and that pick is remembered in localStorage. In a course page's frame the host page decides
 * (embed/embed-mode.js passes its choice to `followHost`), and nothing is remembered. Where the browser refuses
 * to remember a pick (storage turned off), the pick holds for the visit and the page is told (`onNotKept`), so it
 * can say so. The theme is written as
 * `data-theme` on <html>, which is what the style sheets read. The toggle (ui/toolbar/theme-toggle.js) only
 * draws the button.
 */

const STORAGE_KEY = "attention-playground-theme";
const THEMES = ["light", "dark"];

/** The learner's stored pick ("light" | "dark"), or null to follow the system. */
function storedTheme() {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return THEMES.includes(value) ? value : null;
  } catch {
    return null; // storage can be refused (private modes, embedded frames): then nothing is remembered
  }
}

/** Remember the learner's pick; false if the browser would not (see storedTheme). */
function storeTheme(theme) {
  try {
    window.localStorage.setItem(STORAGE_KEY, theme);
    return true;
  } catch {
    return false;
  }
}

/**
 * Apply the theme at once and keep it applied.
 * @param {{remember?: boolean, onNotKept?: (theme: string) => void}} [options] `remember` false in a course page's
 *   frame: the full page's pick is not the frame's (it follows its host), and a pick made in the frame lasts for
 *   the visit; `onNotKept(theme)`: the learner picked `theme` and the browser would not remember it
 * @returns {{current: () => string, toggle: () => void, followHost: (theme: string|null) => void,
 *            subscribe: (listener: (theme: string) => void) => void}}
 */
export function createTheme({ remember = true, onNotKept = () => {} } = {}) {
  const systemDark = window.matchMedia("(prefers-color-scheme: dark)");
  const listeners = [];
  /**
   * The theme for this visit, else null: the host page's while the page is in a frame that follows it, the
   * frame's own pick, or a pick the browser would not remember.
   */
  let hostTheme = null;

  const current = () => hostTheme ?? (remember ? storedTheme() : null) ?? (systemDark.matches ? "dark" : "light");

  function apply() {
    const theme = current();
    if (document.documentElement.dataset.theme !== theme) document.documentElement.dataset.theme = theme;
    for (const listener of listeners) listener(theme);
  }

  systemDark.addEventListener("change", apply);
  apply();
  return {
    current,
    /** The learner's pick: the other theme, remembered (in a frame that follows its host, for this visit). */
    toggle() {
      const next = current() === "dark" ? "light" : "dark";
      if (hostTheme || !remember) hostTheme = next;
      else if (!storeTheme(next)) {
        hostTheme = next; // for this visit, since the browser will not remember it
        onNotKept(next);
      }
      apply();
    },
    /** Follow the host page's theme ("light" or "dark"); anything else goes back to the page's own choice. */
    followHost(theme) {
      hostTheme = THEMES.includes(theme) ? theme : null;
      apply();
    },
    /** Call `listener(theme)` whenever the theme in force changes, and once now. */
    subscribe(listener) {
      listeners.push(listener);
      listener(current());
    },
  };
}
