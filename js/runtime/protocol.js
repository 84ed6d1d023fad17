/**
 * The message protocol between the page (through client.js) and the Python worker (worker.js).
 * This file is its only definition; both sides import the names from here.
 *
 * Page → worker, one message per request:
 *
 *     {id, kind, payload}
 *     {id, kind, payload, matrices}              (a "compute" request, its scene packed: see below)
 *
 *   `id` is a number the page chooses, unique among its pending requests. `kind` is one of the kinds
 *   (generated/module-facts.js, written by the build from py/attention_playground/kinds.py, where each kind's
 *   payload, handler and result are declared once) and `payload` an object that kind takes. The worker passes
 *   `{kind, payload}` as JSON text to the Python entry point `attention_playground.entry.handle_packed` and
 *   knows nothing about the kinds itself, beyond which part of the module each needs (parts.js).
 *
 * Worker → page, exactly one reply per request, matched by `id`:
 *
 *     {id, ok: true, result}
 *     {id, ok: true, result, matrices}           (a "compute" result, packed: see below)
 *     {id, ok: false, error: {type, message, ...}}
 *
 *   Packed matrices. Writing a big result's tens of thousands of floats as JSON text costs Python far more
 *   than computing them, so the worker calls `attention_playground.entry.handle_packed`, which ships the
 *   float matrices of a "compute" result (every stage, the weights, the output, the inputs X, Wq, Wk, Wv)
 *   as raw float64 instead. Such a reply carries
 *   `matrices`, a Float64Array whose buffer is transferred, not copied, and in `result` each of those
 *   matrices is replaced by a descriptor
 *
 *       {"$matrix": [offset, rows, cols]}
 *
 *   meaning: the `rows * cols` values of `matrices` from index `offset` on, one row after another. Where the
 *   plain result has null (a masked score, a NaN from the overflow trap), the value is not finite (NaN or
 *   ±Infinity), and only there. unpackMatrices() puts every matrix back as arrays of rows of numbers and
 *   nulls, so the client resolves `request()` with exactly the object `entry.handle` would have given as
 *   JSON (every float the same to the bit: float64 values are copied as they are). Replies without
 *   `matrices` are plain. Both sides run in the same browser, so the buffer is in the platform's byte order
 *   (little-endian, as WebAssembly is), which is what Python writes. Only the worker and the client see
 *   packed replies; `request()` callers never do.
 *
 *   A "compute" request is packed the same way, the other way round (packScene): reading a 64-token scene's
 *   16,000 numbers from JSON text is most of what Python spends on it. Each of X, Wq, Wk and Wv whose cells
 *   are all finite numbers, in rows of one length, goes into `matrices` (a Float64Array) and is replaced by
 *   its descriptor; a matrix with anything else in it (text the learner typed, a missing cell) stays as it is,
 *   so that Python's check names the cell exactly as it would in JSON.
 *
 *   Errors are data, never thrown events. A bad scene comes back as the module's own error
 *   (`type: "SceneError"`, with `field`, `row`, `column`, `row_index`, `column_index`). Errors of the worker
 *   itself use the types in WORKER_ERROR_TYPES.
 *
 * Worker → page, messages without an `id`, told apart by `type`:
 *
 *     {type: "progress", stage, detail}   the boot moved on to `stage` (one of BOOT_STAGES, in that order);
 *                                         `detail` is a short sentence a status line can show
 *     {type: "fatal", message}            the runtime cannot be used (it failed to boot, or Python died);
 *                                         no further replies will come. The page starts a new worker to recover.
 *
 * Page → worker, a message without an `id`, sent once right after the worker starts, only by a client made
 * with an interrupt buffer (possible only on a cross-origin isolated page, where SharedArrayBuffer exists):
 *
 *     {type: "interrupt-buffer", buffer}  an Int32Array over a SharedArrayBuffer; the worker hands it to
 *                                         pyodide.setInterruptBuffer. Writing 2 (SIGINT) into buffer[0] makes
 *                                         the running Python code raise KeyboardInterrupt, which the entry
 *                                         point answers as an ordinary reply.
 */

/** `type` of the worker's messages that answer no request. */
export const MESSAGE_TYPES = Object.freeze({
  PROGRESS: "progress",
  FATAL: "fatal",
  /** Page → worker: the buffer that lets the page interrupt Python (see above). */
  INTERRUPT_BUFFER: "interrupt-buffer",
});

/**
 * The boot stages, in the order they are reported:
 *   downloading  the runtime files (core, standard library, NumPy) are downloading, all at once
 *   starting     the WebAssembly runtime has arrived and compiled; the Python interpreter is starting
 *   numpy        Python is running; NumPy is being installed
 *   module       NumPy is in; the attention module is being unpacked and imported
 *   ready        Python is live and answers requests
 */
export const BOOT_STAGES = Object.freeze(["downloading", "starting", "numpy", "module", "ready"]);

/** `error.type` values the worker itself uses (the module uses its own, e.g. "SceneError"). */
export const WORKER_ERROR_TYPES = Object.freeze({
  /** The runtime failed to boot, or died; the request was not run. */
  RUNTIME_UNAVAILABLE: "RuntimeUnavailable",
  /** Python raised an exception the entry point did not turn into an error reply (a bug in the module). */
  INTERNAL: "InternalError",
  /** The message was not {id, kind, payload}. */
  BAD_REQUEST: "BadRequest",
  /** A part of the module this kind needs could not be fetched (the request was not run; Python is fine). */
  PART_UNAVAILABLE: "PartUnavailable",
});

/** The key of a packed matrix's descriptor in a reply's `result` (see "Packed matrices" above). */
export const MATRIX_KEY = "$matrix";

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
 * A "compute" request's payload with its scene packed (see "Packed matrices" above): `{payload, matrices}`,
 * `matrices` null when nothing could be packed. `scene` itself is not changed.
 * @param {any} scene
 * @returns {{payload: {scene: any}, matrices: Float64Array|null}}
 */
export function packScene(scene) {
  if (scene === null || typeof scene !== "object" || Array.isArray(scene)) return { payload: { scene }, matrices: null };
  const chosen = []; // [holder copy, key, matrix]
  const packed = { ...scene };
  for (const key of PACKED_SCENE_MATRICES) if (isNumberMatrix(scene[key])) chosen.push([packed, key, scene[key]]);
  if (Array.isArray(scene.heads)) {
    packed.heads = scene.heads.map((head) => {
      if (head === null || typeof head !== "object" || Array.isArray(head)) return head;
      const copy = { ...head };
      for (const key of PACKED_HEAD_MATRICES) if (isNumberMatrix(head[key])) chosen.push([copy, key, head[key]]);
      return copy;
    });
  }
  if (chosen.length === 0) return { payload: { scene }, matrices: null };
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
  return { payload: { scene: packed }, matrices };
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
