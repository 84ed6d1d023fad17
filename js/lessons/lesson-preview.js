/**
 * A lesson file previewed while its author writes it (`#lesson-src=URL&preview`, which `build.py serve --lesson
 * FILE.md` opens): the page reads the file, and the scene files it names, every WATCH_EVERY_MS, and when any of them
 * has changed since the last look the lesson is loaded again at the step on show (lessons.js). It works with any
 * editor and any server that serves the files afresh; nothing is installed to watch them.
 */

import { fetchText } from "./lesson-sources.js";

/** How often the files are read again: a save shows within about twice this, plus the compile. */
export const WATCH_EVERY_MS = 300;

/**
 * Watch the files `urls()` names (asked again at each look: a new scene file joins once the lesson names it) and
 * call `changed()` when their text differs from the last look's; the next look waits for it. Returns {stop}.
 * @param {() => URL[]} urls
 * @param {{changed: () => Promise<unknown>, every?: number, fetching?: typeof fetch}} options
 */
export function watchFiles(urls, { changed, every = WATCH_EVERY_MS, fetching = fetch }) {
  let stopped = false;
  let timer = 0;
  let last = null; // the files' texts at the last look, with their addresses
  async function look() {
    const now = (await Promise.all(urls().map(async (url) => {
      const { text, error } = await fetchText(url, fetching);
      return `${url.href}\u0000${text ?? `(${error})`}`;
    }))).join("\u0001");
    if (stopped) return;
    if (last !== null && now !== last) await changed();
    last = now;
    if (!stopped) timer = setTimeout(look, every);
  }
  timer = setTimeout(look, 0);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
