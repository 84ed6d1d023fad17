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
 * This file serves; starting Python is start-python.js, the module's parts are parts.js, and the pages it
 * talks to (one, or every frame sharing it) are shared-ports.js.
 *
 * Memory: a JS string goes into Python; a Python tuple (str, bytes) comes back as a PyProxy. It is
 * converted at once with toJs() into [string, Uint8Array] (the bytes are copied once, out of Python's memory
 * into a fresh ArrayBuffer; no further proxies are made) and destroyed in `finally`, so nothing survives a
 * request. The one PyProxy the worker keeps is the entry point itself, made once at boot. (Leaked proxies are
 * what kill a long-running Pyodide with "memory access out of bounds".)
 */
import { MESSAGE_TYPES, WORKER_ERROR_TYPES } from "./protocol.js";
import { TOO_DEEP_MESSAGE, nestedTooDeeply } from "./nesting.js";
import { kindNeedsParts, unpackPartsFor } from "./parts.js";
import { fatalReason, reportFatal, servePages } from "./shared-ports.js";
import { describe, startPython } from "./start-python.js";

const booted = startPython();

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

/** A message that is not a request at all: the error reply, or null when it is one. */
function refusal({ id, kind, matrices }) {
  if (typeof id !== "number" || typeof kind !== "string") {
    return errorReply(id, WORKER_ERROR_TYPES.BAD_REQUEST, "a request is {id: number, kind: string, payload}");
  }
  if (matrices !== undefined && !(matrices instanceof Float64Array)) {
    return errorReply(id, WORKER_ERROR_TYPES.BAD_REQUEST, "a request's matrices, if any, are a Float64Array");
  }
  return null;
}

/** The reply to request `id` from what the entry point returned: its JSON, and the packed numbers if any. */
function replyFrom(id, replyJson, bytes) {
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

/** Run one request through the entry point. Always returns a reply; never throws. */
async function answer(message) {
  const { id, kind, payload, matrices } = message ?? {};
  const refused = refusal(message ?? {});
  if (refused) return refused;
  const runtime = await booted.catch(() => null);
  if (fatalReason() !== null || !runtime) {
    return errorReply(id, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, fatalReason() ?? "Python is not running");
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
  if (kindNeedsParts(kind)) {
    try {
      await unpackPartsFor(runtime.pyodide, kind);
    } catch (error) {
      return errorReply(id, WORKER_ERROR_TYPES.PART_UNAVAILABLE, `Python could not load what this needs: ${describe(error)}`);
    }
  }
  const requestNumbers = matrices ? new Uint8Array(matrices.buffer, matrices.byteOffset, matrices.byteLength) : null;
  try {
    return replyFrom(id, ...callEntryPoint(runtime.handlePacked, requestJson, requestNumbers));
  } catch (error) {
    if (error instanceof runtime.pyodide.ffi.PythonError || error instanceof EntryPointError) {
      // The entry point let an exception through or answered out of shape: a bug, reported as data;
      // Python itself is fine.
      return errorReply(id, WORKER_ERROR_TYPES.INTERNAL, describe(error));
    }
    // Anything else (e.g. a WebAssembly trap) means the interpreter is dead: say so once, refuse from now on.
    reportFatal(`Python stopped: ${describe(error)}`);
    return errorReply(id, WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE, fatalReason());
  }
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

servePages(serve);
