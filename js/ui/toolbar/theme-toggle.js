/**
 * The theme button. It says what it switches and whether that is on ("Dark mode: on"), and carries the same
 * state as aria-pressed, so a screen reader hears "Dark mode: on, toggle button, pressed". Which theme is in
 * force, and remembering the pick, is the controller's (page/theme.js).
 */

/**
 * Put the button in `host` (before `before`, if given).
 * @param {HTMLElement} host
 * @param {{onToggle: () => void, before?: Element|null}} handlers
 * @returns {{element: HTMLButtonElement, update: (theme: string) => void}}
 */
export function mountThemeToggle(host, { onToggle, before = null }) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "theme-toggle";
  button.dataset.testid = "theme-toggle";
  button.addEventListener("click", onToggle);
  host.insertBefore(button, before);

  /** Show `theme` ("light" or "dark") as the theme in force. */
  function update(theme) {
    const dark = theme === "dark";
    button.textContent = `Dark mode: ${dark ? "on" : "off"}`;
    button.setAttribute("aria-pressed", String(dark));
  }

  return { element: button, update };
}
