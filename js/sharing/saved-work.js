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
 * State: `state.saveStatus` {saved: boolean, problem: string | null, kept: boolean, codeUnsaved: boolean} (change
 * "saved", state/state.js): `problem` says why nothing is being saved (saved-drafts.js whyNotSaved), and
 * `codeUnsaved` that the learner's exercise code could not be kept either (sharing/exercise-code.js); `keptBy`
 * ("browser" or "course") whose storage holds the edits (sharing/work-storage.js).
 * A whole new scene is told from an edit by `state.sceneCount` (state/session.js): edits make new drafts too.
 */

import { createDraftStore, sceneIdentity, whyNotSaved } from "./saved-drafts.js";
import { sceneShapeProblem } from "../scene/shape.js";
import { sceneFromDraft } from "../scene/draft.js";
import { sameSceneData } from "../scene/sameness.js";
import { claimViewOf, modelViewOf } from "../layout/panels.js";
import { workKeptBy } from "./work-storage.js";

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

/** What is saved, read and put aside through `drafts` (saved-drafts.js): only records the page can draw come back. */
function savedRecords(drafts) {
  return {
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
  };
}

/**
 * Call `callback` once the page is idle (at most SAVE_DELAY_MS later): naming a 64 × 64 scene and comparing it
 * with what is saved takes some 5 ms, and a new scene should be drawn (and a course page's setScene settle) first.
 * In a stream of setScene calls the page is idle while Python computes, so the work happens then instead of
 * between two updates.
 */
const whenIdle = (callback) =>
  window.requestIdleCallback ? window.requestIdleCallback(callback, { timeout: SAVE_DELAY_MS }) : setTimeout(callback, 0);

/**
 * @param {object} options
 * @param {ReturnType<import("../state/session.js").createStore>} options.store the page's store
 * @param {object} options.when when this module hears of the store's changes: a task after the heatmap
 *   (state/redraw-schedule.js), so that a new scene's save never holds back the heatmap of a big scene
 * @param {string} options.mode the storage mode ("page"; an embedded playground has its own)
 */
export function createSavedWork({ store, mode, when }) {
  /** Told when a new scene put saved edits of it aside (`onKept`), to say so. */
  let onKept = (kept) => {};
  const drafts = createDraftStore({ mode, onProblem: (problem) => setSaveStatus({ problem }) });
  /** What is on screen, as saving sees it: `draft` the newest draft of the scene numbered `sceneCount`. */
  let shown = { draft: null, sceneCount: null, sceneId: null, presetId: null, title: "", view: null };
  let saveTimer = null;
  let pendingIsEdited = false; // the save that waits holds edits the learner made, not only a scene that arrived

  function setSaveStatus(patch) {
    store.update({ saveStatus: { ...store.state.saveStatus, ...patch, keptBy: workKeptBy() } }, "saved");
  }

  function saveNow() {
    clearTimeout(saveTimer);
    saveTimer = null;
    if (!shown.draft) return;
    // The newest draft of the scene followed (an edit since the save was scheduled made a newer one).
    if (store.state.sceneCount === shown.sceneCount) shown.draft = store.state.draft;
    const ok = drafts.save(shown.sceneId, { presetId: shown.presetId, title: shown.title, draft: shown.draft, view: shown.view });
    if (ok) setSaveStatus({ saved: true, problem: null });
  }

  function scheduleSave(state) {
    shown.draft = state.draft;
    shown.view = viewOf(state);
    shown.title = state.draft.title ?? "";
    pendingIsEdited = Boolean(state.edited);
    clearTimeout(saveTimer);
    saveTimer = setTimeout(saveNow, SAVE_DELAY_MS);
  }

  /** Write the save that waits now if it holds the learner's edits (a scene that only arrived waits on). */
  function saveEditsNow() {
    if (saveTimer && pendingIsEdited) saveNow();
  }

  /** A whole new draft is on screen: write what the old one still owes of the learner's edits, then follow the new one. */
  function follow(state, restoredId) {
    saveEditsNow();
    clearTimeout(saveTimer); // a scene that only arrived and is replaced already is not written
    saveTimer = null;
    const sceneId = restoredId ?? sceneIdentity(sceneFromDraft(state.draft), state.presetId);
    // Saved edits of this scene that differ from the draft now shown are put aside (kept), not overwritten.
    let saved = restoredId ? null : drafts.load(sceneId);
    let kept = false;
    if (saved && !sameSceneData(saved.draft, state.draft)) {
      kept = drafts.keep(sceneId);
      if (kept) saved = null;
    }
    shown = { draft: state.draft, sceneCount: state.sceneCount, sceneId, presetId: state.presetId, title: state.draft.title ?? "", view: viewOf(state) };
    drafts.setCurrent(sceneId);
    setSaveStatus({ saved: Boolean(restoredId) || Boolean(saved), kept: Boolean(drafts.loadKept(sceneId)) });
    // A scene of one's own (a file, a link, the API) is saved at once: there is no example to go back to.
    if (!state.presetId || state.edited) scheduleSave(state);
    if (kept) onKept({ title: state.draft.title ?? "" });
  }

  // Following a new scene waits until the page is idle (whenIdle). Until then nothing is lost: whatever waits is
  // followed before anything is written, and the newest draft of the scene is saved as it is when it is followed.
  let waiting = null; // {sceneCount, restoredId} of the newest scene not yet followed
  function followWaiting() {
    if (!waiting) return;
    const { sceneCount, restoredId } = waiting;
    waiting = null;
    if (store.state.sceneCount === sceneCount) follow(store.state, restoredId);
  }

  function followChanges(state, changes) {
    if (!state.draft) return;
    if (state.sceneCount !== shown.sceneCount) {
      if (waiting?.sceneCount !== state.sceneCount) {
        if (!waiting) whenIdle(followWaiting);
        waiting = { sceneCount: state.sceneCount, restoredId: state.savedAs };
      }
      return;
    }
    const edited = EDIT_PARTS.some((part) => changes.has(part)) && state.edited;
    const looked = ["focus", "head", "view", "model", "claim"].some((part) => changes.has(part)) && (state.edited || !state.presetId);
    if (edited || looked) scheduleSave(state);
  }
  store.subscribe(followChanges, when);

  // Hear now of every change the store still owes this module (it hears a task late): a knock-out clicked just
  // before a reload changed the state, but the task that would have told this module can come after the page is gone.
  const catchUp = () => store.catchUp(followChanges);

  // Write anything pending before the page goes away (a reload, a closed tab, a hidden tab).
  const writePending = () => {
    catchUp();
    followWaiting();
    if (saveTimer) saveNow();
  };
  window.addEventListener("pagehide", writePending);
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && writePending());

  return {
    /**
     * Before another scene replaces the one on screen: write what it owes of the learner's edits now. A scene
     * that only arrived waits for its save as before, which the new scene then cancels.
     */
    /** Call `listener` with {title} whenever a new scene puts the learner's saved edits of it aside (one listener). */
    onKept: (listener) => void (onKept = listener),
    flush() {
      catchUp();
      followWaiting();
      saveEditsNow();
    },
    /** The id the scene on screen is saved under. */
    get shownId() {
      followWaiting();
      return shown.sceneId;
    },
    ...savedRecords(drafts),
    /** The browser would not keep the learner's exercise code: say so (once), with why if nothing said it yet. */
    codeNotKept: ({ codeUnsaved, problem } = store.state.saveStatus) => codeUnsaved || setSaveStatus({ codeUnsaved: true, problem: problem ?? whyNotSaved(null) }),
  };
}
