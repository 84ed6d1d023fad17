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
 * it ever started as a SharedWorker (one instance per script URL and name, shared-ports.js), it would be a
 * separate instance and never the page's Python. Resolved against the page (at the site's root), not this
 * module, which dist/ bundles elsewhere.
 */
const TRAINING_WORKER_URL = new URL("js/runtime/worker.js?for=training", document.baseURI);
/** How long one batch of steps may take before the worker reports back (seconds of training). */
const BATCH_SECONDS = 0.25;

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
 * @property {{with: number[], without: number[]}} [losses] each model's losses since the last report
 * @property {number} [seconds] both models' training time so far
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

/**
 * @param {object} [options]
 * @param {typeof createDefaultClient} [options.createClient] for tests
 */
export function createModelTrainer({ createClient = createDefaultClient } = {}) {
  let client = null;
  /** The run in progress: {stopped}; a newer run or Stop sets `stopped`. */
  let current = null;

  function worker() {
    client ??= createClient({ workerUrl: TRAINING_WORKER_URL });
    return client;
  }

  /**
   * Make a new run the one in progress (ending any other after its batch), and wait for the worker to be
   * ready, passing its start-up progress on as phase "starting".
   */
  async function startRun(onProgress) {
    if (current) current.stopped = true;
    const run = { stopped: false };
    current = run;
    const training = worker();
    const following = training.onProgress(({ detail }) => onProgress({ phase: "starting", detail }));
    try {
      await training.ready;
    } finally {
      following();
    }
    return { run, training };
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
      let report;
      do {
        report = await training.request(REQUEST_KINDS.MODEL_TRAIN_STEPS, {
          steps: whole.steps, max_seconds: BATCH_SECONDS, ...(words ? { words } : {}),
        });
        losses.push(...report.losses);
        if (current === run) onProgress({ phase: "training", ...report });
      } while (!report.done && !run.stopped);
      return { status: report.done ? "done" : "stopped", config: whole, step: report.step, losses, seconds: report.seconds,
        drop: report.loss_drop ?? null };
    } finally {
      if (current === run) current = null;
    }
  }

  /**
   * Test a claim (model/claims.py): two models trained from one seed in this worker, one with the design
   * choice and one without, a step of each in turn. Resolves with a ClaimOutcome; a Stop (or a newer run)
   * ends it after the batch of steps it is taking.
   * @param {{claim: string, seed?: number, steps?: number, onProgress?: (progress: ClaimProgress) => void}} run
   */
  async function compare({ claim, seed, steps, onProgress = () => {} }) {
    const { run, training } = await startRun(onProgress);
    try {
      const started = await training.request(REQUEST_KINDS.MODEL_CLAIM_START, {
        claim, ...(seed === undefined ? {} : { seed }), ...(steps === undefined ? {} : { steps }),
      });
      const losses = { with: [], without: [] };
      let report;
      do {
        report = await training.request(REQUEST_KINDS.MODEL_CLAIM_STEPS, { steps: started.configs.with.steps, max_seconds: BATCH_SECONDS });
        losses.with.push(...report.losses.with);
        losses.without.push(...report.losses.without);
        if (current === run) onProgress({ phase: "training", ...report });
      } while (!report.done && !run.stopped);
      return {
        status: report.done ? "done" : "stopped", claim: started.claim, configs: started.configs, step: report.step,
        losses, seconds: report.seconds, metrics: report.metrics ?? null, verdict: report.verdict ?? null,
      };
    } finally {
      if (current === run) current = null;
    }
  }

  return {
    train,
    compare,
    /** End the run in progress after the batch of steps it is taking (a fraction of a second). */
    stop() {
      if (current) current.stopped = true;
    },
    get training() {
      return current !== null;
    },
    /** Ask the training worker about the model it trained (a request of the "trained" model). */
    request: (kind, payload) => worker().request(kind, payload),
  };
}
