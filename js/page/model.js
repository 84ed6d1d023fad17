/**
 * The trained model's panel as the controller runs it: which model, the sentence, the knock-outs, the head
 * chosen, the head opened in the playground (whose Wq, Wk and Wv, as the learner edits them there, feed back
 * into the model), and training a model of one's own.
 *
 * State: `state.model` (part "model") and `state.training` (part "training"); see MODEL_STATE below. It is
 * the panel's one state: what a link and saved work keep of it (the sentence, the knock-outs, the heads chosen
 * and opened) is made from it when they are made (layout/view.js, `modelViewOf`), and a link or saved work that
 * set the panel up is handed to `restore`. The model's numbers all come from Python (model/requests.py): this
 * module only decides what to ask and when.
 * As with scenes, the last good result stays on screen while a sentence the model cannot read is being
 * fixed, and the reply to an older question never replaces the answer to a newer one.
 */

import { sceneFromDraft } from "../scene/draft.js";

/**
 * @typedef {object} ModelState
 * @property {boolean} open the learner opened the panel (its model is loaded)
 * @property {"shipped"|"trained"} name which model the panel shows
 * @property {string} words the sentence as typed
 * @property {Array<[number, number]>} knockedOut (layer, head) pairs whose output is zeroed
 * @property {{layer: number, head: number}} head the head shown large
 * @property {number|null} focus the position whose predictions and bars show
 * @property {object|null} info model_info of the model shown
 * @property {object|null} result the last good model_run
 * @property {object|null} error the module's error for the sentence (or knock-outs) as they are
 * @property {boolean} busy a question is with Python
 * @property {null|{model: string, layer: number, head: number, label: string, words: string,
 *   knockedOut: Array<[number, number]>, scene: object}} opened the head opened in the playground, and the
 *   scene it was opened as (the trained weights, to go back to)
 * @property {boolean} edited the opened head's Wq, Wk or Wv differ in the playground from the trained ones
 */

/** The state of a page that has not opened the model. */
export const MODEL_STATE = Object.freeze({
  open: false,
  name: "shipped",
  words: "",
  knockedOut: [],
  head: { layer: 1, head: 0 },
  focus: null,
  info: null,
  result: null,
  error: null,
  busy: false,
  opened: null,
  edited: false,
});

/** The training state: idle, or a run's progress and outcome. */
export const TRAINING_STATE = Object.freeze({
  status: "idle", // "starting" | "training" | "done" | "stopped" | "failed"
  detail: "",
  config: null,
  step: 0,
  steps: 0,
  losses: [],
  drop: null, // the sudden drop in the losses so far (model/loss_drop.py): {start, end, before, after, window}
  seconds: 0,
  weights: null,
  message: "",
  measuring: false, // the run has ended and its heads are being measured for the panel (describe() takes seconds)
});

const samePair = ([a, b], [c, d]) => a === c && b === d;
const sameMatrix = (a, b) => a.length === b.length && a.every((row, i) => row.length === b[i].length && row.every((x, j) => x === b[i][j]));

/** Whether two matrices have the same shape (rows, and the length of each). */
const sameShape = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length &&
  a.every((row, i) => Array.isArray(row) && row.length === b[i].length);

/**
 * The opened head's Wq, Wk, Wv as numbers, if the draft is still that head's scene (else null). A head of
 * another shape is another head: a link made with an earlier model (16-wide heads where today's are 8) keeps its
 * scene in the playground, and the model keeps its own weights.
 */
function headInPlayground(draft, opened) {
  if (!draft || !opened) return null;
  const scene = sceneFromDraft(draft);
  const original = opened.scene;
  if (scene.heads.length !== 1 || scene.tokens.join(" ") !== original.tokens.join(" ") ||
      scene.features.length !== original.features.length) return null;
  const [head] = scene.heads;
  if (!["Wq", "Wk", "Wv"].every((name) => sameShape(head[name], original.heads[0][name]))) return null;
  const numbers = (matrix) => matrix.every((row) => row.every((x) => typeof x === "number" && Number.isFinite(x)));
  if (!["Wq", "Wk", "Wv"].every((name) => Array.isArray(head[name]) && numbers(head[name]))) return "unreadable";
  return { Wq: head.Wq, Wk: head.Wk, Wv: head.Wv };
}

/**
 * @param {object} options
 * @param {ReturnType<import("./state.js").createStore>} options.store
 * @param {ReturnType<import("../python/service.js").createPythonService>} options.python
 * @param {(scene: object) => Promise<any>} options.showScene shows a scene in the playground (scenes.js)
 */
export function createModelController({ store, python, showScene }) {
  const model = () => store.state.model;

  /** Change the panel's state. */
  function update(patch) {
    store.update({ model: { ...model(), ...patch } }, "model");
  }
  const updateTraining = (patch) => store.update({ training: { ...store.state.training, ...patch } }, "training");
  store.update({ model: { ...MODEL_STATE }, training: { ...TRAINING_STATE } }, "model", "training");

  let asked = 0; // the newest question's number: older answers are dropped
  let editedHead = null; // {layer, head, Wq, Wk, Wv} while the opened head is edited in the playground
  let opening = null; // the panel's first load, while and after it runs

  async function loadInfo(name) {
    const info = await python.modelInfo({ model: name });
    const patch = { info, name };
    if (!model().words) patch.words = info.examples[0].words;
    const { layer, head } = model().head;
    if (layer >= info.config.n_layers || head >= info.config.n_heads) patch.head = { layer: info.config.n_layers - 1, head: 0 };
    patch.knockedOut = model().knockedOut.filter(([l, h]) => l < info.config.n_layers && h < info.config.n_heads);
    update(patch);
  }

  /** Ask Python for the model on the sentence as it is now; show the answer unless a newer question came. */
  async function rerun() {
    const { name, words, knockedOut, info } = model();
    if (!info) return;
    const number = ++asked;
    update({ busy: true });
    try {
      const result = await python.modelRun({ model: name, words, knockedOut, editedHead });
      if (number !== asked) return;
      const n = result.tokens.length;
      const focus = model().focus !== null && model().focus < n ? model().focus : n - 1;
      update({ result, error: null, busy: false, focus });
    } catch (error) {
      if (number !== asked) return;
      update({ error: error.detail ?? { type: "Error", message: error.message }, busy: false });
    }
  }

  /** Follow the playground: while it shows the opened head, its Wq, Wk, Wv are the model's. */
  function followPlayground() {
    const { opened } = model();
    if (!opened) return;
    const matrices = headInPlayground(store.state.draft, opened);
    if (matrices === "unreadable") return; // a cell being typed: the last good edit stays
    if (matrices === null) {
      // Another scene is in the playground: the model goes back to its trained weights.
      editedHead = null;
      update({ opened: null, edited: false });
      rerun();
      return;
    }
    const [original] = opened.scene.heads;
    const edited = !["Wq", "Wk", "Wv"].every((name) => sameMatrix(matrices[name], original[name]));
    const next = edited ? { layer: opened.layer, head: opened.head, ...matrices } : null;
    const changed = JSON.stringify(next) !== JSON.stringify(editedHead);
    editedHead = next;
    if (edited !== model().edited) update({ edited });
    if (changed) rerun();
  }
  store.subscribe((state, changes) => {
    if (["scene", "values", "shape", "labels"].some((part) => changes.has(part))) followPlayground();
  });

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
          update({ error: error.detail ?? { type: "Error", message: error.message } });
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
      update({ words: example.words, focus: null });
      rerun();
    },
    toggleKnockOut(layer, head) {
      const pair = [layer, head];
      const knockedOut = model().knockedOut.some((other) => samePair(other, pair))
        ? model().knockedOut.filter((other) => !samePair(other, pair))
        : [...model().knockedOut, pair].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      update({ knockedOut });
      rerun();
    },
    chooseModelHead(layer, head) {
      update({ head: { layer, head } });
    },
    focusModelPosition(position) {
      update({ focus: position });
    },
    /** Show the chosen head on the sentence in the playground's editors; edits there feed back. */
    async openHeadInPlayground() {
      const { name, words, knockedOut, head } = model();
      const { scene, source } = await python.modelHeadScene({ model: name, words, layer: head.layer, head: head.head, knockedOut });
      await showScene(scene);
      editedHead = null;
      update({ opened: { ...source, words, knockedOut, scene }, edited: false });
      rerun();
    },
    /** Put the opened head's trained weights back in the playground. */
    async useTrainedWeights() {
      const { opened } = model();
      if (!opened) return;
      await showScene(opened.scene);
    },
    /**
     * Train a model from scratch in the training worker; resolves with the outcome and the new model's metrics
     * and heads. `onProgress` hears every report as the panel does (the JS API passes one on).
     */
    async trainModel(config, { onProgress: listener = () => {} } = {}) {
      updateTraining({ ...TRAINING_STATE, status: "starting", config });
      const losses = [];
      try {
        const outcome = await python.trainModel({
          config,
          // The heads are reported on the panel's sentence, if the model can read it.
          words: model().error ? "" : model().words,
          onProgress: (progress) => {
            if (progress.phase === "starting") {
              updateTraining({ status: "starting", detail: progress.detail });
              return;
            }
            losses.push(...progress.losses);
            updateTraining({ status: "training", step: progress.step, steps: progress.steps, losses: [...losses],
              drop: progress.loss_drop ?? null, seconds: progress.seconds, weights: progress.weights ?? null });
            try {
              listener({ step: progress.step, steps: progress.steps, losses: progress.losses, seconds: progress.seconds, weights: progress.weights });
            } catch {
              // a course page's listener that throws does not stop the learner's training
            }
          },
        });
        updateTraining({ status: outcome.status, config: outcome.config, step: outcome.step, steps: outcome.config.steps,
          losses: outcome.losses, drop: outcome.drop, seconds: outcome.seconds, measuring: true });
        editedHead = null;
        // The panel keeps the model it shows until the new one is measured: that takes seconds, and the run's
        // end is said at once (the training view says the panel is catching up).
        update({ opened: null, edited: false });
        await loadInfo("trained");
        updateTraining({ measuring: false });
        await rerun();
        return { ...outcome, metrics: model().info.metrics, heads: model().info.heads };
      } catch (error) {
        updateTraining({ status: "failed", message: error.message });
        throw error;
      }
    },
    stopTraining: () => python.stopTraining(),
    /** Back to the model that comes with the page. */
    async useShippedModel() {
      editedHead = null;
      update({ name: "shipped", info: null, result: null, opened: null, edited: false });
      await loadInfo("shipped");
      await rerun();
    },
    /** What the JS API's model.run returns: the model on `words` (the panel is left as it is). */
    runModel: ({ words, knockedOut = [], model: name = model().name }) => python.modelRun({ model: name, words, knockedOut }),
  };

  /** A panel state from a link or saved work (already cleaned by view.js: its `model` part). */
  async function restore(kept) {
    if (!kept) return;
    const patch = { words: kept.words, knockedOut: kept.knocked_out, focus: kept.focus };
    if (kept.head) patch.head = { layer: kept.head[0], head: kept.head[1] };
    store.update({ model: { ...model(), ...patch } }, "model");
    if (!kept.open) return;
    const alreadyOpen = opening !== null;
    await actions.openModel();
    // An open panel is not opened again: the link's sentence and knock-outs are run here instead.
    if (alreadyOpen) await rerun();
    const { opened } = kept;
    if (!opened) return;
    // The playground holds the head as it was left (edits and all); its trained weights are asked again.
    try {
      const { scene, source } = await python.modelHeadScene({ words: opened.words, layer: opened.layer, head: opened.head, knockedOut: opened.knocked_out });
      update({ opened: { ...source, words: opened.words, knockedOut: opened.knocked_out, scene } });
      followPlayground();
    } catch {
      // the kept head does not fit the shipped model: the playground keeps its scene, on its own
    }
  }
  return { actions, restore };
}
