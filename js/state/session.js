/**
 * The scene session: the one owner of the scene being edited and of everything derived from it (the draft, its
 * result and error, the focused token, the hovered cell, the head being edited, the example it came from). It
 * offers the few ways they change:
 *
 *   edit(edit)            the learner changed one thing (scene/edits.js): a new draft, computed again
 *   focus / hover / selectHead   where the learner looks
 *   show(shown)           a whole new scene on the page at once (its result computed after, unless it came with one)
 *   check(scene)          a scene computed first and shown only if the module accepts it
 *   showLearnerResult     a result drawn with the learner's own function in place of the module's
 *
 * and keeps the result in step with the draft, one computation at a time: while Python computes, edits only mark
 * the draft as owed, and when the answer comes the newest draft (whatever it is by then) is sent once. Scenes to
 * check queue in order and each gets its own answer. It computes only while told Python is live (`setLive`), and
 * hands a worker that died under a request to `onLost`.
 *
 * Every change is one notification of the store, with one new value per slice it changed: a draft is never
 * changed in place (scene/edits.js), so a view may keep what it drew. The page's controller and the notebook
 * widget both build on this module, with their own `compute` (Python in a worker, or the notebook's kernel).
 *
 * The store itself (createStore, at the end) is here too: the state views subscribe to is the session's.
 */

import { applyEdit, fieldsEditedBy } from "../scene/edits.js";
import { draftFromScene, sceneFromDraft, shapeKey } from "../scene/draft.js";
import { withErrorDetail } from "../scene/errors.js";
import { sameSceneData } from "../scene/sameness.js";
import { createRedrawSchedule } from "./redraw-schedule.js";
import { CHANGES, SCENE_SLICES, initialState } from "./state.js";

/** @typedef {import("./state.js").PlaygroundState} PlaygroundState */

/**
 * What a view gets of the store: the state to read, the changes to subscribe to (at once, or when the timing it
 * gives says: redraw-schedule.js), and `update` for the views that change a slice of their own.
 * @typedef {object} StoreView
 * @property {PlaygroundState} state
 * @property {(patch: object, ...changes: string[]) => void} update
 * @property {(listener: (state: PlaygroundState, changes: Set<string>) => void, when?: import("./redraw-schedule.js").RedrawTiming) => () => void} subscribe
 */

/** The token to focus when a scene appears: "it" if there is one (the tutorial's question), else the last. */
function defaultFocus(tokens) {
  const it = tokens.indexOf("it");
  return it >= 0 ? it : tokens.length ? tokens.length - 1 : null;
}

/** Keep the focused token sensible after tokens were added or removed. */
function clampFocus(focus, count, edit) {
  if (edit.kind === "sentence") return defaultFocus(edit.words);
  if (focus === null || count === 0) return count ? count - 1 : null;
  if (edit.kind === "remove-token" && edit.row < focus) return focus - 1;
  return Math.min(focus, count - 1);
}

/** The changes a whole new scene makes (state/state.js CHANGES). */
const WHOLE_SCENE_CHANGES = ["scene", "shape", "labels", "values", "mode", "example", "focus", "head", "hover", "error"];
/** The changes after which a scene checked and shown is no longer on the page as it was checked. */
const DRAFT_CHANGES = ["scene", "shape", "labels", "values", "mode"];

/** The scene slices a whole new scene sets (see the session's `show`), and the changes that makes. */
function wholeScene(state, { draft, presetId = null, edited = false, savedAs = null, result = null, isPreview = false, error = null, focus = null, head = 0 }) {
  const tokens = draft.tokens.length;
  return {
    patch: {
      draft,
      sceneCount: state.sceneCount + 1,
      presetId,
      edited,
      savedAs,
      activeHead: Math.min(Math.max(0, head), Math.max(0, draft.heads.length - 1)),
      focusToken: Number.isInteger(focus) && focus >= 0 && focus < tokens ? focus : defaultFocus(draft.tokens),
      hover: null,
      error,
      ...(result ? { result, resultIsPreview: isPreview } : {}),
    },
    changes: [...WHOLE_SCENE_CHANGES, ...(result ? ["result"] : [])],
  };
}

/**
 * What `edit` makes of the scene slices: the new draft, and where the focus and the head go when its shape changed
 * ({patch, changes}), or null when the edit touches a locked field.
 */
function editedScene(state, edit, lockedFields) {
  const { draft, activeHead, result, focusToken } = state;
  if (!draft || fieldsEditedBy(edit).some((field) => lockedFields.has(field))) return null;
  const { draft: next, changes } = applyEdit(draft, edit, { activeHead, result });
  const patch = { draft: next };
  if (!state.edited) {
    patch.edited = true; // the picker offers to put the example back
    changes.add("example");
  }
  if (shapeKey(next) !== shapeKey(draft)) {
    patch.focusToken = clampFocus(focusToken, next.tokens.length, edit);
    patch.activeHead = Math.max(0, Math.min(edit.kind === "add-head" ? next.heads.length - 1 : activeHead, next.heads.length - 1));
    patch.hover = null;
    changes.add("shape").add("focus").add("head").add("hover");
  }
  return { patch, changes };
}

/**
 * The last scene checked and shown, for as long as neither its draft nor its result changed: a course page's script
 * setting it again is answered from here, without asking Python or drawing anything again (at 64 tokens that cost
 * 50 to 100 ms each time).
 */
function createShownAgain({ store, write, computing }) {
  const { state } = store;
  let checkedShown = null; // {scene, draft, result}
  store.subscribe((now, changes) => {
    if (checkedShown && (now.draft !== checkedShown.draft || now.result !== checkedShown.result ||
        DRAFT_CHANGES.some((change) => changes.has(change)))) checkedShown = null;
  });
  return {
    remember(scene) {
      checkedShown = { scene, draft: state.draft, result: state.result };
    },
    /**
     * `scene` set again, unchanged, while the page still shows it as it was checked: the result it already has.
     * The page ends as showing it anew would leave it: no example chosen, the default token focused, nothing
     * hovered. Null when the scene must go the usual way (anything changed, or anything is still to come).
     */
    answer(scene) {
      if (!checkedShown || state.error || !computing.settled() || !sameSceneData(scene, checkedShown.scene)) return null;
      const focus = defaultFocus(state.draft.tokens);
      const changes = [];
      if (state.presetId !== null || state.edited) changes.push("example");
      if (state.focusToken !== focus) changes.push("focus");
      if (state.hover !== null) changes.push("hover");
      if (changes.length) write({ presetId: null, edited: false, focusToken: focus, hover: null }, ...changes);
      return checkedShown.result;
    },
  };
}

/**
 * @param {object} options
 * @param {ReturnType<import("./session.js").createStore>} options.store the session takes its scene writer
 * @param {(scene: object) => Promise<object>} options.compute compute(scene): the result, or a rejection whose
 *   `.detail` is the module's error
 * @param {Set<string>} [options.lockedFields] scene fields a course page locked (embed/locks.js): edits of them
 *   are refused
 * @param {(error: unknown) => boolean} [options.isLost] true for a failure that means Python died under a request
 * @param {() => void} [options.onLost] Python died under a request: a fresh one must be started
 * @param {() => void} [options.beforeNewScene] a whole new scene is about to replace the one on the page (saved
 *   work writes what the old one still owes)
 */
export function createSceneSession({ store, compute, lockedFields = new Set(), isLost = () => false, onLost = () => {}, beforeNewScene = () => {} }) {
  const write = store.takeSceneWriter();
  const { state } = store;
  const computing = createComputeLoop({ compute, isLost, onLost, write, state });
  const shownAgain = createShownAgain({ store, write, computing });

  /** Put a whole new scene on the page, with `also` (other slices, and their `changes`) in the same notification. */
  function putOnPage(shown, { patch = {}, changes = [] } = {}) {
    beforeNewScene();
    const scene = wholeScene(state, shown);
    write({ ...patch, ...scene.patch }, ...scene.changes, ...changes);
    if (!shown.result || shown.isPreview) computing.draftChanged(shown.draft);
  }

  /**
   * Apply one edit (scene/edits.js) unless it touches a locked field: a new draft, and the result computed again.
   * @param {object} change the edit
   * @param {{patch?: object, changes?: string[]}} [also] other slices changed in the same notification
   * @returns {boolean} whether the edit was made
   */
  function edit(change, { patch = {}, changes = [] } = {}) {
    const edited = editedScene(state, change, lockedFields);
    if (!edited) return false;
    // Python starts on the new draft before the views redraw, so the two overlap.
    computing.draftChanged(edited.patch.draft);
    write({ ...patch, ...edited.patch }, ...edited.changes, ...changes);
    return true;
  }

  /** The session's ways as a view's actions (the page's controller adds its own around them). */
  const viewActions = Object.freeze({
    edit,
    /** The learner typed a sentence over the scene's: words it knew keep their features (scene/edits.js). */
    typeSentence: (words, lexicon) => edit({ kind: "sentence", words, lexicon }),
    focusToken: (row) => write({ focusToken: row }, "focus"),
    hover: (cell) => write({ hover: cell }, "hover"),
    selectHead: (index) => write({ activeHead: index, hover: null }, "head", "hover"),
  });

  return {
    /** The state the session writes into (and the rest of the page's). */
    state,
    viewActions,
    edit,
    focus: viewActions.focusToken,
    hover: viewActions.hover,
    selectHead: viewActions.selectHead,

    /**
     * Show a whole new scene at once (`shown.draft`, or `shown.scene`): exactly what it holds, mistakes included,
     * which the module then names. With `shown.result` (the shipped preview: `isPreview`) it is drawn at once.
     * @param {{draft?: object, scene?: object, presetId?: string|null, edited?: boolean, savedAs?: string|null,
     *   result?: object, isPreview?: boolean, error?: object|null, focus?: number|null, head?: number}} shown
     *   `error`: the module's error for it, when it came computed (a notebook's kernel), the last good `result` kept
     * @param {{patch?: object, changes?: string[]}} [also] other slices changed in the same notification
     */
    show(shown, also) {
      putOnPage({ ...shown, draft: shown.draft ?? draftFromScene(shown.scene, shown.result) }, also);
    },

    /**
     * Compute `scene` first; if the module accepts it, show it (no example, not edited, the head being edited
     * kept where it can be, unless `shown` says otherwise) and resolve to its result; if not, reject with the
     * module's error, the page as it was. A scene set again unchanged resolves at once (createShownAgain).
     * @param {object} scene
     * @param {{shown?: object, also?: {patch?: object, changes?: string[]}}} [options]
     */
    check(scene, { shown = {}, also } = {}) {
      const plain = Object.keys(shown).length === 0 && !also;
      const again = plain ? shownAgain.answer(scene) : null;
      if (again) return Promise.resolve(again);
      return computing.check(scene, (result) => {
        putOnPage({ presetId: null, edited: false, head: state.activeHead, ...shown, draft: draftFromScene(scene, result), result }, also);
        shownAgain.remember(scene);
      });
    },

    /** An error the page found (an example that could not be loaded), shown where the module's errors are. */
    showError: (detail) => write({ error: detail }, "error"),
    /** A result drawn with the learner's own function (panels/learner-drawing.js), or the module's put back. */
    showLearnerResult: (result) => write({ result, resultIsPreview: false }, "result"),

    /** The scene on the page, in the scene format (a fresh copy), or null before the first. */
    scene: () => (state.draft ? sceneFromDraft(state.draft) : null),

    /** Python is live (or not): computing starts (or waits); the draft is computed again once live. */
    setLive: (live) => computing.setLive(live, state.draft),
    /** Python could not start: every scene waiting to be checked is refused with `error`. */
    refuseChecks: (error) => computing.refuseChecks(error),
    /** True when Python is live and nothing is computing, waiting or owed: the result is the draft's. */
    settled: () => computing.settled(),
  };
}

/**
 * The loop that computes one thing at a time: the newest draft (owed by `draftChanged`), or the next scene to check.
 * A draft's answer writes `result` or `error`; a check's answer goes to its own caller.
 */
function createComputeLoop({ compute, isLost, onLost, write, state }) {
  let live = false;
  let inFlight = false;
  let owedDraft = null; // the newest draft not computed yet
  /** @type {Array<{scene: object, onValid: Function, resolve: Function, reject: Function}>} */
  const checks = [];

  /** Python died under a request: hand it over once, and owe the draft to the next Python. */
  function lost(error) {
    if (!live || !isLost(error)) return false;
    live = false;
    owedDraft ??= state.draft;
    onLost();
    return true;
  }

  async function pump() {
    if (!live || inFlight) return;
    const job = checks.shift();
    if (!job && !owedDraft) return;
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
    const draft = owedDraft;
    owedDraft = null;
    let result;
    try {
      result = await compute(sceneFromDraft(draft));
    } catch (error) {
      if (!lost(error)) write({ error: withErrorDetail(error).detail }, "error");
      return;
    }
    write({ result, resultIsPreview: false, error: null }, "result", "error");
  }

  async function runCheck(job) {
    let result;
    try {
      result = await compute(job.scene);
    } catch (error) {
      lost(error);
      job.reject(withErrorDetail(error));
      return;
    }
    // Valid: now, and only now, the scene replaces what is on the page (in the same task as the answer, so no
    // draft computation can come in between).
    owedDraft = null;
    try {
      job.onValid(result);
    } finally {
      job.resolve(result);
    }
  }

  return {
    draftChanged(draft) {
      owedDraft = draft;
      pump();
    },
    check(scene, onValid) {
      return new Promise((resolve, reject) => {
        checks.push({ scene, onValid, resolve, reject });
        pump();
      });
    },
    setLive(isLive, draft) {
      live = isLive;
      if (isLive && draft) {
        owedDraft = draft;
        pump();
      }
    },
    settled: () => live && !inFlight && !owedDraft && checks.length === 0,
    refuseChecks(error) {
      for (const job of checks.splice(0)) job.reject(error);
    },
  };
}

// ---- The store ------------------------------------------------------------------------------------------------

/** Refuse a patch or a change name this file does not declare (a programming mistake, said at once). */
function checkDeclared(state, patch, changes) {
  for (const key of Object.keys(patch)) {
    if (!Object.hasOwn(state, key)) throw new Error(`state has no slice "${key}" (state/state.js declares them)`);
  }
  for (const change of changes) {
    if (!Object.hasOwn(CHANGES, change)) throw new Error(`no change is called "${change}" (state/state.js CHANGES)`);
  }
}

/**
 * The playground's state (every slice declared in state/state.js) and its subscribers: what views read and
 * subscribe to, and what the page's controller modules change. The scene's slices are refused to `update`: the
 * scene session below takes their one writer.
 * @returns {{state: PlaygroundState, update: (patch: object, ...changes: string[]) => void,
 *   subscribe: StoreView["subscribe"],
 *   catchUp: (listener: (state: PlaygroundState, changes: Set<string>) => void) => void,
 *   hold: () => () => Promise<void>,
 *   derive: (derive: (state: PlaygroundState, changes: Set<string>) => ({patch: object, changes: string[]}|null)) => void,
 *   takeSceneWriter: () => (patch: object, ...changes: string[]) => void}}
 */
export function createStore() {
  const state = initialState();
  const listeners = new Set();
  const schedule = createRedrawSchedule(() => state);
  const derivations = [];
  let sceneWriterTaken = false;

  function publish(patch, changes) {
    checkDeclared(state, patch, changes);
    Object.assign(state, patch);
    const changed = new Set(changes);
    // A slice that follows from others changes in the same notification, not in one of its own.
    for (const derive of derivations) {
      const derived = derive(state, changed);
      if (!derived) continue;
      checkDeclared(state, derived.patch, derived.changes);
      Object.assign(state, derived.patch);
      for (const change of derived.changes) changed.add(change);
    }
    for (const listener of listeners) listener(state, changed);
  }

  return {
    state,
    /** Merge `patch` into the state and tell every subscriber the `changes`. The scene's slices are refused. */
    update(patch, ...changes) {
      const owned = Object.keys(patch).filter((key) => SCENE_SLICES.includes(key));
      if (owned.length) throw new Error(`${owned.join(", ")}: only the scene session changes the scene (state/session.js)`);
      publish(patch, changes);
    },
    /**
     * Call `listener(state, changes)` after every update; or, given a timing `when` (redraw-schedule.js), a task
     * after the heatmap with every part changed meanwhile (at once for the changes it calls urgent; far from the
     * screen, once the updates pause). Returns a function that unsubscribes.
     */
    subscribe(listener, when) {
      if (!when) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      }
      const { hear, stop } = schedule.listen(listener, when);
      listeners.add(hear);
      return () => {
        listeners.delete(hear);
        stop();
      };
    },
    /** Tell `listener`, subscribed with a timing, now what it is still owed (saving, before the page goes away). */
    catchUp: schedule.catchUp,
    /** Hold every deferred listener until the next frame is painted after the release (redraw-schedule.js). */
    hold: schedule.hold,
    /**
     * Keep a slice in step with others: `derive(state, changes)` runs before every notification and returns
     * {patch, changes} to apply in it (never a scene slice), or null.
     */
    derive(derive) {
      derivations.push((now, changed) => {
        const derived = derive(now, changed);
        if (derived && Object.keys(derived.patch).some((key) => SCENE_SLICES.includes(key))) {
          throw new Error("only the scene session changes the scene (state/session.js)");
        }
        return derived;
      });
    },
    /** The one writer of the scene's slices (it may write any slice), for the scene session; given once. */
    takeSceneWriter() {
      if (sceneWriterTaken) throw new Error("the scene session already writes this state");
      sceneWriterTaken = true;
      return (patch, ...changes) => publish(patch, changes);
    },
  };
}
