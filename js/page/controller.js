/**
 * The page's controller: the one place that puts a scene on the page, follows Python's boot, and talks to
 * Python (through the service). Views get the state to draw and the `actions` below, nothing else: no view
 * knows of workers, links or storage.
 *
 * Every whole new scene comes through `showScene`: the shipped preview, an example, a link, saved work, a
 * scene file, a shuffle, and a course page's setScene. Some are shown at once and computed after (an example,
 * a link, saved work: they keep exactly what was typed, mistakes included, and the module then says what is
 * wrong); the others are checked first and shown only if the module accepts them, leaving the page as it was
 * if not.
 */

import { MODULE_FACTS } from "../../generated/module-facts.js";
import { applyEdit } from "../scene/edits.js";
import { draftFromScene, sceneFromDraft, shapeKey } from "../scene/draft.js";
import { lockedSceneMessage } from "../embed/locks.js";
import { clearHash, linkTo, quotedName, readLink } from "../sharing/links.js";
import { createSavedWork } from "../sharing/saved-work.js";
import { readSceneFile } from "../sharing/scene-files.js";
import { quoted } from "../ui/shared/format.js";
import { PANEL_NAMES, cleanView } from "./view.js";
import { createPresetLibrary } from "./presets.js";
import { createRecompute } from "./recompute.js";
import { createLearnerDrawing } from "./learner-drawing.js";
import { deferredStore } from "./deferred-views.js";

const DEFAULT_PRESET = MODULE_FACTS.defaultPresetId;

/** The parts of the state a whole new scene changes (state.js). */
const SCENE_PARTS = ["scene", "shape", "labels", "values", "mode", "presets", "focus", "head", "hover", "error"];

/** The boot state before Python has said anything. */
const BOOTING = Object.freeze({ stage: "downloading", detail: "", live: false, failed: false, message: "" });

/** The token to focus when a scene appears: "it" if there is one (the tutorial's question), else the last. */
export function defaultFocus(tokens) {
  const it = tokens.indexOf("it");
  return it >= 0 ? it : tokens.length ? tokens.length - 1 : null;
}

/** The sentence for a boot that failed, whichever way the failure was worded. */
export function bootFailureMessage(error) {
  const message = error?.message ?? String(error);
  return message.startsWith("Python could not start") ? message : `Python could not start: ${message}`;
}

/** Keep the focused token sensible after tokens were added or removed. */
function clampFocus(focus, count, edit) {
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
 */
export function createController({ store, python, preview, canEdit = () => true, lockedChanges = () => [], storageMode = "page" }) {
  const presets = createPresetLibrary();
  const recompute = createRecompute({ python, store, onLost: () => startPython() });
  // Saving a new scene (its identity is a canonical JSON of the whole scene) waits a task, so it never holds
  // back the heatmap of a big scene; leaving the page still writes anything pending.
  const savedWork = createSavedWork({
    store: deferredStore(store),
    mode: storageMode,
    onKept: ({ title }) => notify(`This replaced your saved edits of ${title ? quotedName(title) : "this scene"}. They are kept in this browser.`,
      { action: { label: "bring my edits back", run: () => restoreKept() } }),
  });
  const drawing = createLearnerDrawing({ store, python });
  let bootError = null;

  store.update({ notice: null, boot: { ...BOOTING } }, "notice", "boot");

  // ---- messages -----------------------------------------------------------------------------------------

  /** Show a message (replacing any before it); `action` adds one button. */
  function notify(text, { tone = "info", action = null } = {}) {
    store.update({ notice: { text, tone, action } }, "notice");
  }

  // ---- Python's boot ------------------------------------------------------------------------------------

  python.onProgress(({ stage, detail }) => {
    const { boot } = store.state;
    store.update({ boot: { ...boot, stage, detail: typeof detail === "string" ? detail : "", live: stage === "ready" || boot.live } }, "boot");
  });

  /** Follow the current worker's boot (after a restart, python.ready is a new promise). */
  function followBoot() {
    const ready = python.ready;
    ready.then(
      () => {
        if (python.ready !== ready) return;
        store.update({ boot: { ...store.state.boot, stage: "ready", live: true } }, "boot");
        recompute.setLive(true);
      },
      (error) => {
        if (python.ready !== ready) return;
        bootError = new Error(bootFailureMessage(error));
        store.update({ boot: { ...store.state.boot, failed: true, message: bootError.message } }, "boot");
        recompute.refuseChecks(bootError);
      },
    );
  }

  /** A fresh Python (the old one died, or could not start and the learner asked again); the page stays. */
  function startPython() {
    bootError = null;
    recompute.setLive(false);
    python.restart();
    store.update({ boot: { ...BOOTING } }, "boot");
    followBoot();
  }

  // ---- putting a scene on the page ----------------------------------------------------------------------

  /** Why showing `scene` (described as `what`) would break a course page's locks, or null when it would not. */
  function lockedBy(scene, what) {
    const { draft } = store.state;
    const fields = draft ? lockedChanges(sceneFromDraft(draft), scene) : [];
    return fields.length ? lockedSceneMessage(fields, what) : null;
  }

  /** Write a whole new scene into the state, with how the page looks around it. */
  function putOnPage({ draft, presetId = null, edited = false, result = null, isPreview = false, focus = null, head = 0, view = null, restoredAs = null }) {
    savedWork.flush(); // what the old scene still owes is written first
    if (restoredAs) savedWork.restoring(draft, restoredAs);
    const tokens = draft.tokens.length;
    store.update(
      {
        draft,
        presetId,
        edited,
        activeHead: Math.min(Math.max(0, head), Math.max(0, draft.heads.length - 1)),
        focusToken: Number.isInteger(focus) && focus >= 0 && focus < tokens ? focus : defaultFocus(draft.tokens),
        hover: null,
        error: null,
        ...(result ? { result, resultIsPreview: isPreview } : {}),
        ...(view ? { view: cleanView(view) } : {}),
      },
      ...SCENE_PARTS, ...(result ? ["result"] : []), ...(view ? ["view"] : []),
    );
    if (!result || isPreview) recompute.requestDraft();
  }

  /**
   * Put a whole new scene on the page: the only way one gets there.
   * @param {object} source
   * @param {object} [source.scene] the scene (scene format); or
   * @param {object} [source.draft] a draft (saved work keeps the cells as typed)
   * @param {string|null} [source.presetId] the example it is, or started from
   * @param {boolean} [source.edited] changed since it was that example
   * @param {object} [source.result] its result, computed in advance (the preview); `isPreview` says so
   * @param {number|null} [source.focus] the focused token; [source.head] the head edited; [source.view] the view
   * @param {string} [source.restoredAs] saved work: the id it is saved under
   * @param {boolean} [source.checkFirst] compute it first; show it only if the module accepts it
   * @param {string} [source.by] "learner" (the default: a course page's locks apply) or "author"
   * @param {string} [source.what] how to name it in a message ("the example “dog bites man”")
   * @returns {Promise<object|null>} with checkFirst, the result (or a rejection with the module's error, the
   *   page as it was); otherwise null
   */
  async function showScene(source) {
    const { checkFirst = false, by = "learner", what = "this scene" } = source;
    const scene = source.scene ?? sceneFromDraft(source.draft);
    const refusal = by === "learner" ? lockedBy(scene, what) : null;
    if (refusal) {
      notify(refusal, { tone: "error" });
      throw Object.assign(new Error(refusal), { detail: { type: "Locked", message: refusal } });
    }
    if (!checkFirst) {
      putOnPage({ ...source, draft: source.draft ?? draftFromScene(scene, source.result) });
      return null;
    }
    if (bootError) throw bootError;
    // A checked scene keeps the head being edited where it can (setScene of the same scene, edited by a script).
    return recompute.check(scene, (result) => putOnPage({
      presetId: null, edited: false, head: store.state.activeHead, ...source, draft: draftFromScene(scene, result), result,
    }));
  }

  /** Example `id`: the learner's saved edits of it if there are, else as shipped. */
  async function openPreset(id, { by = "learner" } = {}) {
    const scene = await presets.scene(id);
    const what = `the example ${quoted(scene.title ?? id)}`;
    const saved = savedWork.record(id);
    if (saved) await showRecord(saved, { by, what });
    else await showScene({ scene, presetId: id, by, what });
  }

  function showRecord(record, { by = "learner", what = "your saved work" } = {}) {
    return showScene({
      draft: record.draft, presetId: record.presetId ?? null, edited: true, focus: record.view?.focus, head: record.view?.head,
      view: record.view ?? null, restoredAs: record.sceneId, by, what,
    });
  }

  /** Show what a link holds; resolves to {opened, problem}. A link in the page's own address is the author's. */
  async function openLink(hash, { by }) {
    const { link, problem } = await readLink(hash);
    if (!link) return { opened: false, problem };
    if (link.kind === "preset") {
      try {
        await openPreset(link.id, { by });
        return { opened: true, problem: null };
      } catch {
        return { opened: false, problem: `This link names an example, ${quotedName(link.id)}, that this page does not have.` };
      }
    }
    const { payload } = link;
    try {
      await showScene({
        draft: draftFromScene(payload.scene), presetId: payload.preset, edited: payload.edited || !payload.preset,
        focus: payload.view.focus, head: payload.view.head, view: payload.view, by, what: "this link",
      });
    } catch (error) {
      return { opened: false, problem: error.message };
    }
    if (payload.view.panels.length < PANEL_NAMES.length) {
      const showAll = () => store.update({ view: { ...store.state.view, panels: [...PANEL_NAMES] }, notice: null }, "view", "notice");
      notify("This link shows only some of the panels.", { action: { label: "show all panels", run: showAll } });
    }
    return { opened: true, problem: null };
  }

  /**
   * The page's first scene: the link in the address, else the saved work, else the default example as saved,
   * else the shipped preview of the default example.
   */
  async function openFirstScene() {
    let problem = null;
    const { hash } = location;
    if (hash && hash !== "#") {
      const opened = await openLink(hash, { by: "author" }); // the address of a course page's frame is the author's
      clearHash();
      if (opened.opened) return;
      problem = opened.problem;
    }
    const fellBack = (what) => problem && notify(`${problem} Showing ${what} instead.`, { tone: "error" });
    const { id, record } = savedWork.current();
    if (record) {
      await showRecord(record, { by: "author" });
      fellBack("your saved work");
      return;
    }
    if (id && id !== DEFAULT_PRESET && !id.startsWith("scene-")) {
      try {
        await openPreset(id, { by: "author" });
        fellBack("the example you had open");
        return;
      } catch {
        // that example is gone: the default one, below
      }
    }
    const saved = savedWork.record(DEFAULT_PRESET);
    fellBack(saved ? "your saved work" : "the first example");
    if (saved) {
      await showRecord(saved, { by: "author" });
      return;
    }
    try {
      const { preset, scene, result } = await preview;
      if (!store.state.draft) await showScene({ scene, presetId: preset, result, isPreview: true, by: "author" });
    } catch {
      // No preview shipped: the default example, which Python draws as soon as it is live.
      if (!store.state.draft) await openPreset(DEFAULT_PRESET, { by: "author" }).catch(() => {});
    }
  }

  /** Swap the kept edits of the scene on screen with what is saved, and show them. */
  async function restoreKept() {
    savedWork.flush();
    const kept = savedWork.kept(savedWork.shownId);
    if (!kept) {
      notify("There are no kept edits to bring back.", { tone: "error" });
      return;
    }
    if (lockedBy(sceneFromDraft(kept.draft), "your kept edits")) {
      notify(lockedBy(sceneFromDraft(kept.draft), "your kept edits"), { tone: "error" });
      return;
    }
    const record = savedWork.swapKept(savedWork.shownId);
    await showRecord(record);
    notify("Your edits are back. What was showing before is kept in their place.", { action: { label: "swap again", run: () => restoreKept() } });
  }

  window.addEventListener("hashchange", async () => {
    const { hash } = location;
    if (!hash || hash === "#") return;
    const { problem } = await openLink(hash, { by: "learner" });
    clearHash();
    if (problem) notify(`${problem} The page is as it was.`, { tone: "error" });
  });

  // ---- what the views may do ----------------------------------------------------------------------------

  const actions = {
    /** Apply one edit to the draft (scene/edits.js), redraw what it touches, and recompute. */
    edit(edit) {
      const { draft } = store.state;
      if (!draft || !canEdit(edit)) return;
      const before = shapeKey(draft);
      const changes = applyEdit(draft, edit, { activeHead: store.state.activeHead, result: store.state.result });
      const patch = {};
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
    /** Change what the page shows around the scene: `patch` holds keys of the view (view.js). */
    setView(patch) {
      store.update({ view: { ...store.state.view, ...patch } }, "view");
    },
    /** Show example `id` (the learner's saved edits of it, if any). */
    async pickPreset(id) {
      try {
        await openPreset(id);
      } catch (error) {
        store.update({}, "presets"); // the picker goes back to the example on show
        if (error.detail?.type === "Locked") return; // already said
        store.update({ error: { type: "Error", message: `Could not load the example “${id}”: ${error.message}`, field: null, row: null, column: null, row_index: null, column_index: null } }, "error");
      }
    },
    /** "Reset to example": the example as shipped; the learner's edits of it are kept aside, not deleted. */
    async resetToPreset(id) {
      savedWork.flush();
      let scene;
      try {
        scene = await presets.scene(id);
      } catch (error) {
        notify(`Could not load the example ${quotedName(id)}: ${error.message}`, { tone: "error" });
        return;
      }
      if (lockedBy(scene, "the example as shipped")) {
        notify(lockedBy(scene, "the example as shipped"), { tone: "error" });
        return;
      }
      const had = savedWork.keep(id);
      await showScene({ scene, presetId: id, by: "author" });
      if (had) notify("The example is back as it was. Your edits are kept in this browser.", { action: { label: "bring my edits back", run: () => restoreKept() } });
    },
    restoreKept: () => restoreKept(),
    dismissNotice: () => store.update({ notice: null }, "notice"),
    /** Python could not start and the learner asked to try again: a fresh worker; the page stays as it is. */
    retryBoot: () => startPython(),
    /** A whole new scene the learner asked for (a shuffle): checked first, refused if it breaks a lock. */
    showScene: (scene) => showScene({ scene, checkFirst: true, what: "this change" }),
    /** compute() of a scene without showing it (the knock-out compares the page's result with it). */
    compute: (scene) => python.compute(scene),
    /** Part 7, run in Python: the average top weight against d, with and without ÷√d. */
    scalingExperiment: (options) => python.scalingExperiment(options),
    /** The link to what is on screen. */
    link: () => linkTo(store.state),
    /** Open a scene file the learner chose or dropped: checked by the module, the page as it was if it fails. */
    async openFile(file) {
      const name = quotedName(file.name);
      const { scene, problem } = await readSceneFile(file);
      if (problem) {
        notify(problem, { tone: "error" });
        return false;
      }
      if (lockedBy(scene, name)) {
        notify(lockedBy(scene, name), { tone: "error" });
        return false;
      }
      notify(store.state.boot.live ? `Opening ${name}…` : `Opening ${name} as soon as Python is live…`);
      try {
        await showScene({ scene, checkFirst: true, what: name });
      } catch (error) {
        notify(`${name} cannot be shown: ${error.message}`, { tone: "error" });
        return false;
      }
      if (store.state.notice?.text?.startsWith("Opening")) notify(`Opened ${name}.`);
      return true;
    },
    notify,

    // The learner's own code (the exercises), run in a Python of its own.
    exercises: () => python.exercises(),
    runExercise: (request) => python.runExercise(request),
    stopLearnerCode: () => python.stopLearnerCode(),
    followLearnerRuns: (listener) => python.onLearnerStatus(listener),
    /** Draw the heatmap with the learner's function from now on (again after their code changed). */
    drawWithLearnerCode: (exerciseId, code) => drawing.enable(exerciseId, code),
    /** Back to the playground's own result. */
    stopDrawingWithLearnerCode: () => drawing.disable(),
  };

  followBoot();
  store.update({}, "boot");

  return {
    actions,
    /** Open the first scene (a link, saved work, the preview); call once the views are mounted. */
    start: () => openFirstScene().catch(() => {}),
    /** A course page's setScene: checked first, shown if the module accepts it (locks do not hold it back). */
    setScene: (scene) => showScene({ scene, checkFirst: true, by: "author" }),
    /** The list of examples, into the state (for the picker). */
    loadPresetList: () =>
      presets.list().then((list) => store.update({ presets: list }, "presets"), () => store.update({ presets: [] }, "presets")),
  };
}
