/**
 * The in-Pyodide test run's installer: pytest, hypothesis and their dependencies, installed into a running
 * Pyodide by micropip from the test server's files (tests/in_pyodide/worker.js uses it). The page installs
 * nothing: its workers need only the runtime, NumPy and the module.
 *
 * The wheels lie beside a manifest, wheels.json, that pins each one's version and sha256 (sitebuild/wheels.py
 * writes both, into tests/.cache/pyodide-wheels/). micropip installs exactly those: for each wheel it reads a
 * one-link package index whose link ends in `#sha256=…`, so micropip itself checks every wheel before
 * installing it, and no other host is ever asked.
 *
 * Why the index is written here and not served as a file: micropip 0.9.0 (Pyodide 0.27.7's) resolves an
 * index page's links against the root of the host, not against the page, so a static index would work only
 * when served from the root of its host. Written here, its links are full URLs resolved against the manifest,
 * and it reaches micropip as a `data:` URL (the reason the test worker's policy, and only its, allows data: in
 * connect-src: sitebuild/csp.py). One index per wheel, because micropip would take any file of an index for
 * the project asked for; `deps: False` because the manifest is the complete set (a tooling test checks it), and
 * the installed versions are checked afterwards, since micropip does not always say when it kept another version.
 */

/** micropip and its one dependency, from the runtime's lockfile, vendored into vendor/pyodide/ for this run (the
 * build verifies them like the rest; dist/ leaves them out). */
const MICROPIP = "micropip";

async function readManifest(manifestUrl) {
  const response = await fetch(manifestUrl);
  if (!response.ok) {
    throw new Error(`could not load ${new URL(manifestUrl).pathname} (HTTP ${response.status}); run python3 build.py`);
  }
  const manifest = await response.json();
  if (!Array.isArray(manifest?.wheels)) throw new Error(`${new URL(manifestUrl).pathname} lists no wheels`);
  return manifest;
}

/** A package index with one link, the wheel's full URL carrying its sha256, as a data: URL. */
export function oneWheelIndex(wheel, manifestUrl) {
  const href = `${new URL(wheel.file, manifestUrl).href}#sha256=${wheel.sha256}`;
  const page = `<!DOCTYPE html><html><body><a href="${href}">${wheel.file}</a></body></html>`;
  return `data:text/html,${encodeURIComponent(page)}`;
}

const INSTALL_PINNED = `
import importlib
import importlib.metadata
import json
import micropip

async def _install_pinned(pins):
    for pin in pins:
        await micropip.install(f"{pin['name']}=={pin['version']}", index_urls=[pin["index"]], deps=False)
    importlib.invalidate_caches()
    wrong = [f"{pin['name']} {importlib.metadata.version(pin['name'])} (pinned {pin['version']})"
             for pin in pins if importlib.metadata.version(pin["name"]) != pin["version"]]
    if wrong:
        raise RuntimeError("micropip kept other versions: " + ", ".join(wrong))

await _install_pinned(json.loads(PINS_JSON))
`;

/**
 * Install every wheel the manifest at `manifestUrl` lists (or only those named in `only`). Resolves with
 * {wheels: [{name, version, size}], bytes, ms}; rejects with a message naming what failed.
 */
export async function installWheels(pyodide, manifestUrl, { only = null } = {}) {
  const started = performance.now();
  const manifest = await readManifest(manifestUrl);
  const wheels = manifest.wheels.filter((wheel) => !only || only.includes(wheel.name));
  await pyodide.loadPackage(MICROPIP, { messageCallback: () => {} });
  const pins = wheels.map((wheel) => ({ name: wheel.name, version: wheel.version, index: oneWheelIndex(wheel, manifestUrl) }));
  const newDict = pyodide.globals.get("dict");
  const scope = newDict();
  newDict.destroy();
  try {
    scope.set("PINS_JSON", JSON.stringify(pins));
    await pyodide.runPythonAsync(INSTALL_PINNED, { globals: scope });
  } finally {
    scope.destroy();
  }
  return {
    wheels: wheels.map(({ name, version, size }) => ({ name, version, size })),
    bytes: wheels.reduce((total, wheel) => total + wheel.size, 0),
    ms: performance.now() - started,
  };
}
