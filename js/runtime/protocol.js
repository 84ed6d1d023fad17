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
 *   float matrices of a "compute" result (every stage, the weights, the output, the inputs X, Wq, Wk, Wv),
 *   and those of any other reply (a model's heads, each n × n), as raw float64 instead. Such a reply carries
 *   `matrices`, a Float64Array whose buffer is transferred, not copied, and in `result` each of those
 *   matrices is replaced by a descriptor
 *
 *       {"$matrix": [offset, rows, cols]}
 *
 *   meaning: the `rows * cols` values of `matrices` from index `offset` on, one row after another. Where the
 *   plain result has null (a masked score, a NaN from the overflow trap), the value is not finite (NaN or
 *   ±Infinity), and only there. The client (client.js unpackMatrices) puts every matrix back as arrays of rows of
 *   numbers and nulls, so it resolves `request()` with exactly the object `entry.handle` would have given as
 *   JSON (every float the same to the bit: float64 values are copied as they are). Replies without
 *   `matrices` are plain. Both sides run in the same browser, so the buffer is in the platform's byte order
 *   (little-endian, as WebAssembly is), which is what Python writes. Only the worker and the client see
 *   packed replies; `request()` callers never do.
 *
 *   A request that carries a scene is packed the same way, the other way round (client.js packScene): reading a
 *   64-token scene's 16,000 numbers from JSON text is most of what Python spends on it. Each of X, Wq, Wk and
 *   Wv whose cells are all finite numbers, in rows of one length, goes into `matrices` (a Float64Array) and is
 *   replaced by its descriptor; a matrix with anything else in it (text the learner typed, a missing cell)
 *   stays as it is, so that Python's check names the cell exactly as it would in JSON.
 *
 *   The page keeps what it sent. A packed "compute" reply leaves out the input matrices its request sent
 *   packed (a head's Wq, Wk, Wv; X too unless positions were added to it): the client puts back the ones it
 *   sent (client.js withInputsSent), so `requestScene()` still resolves with the whole result `handle` gives.
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
