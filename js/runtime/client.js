/**
 * The page's side of the Python worker: start it, follow its boot, send requests, match replies.
 * It never touches the DOM. The messages are defined in protocol.js.
 *
 *     const client = createClient();
 *     client.onProgress(({ stage, detail }) => showStatus(detail));
 *     await client.ready;                                   // Python is live
 *     const result = await client.request(kind, payload);             // a kind of runtime/protocol.js
 *
 * The page makes its requests through the Python service (js/python/service.js), which holds one client.
 *
 * Every promise it hands out settles: if the worker fails to boot or dies, `ready` and every pending
 * request reject, and later requests reject at once until restart().
 *
 * A "compute" result arrives packed (its matrices as one transferred Float64Array, see protocol.js); the
 * client unpacks it, so `request()` always resolves with the plain result, arrays of numbers and nulls.
 */
import { BOOT_STAGES, MESSAGE_TYPES, WORKER_ERROR_TYPES, unpackMatrices } from "./protocol.js";
import { TOO_DEEP_MESSAGE, nestedTooDeeply } from "./nesting.js";

// Resolved against the page (at the site's root), not this module, which dist/ bundles elsewhere.
const DEFAULT_WORKER_URL = new URL("js/runtime/worker.js", document.baseURI);

/**
 * An Error carrying the error object a reply came with: its message is the module's message (for a bad
 * scene, the validation message naming field, row and column), and `.detail` is the whole object
 * ({type, message, field, row, column, row_index, column_index} for a SceneError).
 */
export class RequestError extends Error {
  constructor(detail) {
    super(detail?.message ?? "the request failed");
    this.name = "RequestError";
    this.detail = detail;
  }
}

/**
 * Start a Python worker and return its client.
 *
 * @param {object} [options]
 * @param {string|URL} [options.workerUrl] the worker script (default: js/runtime/worker.js of the page's site)
 * @param {Int32Array} [options.interruptBuffer] over a SharedArrayBuffer: given to every worker this client
 *   starts, so that writing 2 into it interrupts the Python code running there (see protocol.js)
 * @param {string} [options.shareAs] start the worker as a SharedWorker of this name, so that every page of
 *   the site in this browser that asks for the same name (the frames of one course page, say) shares one
 *   Python; where a browser has no SharedWorker, or with an interrupt buffer, a worker of its own. A shared
 *   Python answers the requests of all its pages one at a time, in the order they came.
 * @returns {{
 *   ready: Promise<void>,
 *   onProgress: (callback: (progress: {stage: string, detail: string}) => void) => () => void,
 *   request: (kind: string, payload?: object, matrices?: Float64Array|null) => Promise<any>,
 *   restart: () => void,
 *   close: () => void,
 *   readonly stage: string|null,
 * }}
 *   - `ready` resolves when Python is live, rejects (with an Error) if the runtime could not start. After
 *     restart() it is a new promise: read `client.ready` again rather than keeping the old one.
 *   - `onProgress(callback)` calls `callback({stage, detail})` for every boot stage (BOOT_STAGES, in order),
 *     and at once with the current stage if there is one, so a late subscriber is not left blank. It keeps
 *     following across restarts. Returns a function that unsubscribes.
 *   - `request(kind, payload, matrices?)` resolves with the result, or rejects with a RequestError (`.detail` is the
 *     error object; `.detail.type` is "SceneError" for a bad scene, or one of WORKER_ERROR_TYPES).
 *   - `restart()` ends the worker and starts a fresh one; requests still pending reject. (A shared worker is
 *     left to the other pages, and this page starts a shared worker of a new name.)
 *   - `close()` ends the worker for good: requests still pending reject, later ones reject at once.
 *   - `stage` is the latest boot stage reported (null before the first).
 */
export function createClient(options = {}) {
  const workerUrl = options.workerUrl ?? DEFAULT_WORKER_URL;
  const shareable = typeof options.shareAs === "string" && typeof SharedWorker === "function" && !options.interruptBuffer;
  const listeners = new Set();
  let session = null;
  let progress = null;
  let generation = 0;

  function notify(update) {
    progress = update;
    for (const listener of listeners) listener(update);
  }

  function start() {
    const sharedName = shareable ? `${options.shareAs}${generation ? `-${generation}` : ""}` : null;
    generation += 1;
    session = startSession(workerUrl, notify, sharedName);
    if (options.interruptBuffer) session.post({ type: MESSAGE_TYPES.INTERRUPT_BUFFER, buffer: options.interruptBuffer });
  }

  start();

  return {
    get ready() {
      return session.ready;
    },
    get stage() {
      return progress?.stage ?? null;
    },
    onProgress(callback) {
      listeners.add(callback);
      if (progress) callback(progress);
      return () => listeners.delete(callback);
    },
    request(kind, payload = {}, matrices = null) {
      return session.request(kind, payload, matrices);
    },
    restart() {
      session.end("the worker was restarted");
      progress = null;
      start();
    },
    close() {
      session.end("the worker was closed");
    },
  };
}

/** Why a request is refused before it is sent (`endedWith`: why the worker ended, or null), or null. */
function refusal(endedWith, payload) {
  if (endedWith !== null) return new RequestError({ type: WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, message: endedWith });
  // Refused here: a value thousands of levels deep cannot even be unpacked in the worker, and would get no reply.
  if (nestedTooDeeply(payload)) return new RequestError({ type: WORKER_ERROR_TYPES.BAD_REQUEST, message: TOO_DEEP_MESSAGE });
  return null;
}

/** Settle a request's promise (`resolve`, `reject`) with the worker's reply to it. */
function settleReply({ resolve, reject }, message) {
  if (!message.ok) reject(new RequestError(message.error));
  else if (!message.matrices) resolve(message.result);
  else {
    // A packed reply: put the matrices back, so the caller gets exactly the plain result.
    try {
      resolve(unpackMatrices(message.result, message.matrices));
    } catch (error) {
      reject(new RequestError({ type: WORKER_ERROR_TYPES.INTERNAL, message: error.message }));
    }
  }
}

/**
 * One worker's lifetime: its ready promise, its pending requests, and how it ends. A restart makes a new
 * session, so nothing from an old worker can settle a new worker's promises.
 */
function startSession(workerUrl, notify, sharedName = null) {
  let worker = null;
  /** Where messages come and go: a dedicated worker itself, a shared one's port to this page. */
  let endpoint = null;
  let shared = false;
  /** True once the worker has said anything: from then on it is this session's worker for good. */
  let heard = false;
  const pending = new Map();
  let nextId = 1;
  let endedWith = null;

  let resolveReady;
  let rejectReady;
  const ready = new Promise((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // `ready` is also awaited by whoever reads it; this only keeps a failed boot that nobody awaited from
  // showing up as an "unhandled rejection".
  ready.catch(() => {});

  /** Stop for good: reject `ready` (if still pending) and every pending request with `reason`. */
  function end(reason) {
    if (endedWith !== null) return;
    endedWith = reason;
    if (shared) endpoint.close(); // the shared worker goes on for the other pages; it ends with the last of them
    else worker.terminate();
    rejectReady(new Error(reason));
    const error = { type: WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, message: reason };
    for (const { reject } of pending.values()) reject(new RequestError(error));
    pending.clear();
  }

  function receive(event) {
    if (endedWith !== null || event.currentTarget !== endpoint) return; // an ended or replaced worker's message
    heard = true;
    const message = event.data;
    if (message?.type === MESSAGE_TYPES.PROGRESS) {
      notify({ stage: message.stage, detail: message.detail });
      if (message.stage === BOOT_STAGES.at(-1)) resolveReady();
    } else if (message?.type === MESSAGE_TYPES.FATAL) {
      end(message.message);
    } else if (pending.has(message?.id)) {
      const request = pending.get(message.id);
      pending.delete(message.id);
      settleReply(request, message);
    }
  }

  function open(asShared) {
    shared = asShared;
    worker = asShared
      ? new SharedWorker(workerUrl, { type: "module", name: sharedName })
      : new Worker(workerUrl, { type: "module" });
    endpoint = asShared ? worker.port : worker;
    const opened = worker;
    endpoint.addEventListener("message", receive);
    endpoint.addEventListener("messageerror", () => {
      if (opened === worker) end("the Python worker sent a message that could not be read");
    });
    // The worker script failed to load or threw outside any request: nothing more will come from it.
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      if (opened !== worker) return;
      if (shared && !heard) {
        // Some pages cannot start a shared worker (an opaque origin, a sandboxed frame): a worker of this
        // page's own instead, sent the requests the shared one never answered.
        endpoint.close();
        open(false);
        for (const { message } of pending.values()) endpoint.postMessage(message);
        return;
      }
      end(`the Python worker failed: ${event.message || "it could not be loaded"}`);
    });
    if (asShared) endpoint.start(); // a port delivers nothing until started
  }

  open(sharedName !== null);

  /**
   * Ask the worker; resolves with the result, rejects with a RequestError.
   * @param {string} kind a request kind (protocol.js)
   * @param {object} payload
   * @param {Float64Array|null} [matrices] the numbers of a packed payload (protocol.js packScene)
   */
  function request(kind, payload, matrices = null) {
    const refused = refusal(endedWith, payload);
    if (refused) return Promise.reject(refused);
    const id = nextId++;
    // The numbers are copied, not transferred: a message may have to be sent again (see open()).
    const message = matrices ? { id, kind, payload, matrices } : { id, kind, payload };
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, message });
      try {
        endpoint.postMessage(message);
      } catch (error) {
        // e.g. a payload that cannot be cloned (a function, a DOM node)
        pending.delete(id);
        reject(new RequestError({ type: WORKER_ERROR_TYPES.BAD_REQUEST, message: error.message }));
      }
    });
  }

  /** Send a message that answers no request (the interrupt buffer). */
  function post(message) {
    if (endedWith === null) endpoint.postMessage(message);
  }

  return { ready, request, end, post };
}
