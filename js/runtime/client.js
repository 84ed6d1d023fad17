/**
 * The page's side of the Python worker: start it, follow its boot, send requests, match replies.
 * It never touches the DOM. The messages are defined in protocol.js.
 *
 *     const client = createClient();
 *     client.onProgress(({ stage, detail }) => showStatus(detail));
 *     await client.ready;                                   // Python is live
 *     const result = await client.request(kind, payload);             // a kind of runtime/protocol.js
 *
 * The page makes its requests through the Python service (js/service/service.js), which holds one client.
 *
 * Every promise it hands out settles: if the worker fails to boot or dies, `ready` and every pending
 * request reject, and later requests reject at once until restart().
 *
 * A "compute" result arrives packed (its matrices as one transferred Float64Array, see protocol.js); the
 * client unpacks it, so `request()` always resolves with the plain result, arrays of numbers and nulls.
 */
import { BOOT_STAGES, MATRIX_KEY, MESSAGE_TYPES, WORKER_ERROR_TYPES } from "./protocol.js";
import { TOO_DEEP_MESSAGE, nestedTooDeeply } from "./nesting.js";

/** The worker script, resolved against the page (at the site's root), not this module, which dist/ bundles elsewhere. */
const defaultWorkerUrl = () => new URL("js/runtime/worker.js", document.baseURI);

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
 * @typedef {{
 *   ready: Promise<void>,
 *   onProgress: (callback: (progress: {stage: string, detail: string}) => void) => () => void,
 *   request: (kind: string, payload?: object, matrices?: Float64Array|null) => Promise<any>,
 *   requestScene: (kind: string, scene: object, extra?: object) => Promise<any>,
 *   sceneRequest: (kind: string) => (scene: object, extra?: object) => Promise<any>,
 *   restart: () => void,
 *   close: () => void,
 *   readonly stage: string|null,
 * }} PythonClient a worker's client (createClient)
 */

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
 * @returns {PythonClient}
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
 *   - `requestScene(kind, scene, extra)` and `sceneRequest(kind)`: a request that carries a scene, packed (below).
 */
export function createClient(options = {}) {
  const workerUrl = options.workerUrl ?? defaultWorkerUrl();
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

  const client = {
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
    /**
     * A request that carries `scene` (with the rest of its payload in `extra`), the scene packed: resolves with the
     * result, its input matrices put back from the scene sent where the reply left them out.
     */
    requestScene(kind, scene, extra = {}) {
      const { payload, matrices, sent } = packScene(scene);
      return session.request(kind, { ...payload, ...extra }, matrices).then((result) => withInputsSent(result, sent));
    },
    /**
     * The call that sends request `kind` with a scene, made once (the Python service's typed calls are these):
     * `(scene, extra) => requestScene(kind, scene, extra)`.
     */
    sceneRequest: (kind) => (scene, extra) => client.requestScene(kind, scene, extra),
    restart() {
      session.end("the worker was restarted");
      progress = null;
      start();
    },
    close() {
      session.end("the worker was closed");
    },
  };
  return client;
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
    endpoint = asShared ? /** @type {SharedWorker} */ (worker).port : worker;
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
      end(`the Python worker failed: ${/** @type {ErrorEvent} */ (event).message || "it could not be loaded"}`);
    });
    if (asShared) /** @type {MessagePort} */ (endpoint).start(); // a port delivers nothing until started
  }

  open(sharedName !== null);

  /**
   * Ask the worker; resolves with the result, rejects with a RequestError.
   * @param {string} kind a request kind (protocol.js)
   * @param {object} payload
   * @param {Float64Array|null} [matrices] the numbers of a packed payload (packScene)
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

// ---- Packed matrices (protocol.js describes the format) ----------------------------------------------------

/** True for a descriptor {"$matrix": [offset, rows, cols]} and nothing else. */
function isMatrixDescriptor(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === MATRIX_KEY && Array.isArray(value[MATRIX_KEY]);
}

/** One matrix out of `matrices`: rows of numbers, null wherever the value is not finite. */
function unpackMatrix([offset, rows, cols], matrices) {
  if (![offset, rows, cols].every(Number.isInteger) || offset < 0 || rows < 0 || cols < 0 ||
      offset + rows * cols > matrices.length) {
    const where = `[${offset}, ${rows}, ${cols}]`;
    throw new RangeError(`a packed matrix ${where} lies outside its ${matrices.length} values`);
  }
  // Arrays grown with push stay "packed" in the engine, like the ones JSON.parse makes.
  const unpacked = [];
  let index = offset;
  for (let i = 0; i < rows; i++) {
    const row = [];
    for (let j = 0; j < cols; j++, index++) {
      const value = matrices[index];
      row.push(Number.isFinite(value) ? value : null);
    }
    unpacked.push(row);
  }
  return unpacked;
}

/** True for rows of finite numbers, at least one row, every row as long as the first (and at least one long). */
function isNumberMatrix(value) {
  if (!Array.isArray(value) || value.length === 0 || !Array.isArray(value[0]) || value[0].length === 0) return false;
  const cols = value[0].length;
  for (const row of value) {
    if (!Array.isArray(row) || row.length !== cols) return false;
    for (let j = 0; j < cols; j++) if (typeof row[j] !== "number" || !Number.isFinite(row[j])) return false;
  }
  return true;
}

/** The scene's matrices that can be packed (number matrices of the scene and of each of its heads). */
const PACKED_SCENE_MATRICES = ["X"];
const PACKED_HEAD_MATRICES = ["Wq", "Wk", "Wv"];

/**
 * A request's payload with its scene packed (protocol.js, "Packed matrices"): `{payload, matrices, sent}`,
 * `matrices` null when nothing could be packed, `sent` the matrices that were ({X, heads: [{Wq, Wk, Wv}]}, each a
 * matrix or undefined). `scene` itself is not changed.
 * @param {any} scene
 * @returns {{payload: {scene: any}, matrices: Float64Array|null, sent: {X?: number[][], heads: object[]}}}
 */
export function packScene(scene) {
  const sent = { heads: [] };
  if (scene === null || typeof scene !== "object" || Array.isArray(scene)) return { payload: { scene }, matrices: null, sent };
  const chosen = []; // [holder copy, key, matrix]
  const packed = { ...scene };
  for (const key of PACKED_SCENE_MATRICES) {
    if (isNumberMatrix(scene[key])) {
      chosen.push([packed, key, scene[key]]);
      sent[key] = scene[key];
    }
  }
  if (Array.isArray(scene.heads)) {
    packed.heads = scene.heads.map((head) => {
      const sentHead = {};
      sent.heads.push(sentHead);
      if (head === null || typeof head !== "object" || Array.isArray(head)) return head;
      const copy = { ...head };
      for (const key of PACKED_HEAD_MATRICES) {
        if (isNumberMatrix(head[key])) {
          chosen.push([copy, key, head[key]]);
          sentHead[key] = head[key];
        }
      }
      return copy;
    });
  }
  if (chosen.length === 0) return { payload: { scene }, matrices: null, sent };
  const total = chosen.reduce((sum, [, , matrix]) => sum + matrix.length * matrix[0].length, 0);
  const matrices = new Float64Array(total);
  let offset = 0;
  for (const [holder, key, matrix] of chosen) {
    const rows = matrix.length;
    const cols = matrix[0].length;
    holder[key] = { [MATRIX_KEY]: [offset, rows, cols] };
    for (const row of matrix) {
      matrices.set(row, offset);
      offset += cols;
    }
  }
  return { payload: { scene: packed }, matrices, sent };
}

/** The keys of a computed head, in the order Python writes them (docs/reference.md). */
const HEAD_KEY_ORDER = ["name", "dims", "value_dims", "d_k", "stages", "weights", "Wq", "Wk", "Wv"];
const copyRows = (matrix) => matrix.map((row) => [...row]);

/**
 * A computed scene's result with the input matrices its reply left out put back from what the request `sent`
 * (packScene), each head's keys in Python's order: the page keeps what it sent instead of receiving it back.
 * Any other result is returned as it is.
 * @param {any} result the reply's result, unpacked
 * @param {{X?: number[][], heads: object[]}} sent
 */
export function withInputsSent(result, sent) {
  if (!result || typeof result !== "object" || !Array.isArray(result.heads) || !Array.isArray(result.tokens)) return result;
  if (!("X" in result) && sent.X) result.X = copyRows(sent.X);
  result.heads = result.heads.map((head, index) => {
    const mine = sent.heads[index] ?? {};
    if (!PACKED_HEAD_MATRICES.some((key) => !(key in head) && mine[key])) return head;
    const whole = { ...head };
    for (const key of PACKED_HEAD_MATRICES) if (!(key in whole) && mine[key]) whole[key] = copyRows(mine[key]);
    const ordered = {};
    for (const key of [...HEAD_KEY_ORDER, ...Object.keys(whole)]) if (key in whole && !(key in ordered)) ordered[key] = whole[key];
    return ordered;
  });
  return result;
}

/**
 * Rebuild a packed result in place: every {"$matrix": [offset, rows, cols]} inside `value` is replaced by
 * that matrix of `matrices` (a Float64Array) as plain arrays of rows, with null for every value that is not
 * finite; everything else stays as it is. (The reply is the receiver's own copy, so it is changed rather
 * than copied.) Throws a RangeError for a descriptor outside `matrices`.
 *
 * @param {any} value a reply's `result`
 * @param {Float64Array} matrices the reply's `matrices`
 * @returns {any} the result as the plain JSON reply would have had it (`value` itself, unless it is a
 *   descriptor)
 */
export function unpackMatrices(value, matrices) {
  if (value === null || typeof value !== "object") return value;
  if (isMatrixDescriptor(value)) return unpackMatrix(value[MATRIX_KEY], matrices);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unpackMatrices(value[i], matrices);
  } else {
    for (const key of Object.keys(value)) value[key] = unpackMatrices(value[key], matrices);
  }
  return value;
}
