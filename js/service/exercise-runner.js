/**
 * Runs the learner's exercise code in a Python worker of its own, and stops it when it runs away.
 *
 * The learner's code never runs in the worker that draws the heatmap: a `while True: pass` there would
 * freeze the whole page until it was stopped. This worker is started the first time it is needed (when the
 * exercises are opened), from the same worker script and the same Python module as the page's.
 *
 * Stopping runaway code, two ways:
 *   - on a cross-origin isolated page (SharedArrayBuffer available), Python gets an interrupt buffer; Stop or
 *     the time limit writes SIGINT into it, the learner's code raises KeyboardInterrupt, and the module
 *     reports it as an ordinary result. If Python does not answer within a short grace period (stuck in one
 *     long C call), the worker is ended as below.
 *   - otherwise (a page that is not isolated: a static host that sends no isolation headers, a course
 *     platform's frame on the first visit), the worker is ended and a spare one takes over. Booting Python
 *     takes seconds, so spares are booted beforehand: once the first worker is live, three more boot beside it,
 *     one after the other, and wait; after every takeover the next one boots. Three, not one: a learner who
 *     stops, runs a fixed version and stops a runaway again within a few seconds would otherwise find the
 *     one spare still booting (a boot competes with the runaway code for the processor), and wait for it.
 *     With two, the third Stop in a row took the spare booting since the first, which on a busy machine was
 *     not ready after two such rounds (it waited 5 to 7 s; bench/exercise_recovery.py); with three, three
 *     Stops in a row find one ready each, and a fourth finds the one booting since the first, three rounds on.
 *     (The price is three more Pythons' memory, some 50 to 100 MB each, while the exercises are open on such
 *     a page.)
 * Either way the editor and the scene are untouched (they live in the page), and the outcome says what
 * happened and how long Python took to be live again.
 *
 * This module runs the code and stops it; keeping a Python live for it, and the spares, is learner-python.js.
 * It never touches the DOM.
 */

import { createClient as createDefaultClient } from "../runtime/client.js";
import { WORKER_ERROR_TYPES } from "../runtime/protocol.js";
import { createLearnerPython } from "./learner-python.js";

/** How long the learner's code may run before it is stopped. */
const DEFAULT_TIME_LIMIT_MS = 5000;
/**
 * After an interrupt, how long to wait for Python to answer before ending the worker anyway. Python answers an
 * interrupt within milliseconds when it gets the processor; on a 2-core machine busy with everything a first visit
 * compiles, its reply was seen to take over a second, and once over two. A fresh Python takes seconds too, so the
 * wait is generous: only code stuck where Python cannot be interrupted (one long NumPy call) waits it out.
 */
const INTERRUPT_GRACE_MS = 4000;
/** How many spare Pythons wait, booted, where code cannot be interrupted (see the header for why three). */
export const SPARES_WANTED = 3;
/** The value Pyodide's interrupt buffer takes for SIGINT (a KeyboardInterrupt in Python). */
const SIGINT = 2;
/** A reply's error type when Python died under the request (or was ended). */
const { RUNTIME_UNAVAILABLE } = WORKER_ERROR_TYPES;

/**
 * @typedef {object} RunOutcome
 * @property {"done"|"stopped"|"failed"} status "done": Python answered (`result` is the module's reply);
 *   "stopped": the code was stopped (Stop or the time limit) or Python died under it; "failed": the request
 *   itself was refused (`message` says why)
 * @property {any} [result] the module's result, for "done"
 * @property {string} message a sentence for the learner (empty for "done")
 * @property {"interrupt"|"spare"|"restart"|null} [how] how a stopped run was stopped: Python interrupted, a
 *   spare Python that had finished booting took over, or a Python had to boot (the spare was not ready yet)
 * @property {number|null} [recoveryMs] from the stop until Python was live again (a restart), or answered
 *   (an interrupt)
 */

/**
 * @typedef {object} RunStatus
 * @property {boolean} running a run is in progress (from the request until its outcome)
 * @property {number|null} deadline when the run will be stopped (performance.now() time), while it runs
 * @property {boolean} starting Python for the learner's code is still booting
 * @property {"button"|"time"|null} stopping why the run is being stopped, from the moment it was asked
 *   until Python is back (an interrupt answered, or a fresh Python live); null otherwise
 * @property {boolean} spareReady a spare Python has booted and waits to take over from a stopped one
 * @property {number} sparesReady how many spares have booted and wait
 */

/**
 * A run's stop, asked for by Stop or the time limit: the first reason asked for wins; `stopped` settles then,
 * and `reason` and `at` (performance.now() time) say why and when.
 */
function createStop(onStop) {
  let settle;
  const stop = {
    reason: null,
    at: 0,
    stopped: new Promise((resolve) => {
      settle = resolve;
    }),
    stop(reason) {
      if (stop.reason) return;
      stop.reason = reason;
      stop.at = performance.now();
      onStop(reason);
      settle();
    },
  };
  return stop;
}

/**
 * Create the runner.
 * @param {object} [options]
 * @param {number} [options.timeLimitMs] how long one run may take (default DEFAULT_TIME_LIMIT_MS)
 * @param {typeof createDefaultClient} [options.createClient] for tests
 * @returns {{
 *   request: (kind: string, payload: object) => Promise<RunOutcome>,
 *   stop: () => void,
 *   onStatus: (listener: (status: RunStatus) => void) => () => void,
 *   readonly interruptible: boolean,
 * }}
 */
export function createExerciseRunner({ timeLimitMs = DEFAULT_TIME_LIMIT_MS, createClient = createDefaultClient } = {}) {
  const interruptible = typeof SharedArrayBuffer === "function" && globalThis.crossOriginIsolated === true;
  const interruptBuffer = interruptible ? new Int32Array(new SharedArrayBuffer(4)) : null;
  const listeners = new Set();
  /** The run in progress (its stop, createStop); null when idle. */
  let current = null;
  /** Runs go one at a time, in order. @type {Promise<unknown>} */
  let queue = Promise.resolve();
  /** @type {RunStatus} */
  let status = { running: false, deadline: null, starting: false, stopping: null, spareReady: false, sparesReady: 0 };

  function setStatus(update) {
    status = { ...status, ...update };
    for (const listener of listeners) listener(status);
  }

  const python = createLearnerPython({ createClient, interruptBuffer, sparesWanted: SPARES_WANTED, setStatus });

  /**
   * What a reply that came says: the result, the module's refusal, or Python gone (then a fresh one starts).
   * @returns {Promise<RunOutcome>}
   */
  async function outcomeOf(answer) {
    if (!answer.error) return { status: "done", result: answer.result, message: "" };
    if (answer.error.detail?.type !== RUNTIME_UNAVAILABLE) return { status: "failed", message: answer.error.message };
    // Python died under the learner's code (e.g. it ran out of memory): start a fresh one.
    const diedAt = performance.now();
    const recovery = await python.restart();
    return {
      status: "stopped",
      how: recovery.how,
      recoveryMs: recovery.ms === null ? null : Math.round(performance.now() - diedAt),
      message: `Python stopped while running your code (${answer.error.message}), so it was restarted. Your code and the scene are kept.`,
    };
  }

  /**
   * The run was stopped before Python answered: ask Python to stop where it can be interrupted (it answers with
   * an ordinary, interrupted result if it can), else, or if it does not answer in time, a fresh one takes over.
   * @returns {Promise<RunOutcome>}
   */
  async function afterStop(reply, { reason, at }) {
    if (interruptBuffer) {
      Atomics.store(interruptBuffer, 0, SIGINT);
      const grace = new Promise((resolve) => setTimeout(() => resolve(null), INTERRUPT_GRACE_MS));
      const answer = await Promise.race([reply, grace]);
      // Any reply means Python is alive (an interrupt outside the learner's code comes back as an error).
      if (answer && answer.error?.detail?.type !== RUNTIME_UNAVAILABLE) {
        return stoppedOutcome(reason, "interrupt", Math.round(performance.now() - at), answer.result);
      }
      if (answer) return outcomeOf(answer);
    }
    const recovery = await python.restart();
    return stoppedOutcome(reason, recovery.how, recovery.ms === null ? null : Math.round(performance.now() - at));
  }

  /** @returns {Promise<RunOutcome>} */
  async function runOne(kind, payload) {
    const boot = await python.boot();
    if (boot) return { status: "failed", message: boot.failed };
    if (interruptBuffer) Atomics.store(interruptBuffer, 0, 0); // a Stop pressed after the last run ended
    setStatus({ running: true, deadline: performance.now() + timeLimitMs });
    // Said at once: getting Python back can take seconds, and the learner must see the Stop was heard.
    const stop = createStop((reason) => setStatus({ stopping: reason, deadline: null }));
    current = stop;
    const timer = setTimeout(() => current?.stop("time"), timeLimitMs);
    const reply = python.client.request(kind, payload).then(
      (result) => ({ result }),
      (error) => ({ error }),
    );
    try {
      const answer = await Promise.race([reply, stop.stopped.then(() => null)]);
      clearTimeout(timer);
      return await (answer === null ? afterStop(reply, stop) : outcomeOf(answer));
    } finally {
      clearTimeout(timer);
      current = null;
      setStatus({ running: false, deadline: null, stopping: null });
    }
  }

  return {
    get interruptible() {
      return interruptible;
    },
    /** Send one request to the exercise worker, stopping it if it runs past the time limit. */
    request(kind, payload) {
      const run = queue.then(() => runOne(kind, payload));
      queue = run.catch(() => {});
      return run;
    },
    /** Stop the run in progress (the learner pressed Stop). */
    stop() {
      current?.stop("button");
    },
    /** Follow whether a run is in progress and when it will be stopped. Returns an unsubscribe function. */
    onStatus(listener) {
      listeners.add(listener);
      listener(status);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The outcome of a run that was stopped, worded for the learner.
 * @param {"button"|"time"} reason
 * @param {"interrupt"|"spare"|"restart"} how
 * @param {number|null} recoveryMs
 * @param {unknown} [result] the interrupted run's result, if Python gave one
 * @returns {RunOutcome}
 */
function stoppedOutcome(reason, how, recoveryMs, result = null) {
  const why = reason === "time" ? "Your code ran too long, so it was stopped" : "You stopped your code";
  const seconds = recoveryMs === null ? "" : ` (${(recoveryMs / 1000).toFixed(1)} s)`;
  let after = {
    interrupt: `Python interrupted it and is ready again${seconds}.`,
    spare: `A fresh Python took over and is ready${seconds}.`,
    restart: `Python was restarted and is ready again${seconds}.`,
  }[how];
  if (how !== "interrupt" && recoveryMs === null) after = "Python could not be started again; reload the page to try once more.";
  return {
    status: "stopped",
    how,
    recoveryMs,
    result,
    message: `${why}. ${after} Your code and the scene are kept. Look for a loop that never ends or an array too big to hold.`,
  };
}
