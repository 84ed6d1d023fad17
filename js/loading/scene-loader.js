/**
 * Where whole scenes come from, and the one way each gets to the page (`showScene`): an example, saved work, kept
 * edits brought back, a scene file, a shuffle, a course page's setScene (links and the first scene are
 * loading/first-scene.js, over this). The scene session (state/session.js) then puts it on the page.
 *
 * Some are shown at once and computed after (an example, a link, saved work: they keep exactly what was typed,
 * mistakes included, and the module then says what is wrong); the others are checked first and shown only if the
 * module accepts them, leaving the page as it was if not. A scene a learner brings in is refused when it would
 * change what a course page locked.
 */

import { lockedSceneMessage } from "../embed/locks.js";
import { draftFromScene, sceneFromDraft } from "../scene/draft.js";
import { quoted } from "../scene/quoting.js";
import { asThePageReadsIt, sameSceneData } from "../scene/sameness.js";
import { quotedName } from "../sharing/links.js";
import { cleanView } from "../layout/panels.js";


/**
 * The view that comes with a scene, split: the page's own part goes into the same notification as the scene
 * (`also`); the model panel's and "Test a claim"'s parts are theirs to take (`kept`: state.model and state.claim
 * hold them).
 * @param {unknown} view
 * @returns {{also: {patch: object, changes: string[]}|undefined, kept: {model?: object|null, claim?: object|null}}}
 */
function splitView(view) {
  if (!view) return { also: undefined, kept: {} };
  const { model = null, claim = null, ...pageView } = cleanView(view);
  return { also: { patch: { view: pageView }, changes: ["view"] }, kept: { model, claim } };
}

/**
 * What draws example `id` while Python starts: its result as the build computed it (generated/previews/), as
 * showScene's `{result, isPreview}`. Nothing once Python is `live` (it computes the scene at once), when `scene` is
 * given and is not the example as shipped (a link made before the example changed), or when the file cannot be
 * read: the grid then waits for Python.
 */
async function shippedPreview({ presets, live, id, scene }) {
  if (!id || live) return {};
  try {
    const [result, shipped] = await Promise.all([presets.preview(id), scene && presets.scene(id)]);
    if (scene && !sameSceneData(asThePageReadsIt(scene), asThePageReadsIt(shipped))) return {};
    return { result, isPreview: true };
  } catch {
    return {};
  }
}

/**
 * Where a link's or saved work's set-up of a panel goes, once `to` has said (nowhere until then): the model panel's
 * (its view's `model` part, layout/panels.js) to `model`, the panel's controller (model.js keeps it; the page's view
 * never does), and the claim chosen in "Test a claim" to `claim` (claims.js).
 */
function panelHandOver() {
  let takers = { model: (kept) => {}, claim: (kept) => {} };
  return {
    /** @param {{model?: object|null, claim?: object|null}} kept */
    give({ model, claim }) {
      if (model) takers.model(model);
      if (claim) takers.claim(claim);
    },
    /** @param {{model: (kept: object) => void, claim: (kept: object) => void}} next */
    to: (next) => void (takers = next),
  };
}

/**
 * @param {object} options
 * @param {ReturnType<import("../state/session.js").createSceneSession>} options.session
 * @param {ReturnType<import("../sharing/saved-work.js").createSavedWork>} options.savedWork
 * @param {ReturnType<import("./presets.js").createPresetLibrary>} options.presets
 * @param {(before: object, after: object) => string[]} options.lockedChanges the locked fields that showing scene
 *   `after` instead of `before` would change (embed/locks.js)
 * @param {() => Error|null} options.bootFailure why Python could not start, if it could not
 * @param {(text: string, options?: object) => void} options.notify
 */
export function createSceneLoader({ session, savedWork, presets, lockedChanges, bootFailure, notify }) {
  const { state } = session;
  const panels = panelHandOver();

  // A new scene put the learner's saved edits of it aside: said, with the way back. Not in a lesson: there the
  // step's scene is the lesson's own, which the learner asked for by opening the step, and a banner saying it
  // "replaced" something reads as if the lesson broke it (the edits stay kept all the same).
  savedWork.onKept(({ title }) => {
    if (state.lesson) return;
    notify(`This replaced your saved edits of ${title ? quotedName(title) : "this scene"}. They are kept in this browser.`,
      { action: { label: "bring my edits back", run: () => restoreKept() } });
  });

  /** Why showing `scene` (described as `what`) would break a course page's locks, or null when it would not. */
  function lockedBy(scene, what) {
    const fields = state.draft ? lockedChanges(sceneFromDraft(state.draft), scene) : [];
    return fields.length ? lockedSceneMessage(fields, what) : null;
  }

  /** Say, and return true, when a course page's locks refuse `scene`. */
  function refusedByLocks(scene, what) {
    const reason = lockedBy(scene, what);
    if (reason) notify(reason, { tone: "error" });
    return Boolean(reason);
  }

  /**
   * Put a whole new scene on the page: the only way one gets there.
   * @param {object} source
   * @param {object} [source.scene] the scene (scene format); or
   * @param {object} [source.draft] a draft (saved work keeps the cells as typed)
   * @param {string|null} [source.presetId] the example it is, or started from
   * @param {boolean} [source.edited] changed since it was that example
   * @param {object} [source.result] its result, computed in advance (the preview); `isPreview` says so
   * @param {boolean} [source.isPreview] `result` is the shipped preview, not a live computation
   * @param {number|null} [source.focus] the focused token
   * @param {number|null} [source.head] the head edited
   * @param {object|null} [source.view] the view (layout/panels.js), as a link or saved work keeps it
   * @param {string} [source.savedAs] saved work: the id it is saved under
   * @param {boolean} [source.checkFirst] compute it first; show it only if the module accepts it
   * @param {string} [source.by] "learner" (the default: a course page's locks apply) or "author"
   * @param {string} [source.what] how to name it in a message ("the example “dog bites man”")
   * @returns {Promise<object|null>} with checkFirst, the result (or a rejection with the module's error, the page
   *   as it was); otherwise null
   */
  async function showScene(source) {
    const { checkFirst = false, by = "learner", what = "this scene", scene: given, draft: givenDraft, view, ...shown } = source;
    const scene = given ?? sceneFromDraft(givenDraft);
    const refusal = by === "learner" ? lockedBy(scene, what) : null;
    if (refusal) {
      notify(refusal, { tone: "error" });
      throw Object.assign(new Error(refusal), { detail: { type: "Locked", message: refusal } });
    }
    const { also, kept } = splitView(view);
    if (!checkFirst) {
      session.show({ ...shown, draft: givenDraft ?? draftFromScene(scene, shown.result) }, also);
      panels.give(kept);
      return null;
    }
    if (bootFailure()) throw bootFailure();
    const result = await session.check(scene, { shown, also });
    panels.give(kept);
    return result;
  }

  /** Example `id` as the build computed it, while Python starts (see shippedPreview). */
  const previewOf = (id, scene = null) => shippedPreview({ presets, live: state.boot.live, id, scene });

  /** Example `id`: the learner's saved edits of it if there are, else as shipped (drawn at once if it can be). */
  async function openPreset(id, { by = "learner" } = {}) {
    const saved = savedWork.record(id);
    const preview = saved ? null : previewOf(id); // fetched beside the scene, not after it
    const scene = await presets.scene(id);
    const what = `the example ${quoted(scene.title ?? id)}`;
    if (saved) await showRecord(saved, { by, what });
    else await showScene({ scene, presetId: id, by, what, ...(await preview) });
  }

  /** A saved record (saved work, kept edits) on the page, as it was left. */
  function showRecord(record, { by = "learner", what = "your saved work" } = {}) {
    return showScene({
      draft: record.draft, presetId: record.presetId ?? null, edited: true, focus: record.view?.focus, head: record.view?.head,
      view: record.view ?? null, savedAs: record.sceneId, by, what,
    });
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

  return {
    showScene, shippedPreview: previewOf, openPreset, showRecord, restoreKept, resetToPreset, refusedByLocks,
    handOverPanelsTo: panels.to,
  };
}
