/**
 * "Share and download": one button that shows and hides the sharing and file controls ("Copy link" and where it
 * opens, the downloads, "Open scene file…", "Copy embed code"). Shown, they stood as a row between the settings
 * and the heatmap, and pushed the grid below the first screen. A disclosure, not a pop-up menu: the controls it
 * shows take their place in the page's flow, under the title, and cover nothing.
 */

/**
 * Make `button` show and hide `area` (the element index.html names in its aria-controls).
 * @param {HTMLButtonElement} button
 * @param {HTMLElement} area
 * @param {{onOpen?: () => Promise<void>|void}} [options] `onOpen` is called each time the area is to be shown: the
 *   page fills it the first time, if it has not yet, and the area shows once it is filled (not empty, then growing)
 * @returns {{open: (shown: boolean) => void}}
 */
export function mountShareDisclosure(button, area, { onOpen = () => {} } = {}) {
  const expanded = () => button.getAttribute("aria-expanded") === "true";
  function open(shown) {
    button.setAttribute("aria-expanded", String(shown));
    if (!shown) {
      area.hidden = true;
      return;
    }
    Promise.resolve(onOpen()).catch(() => {}).then(() => {
      if (expanded()) area.hidden = false; // unless it was closed again meanwhile
    });
  }
  button.addEventListener("click", () => open(button.getAttribute("aria-expanded") !== "true"));
  open(false);
  return { open };
}
