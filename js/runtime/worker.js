/**
 * The Python worker: hosts Pyodide, NumPy and the attention module, and answers requests with them.
 *
 * It holds no maths and knows no request kinds: every request goes, as JSON text, to the module's entry
 * point `attention_playground.entry.handle_packed(request_json[, numbers]) -> (reply_json, data)`, and the
 * reply comes back as data: the same reply `handle` gives, except that a "compute" result's float matrices
 * travel as raw float64 in `data` (for 64 tokens, writing its tens of thousands of floats as decimal text took
 * Python ten times longer than computing them). The worker passes the reply on with those bytes as a
 * transferred buffer, and the client puts the numbers back in place. A "compute" request's scene comes packed
 * the same way (its numbers as a Float64Array, passed to Python as their bytes). The messages and the packed
 * format are defined in protocol.js.
 *
 * Boot starts the moment the worker does: the runtime (core, standard library and NumPy, through the
 * `packages` option, so NumPy downloads alongside the core) and the module's zip are fetched in parallel.
 *
 * Memory: a JS string goes into Python; a Python tuple (str, bytes) comes back as a PyProxy. It is
 * converted at once with toJs() into [string, Uint8Array] (the bytes are copied once, out of Python's memory
 * into a fresh ArrayBuffer; no further proxies are made) and destroyed in `finally`, so nothing survives a
 * request. The one PyProxy the worker keeps is the entry point itself, made once at boot. (Leaked proxies are
 * what kill a long-running Pyodide with "memory access out of bounds".)
 *
 * All URLs are resolved against this file's own URL, so the site works from any sub-path of any host.
 */
import { MODULE_FACTS } from "../../generated/module-facts.js";
import { BOOT_STAGES, MESSAGE_TYPES, WORKER_ERROR_TYPES } from "./protocol.js";
import { TOO_DEEP_MESSAGE, nestedTooDeeply } from "./nesting.js";

const SITE_ROOT = new URL("../../", import.meta.url);
/** The runtime build.py vendors: used unless generated/runtime.json names another (the CDN build does). */
const VENDORED_RUNTIME_URL = new URL("vendor/pyodide/", SITE_ROOT);
const RUNTIME_CONFIG_URL = new URL("generated/runtime.json", SITE_ROOT);
const GENERATED_URL = new URL("generated/", SITE_ROOT);
/**
 * The module ships as a small core, fetched at boot, and parts fetched just before the first request that
 * needs one (the trained model, the examples' scenes): see py/attention_playground/parts.py.
 */
const { core: CORE_ZIP, zips: PART_ZIPS, kindParts: KIND_PARTS } = MODULE_FACTS.moduleParts;
const MODULE_ZIP_URL = new URL(CORE_ZIP, GENERATED_URL);
/**
 * Wheels a worker may install with micropip once the module is in, named in its URL (`worker.js?install=
 * training`): the page's worker installs none; the one that trains the model installs autograd.
 */
const WHEEL_SETS = { training: new URL("vendor/wheels/wheels.json", SITE_ROOT) };
const WHEEL_SET = new URL(import.meta.url).searchParams.get("install");
/** Where the module's zip is unpacked inside Pyodide's in-memory file system; put first on sys.path. */
const MODULE_DIR = "/home/pyodide/playground";

/** What each stage tells a person waiting (protocol.js says when each is reported). */
const STAGE_DETAILS = {
  downloading: "Downloading Python and NumPy",
  starting: "Starting Python",
  numpy: "Loading NumPy",
  module: "Loading the attention module",
  packages: "Installing autograd, for training",
  ready: "Python is live",
};

/**
 * A dedicated worker talks to the one page that started it. Started as a SharedWorker (client.js's `shareAs`:
 * the frames of one course page share one Python), it talks to every page connected, each through its port:
 * a reply goes to the port that asked, the boot's progress and a fatal error go to all, and a page that
 * connects late is first told everything said to all so far (so it sees the boot's stages from the start).
 */
const SHARED = typeof SharedWorkerGlobalScope === "function" && self instanceof SharedWorkerGlobalScope;
const ports = new Set();
const toEveryPage = [];

function broadcast(message) {
  toEveryPage.push(message);
  if (!SHARED) postMessage(message);
  for (const port of ports) port.postMessage(message);
}

let reportedStage = -1;

/** Report `stage` once, and only moving forward: a late signal for an earlier stage is dropped. */
function reportStage(stage) {
  const index = BOOT_STAGES.indexOf(stage);
  if (index <= reportedStage) return;
  reportedStage = index;
  broadcast({ type: MESSAGE_TYPES.PROGRESS, stage, detail: STAGE_DETAILS[stage] });
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
  broadcast({ type: MESSAGE_TYPES.FATAL, message });
}

/** Fetch one of the module's zips (the core's is started at once, in parallel with the runtime). */
async function fetchModuleZip(url = MODULE_ZIP_URL) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`could not load ${url.pathname} (HTTP ${response.status}); run python3 build.py`);
  }
  return response.arrayBuffer();
}

/** The module's parts unpacked so far, by name: a promise each, so two requests never fetch one twice. */
const unpackedParts = new Map();

/** Make sure the parts request `kind` needs are unpacked; rejects with the reason if one cannot be fetched. */
function unpackPartsFor(pyodide, kind) {
  const needed = Object.hasOwn(KIND_PARTS, kind) ? KIND_PARTS[kind] : [];
  return Promise.all(needed.map((part) => {
    if (!unpackedParts.has(part)) {
      const unpacking = fetchModuleZip(new URL(PART_ZIPS[part], GENERATED_URL)).then((bytes) => {
        pyodide.unpackArchive(bytes, "zip", { extractDir: MODULE_DIR });
        pyodide.runPython("import importlib; importlib.invalidate_caches()"); // new files under a known package
      });
      unpacking.catch(() => unpackedParts.delete(part)); // a later request tries again
      unpackedParts.set(part, unpacking);
    }
    return unpackedParts.get(part);
  }));
}

/**
 * Where the runtime is: generated/runtime.json's `indexURL` (relative to the site root, or a full URL
 * for the CDN build), else the vendored copy. The file is a few bytes from the same host.
 */
async function findRuntime() {
  try {
    const response = await fetch(RUNTIME_CONFIG_URL);
    const { indexURL } = response.ok ? await response.json() : {};
    if (typeof indexURL === "string" && indexURL) return new URL(indexURL, SITE_ROOT);
  } catch {
    // no readable config: the vendored runtime
  }
  return VENDORED_RUNTIME_URL;
}

/**
 * Load Pyodide with NumPy. The stages in between come from the runtime's own milestones:
 *  - `fsInit` runs once the WebAssembly runtime is downloaded and compiled, just before the interpreter
 *    starts: "starting";
 *  - NumPy's install waits for the interpreter and only then unpacks the wheel into site-packages, so the
 *    first sign of NumPy there means Python is up and NumPy is installing: "numpy".
 */
async function loadRuntime() {
  const runtimeUrl = await findRuntime();
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
    return await pyodideModule.loadPyodide({
      indexURL: runtimeUrl.href,
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
import gc
import sys
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

/** Install the wheels of one of WHEEL_SETS (its module loads only here: the page's worker never needs it). */
async function installWheelSet(pyodide, name) {
  if (!Object.hasOwn(WHEEL_SETS, name)) throw new Error(`there is no set of wheels called ${JSON.stringify(name)}`);
  reportStage("packages");
  const { installWheels } = await import("./wheels.js");
  await installWheels(pyodide, WHEEL_SETS[name].href);
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
  if (WHEEL_SET !== null) await installWheelSet(pyodide, WHEEL_SET);
  reportStage("ready");
  return { pyodide, handlePacked };
}

const booted = boot();
booted.catch((error) => reportFatal(`Python could not start: ${describe(error)}`));

// If pyodide.asm.wasm is missing or will not compile, Pyodide 0.27.7's loader only warns on the console
// ("wasm instantiation failed!", then the reason) and loadPyodide never settles: the page would wait forever.
// So until the boot is over, those two warnings end the boot with the reason they give.
// (tests/browser/test_worker_failure.py catches it if a new Pyodide words this differently.)
const WASM_FAILED_WARNING = "wasm instantiation failed!";
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

/** The entry point answered with something other than (reply_json, data): a bug in the module. */
class EntryPointError extends Error {}

/** A reply for a request the module could not answer, for one of the worker's own reasons. */
function errorReply(id, type, message) {
  return { id, ok: false, error: { type, message } };
}

/**
 * Call the entry point and take its (reply_json, data) apart without keeping any Python object: returns
 * [replyJson, bytes], bytes being a Uint8Array over an ArrayBuffer of its own (empty when nothing was packed).
 */
function callEntryPoint(handlePacked, requestJson, requestNumbers) {
  // A packed request's numbers go in as their bytes (Python sees a buffer it copies once, see entry.py).
  const packed = requestNumbers ? handlePacked(requestJson, requestNumbers) : handlePacked(requestJson);
  try {
    if (!(packed instanceof Object) || typeof packed.toJs !== "function") {
      throw new EntryPointError("the module's entry point did not return (reply_json, data)");
    }
    // A tuple of a str and a bytes converts to [string, Uint8Array]: no proxy is left inside.
    const parts = packed.toJs();
    const [replyJson, bytes] = parts;
    if (parts.length !== 2 || typeof replyJson !== "string" || !(bytes instanceof Uint8Array)) {
      throw new EntryPointError("the module's entry point did not return (reply_json, data)");
    }
    // toJs copies bytes into a buffer of their own; should a runtime ever hand out a view, copy it out.
    const ownsBuffer = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength;
    return [replyJson, ownsBuffer ? bytes : bytes.slice()];
  } finally {
    packed?.destroy?.();
  }
}

/** Run one request through the entry point. Always returns a reply; never throws. */
async function answer(message) {
  const { id, kind, payload, matrices } = message ?? {};
  if (typeof id !== "number" || typeof kind !== "string") {
    return errorReply(id, WORKER_ERROR_TYPES.BAD_REQUEST, "a request is {id: number, kind: string, payload}");
  }
  if (matrices !== undefined && !(matrices instanceof Float64Array)) {
    return errorReply(id, WORKER_ERROR_TYPES.BAD_REQUEST, "a request's matrices, if any, are a Float64Array");
  }
  const requestNumbers = matrices ? new Uint8Array(matrices.buffer, matrices.byteOffset, matrices.byteLength) : null;
  let runtime;
  try {
    runtime = await booted;
  } catch {
    // fall through to the fatal check
  }
  if (fatalMessage !== null || !runtime) {
    return errorReply(id, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, fatalMessage ?? "Python is not running");
  }
  // A bad payload is the request's fault, not Python's: refuse it before it can reach the interpreter (thousands
  // of nested lists hang Python's JSON reader; a cycle cannot be written as JSON at all).
  if (nestedTooDeeply(payload)) return errorReply(id, WORKER_ERROR_TYPES.BAD_REQUEST, TOO_DEEP_MESSAGE);
  let requestJson;
  try {
    requestJson = JSON.stringify({ kind, payload: payload ?? {} });
  } catch (error) {
    return errorReply(id, WORKER_ERROR_TYPES.BAD_REQUEST, `the request cannot be written as JSON: ${describe(error)}`);
  }
  try {
    await unpackPartsFor(runtime.pyodide, kind);
  } catch (error) {
    return errorReply(id, WORKER_ERROR_TYPES.PART_UNAVAILABLE, `Python could not load what this needs: ${describe(error)}`);
  }
  let replyJson;
  let bytes;
  try {
    [replyJson, bytes] = callEntryPoint(runtime.handlePacked, requestJson, requestNumbers);
  } catch (error) {
    if (error instanceof runtime.pyodide.ffi.PythonError || error instanceof EntryPointError) {
      // The entry point let an exception through or answered out of shape: a bug, reported as data;
      // Python itself is fine.
      return errorReply(id, WORKER_ERROR_TYPES.INTERNAL, describe(error));
    }
    // Anything else (e.g. a WebAssembly trap) means the interpreter is dead: say so once, refuse from now on.
    reportFatal(`Python stopped: ${describe(error)}`);
    return errorReply(id, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, fatalMessage);
  }
  let reply;
  try {
    reply = JSON.parse(replyJson);
  } catch (error) {
    return errorReply(id, WORKER_ERROR_TYPES.INTERNAL, `the module's reply is not JSON: ${describe(error)}`);
  }
  if (!reply.ok) return { id, ok: false, error: reply.error };
  if (bytes.byteLength === 0) return { id, ok: true, result: reply.result };
  if (bytes.byteLength % Float64Array.BYTES_PER_ELEMENT !== 0) {
    return errorReply(id, WORKER_ERROR_TYPES.INTERNAL, "the module's packed numbers are not whole float64 values");
  }
  // The bytes own their buffer (see callEntryPoint), so it can be viewed as float64 and handed over whole.
  return { id, ok: true, result: reply.result, matrices: new Float64Array(bytes.buffer) };
}

/** What to transfer rather than copy with a reply: the buffer of its packed matrices, if it has any. */
function transferables(reply) {
  return reply.matrices ? [reply.matrices.buffer] : [];
}

// Requests are answered strictly one at a time, in the order they came (from every page, if shared), so a
// slow one never overlaps the next.
let queue = Promise.resolve();

/** Answer the messages that arrive at `endpoint` (the worker itself, or a shared worker's port) there. */
function serve(endpoint) {
  endpoint.addEventListener("message", (event) => {
    const message = event.data;
    if (message?.type === MESSAGE_TYPES.INTERRUPT_BUFFER) {
      // Not a request: from now on the page can interrupt running Python code (see protocol.js).
      booted.then(({ pyodide }) => pyodide.setInterruptBuffer(message.buffer), () => {});
      return;
    }
    queue = queue
      .then(() => answer(message))
      .catch((error) => errorReply(message?.id, WORKER_ERROR_TYPES.INTERNAL, describe(error)))
      .then((reply) => endpoint.postMessage(reply, transferables(reply)));
  });
}

if (SHARED) {
  addEventListener("connect", (event) => {
    const [port] = event.ports;
    for (const message of toEveryPage) port.postMessage(message);
    ports.add(port);
    serve(port);
    port.start();
  });
} else {
  serve(self);
}
