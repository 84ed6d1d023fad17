/**
 * "Draw the heatmap with my function": while it is on, every result the page shows is computed again with
 * the learner's own softmax or attention (in their own Python, through the service) and shown in its place,
 * so a bug shows up as a picture. The module's result stays the truth underneath: switching off puts the
 * latest one back.
 *
 * It works through the state only: it listens for new results and replaces them with the learner's (marked
 * `drawn_with`, which compute() results never have), and says what it is doing in `state.learnerDrawing`
 * ({drawing, message}, part "learner").
 */

import { sceneFromDraft } from "../scene/draft.js";

/**
 * @param {object} options
 * @param {ReturnType<import("../state/session.js").createStore>} options.store
 * @param {ReturnType<import("../state/session.js").createSceneSession>} options.session shows the learner's result
 * @param {{learnerCompute: Function}} options.python the Python service
 * @returns {{enable: (exerciseId: string, code: string) => void, disable: () => void, readonly enabled: boolean}}
 */
export function createLearnerDrawing({ store, session, python }) {
  /** {exerciseId, code} while drawing with the learner's function; null while off. */
  let source = null;
  /** The latest result the module computed, to put back when the learner's drawing stops. */
  let moduleResult = null;
  /** Bumped for every new request, so an old answer never replaces a newer one. */
  let generation = 0;

  function report(drawing, message) {
    store.update({ learnerDrawing: { drawing, message } }, "learner");
  }

  store.subscribe((state, changes) => {
    if (!changes.has("result") || !state.result || state.result.drawn_with) return;
    moduleResult = state.result;
    if (source && !state.resultIsPreview) redraw();
  });

  async function redraw() {
    const { draft } = store.state;
    if (!source || !draft) return;
    const mine = ++generation;
    const outcome = await python.learnerCompute({ ...source, scene: sceneFromDraft(draft) });
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
    session.showLearnerResult(result);
    report(true, `The heatmap is drawn with your ${result.drawn_with}().`);
  }

  function stop(message) {
    source = null;
    generation += 1;
    if (moduleResult && store.state.result?.drawn_with) session.showLearnerResult(moduleResult);
    report(false, message);
  }

  return {
    get enabled() {
      return source !== null;
    },
    enable(exerciseId, code) {
      source = { exerciseId, code };
      if (!moduleResult && store.state.result && !store.state.result.drawn_with) moduleResult = store.state.result;
      report(true, "");
      redraw();
    },
    disable() {
      stop("");
    },
  };
}
