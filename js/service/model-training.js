/**
 * Training the model in the learner's browser, in a Python worker of its own, so the page stays live.
 *
 * The worker is started the first time a learner trains: the page's runtime and module, booted the same way
 * (NumPy is all training needs: the gradient is written out, model/gradients.py). A run is asked for in short
 * batches of steps (`model_train_steps` with a time limit), so between two batches the page hears how far it
 * got (the losses, the heads' weights on the panel's sentence) and a Stop takes effect at once: the next
 * batch is simply not asked for. The model as trained so far stays in that worker, where the panel asks it
 * ("trained" in model/requests.py).
 *
 * It never touches the DOM.
 */

import { createClient as createDefaultClient } from "../runtime/client.js";
import { REQUEST_KINDS } from "../../generated/module-facts.js";

/**
 * The page's worker script, with a query that says what this one is for. The worker reads nothing from it; it
 * makes the URL the training worker's own, so that it shows as such in a browser's list of workers and, were
 * it ever started as a SharedWorker (one instance per script URL and name, runtime/shared-ports.js), it would be a
 * separate instance and never the page's Python. Resolved against the page (at the site's root), not this
 * module, which dist/ bundles elsewhere.
 */
const TRAINING_WORKER_URL = new URL("js/runtime/worker.js?for=training", document.baseURI);
/**
 * A second training worker, for a claim's test: the model without the design choice trains there while the
 * model with it trains in the first, so on two cores the pair takes about the time of one model.
 */
const PAIR_WORKER_URL = new URL("js/runtime/worker.js?for=training-pair", document.baseURI);
/** How long one batch of steps may take before the worker reports back (seconds of training). */
const BATCH_SECONDS = 0.25;
/** The two models of a claim's test (model/requests.py: CLAIM_SIDES). */
const SIDES = ["with", "without"];

/** Whether this browser has the cores to train a claim's two models at once (else one worker takes turns). */
function hasCoresForTwo() {
  return (globalThis.navigator?.hardwareConcurrency ?? 1) >= 2;
}

/**
 * @typedef {object} TrainingProgress
 * @property {"starting"|"training"} phase "starting": the training worker is booting (`detail` says what it
 *   is doing); "training": steps are being taken
 * @property {string} [detail]
 * @property {number} [step] steps taken so far
 * @property {number} [steps] steps the run will take in all
 * @property {number[]} [losses] the losses of the steps taken since the last report
 * @property {number} [seconds] time spent training so far
 * @property {LossDrop|null} [loss_drop] the sudden drop in the whole curve so far (model/loss_drop.py), or null
 * @property {number[][][][]} [weights] every head's weights on the sentence, now: [layer][head] (n × n)
 */

/**
 * @typedef {object} LossDrop where the loss fell suddenly (steps count from 1)
 * @property {number} start the fall's first step
 * @property {number} end the fall's last step
 * @property {number} before the mean loss over the `window` steps before `start`
 * @property {number} after the mean loss over the `window` steps after `end`
 * @property {number} window steps per mean
 */

/**
 * @typedef {object} TrainingOutcome
 * @property {"done"|"stopped"} status "stopped": a Stop (or a newer run) ended it early
 * @property {object} config the run's whole config (TrainConfig)
 * @property {number} step
 * @property {number[]} losses every step's loss
 * @property {number} seconds
 * @property {LossDrop|null} drop the sudden drop in the run's loss, or null
 */

/**
 * @typedef {object} ClaimProgress
 * @property {"starting"|"training"} phase as TrainingProgress
 * @property {number} [step] steps each model has taken
 * @property {number} [steps] steps each will take
 * @property {{with: number[], without: number[]}} [losses] each model's losses since the last report (one of
 *   them may be empty: side by side, each worker reports its own model)
 * @property {number} [seconds] the pair's training time so far: both models' added when one worker takes turns,
 *   the longer of the two when they train side by side
 */

/**
 * @typedef {object} ClaimOutcome
 * @property {"done"|"stopped"} status
 * @property {object} claim the claim (model/claims.py: id, title, statement, labels, settings)
 * @property {{with: object, without: object}} configs the two runs' whole configs
 * @property {number} step
 * @property {{with: number[], without: number[]}} losses every step's loss of each model
 * @property {number} seconds
 * @property {{with: object, without: object}|null} metrics each model's repeated-part accuracy and loss, as the
 *   claim measures them (null when stopped)
 * @property {object|null} verdict {claim, with_accuracy, without_accuracy, shown, sentence, shown_gap}
 */

/** A worker (its client) that `start` starts the first time it is asked for; the same one every time after. */
function startedOnce(start) {
  let client = null;
  return () => (client ??= start());
}

/**
 * Ask for batches of steps (`askBatch`) until a batch's report says the run is done, or the run is stopped; each
 * report is handed to `onReport`. Resolves with the last report.
 */
async function inBatches(run, askBatch, onReport) {
  let report;
  do {
    report = await askBatch();
    onReport(report);
  } while (!report.done && !run.stopped);
  return report;
}

/**
 * Train a claim's two models until they are done or `run` is stopped: every placement's worker asked for
 * batches at once, the pair's progress (`report`) after each. Resolves with every worker's last report, each
 * model's losses, and the pair's step (the fewer either model has taken), steps and time.
 * @param {Array<{training: object}>} placements the workers the two models train in (one, for both in turns)
 * @param {number} steps the steps each model takes in all
 */
async function trainPair(placements, steps, run, report) {
  const losses = { with: [], without: [] };
  const latest = placements.map(() => null); // each worker's last report
  const together = () => {
    const reports = latest.map((batch) => batch ?? { step: 0, seconds: 0 });
    return { step: Math.min(...reports.map((batch) => batch.step)), steps, seconds: Math.max(...reports.map((batch) => batch.seconds)) };
  };
  const reports = await Promise.all(placements.map(({ training }, index) => inBatches(
    run,
    () => training.request(REQUEST_KINDS.MODEL_CLAIM_STEPS, { steps, max_seconds: BATCH_SECONDS }),
    (batch) => {
      latest[index] = batch;
      const now = { with: batch.losses.with ?? [], without: batch.losses.without ?? [] };
      losses.with.push(...now.with);
      losses.without.push(...now.without);
      report({ phase: "training", ...together(), losses: now });
    },
  )));
  return { reports, losses, ...together() };
}

/**
 * How a claim's test ended, from every worker's last report: whether both models are done, and if so their
 * measurements and the verdict (written by a worker that trained both, else asked for with `askVerdict`).
 */
async function claimResults(reports, askVerdict) {
  const done = reports.every((report) => report.done);
  if (!done) return { done, metrics: null, verdict: null };
  const metrics = Object.assign({}, ...reports.map((report) => report.metrics));
  const verdict = reports.find((report) => report.verdict)?.verdict ?? await askVerdict(metrics);
  return { done, metrics, verdict };
}

/**
 * @param {object} [options]
 * @param {typeof createDefaultClient} [options.createClient] for tests
 * @param {boolean} [options.pairSideBySide] train a claim's two models in two workers at once (by default where
 *   the browser reports two cores or more)
 */
export function createModelTrainer({ createClient = createDefaultClient, pairSideBySide = hasCoresForTwo() } = {}) {
  const worker = startedOnce(() => createClient({ workerUrl: TRAINING_WORKER_URL }));
  const pairWorker = startedOnce(() => createClient({ workerUrl: PAIR_WORKER_URL }));
  /** The run in progress: {stopped}; a newer run or Stop sets `stopped`. */
  let current = null;
  /** Where each model of the last claim's test lives ({with, without}: a client), for the panel's questions. */
  let claimModels = null;

  /**
   * Make a new run the one in progress (ending any other after its batch), and wait for its workers to be
   * ready, passing their start-up progress on as phase "starting".
   */
  async function startRun(onProgress, workers = [worker()]) {
    if (current) current.stopped = true;
    const run = { stopped: false };
    current = run;
    const following = workers.map((training) => training.onProgress(({ detail }) => onProgress({ phase: "starting", detail })));
    try {
      await Promise.all(workers.map((training) => training.ready));
    } finally {
      following.forEach((stopFollowing) => stopFollowing());
    }
    return { run, training: workers[0] };
  }

  /**
   * Train a model from scratch. Resolves with a TrainingOutcome; rejects with a RequestError for settings the
   * module refuses (its message names the setting) or a worker that could not start.
   * @param {{config: object, words?: string, onProgress?: (progress: TrainingProgress) => void}} run
   */
  async function train({ config, words = "", onProgress = () => {} }) {
    const { run, training } = await startRun(onProgress);
    try {
      const { config: whole } = await training.request(REQUEST_KINDS.MODEL_TRAIN_START, { config });
      const losses = [];
      const report = await inBatches(
        run,
        () => training.request(REQUEST_KINDS.MODEL_TRAIN_STEPS, { steps: whole.steps, max_seconds: BATCH_SECONDS, ...(words ? { words } : {}) }),
        (batch) => {
          losses.push(...batch.losses);
          if (current === run) onProgress({ phase: "training", ...batch });
        },
      );
      return { status: report.done ? "done" : "stopped", config: whole, step: report.step, losses, seconds: report.seconds,
        drop: report.loss_drop ?? null };
    } finally {
      if (current === run) current = null;
    }
  }

  /**
   * Test a claim (model/claims.py): two models trained from one seed, one with the design choice and one
   * without: side by side in two workers (`pairSideBySide`), or in one worker, a step of each in turn. The runs
   * are the same either way. Resolves with a ClaimOutcome; a Stop (or a newer run) ends it after the batch of
   * steps each worker is taking.
   * @param {{claim: string, seed?: number, steps?: number, onProgress?: (progress: ClaimProgress) => void}} run
   */
  async function compare({ claim, seed, steps, onProgress = () => {} }) {
    // Each placement: a worker and the side it trains (null: both, in turns).
    const placements = pairSideBySide
      ? [{ training: worker(), side: "with" }, { training: pairWorker(), side: "without" }]
      : [{ training: worker(), side: null }];
    const { run } = await startRun(onProgress, placements.map(({ training }) => training));
    try {
      const asked = { claim, ...(seed === undefined ? {} : { seed }), ...(steps === undefined ? {} : { steps }) };
      const starts = await Promise.all(placements.map(({ training, side }) =>
        training.request(REQUEST_KINDS.MODEL_CLAIM_START, side ? { ...asked, side } : asked)));
      const { claim: started, configs } = starts[0];
      claimModels = Object.fromEntries(SIDES.map((side) =>
        [side, (placements.find((placement) => placement.side === side) ?? placements[0]).training]));
      const pair = await trainPair(placements, configs.with.steps, run, (progress) => {
        if (current === run) onProgress(progress);
      });
      const { done, metrics, verdict } = await claimResults(pair.reports,
        (measured) => worker().request(REQUEST_KINDS.MODEL_CLAIM_VERDICT, { claim, metrics: measured }));
      const { step, steps: stepsEach, seconds, losses } = pair;
      return { status: done ? "done" : "stopped", claim: started, configs, step, steps: stepsEach, seconds, losses, metrics, verdict };
    } finally {
      if (current === run) current = null;
    }
  }

  return {
    train,
    compare,
    /**
     * Start the workers a claim's test trains in, without training: a learner who chose a claim reads its
     * statement first, and the pair then starts without waiting for a second Python to boot.
     */
    prepareCompare() {
      worker();
      if (pairSideBySide) pairWorker();
    },
    /** End the run in progress after the batch of steps it is taking (a fraction of a second). */
    stop() {
      if (current) current.stopped = true;
    },
    get training() {
      return current !== null;
    },
    /**
     * Ask the training worker about the model it trained ("trained"), or a claim's test about one of its
     * models ("claim-with", "claim-without": asked where that model trained).
     */
    request(kind, payload) {
      const side = typeof payload?.model === "string" && payload.model.startsWith("claim-") ? payload.model.slice(6) : null;
      return (claimModels?.[side] ?? worker()).request(kind, payload);
    },
  };
}
