/**
 * Keeps the result in step with the draft, one computation at a time.
 *
 * Python answers one request after another, so while a computation is in flight there is no point
 * queueing every keystroke: the draft is only marked dirty, and when the answer comes back the
 * newest draft (whatever it is by then) is sent once. Scenes set through the API queue in order and
 * each gets its own answer.
 */

import { WORKER_ERROR_TYPES } from "../runtime/protocol.js";
import { draftFromScene, sceneFromDraft } from "../scene/draft.js";

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

/** The sentence for a boot that failed, whichever way the failure was worded. */
export function bootFailureMessage(error) {
  const message = error?.message ?? String(error);
  return message.startsWith("Python could not start") ? message : `Python could not start: ${message}`;
}

/**
 * @param {object} options
 * @param {{ready: Promise<unknown>, request: (kind: string, payload: object) => Promise<object>}} options.client
 * @param {ReturnType<import("./state.js").createStore>} options.store
 * @param {(result: object) => void} [options.onSceneShown] called after a scene from `computeScene` replaces the draft
 * @param {() => void} [options.onRestart] called after Python died and a fresh worker was started
 * @returns {{requestDraft: () => void, computeScene: (scene: object) => Promise<object>, retryBoot: () => void}}
 */
export function createRecompute({ client, store, onSceneShown = () => {}, onRestart = () => {} }) {
  let live = false;
  let bootError = null;
  let inFlight = false;
  let draftDirty = false;
  /** @type {Array<{scene: object, resolve: Function, reject: Function}>} */
  const sceneJobs = [];

  /** Follow the current worker's boot (client.ready is a new promise after each restart). */
  function followBoot() {
    const ready = client.ready;
    ready.then(
      () => {
        if (client.ready !== ready) return;
        live = true;
        pump();
      },
      (error) => {
        if (client.ready !== ready) return;
        bootError = new Error(bootFailureMessage(error));
        for (const job of sceneJobs.splice(0)) job.reject(bootError);
      },
    );
  }
  followBoot();

  /** Python died under a request (the worker reports it as RuntimeUnavailable): start a fresh one. */
  function recoverIfLost(error) {
    if (!live || error?.detail?.type !== WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE) return false;
    live = false;
    draftDirty = true;
    client.restart();
    onRestart();
    followBoot();
    return true;
  }

  async function pump() {
    if (!live || inFlight) return;
    const job = sceneJobs.shift();
    if (!job && !(draftDirty && store.state.draft)) return;
    inFlight = true;
    try {
      if (job) await runScene(job);
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
      result = await client.request("compute", { scene: sceneFromDraft(store.state.draft) });
    } catch (error) {
      if (!recoverIfLost(error)) store.update({ error: asSceneError(error).detail }, "error");
      return;
    }
    store.update({ result, resultIsPreview: false, error: null }, "result", "error");
  }

  async function runScene(job) {
    let result;
    try {
      result = await client.request("compute", { scene: job.scene });
    } catch (error) {
      recoverIfLost(error);
      job.reject(asSceneError(error));
      return;
    }
    // Valid: now, and only now, the scene replaces what is on the page.
    draftDirty = false;
    try {
      store.update(
        { draft: draftFromScene(job.scene, result), result, resultIsPreview: false, error: null, presetId: null, edited: false },
        "scene", "shape", "labels", "values", "mode", "result", "error", "presets",
      );
      onSceneShown(result);
    } finally {
      job.resolve(result);
    }
  }

  return {
    /**
     * Python could not start and the learner asked to try again: start a fresh worker. Scenes set from now
     * on wait for it; if it fails too, they are refused with its reason.
     */
    retryBoot() {
      bootError = null;
      live = false;
      draftDirty = true;
      client.restart();
      onRestart();
      followBoot();
    },
    /** The draft changed: compute it as soon as Python is free (the newest draft wins). */
    requestDraft() {
      draftDirty = true;
      pump();
    },
    /**
     * Compute `scene`; if the module accepts it, show it (draft and result) and resolve to the result.
     * If not, reject with the module's error and leave the page as it was. Waits for Python if needed.
     */
    computeScene(scene) {
      if (bootError) return Promise.reject(bootError);
      return new Promise((resolve, reject) => {
        sceneJobs.push({ scene, resolve, reject });
        pump();
      });
    },
  };
}
