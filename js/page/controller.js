/**
 * The page's controller: puts together the scene session (state/session.js, the one owner of the scene), where
 * scenes come from (scene-loader.js, first-scene.js), Python's boot (python-boot.js), saved work, and the panels'
 * controllers (the trained model, "Test a claim", the experiments and the exercises' code and drawing, loaded after
 * the first view: panel-controllers.js; the lessons, loaded when one opens), and hands the views their `actions`:
 * each action is one group's, named once (a name two groups gave would be refused).
 * No view knows of workers, links or storage.
 */

import { isRuntimeLost } from "../service/service.js";
import { compactPanelsFor } from "../sharing/compact-panels.js";
import { linkTo, quotedName } from "../sharing/links.js";
import { lessonLeftOpen } from "../sharing/lesson-progress.js";
import { createLessonFiles } from "../lessons/lesson-files.js";
import { createSavedWork } from "../sharing/saved-work.js";
import { readSceneFile } from "../sharing/scene-files.js";
import { PANEL_NAMES } from "../layout/panels.js";
import { errorDetail } from "../scene/errors.js";
import { combineActions, lazyActions } from "./actions.js";
import { LATER_PARTS, loadOnce, loadPart } from "../loading/later-parts.js";
import { downloadActions } from "../work/downloads.js";
import { createFirstScene } from "../loading/first-scene.js";
import { CLAIM_ACTIONS, EXERCISE_WORK_ACTIONS, EXPERIMENT_ACTIONS, MODEL_ACTIONS } from "../panels/panel-actions.js";
import { ownSentence, repeatedWordOffer } from "../state/own-sentence.js";
import { createPresetLibrary } from "../loading/presets.js";
import { followPythonBoot } from "../loading/python-boot.js";
import { createSceneLoader } from "../loading/scene-loader.js";
import { createSceneSession } from "../state/session.js";
import { AFTER_HEATMAP } from "../state/redraw-schedule.js";

/**
 * @param {object} options
 * @param {ReturnType<import("../state/session.js").createStore>} options.store
 * @param {ReturnType<import("../service/service.js").createPythonService>} options.python
 * @param {Promise<{preset: string, scene: object, result: object, examples?: Array<{id: string, title: string}>}>} options.preview the shipped first-paint result
 * @param {Set<string>} [options.lockedFields] the scene fields a course page locked (embed/locks.js)
 * @param {(before: object, after: object) => string[]} [options.lockedChanges] the locked fields that showing
 *   scene `after` instead of `before` would change (embed/locks.js)
 * @param {string} [options.storageMode] where the learner's work is saved: "page", or "embed" in a frame
 * @param {string[]|null} [options.panelsOnPage] the panels a course page's frame keeps, or null for all
 * @param {string[]|null} [options.lessonOrigins] the other sites a course's own lesson file may come from (a frame's
 *   `origins=`), or null for none: the page's own site always may
 */
export function createController({ store, python, preview, lockedFields = new Set(), lockedChanges = () => [], storageMode = "page", panelsOnPage = null,
  lessonOrigins = null }) {
  /** Panel `name` is on the page: shown by the view (a link may hide some) and kept by a course page's frame. */
  const panelShown = (name) => store.state.view.panels.includes(name) && (!panelsOnPage || panelsOnPage.includes(name));
  /** Take the learner to `place` ("playground", "top" or a panel name): playground.js scrolls there. */
  const reveal = (place) => store.update({ reveal: { place, count: (store.state.reveal?.count ?? 0) + 1 } }, "reveal");
  /** Show a message (replacing any before it); `action` adds one button. */
  const notify = (text, { tone = "info", action = null } = {}) => store.update({ notice: { text, tone, action } }, "notice");
  const setView = (patch) => store.update({ view: { ...store.state.view, ...patch } }, "view");

  // Each part is made after the parts it uses. Two pairs use each other, and are joined once both exist: Python's
  // boot and the scene session (the boot makes the session live; the session restarts a Python that died), and the
  // scene loader and the panels' controllers (a link or saved work sets a panel up; a panel shows a scene).
  const boot = followPythonBoot({ python, store });
  // Saving a new scene (its identity is a canonical JSON of the whole scene) waits a task, so it never holds back the
  // heatmap of a big scene; leaving the page still writes anything pending.
  const savedWork = createSavedWork({ store, mode: storageMode, when: AFTER_HEATMAP });
  const session = createSceneSession({
    store, compute: python.compute, lockedFields, isLost: isRuntimeLost, onLost: boot.restart,
    beforeNewScene: savedWork.flush, // what the old scene still owes is written first
  });
  boot.reportTo(session);
  const presets = createPresetLibrary();
  const loader = createSceneLoader({ session, savedWork, presets, lockedChanges, bootFailure: () => boot.failure, notify });
  const pickPreset = presetPicker({ session, loader });
  /** A scene the learner asked for from a panel: checked first, refused if it breaks a lock. */
  const showChecked = (what) => (scene) => loader.showScene({ scene, checkFirst: true, what });
  const panels = lazyPanels(() => ({
    store, python, reveal, notify, panelShown, showChecked, openExample: pickPreset, session, onCodeNotKept: savedWork.codeNotKept,
  }));
  // (A panel whose code could not load stays as it was: nothing to restore it into.)
  loader.handOverPanelsTo({
    model: (kept) => panels.load().then(({ model }) => model.restore(kept)).catch(() => {}),
    claim: (kept) => panels.load().then(({ claims }) => claims.restore(kept)).catch(() => {}),
  });
  const lessonFiles = createLessonFiles();
  const lessons = lazyLessons({ files: lessonFiles, panels },
    () => ({ store, python, session, loader, presets, setView, mode: storageMode, files: lessonFiles,
      allowed: { pageOrigin: location.origin, origins: lessonOrigins } }));
  /**
   * Open a lesson: a built one by `id`, or a course's own file at `src`; resolves with the step, or rejects.
   * @param {{id?: string, src?: string|null, step: string|null, preview?: boolean}} lesson `preview`: reloaded at every save
   * @param {string} by who asked (lessons.js: openLesson)
   */
  const openLessonAt = ({ id, src = null, step, preview = false }, by) => (src
    ? lessons.loadLesson({ url: src, preview }, { step, by }).then((opened) => {
      if (opened.problems || opened.problem) throw new Error(opened.problem ?? `${src} has ${opened.problems.length} mistake${opened.problems.length === 1 ? "" : "s"}`);
      return opened;
    })
    : lessons.openLesson(id, { step, by }));
  const firstScene = createFirstScene({
    session, loader, savedWork, preview, notify, reveal,
    showAllPanels: () => store.update({ view: { ...store.state.view, panels: [...PANEL_NAMES] }, notice: null }, "view", "notice"),
    // A link that chose a claim: its test comes into view when the link asks for its pair to start.
    openClaim: ({ id, start, steps, seed }) => panels.claims.openClaim(id, { start, steps, seed, show: start }).catch(() => {}),
    // A link to a lesson's step (#lesson=ID&step=STEP or #lesson-src=URL&step=STEP, or ?lesson=… in a course page's frame).
    openLesson: (lesson) => openLessonAt(lesson, "link"),
  });

  const actions = combineActions({
    scene: sceneActions({ store, session, pickPreset }),
    page: pageActions({ store, python, loader, notify, panelShown, setView, pickPreset, retryBoot: boot.restart }),
    downloads: downloadActions({ store, notify }),
    exerciseWork: panels.exerciseWork,
    learnerCode: {
      // The learner's own code (the exercises), run in a Python of its own.
      exercises: () => python.exercises(),
      runExercise: (request) => python.runExercise(request).then(async (outcome) => {
        (await panels.load()).exercises.recordRun(request.exerciseId, outcome);
        return outcome;
      }),
      stopLearnerCode: () => python.stopLearnerCode(),
      followLearnerRuns: (listener) => python.onLearnerStatus(listener),
      /** Draw the heatmap with the learner's function from now on (again after their code changed). */
      drawWithLearnerCode: (exerciseId, code) => panels.load().then(({ exercises }) => exercises.drawing.enable(exerciseId, code)),
      /** Back to the playground's own result. */
      stopDrawingWithLearnerCode: () => panels.load().then(({ exercises }) => exercises.drawing.disable()),
    },
    experiments: panels.experiments,
    model: panels.model,
    claims: panels.claims,
    lessons,
  });

  return {
    actions,
    session,
    /**
     * Open the first scene (a link, saved work, the preview), or the lesson's step a course page's frame asks for
     * (the first scene if that lesson cannot open); call once the views are mounted.
     */
    start: ({ lesson = null } = {}) => {
      // The lesson a course page's frame asks for; else one left open here, unless a link names what to open.
      const reopen = lesson ?? (location.hash.length > 1 ? null : lessonLeftOpen(storageMode) && { id: lessonLeftOpen(storageMode), step: null });
      const opening = reopen ? openLessonAt(reopen, "script").catch(() => firstScene.openFirstScene()) : firstScene.openFirstScene();
      return opening.catch(() => {});
    },
    /** A course page's setScene: checked first, shown if the module accepts it (locks do not hold it back). */
    setScene: (scene) => loader.showScene({ scene, checkFirst: true, by: "author" }),
    /** Load the panels' controllers (the views below the playground are about to mount and call them). */
    loadPanels: () => panels.ready(),
    /** Every example's id and title, shipped with the preview: the picker lists them until the whole list comes. */
    listExampleTitles: (examples) => {
      if (!store.state.presets && Array.isArray(examples)) store.update({ presets: examples }, "presets");
    },
    /** The whole list of examples, with their descriptions (kept as they were if it cannot come). */
    loadPresetList: () =>
      presets.list().then((list) => store.update({ presets: list }, "presets"), () => store.update({ presets: store.state.presets ?? [] }, "presets")),
  };
}

/**
 * The lesson actions, their code (and stylesheet, which a lesson needs before it first opens: it hides the weights
 * while a question waits) loaded on the first call: lessons are not part of the page's first view. The list of
 * lessons (which the page's start shows) comes from the files alone, without loading the controller.
 * @param {object} parts
 * @param {ReturnType<typeof createLessonFiles>} parts.files
 * @param {ReturnType<typeof lazyPanels>} parts.panels the panels' controllers, which a lesson's steps set up
 * @param {() => object} options the lesson controller's other options, asked for when it starts
 */
function lazyLessons({ files, panels }, options) {
  const part = LATER_PARTS.lessonController;
  const start = () => Promise.all([loadPart(part), panels.load()])
    .then(([{ createLessonController }, { model, claims }]) => createLessonController({ ...options(), model, claims }).actions);
  /** @type {Record<string, import("./actions.js").Action>} */
  const actions = { ...lazyActions(start, part.actions).actions, lessonsList: () => files.list() };
  return actions;
}

/**
 * The controllers of the panels below the playground (panel-controllers.js), their code loaded on the first call of
 * one of their actions, on `load()` (a link's or a lesson's set-up) or on `ready()` (their views mount).
 * @param {() => object} options createPanelControllers' options, asked for when it loads
 */
function lazyPanels(options) {
  const load = loadOnce(() => loadPart(LATER_PARTS.panelControllers).then(({ createPanelControllers }) => createPanelControllers(options())));
  const groups = {
    model: lazyActions(() => load().then(({ model }) => model.actions), MODEL_ACTIONS),
    claims: lazyActions(() => load().then(({ claims }) => claims.actions), CLAIM_ACTIONS),
    experiments: lazyActions(() => load().then(({ experiments }) => experiments), EXPERIMENT_ACTIONS),
    exerciseWork: lazyActions(() => load().then(({ exercises }) => exercises.work), EXERCISE_WORK_ACTIONS),
  };
  return {
    load,
    ready: () => Promise.all(Object.values(groups).map((group) => group.ready())),
    model: groups.model.actions,
    claims: groups.claims.actions,
    experiments: groups.experiments.actions,
    exerciseWork: groups.exerciseWork.actions,
  };
}

/** Show example `id` (the learner's saved edits of it, if any); one that cannot load is said where the heatmap is. */
function presetPicker({ session, loader }) {
  return async (id) => {
    try {
      await loader.openPreset(id);
    } catch (error) {
      if (error.detail?.type === "Locked") return; // already said
      session.showError(errorDetail(`Could not load the example “${id}”: ${error.message}`));
    }
  };
}

/** What the views may do to the scene: the session's own ways, and a sentence typed, which the page explains. */
function sceneActions({ store, session, pickPreset }) {
  return {
    ...session.viewActions,
    /** The learner typed a sentence over the scene's: the session's edit, and a notice saying what changed. */
    typeSentence(words, lexicon) {
      const told = ownSentence({ before: store.state.draft?.tokens ?? [], words, lexicon });
      // A sentence with a repeated word has an example of its own (the picker redraws its description on the edit).
      const also = told
        ? { patch: { notice: { text: told.text, tone: "info", action: told.repeats ? repeatedWordOffer(store.state.presets, pickPreset) : null } }, changes: ["notice"] }
        : undefined;
      session.edit({ kind: "sentence", words, lexicon }, also);
    },
  };
}

/** What the views may do around the scene: examples, files, links, the view, notices, Python's boot. */
function pageActions({ store, python, loader, notify, panelShown, setView, pickPreset, retryBoot }) {
  return {
    panelShown,
    /** Change what the page shows around the scene: `patch` holds keys of the view (layout/panels.js). */
    setView,
    notify,
    dismissNotice: () => store.update({ notice: null }, "notice"),
    /** Python could not start and the learner asked to try again: a fresh worker; the page stays as it is. */
    retryBoot,
    pickPreset,
    /** "Reset to example": the example as shipped; the learner's edits of it are kept aside, not deleted. */
    resetToPreset: (id) => loader.resetToPreset(id),
    restoreKept: () => loader.restoreKept(),
    /** Part 7, run in Python: the average top weight against d, with and without ÷√d. */
    scalingExperiment: (options) => python.scalingExperiment(options),
    /** The embed code for what is on screen, with the author's choices (sharing/embed-snippet.js embedQuery). */
    embedCode: async (options) => (await loadPart(LATER_PARTS.embedSnippet)).embedCodeFor(store.state, options),
    /** The panels of a short frame for the example on show (sharing/compact-panels.js). */
    compactEmbedPanels: () => compactPanelsFor(store.state.presetId, /** @type {string[]} */ (PANEL_NAMES)), // only read there
    /**
     * The link to what is on screen; `at` names the panel it opens at (layout/panels.js OPEN_AT_PANELS), or null;
     * `startClaim` makes it train the chosen claim's pair as it opens; `fullPage` opens it outside a frame.
     */
    link: ({ at = null, startClaim = false, fullPage = false } = {}) => linkTo(store.state, { at, startClaim, fullPage }),
    /** Open a scene file the learner chose or dropped: checked by the module, the page as it was if it fails. */
    async openFile(file) {
      const name = quotedName(file.name);
      const { scene, problem } = await readSceneFile(file);
      if (problem) {
        notify(problem, { tone: "error" });
        return false;
      }
      if (loader.refusedByLocks(scene, name)) return false;
      notify(store.state.boot.live ? `Opening ${name}…` : `Opening ${name} as soon as Python is live…`);
      try {
        await loader.showScene({ scene, checkFirst: true, what: name });
      } catch (error) {
        notify(`${name} cannot be shown: ${error.message}`, { tone: "error" });
        return false;
      }
      if (store.state.notice?.text?.startsWith("Opening")) notify(`Opened ${name}.`);
      return true;
    },
  };
}
