/**
 * Who the Python worker talks to, and what it says to all of them.
 *
 * A dedicated worker talks to the one page that started it. Started as a SharedWorker (client.js's `shareAs`:
 * the frames of one course page share one Python), it talks to every page connected, each through its port:
 * a reply goes to the port that asked, the boot's progress and a fatal error go to all, and a page that
 * connects late is first told everything said to all so far (so it sees the boot's stages from the start).
 */
import { BOOT_STAGES, MESSAGE_TYPES } from "./protocol.js";

/**
 * What a worker's global object has that the DOM lib the checker uses lacks.
 * @typedef {{SharedWorkerGlobalScope?: Function}} WorkerGlobals
 */

const { SharedWorkerGlobalScope: sharedScope } = /** @type {WorkerGlobals} */ (globalThis);
const SHARED = typeof sharedScope === "function" && self instanceof sharedScope;
const ports = new Set();
const toEveryPage = [];

/** What each stage tells a person waiting (protocol.js says when each is reported). */
const STAGE_DETAILS = {
  downloading: "Downloading Python and NumPy",
  starting: "Starting Python",
  numpy: "Loading NumPy",
  module: "Loading the attention module",
  ready: "Python is live",
};

function broadcast(message) {
  toEveryPage.push(message);
  if (!SHARED) postMessage(message);
  for (const port of ports) port.postMessage(message);
}

let reportedStage = -1;

/** Tell every page the boot reached `stage`, once, and only moving forward: a late signal for an earlier stage is dropped. */
export function reportStage(stage) {
  const index = BOOT_STAGES.indexOf(stage);
  if (index <= reportedStage) return;
  reportedStage = index;
  broadcast({ type: MESSAGE_TYPES.PROGRESS, stage, detail: STAGE_DETAILS[stage] });
}

let fatalMessage = null;

/** Tell every page, once, that the runtime cannot be used any more; every later request is refused with it. */
export function reportFatal(message) {
  if (fatalMessage !== null) return;
  fatalMessage = message;
  broadcast({ type: MESSAGE_TYPES.FATAL, message });
}

/** Why the runtime cannot be used, or null while it can. */
export function fatalReason() {
  return fatalMessage;
}

/**
 * Call `serve(endpoint)` for every page: the worker itself if dedicated, else each port as it connects (after
 * telling it everything said to all so far).
 */
export function servePages(serve) {
  if (!SHARED) {
    serve(self);
    return;
  }
  addEventListener("connect", (event) => {
    const [port] = /** @type {MessageEvent} */ (event).ports; // a "connect" event is a MessageEvent
    for (const message of toEveryPage) port.postMessage(message);
    ports.add(port);
    serve(port);
    port.start();
  });
}
