/**
 * Keeps the result in step with the draft, one computation at a time.
 *
 * Python answers one request after another, so while a computation is in flight there is no point
 * queueing every keystroke: the draft is only marked dirty, and when the answer comes back the
 * newest draft (whatever it is by then) is sent once. Scenes to check (setScene, a file, a shuffle) queue
 * in order and each gets its own answer.
 *
 * It computes only while the controller says Python is live (`setLive`), and hands a worker that died under a
 * request back to the controller (`onLost`), which owns Python's boot.
 */

import { isRuntimeLost } from "../python/service.js";
import { sceneFromDraft } from "../scene/draft.js";

/**
 * An Error carrying the module's error fields (type, message, field, row, column, row_index,
 * column_index) as `.detail`, whatever shape the failure came in.
 */
export function asSceneError(error) {
  if (error instanceof Error && error.detail) return error;
  const message = error instanceof Error ? error.message : String(error);
  const wrapped = new Error(message);
  wrapped.detail = { type: "Error", message, field: null, row: null, column: null, row_index: null, column_index: null };
  return wrapped;
}

/**
 * @typedef {{
 *   requestDraft: () => void,
 *   check: (scene: object, onValid: (result: object) => void) => Promise<object>,
 *   setLive: (live: boolean) => void,
 *   refuseChecks: (error: Error) => void,
 *   settled: () => boolean,
 * }} Recompute
 */

/**
 * @param {object} options
 * @param {{compute: (scene: object) => Promise<object>}} options.python the Python service
 * @param {ReturnType<import("./state.js").createStore>} options.store
 * @param {() => void} options.onLost Python died under a request (a fresh one must be started)
 * @returns {Recompute}
 */
export function createRecompute({ python, store, onLost }) {
  let live = false;
  let inFlight = false;
  let draftDirty = false;
  /** @type {Array<{scene: object, onValid: Function, resolve: Function, reject: Function}>} */
  const checks = [];

  /** Python died under a request (the worker reports it as RuntimeUnavailable): hand it to the controller. */
  function lost(error) {
    if (!live || !isRuntimeLost(error)) return false;
    live = false;
    draftDirty = true;
    onLost();
    return true;
  }

  async function pump() {
    if (!live || inFlight) return;
    const job = checks.shift();
    if (!job && !(draftDirty && store.state.draft)) return;
    inFlight = true;
    try {
      if (job) await runCheck(job);
      else await runDraft();
    } finally {
      // Even if a view failed to draw, the loop goes on and later requests still settle.
      inFlight = false;
      pump();
    }
  }

  async function runDraft() {
    draftDirty = false;
    let result;
    try {
      result = await python.compute(sceneFromDraft(store.state.draft));
    } catch (error) {
      if (!lost(error)) store.update({ error: asSceneError(error).detail }, "error");
      return;
    }
    store.update({ result, resultIsPreview: false, error: null }, "result", "error");
  }

  async function runCheck(job) {
    let result;
    try {
      result = await python.compute(job.scene);
    } catch (error) {
      lost(error);
      job.reject(asSceneError(error));
      return;
    }
    // Valid: now, and only now, the scene replaces what is on the page (in the same task as the answer, so
    // no draft computation can come in between).
    draftDirty = false;
    try {
      job.onValid(result);
    } finally {
      job.resolve(result);
    }
  }

  return {
    /** The draft changed: compute it as soon as Python is free (the newest draft wins). */
    requestDraft() {
      draftDirty = true;
      pump();
    },
    /**
     * Compute `scene`; if the module accepts it, call `onValid(result)` (which puts it on the page) and resolve
     * to the result. If not, reject with the module's error: nothing changed. Waits for Python if needed.
     */
    check(scene, onValid) {
      return new Promise((resolve, reject) => {
        checks.push({ scene, onValid, resolve, reject });
        pump();
      });
    },
    /** Python is live (or not): computing starts (or waits); the draft is computed again once live. */
    setLive(isLive) {
      live = isLive;
      if (isLive) {
        draftDirty = true;
        pump();
      }
    },
    /**
     * True when Python is live and nothing is computing, waiting to be checked or owed to the draft: the result
     * on the page is the one for the draft, and nothing asked before is still to come.
     */
    settled: () => live && !inFlight && !draftDirty && checks.length === 0,
    /** Python could not start: every scene waiting to be checked is refused with `error`. */
    refuseChecks(error) {
      for (const job of checks.splice(0)) job.reject(error);
    },
  };
}
