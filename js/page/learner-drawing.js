/**
 * "Draw the heatmap with my function": while it is on, every result the page shows is computed again with
 * the learner's own softmax or attention (in the exercise worker, see exercise-runner.js) and shown in its
 * place, so a bug shows up as a picture. The module's result stays the truth underneath: switching off puts
 * the latest one back.
 *
 * It works through the state object only: it listens for new results and replaces them with the learner's
 * (marked `drawn_with`, which compute() results never have).
 */

import { sceneFromDraft } from "../scene/draft.js";

/**
 * @param {object} options
 * @param {ReturnType<import("./state.js").createStore>} options.store
 * @param {ReturnType<import("../python/exercise-runner.js").createExerciseRunner>} options.runner
 * @param {(report: {drawing: boolean, message: string}) => void} options.onReport what to tell the learner
 * @returns {{enable: (exerciseId: string, code: string) => void, disable: () => void, readonly enabled: boolean}}
 */
export function createLearnerDrawing({ store, runner, onReport }) {
  /** {exerciseId, code} while drawing with the learner's function; null while off. */
  let source = null;
  /** The latest result the module computed, to put back when the learner's drawing stops. */
  let moduleResult = null;
  /** Bumped for every new request, so an old answer never replaces a newer one. */
  let generation = 0;

  store.subscribe((state, changes) => {
    if (!changes.has("result") || !state.result || state.result.drawn_with) return;
    moduleResult = state.result;
    if (source && !state.resultIsPreview) redraw();
  });

  async function redraw() {
    const { draft } = store.state;
    if (!source || !draft) return;
    const mine = ++generation;
    const outcome = await runner.request("learner_compute", { ...source, scene: sceneFromDraft(draft) });
    if (mine !== generation || !source) return;
    if (outcome.status === "failed") return; // e.g. the draft has a mistake: the page already says so
    if (outcome.status !== "done") {
      stop(outcome.message);
      return;
    }
    const { result, error } = outcome.result;
    if (error) {
      stop(`Your code failed, so the heatmap shows the playground's result again: ${error.summary}`);
      return;
    }
    store.update({ result, resultIsPreview: false }, "result");
    onReport({ drawing: true, message: `The heatmap is drawn with your ${result.drawn_with}().` });
  }

  function stop(message) {
    source = null;
    generation += 1;
    if (moduleResult && store.state.result?.drawn_with) store.update({ result: moduleResult }, "result");
    onReport({ drawing: false, message });
  }

  return {
    get enabled() {
      return source !== null;
    },
    /** Draw with the learner's function from now on (call again after the code changed). */
    enable(exerciseId, code) {
      source = { exercise_id: exerciseId, code };
      if (!moduleResult && store.state.result && !store.state.result.drawn_with) moduleResult = store.state.result;
      redraw();
    },
    /** Back to the playground's own result. */
    disable() {
      stop("");
    },
  };
}
