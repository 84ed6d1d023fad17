/**
 * The experiments on the learner's scene as the controller runs them: shuffle its words (Part 8) and knock one
 * word out ("weights are not explanations"). Python does each experiment and measures it
 * (py/attention_playground/experiments.py); this module asks, shows a shuffled scene through scene-loader.js, and
 * keeps the outcome in `state.experiments` for the experiments view to draw.
 *
 * An outcome belongs to the scene it was measured on: any change to the scene or its result clears it.
 *
 * State (`state.experiments`, change part "experiments"):
 *   shuffle   null, {busy: true}, {problem: "..."}, or {tokens, difference, reason}: the shuffled words, the
 *             largest difference between an output and its word's output before (null: a nan), and why the
 *             outputs changed ("none", "positions", "mask" or "other": experiments.py)
 *   knockOut  null, {busy: true}, {problem: "..."}, or {tokens, headName, column, changes, weights, masked,
 *             mostChanged, mostWeighted} (changes null where an output is nan)
 */

import { sceneFromDraft } from "../scene/draft.js";
import { NO_EXPERIMENTS } from "./state.js";

/** What changes a scene or its result: an outcome measured before it no longer holds. */
const SCENE_CHANGES = ["scene", "shape", "labels", "values", "mode", "result"];

/**
 * A random order of `n` places that is not the identity (for n ≥ 2).
 * @param {number} n
 * @param {() => number} [random] a source of numbers in [0, 1)
 * @returns {number[]} order[i] = the old place of the word that now stands at place i
 */
function shuffledOrder(n, random = Math.random) {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i -= 1) {
    const k = Math.floor(random() * (i + 1));
    [order[i], order[k]] = [order[k], order[i]];
  }
  if (n >= 2 && order.every((old, i) => old === i)) order.push(order.shift()); // never "shuffle" into the same order
  return order;
}

/**
 * @param {object} options
 * @param {ReturnType<import("./state.js").createStore>} options.store
 * @param {ReturnType<import("../service/service.js").createPythonService>} options.python
 * @param {(scene: object) => Promise<object>} options.showScene puts a whole new scene on the page (scene-loader.js)
 */
export function createExperiments({ store, python, showScene }) {
  let measuring = false; // while an experiment puts its own scene on the page, its outcome is not cleared
  const set = (part, outcome) => store.update({ experiments: { ...store.state.experiments, [part]: outcome } }, "experiments");
  // Cleared in the same notification as the change that made it stale.
  store.derive((state, changes) => {
    if (measuring || state.experiments === NO_EXPERIMENTS || !SCENE_CHANGES.some((change) => changes.has(change))) return null;
    return { patch: { experiments: NO_EXPERIMENTS }, changes: ["experiments"] };
  });

  /** The scene on screen, if it has a good result to start from; else says so in `part` and returns null. */
  function startingScene(part, what) {
    const { draft, result, error } = store.state;
    if (draft && result && !error) return sceneFromDraft(draft);
    set(part, { problem: `Fix the scene first: the ${what} starts from a computed result.` });
    return null;
  }

  return {
    /** Put the scene's words in a random order and say whether each output just moved with its word. */
    async shuffleWords() {
      const scene = startingScene("shuffle", "shuffle");
      if (!scene) return;
      store.update({ experiments: { shuffle: { busy: true }, knockOut: null } }, "experiments"); // a new scene comes
      try {
        const shuffled = await python.shuffleScene({ scene, order: shuffledOrder(scene.tokens.length) });
        measuring = true;
        try {
          await showScene(shuffled.scene);
        } finally {
          measuring = false;
        }
        set("shuffle", { tokens: shuffled.scene.tokens, difference: shuffled.largest_difference, reason: shuffled.reason });
      } catch (failure) {
        set("shuffle", { problem: `Could not shuffle: ${failure.message}` });
      }
    },

    /** Compute the scene again with word `column` knocked out; the table reads the active head's weights. */
    async knockOutWord(column) {
      const scene = startingScene("knockOut", "knock-out");
      if (!scene) return;
      const head = Math.min(store.state.activeHead, store.state.result.heads.length - 1);
      const measuredOn = store.state.result;
      const { tokens } = measuredOn;
      const headName = measuredOn.heads[head].name;
      set("knockOut", { busy: true });
      try {
        const knocked = await python.knockOutWord({ scene, column, head });
        if (store.state.result !== measuredOn) return; // the scene changed meanwhile: the outcome was cleared
        set("knockOut", {
          tokens, headName, column: knocked.column, changes: knocked.changes, weights: knocked.weights,
          masked: knocked.masked, mostChanged: knocked.most_changed, mostWeighted: knocked.most_weighted,
        });
      } catch (failure) {
        if (store.state.result !== measuredOn) return;
        set("knockOut", { problem: `Could not compute it: ${failure.message}` });
      }
    },
  };
}
