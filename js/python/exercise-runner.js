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
 * It never touches the DOM.
 */

import { createClient as createDefaultClient } from "../runtime/client.js";
import { WORKER_ERROR_TYPES } from "../runtime/protocol.js";
import { REQUEST_KINDS } from "../../generated/module-facts.js";

/** How long the learner's code may run before it is stopped. */
export const DEFAULT_TIME_LIMIT_MS = 5000;
/** After an interrupt, how long to wait for Python to answer before ending the worker anyway. */
const INTERRUPT_GRACE_MS = 1000;
/** How many spare Pythons wait, booted, where code cannot be interrupted (see the header for why three). */
export const SPARES_WANTED = 3;
/** The request a spare answers once booted, to import what the learner's runs need (the exercises' part). */
const WARM_UP_KIND = REQUEST_KINDS.EXERCISES;
/** The value Pyodide's interrupt buffer takes for SIGINT (a KeyboardInterrupt in Python). */
const SIGINT = 2;

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
  let client = null;
  /**
   * Workers booted beforehand where code cannot be interrupted, to take over from a stopped one, oldest first:
   * {client, booted} (booted: it answered `ready`).
   * @type {Array<{client: object, booted: boolean}>}
   */
  const spares = [];
  /** The run in progress: {stop(reason)}; null when idle. */
  let current = null;
  /** Runs go one at a time, in order. */
  let queue = Promise.resolve();
  /** @type {RunStatus} */
  let status = { running: false, deadline: null, starting: false, stopping: null, spareReady: false, sparesReady: 0 };
  /** True once the current worker has answered `ready`. */
  let live = false;

  function setStatus(update) {
    status = { ...status, ...update };
    for (const listener of listeners) listener(status);
  }

  const clientOptions = interruptBuffer ? { interruptBuffer } : {};

  function ensureClient() {
    if (!client) client = createClient(clientOptions);
    return client;
  }

  function showSpares() {
    const ready = spares.filter((entry) => entry.booted).length;
    setStatus({ spareReady: ready > 0, sparesReady: ready });
  }

  /**
   * Boot the next spare, if fewer than SPARES_WANTED wait and none is booting now: one boot at a time, so that a
   * boot never competes with another for the processor. Each spare that boots starts the next.
   */
  function prepareSpare() {
    if (interruptible || spares.length >= SPARES_WANTED || spares.some((entry) => !entry.booted)) return;
    const entry = { client: createClient(clientOptions), booted: false };
    spares.push(entry);
    // Booted means warm: the exercises' part unpacked and imported (the `exercises` request needs it), so the run
    // after a takeover is as quick as in a Python that has run code before. Cold, that first run took 1 to 1.5 s
    // of every Stop's wait on a busy machine (bench/exercise_recovery.py).
    entry.client.ready.then(() => entry.client.request(WARM_UP_KIND, {}).catch(() => {})).then(
      () => {
        if (!spares.includes(entry)) return; // it took over while booting
        entry.booted = true;
        showSpares();
        prepareSpare();
      },
      () => {}, // a spare that fails is not booted: the one that takes it over tries once more (see restart)
    );
  }

  /** The worker that takes over: a booted spare if there is one, else the one booting, else a fresh one. */
  function takeSpare() {
    const booted = spares.findIndex((entry) => entry.booted);
    const [taken] = spares.length ? spares.splice(Math.max(booted, 0), 1) : [{ client: createClient(clientOptions), booted: false }];
    showSpares();
    return taken;
  }

  /**
   * End the worker and let a spare take over. Resolves with `how` ("spare" if that spare had booted already,
   * "restart" if a boot had to be waited for) and the milliseconds until Python is live (null if it never is).
   */
  async function restart() {
    const started = performance.now();
    live = false;
    const taken = takeSpare();
    const how = taken.booted ? "spare" : "restart";
    client.close();
    client = taken.client;
    try {
      await client.ready;
    } catch {
      try {
        client.restart(); // the spare failed to boot: one fresh try
        await client.ready;
      } catch {
        return { how: "restart", ms: null };
      }
    }
    live = true;
    keepSpareReady();
    return { how, ms: Math.round(performance.now() - started) };
  }

  /** Where code cannot be interrupted, keep spares booting once the worker in use is live. */
  function keepSpareReady() {
    prepareSpare();
  }

  async function runOne(kind, payload) {
    const python = ensureClient();
    if (!live) setStatus({ starting: true });
    try {
      await python.ready;
      if (!live) keepSpareReady();
      live = true;
    } catch (error) {
      // The runtime could not start: try once more with a fresh worker.
      const recoveryMs = await restart();
      if (recoveryMs === null) {
        setStatus({ starting: false });
        return { status: "failed", message: `Python could not start for your code: ${error.message}` };
      }
    }
    setStatus({ starting: false });
    if (interruptBuffer) Atomics.store(interruptBuffer, 0, 0); // a Stop pressed after the last run ended
    const deadline = performance.now() + timeLimitMs;
    setStatus({ running: true, deadline });

    let stopReason = null;
    let stoppedAt = 0;
    let settleStop;
    const stopped = new Promise((resolve) => {
      settleStop = resolve;
    });
    current = {
      stop(reason) {
        if (stopReason) return;
        stopReason = reason;
        stoppedAt = performance.now();
        // Said at once: getting Python back can take seconds, and the learner must see the Stop was heard.
        setStatus({ stopping: reason, deadline: null });
        settleStop();
      },
    };
    const timer = setTimeout(() => current?.stop("time"), timeLimitMs);
    const reply = client.request(kind, payload).then(
      (result) => ({ result }),
      (error) => ({ error }),
    );
    try {
      let answer = await Promise.race([reply, stopped.then(() => null)]);
      clearTimeout(timer);
      if (answer === null && interruptBuffer) {
        // Ask Python to stop; it answers with an ordinary (interrupted) result if it can.
        Atomics.store(interruptBuffer, 0, SIGINT);
        const grace = new Promise((resolve) => setTimeout(() => resolve(null), INTERRUPT_GRACE_MS));
        answer = await Promise.race([reply, grace]);
        // Any reply means Python is alive (an interrupt outside the learner's code comes back as an error).
        if (answer && answer.error?.detail?.type !== WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE) {
          return stoppedOutcome(stopReason, "interrupt", Math.round(performance.now() - stoppedAt), answer.result);
        }
      }
      if (answer === null) {
        const recovery = await restart();
        return stoppedOutcome(stopReason, recovery.how, recovery.ms === null ? null : Math.round(performance.now() - stoppedAt));
      }
      if (answer.error) {
        if (answer.error.detail?.type === WORKER_ERROR_TYPES.RUNTIME_UNAVAILABLE) {
          // Python died under the learner's code (e.g. it ran out of memory): start a fresh one.
          const diedAt = performance.now();
          const recovery = await restart();
          return {
            status: "stopped",
            how: recovery.how,
            recoveryMs: recovery.ms === null ? null : Math.round(performance.now() - diedAt),
            message: `Python stopped while running your code (${answer.error.message}), so it was restarted. Your code and the scene are kept.`,
          };
        }
        return { status: "failed", message: answer.error.message };
      }
      return { status: "done", result: answer.result, message: "" };
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

/** The outcome of a run that was stopped, worded for the learner. */
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
