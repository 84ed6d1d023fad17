/**
 * Putting a lesson's step on the page: its scene (an example as shipped, a link, a scene written in the lesson, or
 * the scene the step before left, edits and all), the panels it shows, the row and head in focus, and what it opens
 * below the playground (the trained model on a sentence, an experiment's tab, an exercise, a claim to test).
 *
 * A compiled step (generated/lessons/<id>.json, py/attention_playground/lessons/compile.py) says all of that as
 * data; this module only does what it says, through the scene loader and the panels' own actions.
 */

import { draftFromScene, sceneFromDraft } from "../scene/draft.js";
import { readLink } from "../sharing/links.js";
import { PANEL_NAMES } from "../layout/panels.js";

/**
 * The examples a lesson's steps name, each fetched once (`prefetch`, when the lesson opens): a step then shows its
 * example without waiting for its file. Each call gets a copy of its own.
 */
function createExampleCache(presets) {
  const fetched = new Map(); // id → the example's scene, fetched (a promise)
  function fetchOnce(id) {
    if (!fetched.has(id)) {
      const scene = presets.scene(id);
      fetched.set(id, scene);
      scene.catch(() => fetched.delete(id)); // the next call tries again, and says why if it fails too
    }
    return fetched.get(id);
  }
  return {
    scene: async (id) => structuredClone(await fetchOnce(id)),
    prefetch(lesson) {
      for (const step of lesson.steps) if (step.scene?.preset) fetchOnce(step.scene.preset).catch(() => {});
    },
  };
}

/** The scene a step's `scene` reference names, in the scene format: {scene, presetId}; null keeps the one on show. */
async function sceneOf(reference, presets) {
  if (!reference) return null;
  if (reference.preset) return { scene: await presets.scene(reference.preset), presetId: reference.preset };
  if (reference.scene) return { scene: reference.scene, presetId: null };
  const { link, problem } = await readLink(reference.link);
  if (!link) throw new Error(problem ?? "the step's link holds no scene");
  if (link.kind === "preset") return { scene: await presets.scene(link.id), presetId: link.id };
  if (link.kind === "scene") return { scene: link.payload.scene, presetId: link.payload.preset };
  throw new Error("a step's link must hold a scene");
}

/** A head of the trained model named as a lesson names it, "L1H2", as [layer, head]. */
function modelHead(label) {
  const [, layer, head] = /^L(\d+)H(\d+)$/.exec(label) ?? [null, "1", "0"];
  return [Number(layer), Number(head)];
}

/**
 * The view a step asks for: its panels (all, when it names none), the worked steps open where it shows them, and the
 * tab it opens below the playground.
 */
function viewOf(step) {
  const view = { panels: step.panels ? PANEL_NAMES.filter((name) => step.panels.includes(name)) : [...PANEL_NAMES] };
  // A step that shows the worked steps has them open ("show every step" ticked): its words point at what they show.
  if (step.panels) view.steps = step.panels.includes("steps");
  if (step.experiment) view.experiment = step.experiment;
  if (step.exercise) Object.assign(view, { exercises: true, exercise: step.exercise });
  return view;
}

/**
 * @param {object} options
 * @param {ReturnType<import("../state/session.js").createSceneSession>} options.session
 * @param {ReturnType<import("../loading/scene-loader.js").createSceneLoader>} options.loader
 * @param {ReturnType<import("../loading/presets.js").createPresetLibrary>} options.presets
 * @param {(patch: object) => void} options.setView
 * @param {() => {steps?: boolean}} options.view the page's view as it is now
 * @param {{restore: (kept: object) => Promise<void>}} options.model the model panel's controller (model.js)
 * @param {{actions: {openClaim: Function}}} options.claims "Test a claim" (claims.js)
 */
export function createStepShower({ session, loader, presets: library, setView, view, model, claims }) {
  let before = null; // the learner's own "show every step", as it was before the lesson's steps set it
  const presets = createExampleCache(library);
  return {
    /** Fetch the examples `lesson`'s steps name, ahead of the steps (once each). */
    prefetch: (lesson) => presets.prefetch(lesson),
    /**
     * Show `step`: its scene (or `edited`, the draft the learner left it with; or, for a step that keeps the scene
     * on show, `sceneStep`'s, the step before it that names one), its view, its focus and head. Resolves once the
     * scene is on the page; what the step opens below comes with `showBelow`. `sceneKnown(scene)` hears the scene
     * the step shows (the scene format) before it is put on the page: the question about it can be asked of Python
     * ahead of the scene's own computation, and of the views that draw it.
     * @param {object} step a compiled step
     * @param {{edited?: object|null, sceneStep?: object}} [opening]
     * @param {(scene: object) => void} [sceneKnown]
     * @param {() => boolean} [wanted] whether the step is still the one to show once its scene has been fetched: a
     *   learner who left the lesson (or went on) meanwhile must not get its scene and panels after all
     */
    async show(step, { edited = null, sceneStep = step } = {}, sceneKnown = () => {}, wanted = () => true) {
      const named = edited ? null : await sceneOf(sceneStep.scene, presets);
      if (!wanted()) return;
      const focus = step.focus?.index ?? null;
      const head = step.head ?? 0;
      const draft = edited ?? (named && draftFromScene(named.scene));
      sceneKnown(draft ? sceneFromDraft(draft) : session.scene());
      if (edited) await loader.showScene({ draft, presetId: null, edited: true, focus, head, by: "author" });
      else if (named) await loader.showScene({ draft, presetId: named.presetId, focus, head, by: "author" });
      else {
        if (focus !== null) session.focus(focus);
        if (step.head !== null) session.selectHead(head);
      }
      before ??= { steps: Boolean(view().steps) };
      setView(viewOf(step));
    },
    /** The lesson is left: every panel shows again, and "show every step" is as the learner had it. */
    leave() {
      setView({ panels: [...PANEL_NAMES], ...before });
      before = null;
    },
    /**
     * What `step` opens below the playground: the trained model on its sentence, a claim to test. Called once the
     * step's question is asked: the model's run would otherwise hold Python while the learner waits for it.
     */
    showBelow(step) {
      if (step.model) {
        const { name = "shipped", words = "", head = "L1H0", knocked_out: knockedOut = [], focus = null } = step.model;
        const kept = { open: true, model: name, words, knocked_out: knockedOut.map(modelHead), head: modelHead(head), focus, opened: null };
        model.restore(kept).catch(() => {});
      }
      if (step.claim) claims.actions.openClaim(step.claim, { show: false }).catch(() => {});
    },
  };
}
