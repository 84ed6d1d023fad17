/**
 * The message protocol between the page (through client.js) and the Python worker (worker.js).
 * This file is its only definition; both sides import the names from here.
 *
 * Page → worker, one message per request:
 *
 *     {id, kind, payload}
 *
 *   `id` is a number the page chooses, unique among its pending requests. `kind` is one of REQUEST_KINDS and
 *   `payload` an object that kind needs. The worker passes `{kind, payload}` as JSON text to the Python entry
 *   point `attention_playground.entry.handle` and knows nothing about the kinds itself:
 *     "compute"  payload {scene}  → the result of compute(scene) (README: "What compute(scene) returns")
 *     "presets"  payload {}       → [{id, title, description}, ...]
 *     "preset"   payload {id}     → that preset's scene
 *
 * Worker → page, exactly one reply per request, matched by `id`:
 *
 *     {id, ok: true, result}
 *     {id, ok: false, error: {type, message, ...}}
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
 */

/** Kinds of request the Python entry point answers. */
export const REQUEST_KINDS = Object.freeze({
  COMPUTE: "compute",
  PRESETS: "presets",
  PRESET: "preset",
});

/** `type` of the worker's messages that answer no request. */
export const MESSAGE_TYPES = Object.freeze({
  PROGRESS: "progress",
  FATAL: "fatal",
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
});
