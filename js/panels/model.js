/**
 * The trained model's panel as the controller runs it: which model, the sentence, the knock-outs, the head chosen
 * and the position in focus; the head opened in the playground (opened-head.js) and training a model of one's own
 * (model-training-run.js) build on it.
 *
 * State: `state.model` (change "model") and `state.training` (change "training"): MODEL_STATE and TRAINING_STATE
 * in state.js. It is the panel's one state: what a link and saved work keep of it (the sentence, the knock-outs,
 * the heads chosen and opened) is made from it when they are made (layout/panels.js, `modelViewOf`), and a link
 * or saved work that set the panel up is handed to `restore`. The model's numbers all come from Python
 * (model/requests.py): this module only decides what to ask and when. As with scenes, the last good result stays
 * on screen while a sentence the model cannot read is being fixed, and the reply to an older question never
 * replaces the answer to a newer one.
 */

import { withErrorDetail } from "../scene/errors.js";
import { ENGLISH } from "../service/service.js";
import { createTrainingRun } from "./model-training-run.js";
import { oneAtATime } from "./one-at-a-time.js";
import { createOpenedHead } from "./opened-head.js";

const samePair = ([a, b], [c, d]) => a === c && b === d;

/**
 * The panel's choice of model, where its predictions are measured, and how its weights are drawn.
 * @param {{model: () => any, update: (patch: object) => void, loadInfo: (name: string) => Promise<void>, rerun: () => Promise<void>,
 *   forgetOpenedHead: () => void, dropAnswers: () => void}} panel `dropAnswers`: answers on their way are about the model before
 */
function choiceActions({ model, update, loadInfo, rerun, forgetOpenedHead, dropAnswers }) {
  return {
    /** Focus a position; the English model measures its knock-outs' effects there alone, so it is asked again. */
    focusModelPosition(position) {
      update({ focus: position });
      if (model().name === ENGLISH && model().result && model().result.focus !== position) rerun();
    },
    /**
     * Show the story-world model ("shipped") or the English one: its description, then the sentence. A new model
     * starts on its first example with no head knocked out (its heads are others); the other choices stay.
     */
    async chooseModel(name) {
      if (name === model().name || (name !== ENGLISH && name !== "shipped")) return;
      forgetOpenedHead();
      dropAnswers();
      update({ name, info: null, result: null, error: null, words: "", knockedOut: [], focus: null });
      try {
        await loadInfo(name);
        await rerun();
      } catch (error) {
        update({ error: withErrorDetail(error).detail });
      }
    },
    /** Draw the heads' weights without <bos>, each row renormalised (true), or as they are. */
    setHideStart: (hideStart) => update({ hideStart: Boolean(hideStart) }),
  };
}

/**
 * @param {object} options
 * @param {ReturnType<import("../state/session.js").createStore>} options.store
 * @param {ReturnType<import("../service/service.js").createPythonService>} options.python
 * @param {(scene: object) => Promise<any>} options.showScene shows a scene in the playground (scene-loader.js)
 * @param {(place: string) => void} options.reveal take the learner to a place (controller.js)
 * @param {(text: string, options?: object) => void} options.notify
 */
export function createModelController({ store, python, showScene, reveal, notify }) {
  const model = () => store.state.model;
  /** Change the panel's state. */
  const update = (patch) => store.update({ model: { ...model(), ...patch } }, "model");

  let asked = 0; // the newest question's number: older answers are dropped
  let opening = null; // the panel's first load, while and after it runs

  /** Describe model `name` (its heads, examples, vocabulary) and keep the panel's choices that still fit it. */
  async function loadInfo(name) {
    const info = await python.modelInfo({ model: name });
    const patch = { info, name };
    if (!model().words) {
      patch.words = info.examples[0].words;
      patch.focus = info.examples[0].focus ?? null;
    }
    const { layer, head } = model().head;
    if (layer >= info.config.n_layers || head >= info.config.n_heads) patch.head = { layer: info.config.n_layers - 1, head: 0 };
    patch.knockedOut = model().knockedOut.filter(([l, h]) => l < info.config.n_layers && h < info.config.n_heads);
    update(patch);
  }

  /** Ask Python for the model on the sentence as it is now; one question at a time (typing asks at every keystroke). */
  const rerun = oneAtATime(async (superseded) => {
    const { name, words, knockedOut, info } = model();
    if (!info) return;
    const number = ++asked;
    update({ busy: true });
    try {
      // The English model's effects, and the guesses the panel shows, are measured at the focus alone.
      const english = name === ENGLISH;
      const result = await python.modelRun({ model: name, words, knockedOut, editedHead: openedHead.editedHead,
        focus: english ? model().focus : null, focusOnly: english });
      if (number !== asked || superseded()) return; // asked again meanwhile: the next run asks it as it is now
      const n = result.tokens.length;
      const focus = model().focus !== null && model().focus < n ? model().focus : n - 1;
      update({ result, error: null, busy: false, focus });
    } catch (error) {
      if (number !== asked || superseded()) return;
      update({ error: withErrorDetail(error).detail, busy: false });
    }
  });

  const panel = { store, python, update, rerun, loadInfo };
  const openedHead = createOpenedHead({ ...panel, showScene, reveal, notify });
  const training = createTrainingRun({ ...panel, forgetOpenedHead: () => openedHead.forget() });

  const actions = {
    /** Open the panel's model: load its description, then run it on the sentence. */
    openModel() {
      opening ??= (async () => {
        update({ open: true });
        try {
          await loadInfo(model().name);
          await rerun();
        } catch (error) {
          opening = null; // a later click tries again
          update({ error: withErrorDetail(error).detail });
        }
      })();
      return opening;
    },
    setModelWords(words) {
      update({ words });
      rerun();
    },
    showModelExample(id) {
      const example = model().info?.examples.find((candidate) => candidate.id === id);
      if (!example) return;
      // The row the example is about (model_info's `focus`: the second mention), else the sentence's last word.
      update({ words: example.words, focus: example.focus ?? null });
      rerun();
    },
    toggleKnockOut(layer, head) {
      /** @type {[number, number]} */
      const pair = [layer, head];
      const knockedOut = model().knockedOut.some((other) => samePair(other, pair))
        ? model().knockedOut.filter((other) => !samePair(other, pair))
        : [...model().knockedOut, pair].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      update({ knockedOut });
      rerun();
    },
    chooseModelHead: (layer, head) => update({ head: { layer, head } }),
    ...choiceActions({ model, update, loadInfo, rerun, forgetOpenedHead: () => openedHead.forget(), dropAnswers: () => { asked++; } }),
    ...openedHead.actions,
    ...training.actions,
    /** Back to the model that comes with the page. */
    async useShippedModel() {
      openedHead.forget();
      update({ name: "shipped", info: null, result: null });
      await loadInfo("shipped");
      await rerun();
    },
    /** What the JS API's model.run returns: the model on `words` (the panel is left as it is). */
    runModel: ({ words, knockedOut = [], model: name = model().name, focus = null }) => python.modelRun({ model: name, words, knockedOut, focus }),
  };

  /** A panel state from a link or saved work (already cleaned by layout/panels.js: its `model` part). */
  async function restore(kept) {
    if (!kept) return;
    const patch = { words: kept.words, knockedOut: kept.knocked_out, focus: kept.focus, hideStart: kept.hide_start };
    // The English model, or the story world's (the one shown stays, unless it is the English one).
    const name = kept.model === ENGLISH ? ENGLISH : model().name === ENGLISH ? "shipped" : model().name;
    const switching = name !== model().name;
    if (switching) {
      openedHead.forget();
      Object.assign(patch, { name, info: null, result: null });
    }
    if (kept.head) patch.head = { layer: kept.head[0], head: kept.head[1] };
    update(patch);
    if (!kept.open) return;
    const alreadyOpen = opening !== null;
    await actions.openModel();
    // An open panel is not opened again: the link's model, sentence and knock-outs are loaded and run here instead.
    if (alreadyOpen && switching) await loadInfo(name);
    if (alreadyOpen) await rerun();
    if (kept.opened && name !== ENGLISH) await openedHead.restore(kept.opened);
  }
  return { actions, restore };
}
