/**
 * The playground's state, declared: every slice, once, with its initial value, and the names of the changes
 * subscribers are told about. The store that holds it (state/session.js createStore) adds nothing at run time and
 * refuses a slice or a change name that is not declared here, so a typo fails at once instead of drawing nothing.
 *
 * The scene being edited and what is derived from it (SCENE_SLICES) belong to the scene session
 * (state/session.js): only its writer may change them. Every other slice is changed through `update` by the one
 * controller module named beside it.
 *
 * Views never talk to each other and never write the state: they read it, subscribe to the changes, and act
 * through the actions they are given.
 */

import { DEFAULT_VIEW } from "../layout/panels.js";

/**
 * The change names passed to subscribers (`subscribe((state, changes) => …)`, `changes` a Set of them), each under
 * what it means. A subscriber redraws only for the changes it shows. (What each means is a comment, not a string:
 * the page ships only the names.)
 */
export const CHANGES = Object.freeze({
  /**
   * a whole new scene is on the page (an example, a link, saved work, setScene, the preview, a typed sentence):
   * editors put the whole draft back on screen
   */
  scene: true,
  /** tokens, features, heads or dims were added or removed: grids rebuild */
  shape: true,
  /** a token, feature or dim was renamed */
  labels: true,
  /** a number cell changed */
  values: true,
  /** the mask, the scaling, the shift or the positions changed */
  mode: true,
  /** a new good result arrived (or the learner's own function drew one) */
  result: true,
  /** the module's error for the draft changed */
  error: true,
  /** the focused token changed */
  focus: true,
  /** the heatmap cell under the pointer changed */
  hover: true,
  /** the head being edited changed */
  head: true,
  /** Python's boot progressed (loading/python-boot.js) */
  boot: true,
  /** the list of examples changed: their titles (the first view's, from the preview), then the whole list */
  presets: true,
  /** which example is on show changed, or whether the learner has edited it (the picker offers to put it back) */
  example: true,
  /** a message about the learner's work appeared or went (page/controller.js) */
  notice: true,
  /** whether the edits are saved in this browser changed (sharing/saved-work.js) */
  saved: true,
  /** which panels show or are open, or which tab is chosen, changed */
  view: true,
  /** drawing the heatmap with the learner's own function started, stopped or said something (learner-drawing.js) */
  learner: true,
  /** the page should take the learner to a place (page/playground.js scrolls there) */
  reveal: true,
  /** the trained model's panel changed (panels/model.js) */
  model: true,
  /** a training run progressed (panels/model.js) */
  training: true,
  /** “Test a claim” changed (panels/claims.js) */
  claim: true,
  /** an experiment on the scene started, ended or was cleared (panels/experiments.js) */
  experiments: true,
  /** an exercise's checks ran (panels/exercise-work.js) */
  exercises: true,
  /** the lesson being followed moved on, or an answer was judged (lessons/lessons.js) */
  lesson: true,
  /** a SCORM launch found its course platform recording the learner, or found none (lms/tracking.js) */
  course: true,
});

/** The boot state before Python has said anything (python-boot.js). */
export const BOOTING = Object.freeze({ stage: "downloading", detail: "", live: false, failed: false, message: "" });

/**
 * The trained model's panel (panels/model.js), before the learner opens it.
 * @typedef {object} ModelState
 * @property {boolean} open the learner opened the panel (its model is loaded)
 * @property {"shipped"|"trained"|"english"} name which model the panel shows: the story world's (as shipped, or
 *   the learner's own) or the one trained on the Brown corpus
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
 * @property {boolean} hideStart every head's weights drawn without <bos>, each row renormalised
 */
export const MODEL_STATE = Object.freeze({
  open: false,
  name: /** @type {ModelState["name"]} */ ("shipped"),
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
  hideStart: false, // draw every head's weights without <bos>, each row renormalised (a sink hides the rest)
});

/** A training run of the model's panel (panels/model.js): idle, or a run's progress and outcome. */
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

/** "Test a claim" (panels/claims.js), before a claim is chosen. */
export const CLAIM_STATE = Object.freeze({
  claims: null, // the claims (model_claims), once asked for
  id: null, // the claim chosen (in the picker, by a place's link or a link), being or last tested
  chosenSteps: null, // the steps chosen for it, when not the claim's own (a link and saved work keep them)
  chosenSeed: null, // the seed chosen for it, likewise
  status: "idle", // "starting" | "training" | "done" | "stopped" | "failed"
  detail: "",
  claim: null, // the claim tested (model_claims' entry)
  seed: null, // the seed its pair trained from
  step: 0,
  steps: 0,
  losses: { with: [], without: [] },
  seconds: 0,
  metrics: null, // {with, without}: repeated-part accuracy and loss, as the claim measures them
  verdict: null, // {with_accuracy, without_accuracy, shown, sentence, shown_gap}
  heads: null, // {with, without}: each model's model_info and its heads' weights on `words`
  message: "",
});

/**
 * The experiments on the learner's scene (panels/experiments.js): nothing measured. Each outcome is null,
 * {busy: true}, {problem}, or what was measured (see experiments.js).
 */
export const NO_EXPERIMENTS = Object.freeze({ shuffle: null, knockOut: null });

/**
 * The slices the scene session owns (state/session.js): the scene being edited and everything derived from it.
 * @typedef {object} SceneSlices
 * @property {object|null} draft       the scene as typed (scene/draft.js); null until the first scene arrives.
 *   Never changed in place: every edit makes a new draft, so a view may keep the one it drew
 * @property {number} sceneCount       counts the whole new scenes put on the page (an edit keeps it): what saving
 *   and "the same scene" go by
 * @property {object|null} result      the last good result, exactly as compute() returned it
 * @property {boolean} resultIsPreview true while `result` is the shipped preview, not a live computation
 * @property {object|null} error       the module's error for the current draft (scene/errors.js errorDetail)
 * @property {number|null} focusToken  the token whose row is focused (its "where it pays attention" bars show)
 * @property {{row: number, column: number}|null} hover the heatmap cell under the pointer
 * @property {number} activeHead       the head whose weights the editors show
 * @property {string|null} presetId    the example the draft started from (null for a scene of one's own)
 * @property {boolean} edited          the learner has changed the draft since it was loaded
 * @property {string|null} savedAs     the id the scene is saved under, when it is saved work brought back
 *   (sharing/saved-work.js); null for a scene that arrived, which saving names itself
 */
const SCENE_STATE = Object.freeze({
  draft: null,
  sceneCount: 0,
  result: null,
  resultIsPreview: false,
  error: null,
  focusToken: null,
  hover: null,
  activeHead: 0,
  presetId: null,
  edited: false,
  savedAs: null,
});

/** The names of the slices only the scene session writes. */
export const SCENE_SLICES = Object.freeze(Object.keys(SCENE_STATE));

/**
 * The state's shape, as initialState gives it: what a view or a controller reads from the store.
 * @typedef {ReturnType<typeof initialState>} PlaygroundState
 */

/**
 * Every slice of the playground's state and its initial value. Besides the scene's:
 *   boot            Python's boot as the page shows it (loading/python-boot.js)
 *   presets         the examples [{id, title, description}], null until listed (page/controller.js)
 *   view            which panels show, which are open, which tabs are chosen (layout/panels.js)
 *   reveal          the place to take the learner to, {place, count}: "playground", "top", "model-head", "claim",
 *                   "mask-switch" or a panel name; `count` tells one request from the next (page/controller.js)
 *   notice          {text, tone, action: {label, run}|null} or null (page/controller.js)
 *   saveStatus      {saved, problem, kept, codeUnsaved, keptBy} (sharing/saved-work.js); keptBy "browser", or
 *                   "course" in an LMS
 *   learnerDrawing  {drawing, message} (panels/learner-drawing.js)
 *   model, training, claim, experiments   see MODEL_STATE, TRAINING_STATE, CLAIM_STATE, NO_EXPERIMENTS
 *   exercises       each exercise's last run of its checks, by the exercise's id (panels/exercise-work.js):
 *                   {exercise, passed, checks: [{name, passed, message}], attempts}; attempts counts the runs
 *   lesson          the lesson being followed (lessons/lessons.js), or null:
 *                   {id, src (a course's own lesson file's address, or null), title, source, steps: [{id, title, kind}],
 *                    step (the index of the step on show),
 *                    done: [step ids], answers: {[step id]: {kind, answer, expected, correct, score, feedback,
 *                    attempts, first: {correct, score}}}, status: "loading" | "ready" | "judging" | "failed",
 *                    message}; `first` is the first answer's verdict (what a course's score counts)
 *   lessonFile      a course's own lesson file being loaded, or the mistakes that keep it from opening
 *                   (lessons/lessons.js), or null: {name, status: "loading" | "problems" | "failed", problems:
 *                   [{line, step, step_id, field, message, text}], message}; the player shows it in place of a step
 *   course          in a SCORM package's launch, {recorded, version}: whether the course platform records the
 *                   learner (lms/tracking.js); null otherwise
 */
export function initialState() {
  return {
    ...SCENE_STATE,
    boot: { ...BOOTING },
    presets: null,
    view: { ...DEFAULT_VIEW, panels: [...DEFAULT_VIEW.panels] },
    reveal: null,
    notice: null,
    saveStatus: { saved: false, problem: null, kept: false, codeUnsaved: false, keptBy: "browser" },
    learnerDrawing: { drawing: false, message: "" },
    model: { ...MODEL_STATE },
    training: { ...TRAINING_STATE },
    claim: { ...CLAIM_STATE },
    experiments: NO_EXPERIMENTS,
    exercises: {},
    lesson: null,
    lessonFile: null,
    course: null,
  };
}
