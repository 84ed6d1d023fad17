/**
 * Offline use: in a built site (dist/, the zip, the CDN build) the page installs the service worker
 * (sw.js at the site root), which keeps the site and the runtime so that the next visit starts without
 * the network. generated/runtime.json says whether this site is a built one; the project's own working
 * copy says no, so files being edited are never served from a cache.
 *
 * The worker is registered only after Python is live and the page is idle: its first job is to copy
 * every file into its cache, and that must not compete with the page's own start.
 */

// Resolved against the page (index.html, at the site's root), not this module, which dist/ bundles elsewhere.
const RUNTIME_CONFIG_URL = new URL("generated/runtime.json", document.baseURI);
const SERVICE_WORKER_URL = new URL("sw.js", document.baseURI);

/**
 * Register the service worker once `live` resolves, if this site is built for offline use.
 * Failure is silent: the page works the same without it, only not offline.
 * @param {Promise<unknown>} live resolves when Python is live
 */
export function installOfflineCache(live) {
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(window.location.protocol)) return;
  const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 200));
  live
    .then(() => new Promise((resolve) => idle(resolve, { timeout: 2000 })))
    .then(() => fetch(RUNTIME_CONFIG_URL))
    .then((response) => (response.ok ? response.json() : {}))
    .then((config) => {
      if (config.serviceWorker === true) return navigator.serviceWorker.register(SERVICE_WORKER_URL);
      return undefined;
    })
    .catch(() => {});
}
