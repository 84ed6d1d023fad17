/**
 * Light or dark: the page follows the system's setting (prefers-color-scheme) until the learner picks one with
 * this button; the pick is remembered in localStorage. The choice is written as `data-theme` on <html>, which
 * is what the style sheet reads.
 */

const STORAGE_KEY = "attention-playground-theme";
const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

/** The learner's stored pick ("light" | "dark"), or null to follow the system. */
function storedTheme() {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return value === "light" || value === "dark" ? value : null;
  } catch {
    return null; // storage can be refused (private modes, embedded frames): then nothing is remembered
  }
}

function store(theme) {
  try {
    window.localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // see storedTheme
  }
}

/** The theme in force now. */
export function currentTheme() {
  return storedTheme() ?? (systemDark.matches ? "dark" : "light");
}

/**
 * Apply the theme at once and put the toggle button in `host`.
 * @param {HTMLElement} host
 */
export function mountThemeToggle(host) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "theme-toggle";
  button.dataset.testid = "theme-toggle";
  button.textContent = "Dark mode";
  host.append(button);

  function apply() {
    const theme = currentTheme();
    document.documentElement.dataset.theme = theme;
    button.setAttribute("aria-pressed", String(theme === "dark"));
  }

  button.addEventListener("click", () => {
    store(currentTheme() === "dark" ? "light" : "dark");
    apply();
  });
  systemDark.addEventListener("change", apply);
  apply();
}
