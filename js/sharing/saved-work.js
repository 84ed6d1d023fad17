/**
 * The learner's work, saved in this browser as they go: nothing they made is ever silently thrown away.
 *
 * Their edits of each example are saved under that example's id, and a scene of their own (a file, a link,
 * the API) under "scene-<hash>" (saved-drafts.js). Saving waits for a pause in typing; anything pending is
 * written when the page is hidden or closed, and before the scene changes if it holds the learner's edits (a
 * scene that only arrived, and was replaced before its save came due, is not written: a course page's script
 * stepping through 80 scenes of 64 tokens filled the browser's storage, 5 MB, and then the learner's own
 * edits could not be saved). When a new scene replaces saved edits of the same id (a link to the example,
 * say), those edits are first put aside ("kept"); the controller then offers to bring them back.
 *
 * State it adds to the store (see page/state.js):
 *   saveStatus  {saved: boolean, problem: string | null, kept: boolean}   (part "saved")
 */

import { createDraftStore, sameCanonicalJson, sceneIdentity } from "./saved-drafts.js";
import { sceneShapeProblem } from "../scene/shape.js";
import { sceneFromDraft } from "../scene/draft.js";
import { claimViewOf, modelViewOf } from "../layout/view.js";

// Saving waits for a pause in typing.
const SAVE_DELAY_MS = 300;
// Changes that mean the learner edited the draft.
const EDIT_PARTS = ["values", "labels", "shape", "mode"];

/**
 * What is saved and linked besides the scene: the focused token, the head, the page's view, and what the model
 * panel and "Test a claim" keep (made from their states now: each keeps one, state.model and state.claim).
 */
export function viewOf(state) {
  const claim = claimViewOf(state.claim);
  return { focus: state.focusToken, head: state.activeHead, ...state.view, model: modelViewOf(state.model), ...(claim ? { claim } : {}) };
}

/** A saved record, checked: its draft must make a scene the page can draw (else null). */
function usable(record) {
  if (!record) return null;
  try {
    return sceneShapeProblem(sceneFromDraft(record.draft)) ? null : record;
  } catch {
    return null;
  }
}

/**
 * The one save that waits for a pause in typing (SAVE_DELAY_MS), and whether it holds edits the learner made or
 * only a scene that arrived.
 * @param {() => void} write writes what is on screen
 */
function createPendingSave(write) {
  let timer = null;
  let holdsEdits = false;

  function cancel() {
    clearTimeout(timer);
    timer = null;
  }

  function now() {
    cancel();
    write();
  }

  return {
    /** Write after a pause; `edited`: what will be written holds the learner's edits. */
    schedule(edited) {
      holdsEdits = edited;
      clearTimeout(timer);
      timer = setTimeout(now, SAVE_DELAY_MS);
    },
    now,
    cancel,
    /** Write the save that waits now, if there is one. */
    due() {
      if (timer) now();
    },
    /** Write the save that waits now if it holds the learner's edits (a scene that only arrived waits on). */
    editsNow() {
      if (timer && holdsEdits) now();
    },
  };
}

/**
 * Following a new draft waits until the page is idle (at most SAVE_DELAY_MS): naming a 64 × 64 scene and
 * comparing it with what is saved takes some 5 ms, and the new scene should be drawn (and a course page's
 * setScene settle) first. In a stream of setScene calls the page is idle while Python computes, so the
 * following happens then instead of between two updates. Edits change the draft in place, so until then
 * nothing is lost: whatever waits is followed before anything is written, and the draft is saved as it is
 * when it is followed.
 */
const whenIdle = (callback) =>
  window.requestIdleCallback ? window.requestIdleCallback(callback, { timeout: SAVE_DELAY_MS }) : setTimeout(callback, 0);

/**
 * @param {object} options
 * @param {{state: object, update: Function, subscribe: Function}} options.store
 * @param {string} options.mode the storage mode ("page"; an embedded playground has its own)
 * @param {(kept: {title: string}) => void} options.onKept a new scene put saved edits aside (say so)
 */
export function createSavedWork({ store, mode, onKept }) {
  const drafts = createDraftStore({ mode, onProblem: (problem) => setSaveStatus({ problem }) });
  /** Drafts that are saved work being brought back, with the id they are saved under. */
  const restoring = new WeakMap();
  /** What is on screen, as saving sees it. */
  let shown = { draft: null, sceneId: null, presetId: null, title: "", view: null };

  store.update({ saveStatus: { saved: false, problem: null, kept: false } }, "saved");

  function setSaveStatus(patch) {
    store.update({ saveStatus: { ...store.state.saveStatus, ...patch } }, "saved");
  }

  const pendingSave = createPendingSave(() => {
    if (!shown.draft) return;
    const ok = drafts.save(shown.sceneId, { presetId: shown.presetId, title: shown.title, draft: shown.draft, view: shown.view });
    if (ok) setSaveStatus({ saved: true, problem: null });
  });

  function scheduleSave(state) {
    shown.view = viewOf(state);
    shown.title = state.draft.title ?? "";
    pendingSave.schedule(Boolean(state.edited));
  }

  /** A whole new draft is on screen: write what the old one still owes of the learner's edits, then follow the new one. */
  function follow(state, restoredId) {
    pendingSave.editsNow();
    pendingSave.cancel(); // a scene that only arrived and is replaced already is not written
    const sceneId = restoredId ?? sceneIdentity(sceneFromDraft(state.draft), state.presetId);
    // Saved edits of this scene that differ from the draft now shown are put aside (kept), not overwritten.
    let saved = restoredId ? null : drafts.load(sceneId);
    let kept = false;
    if (saved && !sameCanonicalJson(saved.draft, state.draft)) {
      kept = drafts.keep(sceneId);
      if (kept) saved = null;
    }
    shown = { draft: state.draft, sceneId, presetId: state.presetId, title: state.draft.title ?? "", view: viewOf(state) };
    drafts.setCurrent(sceneId);
    setSaveStatus({ saved: Boolean(restoredId) || Boolean(saved), kept: Boolean(drafts.loadKept(sceneId)) });
    // A scene of one's own (a file, a link, the API) is saved at once: there is no example to go back to.
    if (!state.presetId || state.edited) scheduleSave(state);
    if (kept) onKept({ title: state.draft.title ?? "" });
  }

  let waiting = null; // {draft, restoredId} of the newest draft not yet followed (see whenIdle)
  function followWaiting() {
    if (!waiting) return;
    const { draft, restoredId } = waiting;
    waiting = null;
    if (store.state.draft === draft) follow(store.state, restoredId);
  }

  store.subscribe((state, changes) => {
    if (!state.draft) return;
    if (state.draft !== shown.draft) {
      if (waiting?.draft !== state.draft) {
        if (!waiting) whenIdle(followWaiting);
        waiting = { draft: state.draft, restoredId: restoring.get(state.draft) };
      }
      return;
    }
    const edited = EDIT_PARTS.some((part) => changes.has(part)) && state.edited;
    const looked = ["focus", "head", "view", "model", "claim"].some((part) => changes.has(part)) && (state.edited || !state.presetId);
    if (edited || looked) scheduleSave(state);
  });

  // Write anything pending before the page goes away (a reload, a closed tab, a hidden tab).
  const writePending = () => {
    followWaiting();
    pendingSave.due();
  };
  window.addEventListener("pagehide", writePending);
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && writePending());

  return {
    /**
     * Before another scene replaces the one on screen: write what it owes of the learner's edits now. A scene
     * that only arrived waits for its save as before, which the new scene then cancels.
     */
    flush() {
      followWaiting();
      pendingSave.editsNow();
    },
    /** The id the scene on screen is saved under. */
    get shownId() {
      followWaiting();
      return shown.sceneId;
    },
    /** The saved record of scene `id`, if there is a usable one. */
    record: (id) => usable(drafts.load(id)),
    /** The record of the scene on screen last (what a reload opens), if any; and its id. */
    current() {
      const id = drafts.current();
      return { id, record: id ? usable(drafts.load(id)) : null };
    },
    /** The edits kept aside for scene `id`, if any. */
    kept: (id) => usable(drafts.loadKept(id)),
    /** Put the saved edits of `id` aside; true if there were any. */
    keep: (id) => drafts.keep(id),
    /** Swap the kept edits of `id` with the saved ones; returns the record that is now the saved one. */
    swapKept: (id) => usable(drafts.swapKept(id)),
    /** `draft` is saved work coming back: it keeps the id it is saved under (not a new scene's hash). */
    restoring(draft, id) {
      restoring.set(draft, id);
    },
  };
}
