/**
 * Putting a whole scene on the page, and every way one gets there: the shipped preview, an example, a link,
 * saved work, kept edits brought back, a scene file, a shuffle, a course page's setScene. All of them end in
 * `showScene`, the one function that writes a new scene into the state.
 *
 * Some are shown at once and computed after (an example, a link, saved work: they keep exactly what was
 * typed, mistakes included, and the module then says what is wrong); the others are checked first and shown
 * only if the module accepts them, leaving the page as it was if not. A scene a learner brings in is refused
 * when it would change what a course page locked.
 */

import { MODULE_FACTS } from "../../generated/module-facts.js";
import { lockedSceneMessage } from "../embed/locks.js";
import { draftFromScene, sceneFromDraft } from "../scene/draft.js";
import { clearHash, quotedName, readLink } from "../sharing/links.js";
import { quoted } from "../scene/quoting.js";
import { sameSceneData } from "../scene/sameness.js";
import { OPEN_AT_PANELS, PANEL_NAMES, cleanView } from "./view.js";

const DEFAULT_PRESET = MODULE_FACTS.defaultPresetId;

/** The parts of the state a whole new scene changes (state.js). */
const SCENE_PARTS = ["scene", "shape", "labels", "values", "mode", "presets", "focus", "head", "hover", "error"];
/** The parts that change the draft on the page in place (an edit). */
const DRAFT_PARTS = ["scene", "shape", "labels", "values", "mode"];
/** What a checked scene's source may hold for showing it again to cost nothing (see shownAgain). */
const PLAIN_CHECK_KEYS = new Set(["scene", "checkFirst", "by", "what"]);

/** Whether two scenes are the same scene, cell for cell (read as the page reads them). */
function sameScene(a, b) {
  return JSON.stringify(sceneFromDraft(draftFromScene(a))) === JSON.stringify(sceneFromDraft(draftFromScene(b)));
}

/** The token to focus when a scene appears: "it" if there is one (the tutorial's question), else the last. */
export function defaultFocus(tokens) {
  const it = tokens.indexOf("it");
  return it >= 0 ? it : tokens.length ? tokens.length - 1 : null;
}

/**
 * @param {object} options
 * @param {ReturnType<import("./state.js").createStore>} options.store
 * @param {import("./recompute.js").Recompute} options.recompute
 * @param {ReturnType<import("../sharing/saved-work.js").createSavedWork>} options.savedWork
 * @param {ReturnType<import("./presets.js").createPresetLibrary>} options.presets
 * @param {Promise<{preset: string, scene: object, result: object}>} options.preview the shipped first-paint result
 * @param {(before: object, after: object) => string[]} options.lockedChanges see controller.js
 * @param {() => Error|null} options.bootFailure why Python could not start, if it could not
 * @param {(text: string, options?: object) => void} options.notify
 * @param {(place: string) => void} [options.reveal] take the learner to a place (controller.js)
 * @param {(claim: {id: string, steps: number|null, seed: number|null, start: boolean}) => void} [options.openClaim]
 *   a link chose a claim to test (and may ask for its pair to start): claims.js takes it from there
 * @param {(kept: object) => void} [options.restoreClaim] a link or saved work chose a claim in "Test a claim" (its
 *   view's `claim` part): claims.js takes it, as restoreModel below
 * @param {(kept: object) => void} [options.restoreModel] a link or saved work set up the model panel (its view's
 *   `model` part, layout/view.js): the panel's controller (model.js) takes it; the page's view never keeps it
 */
export function createSceneLoader({ store, recompute, savedWork, presets, preview, lockedChanges, bootFailure, notify, reveal = () => {}, openClaim = () => {}, restoreClaim = () => {}, restoreModel = () => {} }) {
  /**
   * The last scene checked and put on the page ({scene, draft, result}), for as long as neither the draft nor the
   * result has changed since: a course page's script setting it again is answered from here (shownAgain).
   */
  let checkedShown = null;
  store.subscribe((state, changes) => {
    if (!checkedShown) return;
    const changed = state.draft !== checkedShown.draft || state.result !== checkedShown.result;
    if (changed || DRAFT_PARTS.some((part) => changes.has(part))) checkedShown = null;
  });

  /**
   * `scene` set again, unchanged, while the page still shows it as it was checked: the result it already has,
   * without asking Python or drawing anything again (at 64 tokens that cost 50 to 100 ms each time). The
   * page ends as showing it anew would leave it: no example chosen, the default token focused, nothing
   * hovered. Null when the scene must go the usual way (anything changed, or anything is still to come).
   */
  function shownAgain(scene, source) {
    if (!checkedShown || store.state.error || !recompute.settled()) return null;
    if (!Object.keys(source).every((key) => PLAIN_CHECK_KEYS.has(key))) return null;
    if (!sameSceneData(scene, checkedShown.scene)) return null;
    const { state } = store;
    const focus = defaultFocus(state.draft.tokens);
    const patch = { presetId: null, edited: false, focusToken: focus, hover: null };
    const parts = new Set();
    if (state.presetId !== null || state.edited) parts.add("presets");
    if (state.focusToken !== focus) parts.add("focus");
    if (state.hover !== null) parts.add("hover");
    if (parts.size) store.update(patch, ...parts);
    return checkedShown.result;
  }

  /** Why showing `scene` (described as `what`) would break a course page's locks, or null when it would not. */
  function lockedBy(scene, what) {
    const { draft } = store.state;
    const fields = draft ? lockedChanges(sceneFromDraft(draft), scene) : [];
    return fields.length ? lockedSceneMessage(fields, what) : null;
  }

  /** Say, and return true, when a course page's locks refuse `scene`. */
  function refusedByLocks(scene, what) {
    const reason = lockedBy(scene, what);
    if (reason) notify(reason, { tone: "error" });
    return Boolean(reason);
  }

  /** Write a whole new scene into the state, with how the page looks around it. */
  function putOnPage({ draft, presetId = null, edited = false, result = null, isPreview = false, focus = null, head = 0, view = null, restoredAs = null }) {
    savedWork.flush(); // what the old scene still owes is written first
    if (restoredAs) savedWork.restoring(draft, restoredAs);
    const tokens = draft.tokens.length;
    // The model panel's and "Test a claim"'s parts of a view are theirs to take: their states live in state.model
    // and state.claim alone.
    const { model: keptModel = null, claim: keptClaim = null, ...pageView } = view ? cleanView(view) : {};
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
        ...(view ? { view: pageView } : {}),
      },
      ...SCENE_PARTS, ...(result ? ["result"] : []), ...(view ? ["view"] : []),
    );
    if (!result || isPreview) recompute.requestDraft();
    if (keptModel) restoreModel(keptModel);
    if (keptClaim) restoreClaim(keptClaim);
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
    if (bootFailure()) throw bootFailure();
    const again = shownAgain(scene, source);
    if (again) return again;
    // A checked scene keeps the head being edited where it can (setScene of the same scene, edited by a script).
    return recompute.check(scene, (result) => {
      putOnPage({ presetId: null, edited: false, head: store.state.activeHead, ...source, draft: draftFromScene(scene, result), result });
      checkedShown = { scene, draft: store.state.draft, result };
    });
  }

  /**
   * What draws example `id` while Python starts: its result as the build computed it (generated/previews/), as
   * showScene's `{result, isPreview}`. Nothing once Python is live (it computes the scene at once), when `scene`
   * is given and is not the example as shipped (a link made before the example changed), or when the file
   * cannot be read: the grid then waits for Python.
   */
  async function shippedPreview(id, scene = null) {
    if (!id || store.state.boot.live) return {};
    try {
      const [result, shipped] = await Promise.all([presets.preview(id), scene && presets.scene(id)]);
      if (scene && !sameScene(scene, shipped)) return {};
      return { result, isPreview: true };
    } catch {
      return {};
    }
  }

  /** Example `id`: the learner's saved edits of it if there are, else as shipped (drawn at once if it can be). */
  async function openPreset(id, { by = "learner" } = {}) {
    const saved = savedWork.record(id);
    const preview = saved ? null : shippedPreview(id); // fetched beside the scene, not after it
    const scene = await presets.scene(id);
    const what = `the example ${quoted(scene.title ?? id)}`;
    if (saved) await showRecord(saved, { by, what });
    else await showScene({ scene, presetId: id, by, what, ...(await preview) });
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
    // Where the link opens, and whether it starts a claim's test, are said once, here; the page's view keeps neither.
    const { at = null, ...view } = payload.view;
    const { start = false, ...claim } = view.claim ?? {};
    if (view.claim) view.claim = claim;
    // A link to an example as shipped is drawn at once, as the example would be.
    const preview = payload.edited ? {} : await shippedPreview(payload.preset, payload.scene);
    try {
      await showScene({
        draft: draftFromScene(payload.scene, preview.result), presetId: payload.preset, edited: payload.edited || !payload.preset,
        focus: view.focus, head: view.head, view, by, what: "this link", ...preview,
      });
    } catch (error) {
      return { opened: false, problem: error.message };
    }
    if (payload.view.panels.length < PANEL_NAMES.length) {
      const showAll = () => store.update({ view: { ...store.state.view, panels: [...PANEL_NAMES] }, notice: null }, "view", "notice");
      notify("This link shows only some of the panels.", { action: { label: "show all panels", run: showAll } });
    } else {
      tellWhereTheLinkOpens({ ...view, at });
    }
    if (view.claim) openClaim({ ...claim, start });
    return { opened: true, problem: null };
  }

  /**
   * A link that opens at a panel below the playground goes there, with the way up; one that sets up the trained
   * model's panel without saying where to open says what waits below, with the way there.
   */
  function tellWhereTheLinkOpens(view) {
    const { at } = view;
    if (at && view.panels.includes(at)) {
      reveal(at);
      notify(`This link opens at ${OPEN_AT_PANELS[at]}, below the playground.`, { action: { label: "go to the top", run: () => reveal("top") } });
    } else if (view.model?.open) {
      notify(`This link also set up ${OPEN_AT_PANELS.model}, further down the page.`, { action: { label: "go there", run: () => reveal("model") } });
    }
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
    if (refusedByLocks(sceneFromDraft(kept.draft), "your kept edits")) return;
    await showRecord(savedWork.swapKept(savedWork.shownId));
    notify("Your edits are back. What was showing before is kept in their place.", { action: { label: "swap again", run: () => restoreKept() } });
  }

  /** "Reset to example": the example as shipped; the learner's edits of it are kept aside, not deleted. */
  async function resetToPreset(id) {
    savedWork.flush();
    let scene;
    try {
      scene = await presets.scene(id);
    } catch (error) {
      notify(`Could not load the example ${quotedName(id)}: ${error.message}`, { tone: "error" });
      return;
    }
    if (refusedByLocks(scene, "the example as shipped")) return;
    const had = savedWork.keep(id);
    await showScene({ scene, presetId: id, by: "author" });
    if (had) notify("The example is back as it was. Your edits are kept in this browser.", { action: { label: "bring my edits back", run: () => restoreKept() } });
  }

  /** A link pasted into the address of an open page. */
  window.addEventListener("hashchange", async () => {
    const { hash } = location;
    if (!hash || hash === "#") return;
    const { problem } = await openLink(hash, { by: "learner" });
    clearHash();
    if (problem) notify(`${problem} The page is as it was.`, { tone: "error" });
  });

  return { showScene, openPreset, openFirstScene, restoreKept, resetToPreset, refusedByLocks };
}
