/**
 * A head of the trained model opened in the playground: its Wq, Wk and Wv become the playground's scene, and
 * while the playground shows that head, the learner's edits there are the model's (the panel's predictions follow).
 * Another scene in the playground gives the model back its trained weights.
 *
 * State: `state.model.opened` (the head, and the scene it was opened as) and `state.model.edited` (panels/model.js).
 */

import { sceneFromDraft } from "../scene/draft.js";
import { asThePageReadsIt, sameSceneData } from "../scene/sameness.js";

const MATRICES = ["Wq", "Wk", "Wv"];

/** Whether two matrices have the same shape (rows, and the length of each). */
const sameShape = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length &&
  a.every((row, i) => Array.isArray(row) && row.length === b[i].length);

/**
 * The opened head's Wq, Wk, Wv as numbers, if the draft is still that head's scene (else null; "unreadable" while a
 * cell holds text). A head of another shape is another head: a link made with an earlier model (16-wide heads
 * where today's are 8) keeps its scene in the playground, and the model keeps its own weights.
 */
function headInPlayground(draft, opened) {
  if (!draft || !opened) return null;
  const scene = sceneFromDraft(draft);
  const original = opened.scene;
  if (scene.heads.length !== 1 || scene.tokens.join(" ") !== original.tokens.join(" ") ||
      scene.features.length !== original.features.length) return null;
  const [head] = scene.heads;
  if (!MATRICES.every((name) => sameShape(head[name], original.heads[0][name]))) return null;
  const numbers = (matrix) => matrix.every((row) => row.every((x) => typeof x === "number" && Number.isFinite(x)));
  if (!MATRICES.every((name) => Array.isArray(head[name]) && numbers(head[name]))) return "unreadable";
  return { Wq: head.Wq, Wk: head.Wk, Wv: head.Wv };
}

/**
 * @param {object} options the model panel's (panels/model.js): `store`, `python`, `update` (its state), `rerun`
 *   (ask the model again), and `showScene`, `reveal`, `notify` (controller.js)
 */
export function createOpenedHead({ store, python, update, rerun, showScene, reveal, notify }) {
  const model = () => store.state.model;
  let editedHead = null; // {layer, head, Wq, Wk, Wv} while the opened head is edited in the playground

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
    const [original] = asThePageReadsIt(opened.scene).heads; // a trained -0.0 is the 0 a cell shows
    const edited = !MATRICES.every((name) => sameSceneData(matrices[name], original[name]));
    const next = edited ? { layer: opened.layer, head: opened.head, ...matrices } : null;
    const changed = !sameSceneData(next, editedHead);
    editedHead = next;
    if (edited !== model().edited) update({ edited });
    if (changed) rerun();
  }
  store.subscribe((state, changes) => {
    if (["scene", "values", "shape", "labels"].some((change) => changes.has(change))) followPlayground();
  });

  return {
    /** The opened head's weights as edited in the playground (what the model runs with), or null. */
    get editedHead() {
      return editedHead;
    },
    /** The model changed (trained, or the shipped one again): no head of it is open any more. */
    forget() {
      editedHead = null;
      update({ opened: null, edited: false });
    },
    /** A head a link or saved work had open: the playground holds it as it was left; its trained weights are asked again. */
    async restore(opened) {
      try {
        const { scene, source } = await python.modelHeadScene({ words: opened.words, layer: opened.layer, head: opened.head, knockedOut: opened.knocked_out });
        update({ opened: { ...source, words: opened.words, knockedOut: opened.knocked_out, scene } });
        followPlayground();
      } catch {
        // the kept head does not fit the shipped model: the playground keeps its scene, on its own
      }
    },
    actions: {
      /**
       * Open the chosen head in the playground, where edits feed back into the model, and take the learner up to
       * it: the scene is replaced at the top of the page, far above the panel, so the page goes there and offers
       * the way back.
       */
      async openHeadInPlayground() {
        const { name, words, knockedOut, head } = model();
        const { scene, source } = await python.modelHeadScene({ model: name, words, layer: head.layer, head: head.head, knockedOut });
        await showScene(scene);
        editedHead = null;
        update({ opened: { ...source, words, knockedOut, scene }, edited: false });
        rerun();
        reveal("playground");
        notify(`${source.label ?? "The head"} of the trained model is now the playground's scene, here at the top: edit its Wq, Wk or Wv and the model's predictions follow.`,
          { action: { label: "back to the trained model", run: () => reveal("model-head") } });
      },
      /** Put the opened head's trained weights back in the playground. */
      async useTrainedWeights() {
        const { opened } = model();
        if (opened) await showScene(opened.scene);
      },
    },
  };
}
