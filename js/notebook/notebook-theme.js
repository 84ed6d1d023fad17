/**
 * Light or dark as the notebook around the widget is: JupyterLab marks its theme on <body>
 * (`data-jp-theme-light`), VS Code with a body class (`vscode-light`, `vscode-dark`, `vscode-high-contrast`);
 * elsewhere (Colab, marimo, classic Notebook) the widget follows the system setting, as the page does.
 */

const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

/** "light" or "dark", as the notebook shows itself now. */
function notebookTheme() {
  const body = document.body;
  if (body.dataset.jpThemeLight === "true") return "light";
  if (body.dataset.jpThemeLight === "false") return "dark";
  if (body.classList.contains("vscode-dark") || body.classList.contains("vscode-high-contrast")) return "dark";
  if (body.classList.contains("vscode-light")) return "light";
  const marimo = document.documentElement.classList;
  if (marimo.contains("dark") || marimo.contains("dark-theme")) return "dark";
  return systemDark.matches ? "dark" : "light";
}

/**
 * Write the notebook's theme as `data-theme` on `root` (what the widget's stylesheet reads), now and whenever
 * the notebook's theme changes. Returns a function that stops following it.
 * @param {HTMLElement} root
 */
export function followNotebookTheme(root) {
  const apply = () => {
    const theme = notebookTheme();
    if (root.dataset.theme !== theme) root.dataset.theme = theme;
  };
  const observer = new MutationObserver(apply);
  observer.observe(document.body, { attributes: true, attributeFilter: ["class", "data-jp-theme-light"] });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  systemDark.addEventListener("change", apply);
  apply();
  return () => {
    observer.disconnect();
    systemDark.removeEventListener("change", apply);
  };
}
