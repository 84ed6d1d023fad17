/**
 * For the page that embeds the playground (a course page, an LMS lesson): sizes every playground
 * <iframe> to fit its content, so the learner never scrolls inside the frame.
 *
 *     <script src="https://your-host/attention-playground/js/embed-host.js" async></script>
 *
 * A playground in embed mode posts {type: "attention-playground:resize", height} whenever its height
 * changes, visible or not; this script sets the height of the <iframe> that sent it, and of no other element.
 * When this page's window is resized (the frames' width, and so their height, may change while they are off
 * screen and not drawn), it asks every frame to measure again with {type: "attention-playground:measure"}.
 * It also hands each frame the theme to show: {type: "attention-playground:theme", theme}, the frame's own
 * `data-theme` attribute ("light" or "dark") if it has one, else this page's (`data-theme` on <html>), else
 * null (the frame follows the reader's system setting, as this page does). It sends it when the frame first
 * reports, and again whenever either attribute changes, so a course page's own dark-mode switch reaches its
 * playgrounds.
 * It is a plain script (not a module) and leaves no names behind, so it can go on any page, once or more.
 */
(() => {
  const RESIZE_MESSAGE = "attention-playground:resize";
  const MEASURE_MESSAGE = "attention-playground:measure";
  const THEME_MESSAGE = "attention-playground:theme";
  const THEMES = ["light", "dark"];
  const MAX_HEIGHT = 20000; // a sanity bound: a frame cannot make the page absurdly tall
  const sized = new WeakSet(); // the frames that are playgrounds: they have sent their height

  /** The theme a frame should show: its own attribute, else this page's, else null (the system's). */
  const themeFor = (frame) => [frame.dataset.theme, document.documentElement.dataset.theme].find((theme) => THEMES.includes(theme)) ?? null;
  const sendTheme = (frame) => frame.contentWindow?.postMessage({ type: THEME_MESSAGE, theme: themeFor(frame) }, "*");

  window.addEventListener("message", (event) => {
    const data = event.data;
    if (!data || data.type !== RESIZE_MESSAGE || !Number.isFinite(data.height)) return;
    for (const frame of document.querySelectorAll("iframe")) {
      if (frame.contentWindow === event.source) {
        frame.height = String(Math.max(0, Math.min(MAX_HEIGHT, Math.ceil(data.height))));
        frame.dataset.resized = "true";
        if (!sized.has(frame)) sendTheme(frame);
        sized.add(frame);
      }
    }
  });

  // A course page's theme switch (on <html> or on a frame): every playground frame follows it.
  new MutationObserver(() => {
    for (const frame of document.querySelectorAll("iframe")) if (sized.has(frame)) sendTheme(frame);
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"], subtree: true });

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
