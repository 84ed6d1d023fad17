/**
 * The Python worker: hosts Pyodide, NumPy and the attention module, and answers requests with them.
 *
 * It holds no maths and knows no request kinds: every request goes, as JSON text, to the module's one entry
 * point `attention_playground.entry.handle(request_json) -> reply_json`, and the reply comes back as data.
 * The messages are defined in protocol.js.
 *
 * Boot starts the moment the worker does: the runtime (core, standard library and NumPy, through the
 * `packages` option, so NumPy downloads alongside the core) and the module's zip are fetched in parallel.
 *
 * Memory: only strings cross between JavaScript and Python. The one PyProxy the worker keeps is `handle`,
 * made once at boot; a request passes a JS string in and gets a Python str back, which Pyodide converts to a
 * JS string, so no proxy is created per request and none can leak. (Leaked proxies are what kill a long-running
 * Pyodide with "memory access out of bounds".)
 *
 * All URLs are resolved against this file's own URL, so the site works from any sub-path of any host.
 */
import { BOOT_STAGES, MESSAGE_TYPES, WORKER_ERROR_TYPES } from "./protocol.js";

const RUNTIME_URL = new URL("../../vendor/pyodide/", import.meta.url);
const MODULE_ZIP_URL = new URL("../../generated/attention_playground.zip", import.meta.url);
/** Where the module's zip is unpacked inside Pyodide's in-memory file system; put first on sys.path. */
const MODULE_DIR = "/home/pyodide/playground";

/** What each stage tells a person waiting (protocol.js says when each is reported). */
const STAGE_DETAILS = {
  downloading: "Downloading Python and NumPy",
  starting: "Starting Python",
  numpy: "Loading NumPy",
  module: "Loading the attention module",
  ready: "Python is live",
};

let reportedStage = -1;

/** Report `stage` once, and only moving forward: a late signal for an earlier stage is dropped. */
function reportStage(stage) {
  const index = BOOT_STAGES.indexOf(stage);
  if (index <= reportedStage) return;
  reportedStage = index;
  postMessage({ type: MESSAGE_TYPES.PROGRESS, stage, detail: STAGE_DETAILS[stage] });
}

/** A readable one-line reason from anything thrown. */
function describe(error) {
  return error instanceof Error ? error.message : String(error);
}

/** Set when the runtime cannot be used any more; every later request is refused with this reason. */
let fatalMessage = null;

function reportFatal(message) {
  if (fatalMessage !== null) return;
  fatalMessage = message;
  postMessage({ type: MESSAGE_TYPES.FATAL, message });
}

/** Fetch the module's zip (started at once, in parallel with the runtime). */
async function fetchModuleZip() {
  const response = await fetch(MODULE_ZIP_URL);
  if (!response.ok) {
    throw new Error(`could not load ${MODULE_ZIP_URL.pathname} (HTTP ${response.status}); run python3 build.py`);
  }
  return response.arrayBuffer();
}

/**
 * Load Pyodide with NumPy. The stages in between come from the runtime's own milestones:
 *  - `fsInit` runs once the WebAssembly runtime is downloaded and compiled, just before the interpreter
 *    starts: "starting";
 *  - NumPy's install waits for the interpreter and only then unpacks the wheel into site-packages, so the
 *    first sign of NumPy there means Python is up and NumPy is installing: "numpy".
 */
async function loadRuntime() {
  let pyodideModule;
  try {
    pyodideModule = await import(new URL("pyodide.mjs", RUNTIME_URL).href);
  } catch (error) {
    const reason = describe(error);
    throw new Error(`could not load the Python runtime from ${RUNTIME_URL.pathname}; run python3 build.py (${reason})`);
  }
  let stopWatching = () => {};
  try {
    return await pyodideModule.loadPyodide({
      indexURL: RUNTIME_URL.href,
      packages: ["numpy"],
      fsInit: (fileSystem, { sitePackages }) => {
        reportStage("starting");
        stopWatching = watchForPath(fileSystem, `${sitePackages}/numpy`, () => reportStage("numpy"));
      },
    });
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
import sys
if ${JSON.stringify(MODULE_DIR)} not in sys.path:
    sys.path.insert(0, ${JSON.stringify(MODULE_DIR)})
from attention_playground.entry import handle
handle
`;

/** Unpack the module where Python can import it, and return the entry point (the worker's one PyProxy). */
function importEntryPoint(pyodide, moduleZip) {
  pyodide.unpackArchive(moduleZip, "zip", { extractDir: MODULE_DIR });
  return pyodide.runPython(IMPORT_ENTRY_POINT);
}

async function boot() {
  reportStage("downloading");
  const moduleZip = fetchModuleZip();
  const runtime = loadRuntime().then((pyodide) => {
    reportStage("numpy"); // if the watcher missed it (NumPy was installed between two checks)
    reportStage("module");
    return pyodide;
  });
  // Either failing fails the boot at once, without waiting for the other.
  const [pyodide, moduleBytes] = await Promise.all([runtime, moduleZip]);
  const handle = importEntryPoint(pyodide, moduleBytes);
  reportStage("ready");
  return { pyodide, handle };
}

const booted = boot();
booted.catch((error) => reportFatal(`Python could not start: ${describe(error)}`));

/** A reply for a request the module could not answer, for one of the worker's own reasons. */
function errorReply(id, type, message) {
  return { id, ok: false, error: { type, message } };
}

/** Run one request through the entry point. Always returns a reply; never throws. */
async function answer(message) {
  const { id, kind, payload } = message ?? {};
  if (typeof id !== "number" || typeof kind !== "string") {
    return errorReply(id, WORKER_ERROR_TYPES.BAD_REQUEST, "a request is {id: number, kind: string, payload}");
  }
  let runtime;
  try {
    runtime = await booted;
  } catch {
    // fall through to the fatal check
  }
  if (fatalMessage !== null || !runtime) {
    return errorReply(id, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, fatalMessage ?? "Python is not running");
  }
  let replyJson;
  try {
    // A JS string in, a Python str out (converted to a JS string): nothing to destroy.
    replyJson = runtime.handle(JSON.stringify({ kind, payload: payload ?? {} }));
  } catch (error) {
    if (error instanceof runtime.pyodide.ffi.PythonError) {
      // The entry point let an exception through: a bug, reported as data; Python itself is fine.
      return errorReply(id, WORKER_ERROR_TYPES.INTERNAL, describe(error));
    }
    // Anything else (e.g. a WebAssembly trap) means the interpreter is dead: say so once, refuse from now on.
    reportFatal(`Python stopped: ${describe(error)}`);
    return errorReply(id, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, fatalMessage);
  }
  if (typeof replyJson !== "string") {
    replyJson?.destroy?.(); // a Python object, not JSON text: a bug in the entry point; never leak its proxy
    return errorReply(id, WORKER_ERROR_TYPES.INTERNAL, "the module's entry point did not return JSON text");
  }
  try {
    const reply = JSON.parse(replyJson);
    return reply.ok ? { id, ok: true, result: reply.result } : { id, ok: false, error: reply.error };
  } catch (error) {
    return errorReply(id, WORKER_ERROR_TYPES.INTERNAL, `the module's reply is not JSON: ${describe(error)}`);
  }
}

// Requests are answered strictly one at a time, in the order they came, so a slow one never overlaps the next.
let queue = Promise.resolve();
addEventListener("message", (event) => {
  const message = event.data;
  queue = queue
    .then(() => answer(message))
    .catch((error) => errorReply(message?.id, WORKER_ERROR_TYPES.INTERNAL, describe(error)))
    .then((reply) => postMessage(reply));
});
