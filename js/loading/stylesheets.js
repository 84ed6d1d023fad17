/**
 * The page's later stylesheets (static/teaching.css, lessons.css, embed-frame.css), each added to the
 * document when the code that needs it loads: the first view's own rules are static/style.css, in index.html.
 */

/** The stylesheets added so far, by address: each is added once, however many views ask for it. */
const stylesheetsAdded = new Map();

/**
 * Add the stylesheet at `path` (relative to the page) to the document. Resolves once it is in, or once it has
 * failed: the views still work without it, only plainer.
 */
export function loadStylesheet(path) {
  const href = new URL(path, document.baseURI).href;
  if ([...document.styleSheets].some((sheet) => sheet.href === href)) return Promise.resolve();
  if (!stylesheetsAdded.has(href)) {
    stylesheetsAdded.set(href, new Promise((resolve) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      link.addEventListener("load", resolve, { once: true });
      link.addEventListener("error", resolve, { once: true });
      document.head.append(link);
    }));
  }
  return stylesheetsAdded.get(href);
}
