/**
 * Offline use: in a built site (dist/, the zip, the CDN build) the page installs the service worker
 * (sw.js at the site root), which keeps the site and the runtime so that the next visit starts without
 * the network. generated/runtime.json says whether this site is a built one; the project's own working
 * copy says no, so files being edited are never served from a cache.
 *
 * The worker is registered only after Python is live and the page has been quiet for a moment (no edit, no new
 * scene or result, nothing typed into the model's panel), and then idle: its first job is to copy every file into
 * its cache (17 MB, and Chromium compiles the scripts it keeps), seconds of CPU that must not compete with the
 * page's own start, with a course page's script that sets scene after scene from the moment the page is live, nor
 * with a learner typing a sentence for the model.
 */

// Resolved against the page (index.html, at the site's root), not this module, which dist/ bundles elsewhere.
const RUNTIME_CONFIG_URL = new URL("generated/runtime.json", document.baseURI);
const SERVICE_WORKER_URL = new URL("sw.js", document.baseURI);
/** How long the scene and its result must stay as they are before the copy starts. */
const QUIET_MS = 3000;
/**
 * The parts of the page's state (state.js) whose change means the page is busy drawing: the playground's, and the
 * trained model's panel, where each keystroke of a sentence asks Python for every head again.
 */
const BUSY_PARTS = ["scene", "values", "result", "model"];

/**
 * Resolves once the page has gone QUIET_MS without a new scene, an edit or a new result (at once without a store).
 * @param {{subscribe: Function}|null} store the page's store
 */
function untilQuiet(store) {
  if (!store) return Promise.resolve();
  return new Promise((resolve) => {
    let timer = null;
    let unsubscribe = () => {};
    const done = () => {
      unsubscribe();
      resolve();
    };
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(done, QUIET_MS);
    };
    unsubscribe = store.subscribe((state, changes) => {
      if (BUSY_PARTS.some((part) => changes.has(part))) restart();
    });
    restart();
  });
}

/**
 * Register the service worker once `live` resolves and the page is quiet, if this site is built for offline use.
 * Failure is silent: the page works the same without it, only not offline.
 * @param {Promise<unknown>} live resolves when Python is live
 * @param {object} [options]
 * @param {Promise<{store: object}>} [options.playground] the running page, whose store says when it is quiet
 */
export function installOfflineCache(live, { playground = Promise.resolve(null) } = {}) {
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(window.location.protocol)) return;
  const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 200));
  live
    .then(() => playground)
    .then((started) => untilQuiet(started?.store ?? null))
    .then(() => new Promise((resolve) => idle(resolve, { timeout: 2000 })))
    .then(() => fetch(RUNTIME_CONFIG_URL))
    .then((response) => (response.ok ? response.json() : {}))
    .then((/** @type {{serviceWorker?: unknown}} */ config) => {
      if (config.serviceWorker === true) return navigator.serviceWorker.register(SERVICE_WORKER_URL);
      return undefined;
    })
    .catch(() => {});
}
