/**
 * What the learner is looking at, apart from the scene: which panels show, and which of them are open; and
 * index.html's panels and places by name. The page (page/), links (sharing/permalink.js) and embed mode
 * (embed/embed-mode.js) all read it, so it sits beside them rather than inside the page.
 *
 * It lives in the state (`state.view`, part "view"), travels in links and is saved with the learner's work,
 * so that a link or a reload shows the page as it was left.
 *
 *   panels      the panels shown, by name (PANEL_NAMES); a link may hide some
 *   steps       "show every step" is ticked
 *   table       the weights are shown as a table
 *   exercises   the exercises are open
 *   exercise    the exercise tab chosen ("softmax", "attention"), or null for the one the learner had last
 *   experiment  the experiment tab chosen ("one-thing", "scaling", "order", "knockout"), or null for the first
 *   model       the trained model's panel: null while it was never opened, else {open, words, knocked_out, head,
 *               focus, model, hide_start, opened}: the sentence, the heads knocked out, the head shown large, the
 *               focused position, which model ("shipped", the story world's, when absent; or "english"), whether
 *               <bos> is hidden, and the head opened in the playground ({layer, head, words, knocked_out}). Only links and saved
 *               work carry it: the panel's one state is `state.model` (panels/model.js), and this part is made from
 *               it when a link is made or work is saved (`modelViewOf`); an arriving one is handed to the panel
 *   claim       only while a claim is chosen in "Test a claim" (panels/claims.js): {id, steps, seed}, steps and
 *               seed null for the claim's own (a view without it chooses none, as every view before it did); in a
 *               link's view it may also hold `start: true`, and the page then brings the test into view and
 *               trains its pair at once. Like `model`, only links and saved work carry it: its one state is
 *               `state.claim` (panels/claims.js), made into this part by `claimViewOf` and handed back on arrival
 *   at          only in a link's view, and only when it does not open at the top: the panel below the playground
 *               (OPEN_AT_PANELS) that the page scrolls to once it is drawn; the page's own view never keeps it
 */

/**
 * The panels by name, and the element each name is (index.html marks each with `data-panel`). Embed mode
 * (embed/embed-mode.js) chooses among the same names.
 */
export const PANEL_SELECTORS = Object.freeze(Object.fromEntries(
  ["presets", "controls", "notes", "heatmap", "bars", "features", "weights", "steps", "heads", "experiments", "model", "exercise"]
    .map((name) => [name, `[data-panel="${name}"]`]),
));

/** The element index.html marks with data-host="`name`" (a place the page puts things that is not a panel). */
export const host = (name) => /** @type {HTMLElement} */ (document.querySelector(`[data-host="${name}"]`));

/** Every panel name, in page order. */
export const PANEL_NAMES = Object.freeze(Object.keys(PANEL_SELECTORS));

/** The panels a link may open at (`at`), each with the words that name it for the learner. */
export const OPEN_AT_PANELS = Object.freeze({
  steps: "every step, worked by hand",
  heads: "the heads side by side",
  experiments: "the experiments",
  model: "the trained model",
  exercise: "the exercises",
});

/** The view of a page that has just opened. */
/**
 * Which panels show and what is open in them (the state's `view`, a link's and saved work's).
 * @typedef {object} View
 * @property {readonly string[]} panels the panels shown, by name
 * @property {boolean} steps the worked steps are open
 * @property {boolean} table the weights show as a table
 * @property {boolean} exercises the exercises are open
 * @property {string|null} exercise the exercise open in them
 * @property {string|null} experiment the experiment's tab chosen
 * @property {object|null} [model] the model's panel as a link keeps it (cleanModelView)
 * @property {{id: string, steps: number|null, seed: number|null, start?: boolean}} [claim] the claim chosen
 * @property {string} [at] where a link opens (OPEN_AT_PANELS)
 */

/** @type {Readonly<View>} */
export const DEFAULT_VIEW = Object.freeze({
  panels: PANEL_NAMES,
  steps: false,
  table: false,
  exercises: false,
  exercise: null,
  experiment: null,
});

/** The most words a kept sentence holds (the model reads at most 32; more is a mistake to show, not to keep). */
const MAX_KEPT_TEXT = 2000;

/** A (layer, head) pair of small whole numbers, or null. */
const pairOrNull = (value) => (Array.isArray(value) && value.length === 2 && value.every((x) => Number.isInteger(x) && x >= 0 && x < 16) ? [value[0], value[1]] : null);
const pairs = (value) => (Array.isArray(value) ? value.map(pairOrNull).filter(Boolean).slice(0, 64) : []);

/** The model panel's kept state from untrusted data, or null. */
function cleanModelView(model) {
  if (!model || typeof model !== "object" || Array.isArray(model)) return null;
  const opened = model.opened && typeof model.opened === "object" ? model.opened : null;
  const openedHead = opened ? pairOrNull([opened.layer, opened.head]) : null;
  return {
    open: model.open === true,
    words: typeof model.words === "string" ? model.words.slice(0, MAX_KEPT_TEXT) : "",
    knocked_out: pairs(model.knocked_out),
    head: pairOrNull(model.head),
    focus: Number.isInteger(model.focus) && model.focus >= 0 ? model.focus : null,
    // The English model, and <bos> hidden, only when so: absent (as in links made before either), the story world's
    // model with <bos> shown.
    ...(model.model === "english" ? { model: "english" } : {}),
    ...(model.hide_start === true ? { hide_start: true } : {}),
    opened: openedHead && typeof opened.words === "string"
      ? { layer: openedHead[0], head: openedHead[1], words: opened.words.slice(0, MAX_KEPT_TEXT), knocked_out: pairs(opened.knocked_out) }
      : null,
  };
}

/**
 * What a link and saved work keep of the model panel (state.model, panels/model.js's ModelState), in the shape
 * `cleanModelView` reads back; null while the panel was never opened.
 */
export function modelViewOf(model) {
  if (!model?.open) return null;
  const { words, knockedOut, head, focus, opened, name, hideStart } = model;
  return {
    open: true,
    words,
    knocked_out: knockedOut,
    head: [head.layer, head.head],
    focus,
    ...(name === "english" ? { model: "english" } : {}),
    ...(hideStart ? { hide_start: true } : {}),
    opened: opened ? { layer: opened.layer, head: opened.head, words: opened.words, knocked_out: opened.knockedOut } : null,
  };
}

/** An id-like value (a tab's id), or null for anything else. */
const idOrNull = (value) => (typeof value === "string" && /^[a-z0-9][a-z0-9-]{0,63}$/.test(value) ? value : null);

/** The most steps a link may ask a claim's pair to train (Python checks the steps again). */
const MAX_CLAIM_STEPS = 100_000;
const wholeOrNull = (value, most) => (Number.isInteger(value) && value >= 1 && value <= most ? value : null);

/**
 * The claim chosen in "Test a claim" from untrusted data, or null. The id is only checked for its form: an id
 * Python does not know is refused with its message when the test starts.
 */
function cleanClaimView(claim) {
  if (!claim || typeof claim !== "object" || Array.isArray(claim)) return null;
  const id = idOrNull(claim.id);
  if (!id) return null;
  return {
    id,
    steps: wholeOrNull(claim.steps, MAX_CLAIM_STEPS),
    seed: wholeOrNull(claim.seed, 2 ** 31 - 1),
    ...(claim.start === true ? { start: true } : {}),
  };
}

/**
 * What a link and saved work keep of "Test a claim" (state.claim, panels/claims.js's CLAIM_STATE), in the shape
 * cleanClaimView reads: the claim chosen and the steps and seed chosen for it (null: the claim's own); null when
 * no claim is chosen.
 */
export function claimViewOf(claim) {
  if (!claim?.id) return null;
  return { id: claim.id, steps: claim.chosenSteps ?? null, seed: claim.chosenSeed ?? null };
}

/**
 * A view from untrusted data (a link, a saved record): known panel names only (all of them if none is
 * left), booleans for the open states, ids for the tabs; anything missing or malformed takes its default.
 * @param {unknown} view
 * @returns {View}
 */
export function cleanView(view) {
  /** @type {Record<string, any>} */
  const given = view && typeof view === "object" && !Array.isArray(view) ? view : {};
  const panels = Array.isArray(given.panels) ? PANEL_NAMES.filter((name) => given.panels.includes(name)) : [...PANEL_NAMES];
  return {
    panels: panels.length ? panels : [...PANEL_NAMES],
    steps: given.steps === true,
    table: given.table === true,
    exercises: given.exercises === true,
    exercise: idOrNull(given.exercise),
    experiment: idOrNull(given.experiment),
    model: cleanModelView(given.model),
    ...(cleanClaimView(given.claim) ? { claim: cleanClaimView(given.claim) } : {}),
    // Only a link's view has it, and only a place the page knows: it says where to open, not what is open.
    ...(Object.hasOwn(OPEN_AT_PANELS, given.at) ? { at: given.at } : {}),
  };
}
