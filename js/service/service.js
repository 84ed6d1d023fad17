/**
 * The page's one way to Python: a call per thing the page asks, over two workers.
 *
 *   the page's worker       boots at once; computes scenes and runs the experiments. Embedded, it is
 *                           shared by every frame of the course page (`sharePageWorker`): one Python
 *   the learner's worker    started the first time the learner's own code is to run (exercise-runner.js),
 *                           so a `while True` there never freezes the heatmap; stopped and recovered
 *                           without touching the page
 *   the training worker     started the first time the learner trains the model (model-training.js), so
 *                           the page stays live while it trains; the model it trains lives there
 *
 * The trained model is asked by name: "shipped" (the checkpoint, in the page's worker), "trained" (the
 * learner's run, in the training worker) or "english" (the model trained on the Brown corpus, in the page's worker;
 * its part of the module is fetched on its first request).
 *
 * Every call settles. Page calls resolve with the module's result or reject with a RequestError (its
 * `.detail` the module's error: a SceneError names field, row and column). Calls that run the learner's code
 * resolve with a RunOutcome (exercise-runner.js): done, stopped, or failed, and a sentence to show.
 *
 * Request kinds are named here and nowhere else in the page (REQUEST_KINDS: the build writes them into
 * generated/module-facts.js from py/attention_playground/kinds.py).
 */

import { createClient as createDefaultClient } from "../runtime/client.js";
import { REQUEST_KINDS } from "../../generated/module-facts.js";
import { WORKER_ERROR_TYPES } from "../runtime/protocol.js";

/**
 * How deeply a payload may nest before Python would choke on it (runtime/nesting.js): the client refuses deeper
 * ones, and the page's API (page/api.js) checks a course page's scene with the same rule first, to say so plainly.
 */
export { TOO_DEEP_MESSAGE, nestedTooDeeply } from "../runtime/nesting.js";

/**
 * True when a request failed because Python stopped or never started (the worker's RuntimeUnavailable), not
 * because of what was asked: the page then starts a new worker (state/session.js hands it to python-boot.js).
 * @param {any} error what a page call rejected with
 */
export function isRuntimeLost(error) {
  return error?.detail?.type === WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE;
}

/** The English model's name (py/attention_playground/english/): any text, 4,096 tokens. */
export const ENGLISH = "english";

/** The name under which embedded pages share the page's worker (client.js: `shareAs`). */
const PAGE_WORKER_NAME = "attention-playground-python";

/**
 * Start the page's worker and return the service.
 * @param {object} [options]
 * @param {typeof createDefaultClient} [options.createClient] for tests
 * @param {() => Promise<{createExerciseRunner: Function}>} [options.loadRunner] loads the learner's worker's
 *   module (by default on first use, so it is not part of the page's first load)
 * @param {() => Promise<{createModelTrainer: Function}>} [options.loadTrainer] loads the training worker's module
 *   (the same way)
 * @param {boolean} [options.sharePageWorker] share the page's worker with the site's other pages that ask
 *   to (a SharedWorker; where the browser has none, a worker of its own)
 */
export function createPythonService({
  createClient = createDefaultClient,
  loadRunner = () => import("./exercise-runner.js"),
  loadTrainer = () => import("./model-training.js"),
  sharePageWorker = false,
} = {}) {
  const page = createClient(sharePageWorker ? { shareAs: PAGE_WORKER_NAME } : {});
  let runner = null;
  let trainer = null;

  /** The training worker's runner, its module loaded on first use. */
  function training() {
    trainer ??= loadTrainer().then(({ createModelTrainer }) => createModelTrainer({ createClient }));
    return trainer;
  }

  /** A request about model `name`: the shipped model in the page's worker, the trained one where it trains. */
  async function askModel(kind, payload) {
    if (payload.model === "trained" || payload.model?.startsWith?.("claim-")) return (await training()).request(kind, payload);
    return page.request(kind, payload);
  }

  /** The learner's worker, started on first use. */
  function learner() {
    runner ??= loadRunner().then(({ createExerciseRunner }) => createExerciseRunner());
    return runner;
  }

  return {
    /** Resolves when the page's Python is live (a new promise after restart()). */
    get ready() {
      return page.ready;
    },
    /** Follow the boot's stages: callback({stage, detail}); returns a function that unsubscribes. */
    onProgress: (callback) => page.onProgress(callback),
    /** A fresh page worker (the old one died, or the learner asked to retry a failed boot). */
    restart: () => page.restart(),

    /**
     * compute(scene): the result of every head, or a RequestError with the module's message. The client's own call
     * (a keystroke's request goes from the scene session straight to the client).
     */
    compute: page.sceneRequest(REQUEST_KINDS.COMPUTE),
    /** Part 7: the average top weight with and without ÷√d, for lengths `ds` and `nKeys` keys. */
    scalingExperiment: ({ ds, nKeys }) => page.request(REQUEST_KINDS.SCALING_EXPERIMENT, { ds, n_keys: nKeys }),
    /** Part 8 on `scene`: the scene with its words in `order`, and whether each output just moved with its word. */
    shuffleScene: ({ scene, order }) => page.requestScene(REQUEST_KINDS.SHUFFLE_SCENE, scene, { order }),
    /** `scene` with word `column` knocked out: each word's output change, beside head `head`'s weight on it. */
    knockOutWord: ({ scene, column, head }) => page.requestScene(REQUEST_KINDS.KNOCK_OUT_WORD, scene, { column, head }),

    /** A lesson's question as the learner meets it on `scene`: its places (row, columns), a choice's options. */
    lessonAsk: ({ question, scene }) => page.request(REQUEST_KINDS.LESSON_ASK, { question, ...(scene ? { scene } : {}) }),
    /**
     * The learner's `answer` to a lesson's question, judged against the truth computed now on `scene`:
     * {correct, score, expected, feedback}; `evidence` is a claim's test's outcome, for a claim's question.
     */
    lessonAnswer: ({ question, scene, answer, evidence }) =>
      page.request(REQUEST_KINDS.LESSON_ANSWER, { question, answer, ...(scene ? { scene } : {}), ...(evidence ? { evidence } : {}) }),
    /** A build step's target checked on the learner's `scene` (`start`: the step's scene as it opened). */
    lessonCheck: ({ question, scene, start }) => page.request(REQUEST_KINDS.LESSON_CHECK, { question, scene, start }),
    /**
     * A lesson file's Markdown checked and compiled (lessons/authoring.py): {lesson, entry}, {problems}, or {needs}
     * (the scene files it names; asked again with `files`, {path: text or {error}}).
     */
    lessonCompile: ({ markdown, name, files }) => page.request(REQUEST_KINDS.LESSON_COMPILE, { markdown, name, files }),

    /** The exercises (text, starter code, hints, solution, checks), as a RunOutcome. */
    exercises: async () => (await learner()).request(REQUEST_KINDS.EXERCISES, {}),
    /** Run the learner's code against the exercise's checks (on `scene`, if given), as a RunOutcome. */
    runExercise: async ({ exerciseId, code, scene = null }) =>
      (await learner()).request(REQUEST_KINDS.RUN_EXERCISE, { exercise_id: exerciseId, code, ...(scene ? { scene } : {}) }),
    /** The scene computed with the learner's own function, as a RunOutcome whose result is {result, error}. */
    learnerCompute: async ({ exerciseId, code, scene }) =>
      (await learner()).request(REQUEST_KINDS.LEARNER_COMPUTE, { exercise_id: exerciseId, code, scene }),
    /** Stop the learner's code that is running, if any. */
    stopLearnerCode() {
      runner?.then((started) => started.stop());
    },
    /** Follow the learner's runs: listener({running, deadline, starting, stopping}); starts their worker. */
    async onLearnerStatus(listener) {
      return (await learner()).onStatus(listener);
    },

    /** The trained model `model` ("shipped", "trained", a claim's "claim-with"/"claim-without", or "english", the
     * model trained on the Brown corpus): config, heads and roles, examples (and the story-world models' vocabulary);
     * `headsOnly`, for a claim's model: only what its head cards show. */
    modelInfo: ({ model = "shipped", headsOnly = false } = {}) => model === ENGLISH
      ? page.request(REQUEST_KINDS.ENGLISH_INFO, {})
      : askModel(REQUEST_KINDS.MODEL_INFO, headsOnly ? { model, heads_only: true } : { model }),
    /**
     * The model on `words`, with heads knocked out and one head edited: weights, predictions, effects, metrics. The
     * English model reads any text, gives its knock-out effects at `focus` alone (the last token by default), and
     * has no evaluation set's metrics and no edited head; with `focusOnly`, its next-token guesses too are given at
     * the focus alone (what the panel shows, for a third of the time).
     */
    modelRun: ({ model = "shipped", words, knockedOut = [], editedHead = null, metrics = true, focus = null, focusOnly = false }) => model === ENGLISH
      ? page.request(REQUEST_KINDS.ENGLISH_RUN, { words, knocked_out: knockedOut, ...(focus === null ? {} : { focus }), ...(focusOnly ? { focus_only: true } : {}) })
      : askModel(REQUEST_KINDS.MODEL_RUN, { model, words, knocked_out: knockedOut, metrics, ...(editedHead ? { edited_head: editedHead } : {}) }),
    /** One head of the model on `words` as a scene for the editors: {scene, source}. */
    modelHeadScene: ({ model = "shipped", words, layer, head, knockedOut = [] }) =>
      askModel(REQUEST_KINDS.MODEL_HEAD_SCENE, { model, words, layer, head, knocked_out: knockedOut }),
    /** Train a model from scratch in the training worker; see model-training.js for progress and outcome. */
    trainModel: async (run) => (await training()).train(run),
    /** The tutorials' claims a pair of training runs can test (model/claims.py). */
    claims: () => page.request(REQUEST_KINDS.MODEL_CLAIMS, {}),
    /** Test a claim: two models trained side by side in the training worker; see model-training.js. */
    compareClaim: async (run) => (await training()).compare(run),
    /** Start the workers a claim's test trains in (once a learner chose a claim), so its pair starts at once. */
    async prepareClaimTest() {
      (await training()).prepareCompare();
    },
    /** End the training run in progress, keeping the model as far as it got. */
    stopTraining() {
      trainer?.then((started) => started.stop());
    },
  };
}
