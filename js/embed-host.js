/**
 * For the page that embeds the playground (a course page, an LMS lesson): sizes every playground
 * <iframe> to fit its content, so the learner never scrolls inside the frame.
 *
 *     <script src="https://your-host/attention-playground/js/embed-host.js" async></script>
 *
 * A playground in embed mode posts {type: "attention-playground:resize", height} whenever its height
 * changes, visible or not; this script sets the height of the <iframe> that sent it, and of no other element
 * (with the frame's borders and padding, where the site's CSS counts them in its height).
 * When it starts (a script loaded late, after the frames last reported) and whenever this page's window is
 * resized (the frames' width, and so their height, may change while they are off screen and not drawn), it asks
 * every frame to measure again with {type: "attention-playground:measure"}.
 *
 * It also hands each frame the theme to show: {type: "attention-playground:theme", theme}, "light", "dark" or
 * null (the frame follows the reader's system setting, as this page does). The first of these that says light or
 * dark decides:
 *   - the frame's own `data-theme` attribute;
 *   - `data-theme` on <html>: this page's own switch, the PyData Sphinx theme (which resolves its `data-mode`
 *     "auto" into it) and sphinx-book-theme (Jupyter Book 1);
 *   - `data-theme` on <body>: Furo ("auto" there means the system's: null);
 *   - `data-md-color-scheme` on <body>: MkDocs Material ("slate" is dark, "default" light);
 *   - a "dark" or "light" class on <html>: Jupyter Book 2 (the MyST book theme) and sites styled the same way.
 * It sends it when the frame first reports, and again whenever one of these attributes changes (only to a frame
 * whose theme it changes), so a course site's own dark-mode switch reaches its playgrounds.
 * It is a plain script (not a module) and leaves no names behind, so it can go on any page, once or more.
 */
(() => {
  const RESIZE_MESSAGE = "attention-playground:resize";
  const MEASURE_MESSAGE = "attention-playground:measure";
  const THEME_MESSAGE = "attention-playground:theme";
  const THEMES = ["light", "dark"];
  const MAX_HEIGHT = 20000; // a sanity bound: a frame cannot make the page absurdly tall
  const sized = new WeakSet(); // the frames that are playgrounds: they have sent their height
  const themeSent = new WeakMap(); // the theme each playground frame was last sent

  /** A theme word as a theme, or undefined: "slate" is MkDocs Material's dark scheme, "default" its light one. */
  const asTheme = (word) => ({ light: "light", dark: "dark", slate: "dark", default: "light" })[word];

  /** The course site's theme: the first of its marks that says light or dark, else null (the system's). */
  function pageTheme() {
    const html = document.documentElement;
    const body = document.body;
    const marks = [
      html.dataset.theme, // this page's own, PyData, sphinx-book-theme
      body?.dataset.theme, // Furo
      body?.dataset.mdColorScheme, // MkDocs Material
      THEMES.find((theme) => html.classList.contains(theme)), // Jupyter Book 2
    ];
    return marks.map(asTheme).find(Boolean) ?? null;
  }

  /** The theme a frame should show: its own attribute, else this page's. */
  const themeFor = (frame) => (THEMES.includes(frame.dataset.theme) ? frame.dataset.theme : pageTheme());

  /** Send `frame` its theme if it changed since the last one sent (`always`: whatever was sent before). */
  function sendTheme(frame, always = false) {
    const theme = themeFor(frame);
    if (!always && themeSent.has(frame) && themeSent.get(frame) === theme) return;
    themeSent.set(frame, theme);
    frame.contentWindow?.postMessage({ type: THEME_MESSAGE, theme }, "*");
  }

  /**
   * The frame's borders and padding, top and bottom, where its height includes them: a site that sets
   * `box-sizing: border-box` on every element (MkDocs Material does) would otherwise leave the content that many
   * pixels taller than the frame, with a scrollbar inside it.
   */
  function edgesOf(frame) {
    const style = getComputedStyle(frame);
    if (style.boxSizing !== "border-box") return 0;
    const sides = ["borderTopWidth", "borderBottomWidth", "paddingTop", "paddingBottom"];
    return sides.reduce((sum, side) => sum + (parseFloat(style[side]) || 0), 0);
  }

  window.addEventListener("message", (event) => {
    const data = event.data;
    if (!data || data.type !== RESIZE_MESSAGE || !Number.isFinite(data.height)) return;
    for (const frame of document.querySelectorAll("iframe")) {
      if (frame.contentWindow === event.source) {
        frame.height = String(Math.max(0, Math.min(MAX_HEIGHT, Math.ceil(data.height + edgesOf(frame)))));
        frame.dataset.resized = "true";
        if (!sized.has(frame)) sendTheme(frame, true);
        sized.add(frame);
      }
    }
  });

  // A course site's theme switch (on <html>, <body> or a frame): every playground frame follows it.
  const followThemes = () => {
    for (const frame of document.querySelectorAll("iframe")) if (sized.has(frame)) sendTheme(frame);
  };
  const watched = ["data-theme", "data-md-color-scheme", "data-mode", "class"];
  new MutationObserver(followThemes).observe(document.documentElement, { attributes: true, attributeFilter: watched });
  new MutationObserver(followThemes).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"], subtree: true });
  const watchBody = () => new MutationObserver(followThemes).observe(document.body, { attributes: true, attributeFilter: watched });
  if (document.body) watchBody();
  else document.addEventListener("DOMContentLoaded", watchBody, { once: true });

  const measureAll = () => {
    for (const frame of document.querySelectorAll("iframe")) frame.contentWindow?.postMessage({ type: MEASURE_MESSAGE }, "*");
  };
  // Loaded after a frame's last report (a script at the end of a slow page), it would never size that frame.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", measureAll, { once: true });
  else measureAll();

  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      for (const frame of document.querySelectorAll("iframe")) {
        if (sized.has(frame)) frame.contentWindow?.postMessage({ type: MEASURE_MESSAGE }, "*");
      }
    }, 100);
  });
})();
