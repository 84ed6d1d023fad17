/**
 * The service worker: after the first visit, the browser keeps the whole site (the page, its scripts,
 * the generated data, and the Python runtime) so that the next visit starts with no network at all,
 * and sooner, since nothing is downloaded.
 *
 * What to keep comes from generated/offline-manifest.js, which build.py writes into each built site:
 * `version` (the runtime's version and a hash of the site's files), `files` (paths relative to the site
 * root) and `runtime` (full URLs of runtime files hosted elsewhere: the CDN build). The cache is named
 * after the version, so a new build installs a new cache and the old one is deleted once the new worker
 * takes over; the browser notices a new build because the manifest it imports has changed.
 *
 * Kept files are answered from the cache first (they cannot change within one version); anything else
 * goes to the network as usual.
 *
 * Cross-origin isolation, for hosts that do not send its headers (a course platform, a plain static host):
 * when the manifest says `isolate`, every same-origin response this worker gives carries
 * Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy, so from the second visit on (the first one
 * installs this worker) the page is isolated and a learner's runaway code can be interrupted rather than its
 * worker ended. Everything the page loads is its own, so the policy blocks nothing. The page registers this worker only for a built site (see js/loading/offline.js),
 * never while the project's own files are being edited.
 */

importScripts("generated/offline-manifest.js");

const { version, files, runtime, isolate = false } = self.offlineManifest;
const ISOLATION_HEADERS = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };
const CACHE_PREFIX = "attention-playground-";
const CACHE_NAME = `${CACHE_PREFIX}${version}`;
const SITE_ROOT = new URL("./", self.location.href);

/** The URLs kept, as the cache stores them (no query, no hash). */
const keptUrls = new Set([...files.map((path) => new URL(path, SITE_ROOT).href), ...runtime]);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE_NAME);
      // "no-cache" revalidates with the server: a file the browser already holds costs a 304, not a download.
      await cache.addAll([...keptUrls].filter((url) => !runtime.includes(url)).map((url) => new Request(url, { cache: "no-cache" })));
      // Files from another host are kept when that host answers; the site works without them while online.
      await Promise.allSettled(runtime.map((url) => cache.add(new Request(url, { mode: "cors" }))));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

/**
 * The cache key for a request: a page is kept once, whatever its query (?embed&panels=…), and so is a worker's
 * script (the training worker is worker.js?for=training: the query names the worker, the file is the same). A visit
 * to a folder is its index.html: the manifest lists no folder, since a course platform may answer 404 for one.
 */
function cacheKey(request) {
  const url = new URL(request.url);
  const navigation = request.mode === "navigate";
  const oneFileWhateverItsQuery = navigation || request.destination === "worker" || request.destination === "sharedworker";
  if (!oneFileWhateverItsQuery) return url.href;
  return `${url.origin}${url.pathname}${navigation && url.pathname.endsWith("/") ? "index.html" : ""}`;
}

/** `response` with the isolation headers added (a same-origin response only: others cannot be rewritten). */
function isolated(response) {
  if (!isolate || response.type !== "basic" || response.status === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const key = cacheKey(request);
  const sameOrigin = new URL(request.url).origin === self.location.origin;
  if (!keptUrls.has(key) && !(isolate && sameOrigin)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE_NAME);
      const kept = keptUrls.has(key) ? await cache.match(key) : undefined;
      return isolated(kept ?? (await fetch(request)));
    })(),
  );
});
