/**
 * The page's controller: the one place that changes the page's scene (through scenes.js, whose showScene is
 * the only way a whole scene gets there), follows Python's boot (python-boot.js) and talks to Python (through
 * the service). Views get the state to draw and the `actions` below, nothing else: no view knows of workers,
 * links or storage.
 */

import { applyEdit } from "../scene/edits.js";
import { shapeKey } from "../scene/draft.js";
import { embedCodeFor } from "../sharing/embed-snippet.js";
import { linkTo, quotedName } from "../sharing/links.js";
import { createSavedWork } from "../sharing/saved-work.js";
import { readSceneFile } from "../sharing/scene-files.js";
import { createClaimController } from "./claims.js";
import { deferredStore } from "./deferred-views.js";
import { downloadActions } from "./downloads.js";
import { createExperiments } from "./experiments.js";
import { exerciseWorkActions } from "./exercise-work.js";
import { createLearnerDrawing } from "./learner-drawing.js";
import { createModelController } from "./model.js";
import { ownSentence, repeatedWordOffer } from "./own-sentence.js";
import { createPresetLibrary } from "./presets.js";
import { followPythonBoot } from "./python-boot.js";
import { createRecompute } from "./recompute.js";
import { createSceneLoader, defaultFocus } from "./scenes.js";

/** Keep the focused token sensible after tokens were added or removed. */
export function clampFocus(focus, count, edit) {
  if (edit.kind === "sentence") return defaultFocus(edit.words);
  if (focus === null || count === 0) return count ? count - 1 : null;
  if (edit.kind === "remove-token" && edit.row < focus) return focus - 1;
  return Math.min(focus, count - 1);
}

/**
 * @param {object} options
 * @param {ReturnType<import("./state.js").createStore>} options.store
 * @param {ReturnType<import("../python/service.js").createPythonService>} options.python
 * @param {Promise<{preset: string, scene: object, result: object}>} options.preview the shipped first-paint result
 * @param {(edit: object) => boolean} [options.canEdit] false for an edit a course page's locks refuse
 * @param {(before: object, after: object) => string[]} [options.lockedChanges] the locked fields that showing
 *   scene `after` instead of `before` would change (embed/locks.js)
 * @param {string} [options.storageMode] where the learner's work is saved: "page", or "embed" in a frame
 * @param {string[]|null} [options.panelsOnPage] the panels a course page's frame keeps, or null for all
 */
export function createController({ store, python, preview, canEdit = () => true, lockedChanges = () => [], storageMode = "page", panelsOnPage = null }) {
  /** Panel `name` is on the page: shown by the view (a link may hide some) and kept by a course page's frame. */
  const panelShown = (name) => store.state.view.panels.includes(name) && (!panelsOnPage || panelsOnPage.includes(name));
  /** Take the learner to `place` ("playground", "top" or a panel name): playground.js scrolls there. */
  const reveal = (place) => store.update({ reveal: { place, count: (store.state.reveal?.count ?? 0) + 1 } }, "reveal");
  /** Show a message (replacing any before it); `action` adds one button. */
  const notify = (text, { tone = "info", action = null } = {}) => store.update({ notice: { text, tone, action } }, "notice");
  store.update({ notice: null }, "notice");

  const boot = followPythonBoot({ python, store, recompute: () => recompute });
  const recompute = createRecompute({ python, store, onLost: () => boot.restart() });
  // Saving a new scene (its identity is a canonical JSON of the whole scene) waits a task, so it never holds
  // back the heatmap of a big scene; leaving the page still writes anything pending.
  const savedWork = createSavedWork({
    store: deferredStore(store),
    mode: storageMode,
    onKept: ({ title }) => notify(`This replaced your saved edits of ${title ? quotedName(title) : "this scene"}. They are kept in this browser.`,
      { action: { label: "bring my edits back", run: () => scenes.restoreKept() } }),
  });
  const presets = createPresetLibrary();
  const claims = createClaimController({ store, python, reveal, notify, panelShown });
  const scenes = createSceneLoader({
    store, recompute, savedWork, presets, preview, lockedChanges, bootFailure: () => boot.failure, notify, reveal,
    // A link that chose a claim: its test comes into view when the link asks for its pair to start.
    openClaim: ({ id, start, steps, seed }) => claims.actions.openClaim(id, { start, steps, seed, show: start }).catch(() => {}),
    // A link or saved work that set up the model panel: its controller restores the panel (model.js).
    restoreModel: (kept) => model.restore(kept),
    restoreClaim: (kept) => claims.restore(kept),
  });
  const drawing = createLearnerDrawing({ store, python });
  // A shuffle is a whole new scene the learner asked for: checked first, refused if it breaks a lock.
  const experiments = createExperiments({
    store, python, showScene: (scene) => scenes.showScene({ scene, checkFirst: true, what: "this change" }),
  });
  const model = createModelController({
    store, python, showScene: (scene) => scenes.showScene({ scene, checkFirst: true, what: "this head of the trained model" }),
  });

  // ---- what the views may do ----------------------------------------------------------------------------

  const actions = {
    /** Apply one edit to the draft (scene/edits.js), redraw what it touches, and recompute. */
    edit(edit) {
      const { draft } = store.state;
      if (!draft || !canEdit(edit)) return;
      const before = shapeKey(draft);
      const tokensBefore = [...draft.tokens];
      const changes = applyEdit(draft, edit, { activeHead: store.state.activeHead, result: store.state.result });
      const patch = {};
      const told = edit.kind === "sentence" ? ownSentence(draft, { before: tokensBefore, lexicon: edit.lexicon }) : null;
      if (told) {
        changes.add("presets"); // the picker's description no longer fits
        patch.notice = { text: told.text, tone: "info", action: told.repeats ? repeatedWordOffer(store.state.presets, (id) => actions.pickPreset(id)) : null };
        changes.add("notice");
      }
      if (!store.state.edited) {
        patch.edited = true; // the picker offers to put the example back
        changes.add("presets");
      }
      if (shapeKey(draft) !== before) {
        changes.add("shape");
        patch.focusToken = clampFocus(store.state.focusToken, draft.tokens.length, edit);
        patch.activeHead = Math.max(0, Math.min(edit.kind === "add-head" ? draft.heads.length - 1 : store.state.activeHead, draft.heads.length - 1));
        patch.hover = null;
        changes.add("focus").add("head").add("hover");
      }
      recompute.requestDraft();
      store.update(patch, ...changes);
    },
    focusToken(row) {
      store.update({ focusToken: row }, "focus");
    },
    hover(cell) {
      store.update({ hover: cell }, "hover");
    },
    selectHead(index) {
      store.update({ activeHead: index, hover: null }, "head", "hover");
    },
    panelShown,
    /** Change what the page shows around the scene: `patch` holds keys of the view (view.js). */
    setView(patch) {
      store.update({ view: { ...store.state.view, ...patch } }, "view");
    },
    /** Show example `id` (the learner's saved edits of it, if any). */
    async pickPreset(id) {
      try {
        await scenes.openPreset(id);
      } catch (error) {
        store.update({}, "presets"); // the picker goes back to the example on show
        if (error.detail?.type === "Locked") return; // already said
        store.update({ error: { type: "Error", message: `Could not load the example “${id}”: ${error.message}`, field: null, row: null, column: null, row_index: null, column_index: null } }, "error");
      }
    },
    /** "Reset to example": the example as shipped; the learner's edits of it are kept aside, not deleted. */
    resetToPreset: (id) => scenes.resetToPreset(id),
    restoreKept: () => scenes.restoreKept(),
    dismissNotice: () => store.update({ notice: null }, "notice"),
    /** Python could not start and the learner asked to try again: a fresh worker; the page stays as it is. */
    retryBoot: () => boot.restart(),
    // The experiments on the learner's scene (experiments.js): their outcomes go to state.experiments.
    ...experiments,
    /** Part 7, run in Python: the average top weight against d, with and without ÷√d. */
    scalingExperiment: (options) => python.scalingExperiment(options),
    /** The embed code for what is on screen, with the author's choices (sharing/embed-snippet.js embedQuery). */
    embedCode: (options) => embedCodeFor(store.state, options),
    /**
     * The link to what is on screen; `at` names the panel it opens at (page/view.js OPEN_AT_PANELS), or null;
     * `startClaim` makes it train the chosen claim's pair as it opens.
     */
    link: ({ at = null, startClaim = false } = {}) => linkTo(store.state, { at, startClaim }),
    /** Open a scene file the learner chose or dropped: checked by the module, the page as it was if it fails. */
    async openFile(file) {
      const name = quotedName(file.name);
      const { scene, problem } = await readSceneFile(file);
      if (problem) {
        notify(problem, { tone: "error" });
        return false;
      }
      if (scenes.refusedByLocks(scene, name)) return false;
      notify(store.state.boot.live ? `Opening ${name}…` : `Opening ${name} as soon as Python is live…`);
      try {
        await scenes.showScene({ scene, checkFirst: true, what: name });
      } catch (error) {
        notify(`${name} cannot be shown: ${error.message}`, { tone: "error" });
        return false;
      }
      if (store.state.notice?.text?.startsWith("Opening")) notify(`Opened ${name}.`);
      return true;
    },
    notify,
    // The toolbar's downloads (downloads.js), and the learner's exercise code kept in this browser (exercise-work.js).
    ...downloadActions({ store, notify }),
    ...exerciseWorkActions,

    // The learner's own code (the exercises), run in a Python of its own.
    exercises: () => python.exercises(),
    runExercise: (request) => python.runExercise(request),
    stopLearnerCode: () => python.stopLearnerCode(),
    followLearnerRuns: (listener) => python.onLearnerStatus(listener),
    /** Draw the heatmap with the learner's function from now on (again after their code changed). */
    drawWithLearnerCode: (exerciseId, code) => drawing.enable(exerciseId, code),
    /** Back to the playground's own result. */
    stopDrawingWithLearnerCode: () => drawing.disable(),

    // The trained model's panel (model.js).
    ...model.actions,
    // "Test a claim" (claims.js).
    ...claims.actions,
    /**
     * Open the chosen head in the playground, and take the learner up to it: the scene is replaced at the top of
     * the page, far above the panel, so the page goes there and offers the way back.
     */
    async openHeadInPlayground() {
      await model.actions.openHeadInPlayground();
      const { opened } = store.state.model ?? {};
      const which = opened?.label ?? "The head";
      reveal("playground");
      notify(`${which} of the trained model is now the playground's scene, here at the top: edit its Wq, Wk or Wv and the model's predictions follow.`,
        { action: { label: "back to the trained model", run: () => reveal("model-head") } });
    },
  };

  return {
    actions,
    /** Open the first scene (a link, saved work, the preview); call once the views are mounted. */
    start: () => scenes.openFirstScene().catch(() => {}),
    /** A course page's setScene: checked first, shown if the module accepts it (locks do not hold it back). */
    setScene: (scene) => scenes.showScene({ scene, checkFirst: true, by: "author" }),
    /** The list of examples, into the state (for the picker). */
    loadPresetList: () =>
      presets.list().then((list) => store.update({ presets: list }, "presets"), () => store.update({ presets: [] }, "presets")),
  };
}
