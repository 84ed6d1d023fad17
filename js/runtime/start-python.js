/**
 * Starting Python in the worker: Pyodide with NumPy, then the attention module's core, imported once. Every
 * worker starts the same way, the one that trains the model included (its gradient is written out in NumPy,
 * model/gradients.py, so it needs nothing more). `startPython()` settles with {pyodide, handlePacked} (the entry
 * point, the worker's one kept PyProxy) or fails with the reason, which every page is told (shared-ports.js).
 *
 * Boot starts the moment the worker does: the runtime (core, standard library and NumPy, which downloads
 * alongside the core) and the module's zip are fetched in parallel.
 * All URLs are resolved against this file's own URL, so the site works from any sub-path of any host.
 */
import { MODULE_DIR, fetchModuleZip } from "./parts.js";
import { reportFatal, reportStage } from "./shared-ports.js";

const SITE_ROOT = new URL("../../", import.meta.url);
/** The runtime build.py vendors: used unless generated/runtime.json names another (the CDN build does). */
const VENDORED_RUNTIME_URL = new URL("vendor/pyodide/", SITE_ROOT);
const RUNTIME_CONFIG_URL = new URL("generated/runtime.json", SITE_ROOT);

/** A readable one-line reason from anything thrown. */
export function describe(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Where the runtime is, from generated/runtime.json (a few bytes from the same host): `url`, its `indexURL`
 * (relative to the site root, or a full URL for the CDN build), else the vendored copy; and `numpyWheel`
 * ({file, integrity}), where the build names the NumPy wheel for the worker to fetch itself.
 */
async function findRuntime() {
  try {
    const response = await fetch(RUNTIME_CONFIG_URL);
    const { indexURL, numpyWheel } = response.ok ? await response.json() : {};
    if (typeof indexURL === "string" && indexURL) {
      return { url: new URL(indexURL, SITE_ROOT), numpyWheel: validWheel(numpyWheel) };
    }
  } catch {
    // no readable config: the vendored runtime, NumPy installed by it
  }
  return { url: VENDORED_RUNTIME_URL, numpyWheel: null };
}

/** `numpyWheel` as runtime.json gives it, or null if it is not a file name with a sha256 integrity value. */
function validWheel(wheel) {
  const named = wheel && typeof wheel.file === "string" && /^[\w.+-]+\.whl$/.test(wheel.file);
  return named && typeof wheel.integrity === "string" && wheel.integrity.startsWith("sha256-") ? wheel : null;
}

/** The NumPy wheel's bytes, checked against its integrity value by the browser as they arrive. */
async function fetchWheel(runtimeUrl, { file, integrity }) {
  const url = new URL(file, runtimeUrl);
  let response;
  try {
    response = await fetch(url, { integrity });
  } catch (error) {
    throw new Error(`could not download NumPy (${file}), or it is not the file the build checked: ${describe(error)}`);
  }
  if (!response.ok) throw new Error(`could not download NumPy (${file}): HTTP ${response.status}`);
  return response.arrayBuffer();
}

/**
 * Load Pyodide with NumPy. The stages in between come from the runtime's own milestones:
 *  - `fsInit` runs once the WebAssembly runtime is downloaded and compiled, just before the interpreter
 *    starts: "starting";
 *  - NumPy is unpacked once the interpreter is up: "numpy".
 *
 * Where the build names the NumPy wheel (the vendored runtime), the worker fetches it beside the runtime and
 * unpacks it into site-packages itself, so that NumPy's compiled extensions are compiled as Python imports
 * them: the two `import numpy` needs (4.5 MB of WebAssembly), not also the 3 MB of numpy.random, numpy.fft
 * and NumPy's own tests, which the runtime compiles at every start when it installs NumPy as a package
 * (docs/build.md gives what that costs). numpy.random compiles when the model first trains. Elsewhere (the CDN build) the runtime installs NumPy as a package: `packages`, so that NumPy still
 * downloads alongside the core, with the runtime's own milestone for "numpy" (the first sign of NumPy in
 * site-packages).
 */
async function loadRuntime() {
  const { url: runtimeUrl, numpyWheel } = await findRuntime();
  const wheel = numpyWheel ? fetchWheel(runtimeUrl, numpyWheel) : null;
  wheel?.catch(() => {}); // a failure is reported where it is awaited, below, not as unhandled meanwhile
  let pyodideModule;
  try {
    pyodideModule = await import(new URL("pyodide.mjs", runtimeUrl).href);
  } catch (error) {
    const reason = describe(error);
    const where = runtimeUrl.origin === SITE_ROOT.origin ? runtimeUrl.pathname : runtimeUrl.href;
    throw new Error(`could not load the Python runtime from ${where}; run python3 build.py (${reason})`);
  }
  let stopWatching = () => {};
  try {
    const pyodide = await pyodideModule.loadPyodide({
      indexURL: runtimeUrl.href,
      packages: wheel ? [] : ["numpy"],
      fsInit: (fileSystem, { sitePackages }) => {
        reportStage("starting");
        if (!wheel) stopWatching = watchForPath(fileSystem, `${sitePackages}/numpy`, () => reportStage("numpy"));
      },
    });
    if (wheel) {
      const bytes = await wheel;
      reportStage("numpy");
      pyodide.unpackArchive(bytes, "wheel");
    }
    return pyodide;
  } finally {
    stopWatching();
  }
}

/**
 * Call `found` once `path` exists in Pyodide's file system, checking between tasks (the checks are a
 * dictionary lookup in memory; they stop as soon as the path appears or the boot is over).
 */
function watchForPath(fileSystem, path, found) {
  let timer = null;
  const check = () => {
    if (fileSystem.analyzePath(path).exists) {
      found();
    } else {
      timer = setTimeout(check, 5);
    }
  };
  check();
  return () => clearTimeout(timer);
}

/** Python run once at boot: make the unpacked module importable, import it, and hand back its entry point. */
const IMPORT_ENTRY_POINT = `
import gc
import importlib
import sys
importlib.invalidate_caches()  # site-packages gained NumPy after the interpreter started
if ${JSON.stringify(MODULE_DIR)} not in sys.path:
    sys.path.insert(0, ${JSON.stringify(MODULE_DIR)})
from attention_playground.entry import handle_packed
# What exists now (the standard library, NumPy, the module) lives as long as the worker. Freezing it keeps
# the garbage collector from scanning all of it in the middle of an update (such a full scan took ~15 ms).
gc.freeze()
handle_packed
`;

/** Unpack the module where Python can import it, and return the entry point (the worker's one kept PyProxy). */
function importEntryPoint(pyodide, moduleZip) {
  pyodide.unpackArchive(moduleZip, "zip", { extractDir: MODULE_DIR });
  return pyodide.runPython(IMPORT_ENTRY_POINT);
}

async function boot() {
  // Said plainly up front: without it the runtime fails later with a message no learner can read.
  if (typeof WebAssembly !== "object" || WebAssembly === null) {
    throw new Error("this browser does not run WebAssembly (it may be turned off), and Python needs it");
  }
  reportStage("downloading");
  const moduleZip = fetchModuleZip();
  const runtime = loadRuntime().then((pyodide) => {
    reportStage("numpy"); // if the watcher missed it (NumPy was installed between two checks)
    reportStage("module");
    return pyodide;
  });
  // Either failing fails the boot at once, without waiting for the other.
  const [pyodide, moduleBytes] = await Promise.all([runtime, moduleZip]);
  const handlePacked = importEntryPoint(pyodide, moduleBytes);
  reportStage("ready");
  return { pyodide, handlePacked };
}

/**
 * Start Python: the boot, with every page told if it fails. Returns a promise of {pyodide, handlePacked}.
 * (Called by worker.js's first statements, not as this module loads, so that nothing runs before the worker's
 * own first line.)
 */
export function startPython() {
  const booted = boot();
  booted.catch((error) => reportFatal(`Python could not start: ${describe(error)}`));
  endBootOnWasmFailure(booted);
  return booted;
}

// If pyodide.asm.wasm is missing or will not compile, Pyodide 0.27.7's loader only warns on the console
// ("wasm instantiation failed!", then the reason) and loadPyodide never settles: the page would wait forever.
// So until the boot is over, those two warnings end the boot with the reason they give.
// (tests/browser/test_worker_failure.py catches it if a new Pyodide words this differently.)
const WASM_FAILED_WARNING = "wasm instantiation failed!";

function endBootOnWasmFailure(booted) {
  const consoleWarn = console.warn;
  let wasmFailed = false;
  console.warn = (...args) => {
    consoleWarn.apply(console, args);
    if (args[0] === WASM_FAILED_WARNING) wasmFailed = true;
    else if (wasmFailed) reportFatal(`Python could not start: its WebAssembly file could not be loaded (${describe(args[0])})`);
  };
  booted.finally(() => {
    console.warn = consoleWarn;
  }).catch(() => {});
}
