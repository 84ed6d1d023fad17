/**
 * The experiments on the learner's scene as the controller runs them: shuffle its words (Part 8) and knock one
 * word out ("weights are not explanations"). Python does each experiment and measures it
 * (py/attention_playground/experiments.py); this module asks, shows a shuffled scene through scene-loader.js, and
 * keeps the outcome in `state.experiments` for the experiments view to draw.
 *
 * An outcome belongs to the scene it was measured on: any change to the scene or its result clears it.
 *
 * State (`state.experiments`, change part "experiments"):
 *   shuffle   null, {busy: true}, {problem: "..."}, or {tokens, difference, reason, before, order, outputBefore,
 *             outputAfter, differences, unchanged}: the shuffled words, the largest difference between an output
 *             and its word's output before (null: a nan), why the outputs changed ("none", "positions", "mask" or
 *             "other": experiments.py), the words before, order[i] = the old place of the word now at place i,
 *             both orders' outputs row by row, and each word's own difference and whether it only moved (by its
 *             old place)
 *   knockOut  null, {busy: true}, {problem: "..."}, or {tokens, headName, column, changes, weights, masked,
 *             mostChanged, mostWeighted} (changes null where an output is nan)
 */

import { sceneFromDraft } from "../scene/draft.js";
import { NO_EXPERIMENTS } from "../state/state.js";

/** Part 8's own pair: "dog bites man" against "man bites dog", the same three words the other way round. */
const WORD_ORDER_EXAMPLE = "dog-bites-man";

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
 * @param {ReturnType<import("../state/session.js").createStore>} options.store
 * @param {ReturnType<import("../service/service.js").createPythonService>} options.python
 * @param {(scene: object) => Promise<object>} options.showScene puts a whole new scene on the page (scene-loader.js)
 * @param {(id: string) => Promise<void>} options.openExample shows an example of the picker (its saved edits, if any)
 * @param {() => boolean} options.settled true when the result on the page is the draft's (state/session.js)
 */
export function createExperiments({ store, python, showScene, openExample, settled }) {
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

  /**
   * Resolves once example `id` is on the page with its computed result, not the shipped preview it opens with,
   * and nothing is left to compute: an experiment measured before would be cleared when that result arrives.
   * Checked a task after each change too, since the session settles just after its last write.
   */
  function computedExample(id) {
    const ready = () => {
      const { presetId, result, resultIsPreview } = store.state;
      return presetId === id && result && !resultIsPreview && settled();
    };
    if (ready()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!ready()) return;
        stop();
        resolve();
      };
      const stop = store.subscribe(() => setTimeout(check, 0));
    });
  }

  /** Open example `id` and wait for its computed result. */
  async function openComputed(id) {
    await openExample(id);
    await computedExample(id);
  }

  /**
   * Put the scene's words in `order` (a random one if none), show it, and measure each word's output in both. The
   * scene is the one on screen, or `from` (the scene on screen with a switch of the learner's put back).
   */
  async function shuffleWords(order = null, from = null) {
    const scene = from ?? startingScene("shuffle", "shuffle");
    if (!scene) return;
    store.update({ experiments: { shuffle: { busy: true }, knockOut: null } }, "experiments"); // a new scene comes
    try {
      const shuffled = await python.shuffleScene({ scene, order: order ?? shuffledOrder(scene.tokens.length) });
      measuring = true;
      try {
        await showScene(shuffled.scene);
      } finally {
        measuring = false;
      }
      set("shuffle", {
        tokens: shuffled.scene.tokens, difference: shuffled.largest_difference, reason: shuffled.reason,
        before: scene.tokens, order: shuffled.order, outputBefore: shuffled.output_before, outputAfter: shuffled.output_after,
        differences: shuffled.differences, unchanged: shuffled.unchanged,
      });
    } catch (failure) {
      set("shuffle", { problem: `Could not shuffle: ${failure.message}` });
    }
  }

  /** Compute the scene again with word `column` knocked out; the table reads the active head's weights. */
  async function knockOutWord(column) {
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
  }

  return {
    /** Put the scene's words in a random order and say whether each output just moved with its word. */
    shuffleWords: () => shuffleWords(),

    /** Part 8's point in one click: "dog bites man", then the same words the other way round, side by side. */
    async compareWordOrder() {
      // The learner's positions switch stays as they set it: the pair is compared with it, not the example's own.
      const positions = store.state.draft?.extra?.positions ?? "none";
      await openComputed(WORD_ORDER_EXAMPLE);
      const scene = startingScene("shuffle", "shuffle");
      if (!scene) return;
      const reversed = scene.tokens.map((_, i) => scene.tokens.length - 1 - i);
      await shuffleWords(reversed, positions === "none" ? scene : { ...scene, positions });
    },

    /** Open example `id` and knock out its word `column`: the experiment's point in one click. */
    async knockOutInExample(id, column) {
      await openComputed(id);
      await knockOutWord(column);
    },

    /** Compute the scene again with word `column` knocked out; the table reads the active head's weights. */
    knockOutWord,
  };
}
