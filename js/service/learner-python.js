/**
 * The Python that runs the learner's exercise code, and the ones that take over from it when it has to be
 * ended (exercise-runner.js says when, and why three spares): it boots the first time it is needed; where code
 * cannot be interrupted, spares boot beside it once it is live, one at a time, and wait.
 *
 * It never touches the DOM.
 */

import { REQUEST_KINDS } from "../../generated/module-facts.js";

/** The request a spare answers once booted, to import what the learner's runs need (the exercises' part). */
const WARM_UP_KIND = REQUEST_KINDS.EXERCISES;

/**
 * Workers booted beforehand to take over from a stopped one, oldest first.
 * @param {{start: () => object, wanted: number, onReady: (ready: number) => void}} options `start` starts a
 *   worker (its client); `onReady` hears how many spares have booted and wait, whenever that changes
 * @returns {{prepare: () => void, take: () => {client: object, booted: boolean}}}
 */
function createSparePool({ start, wanted, onReady }) {
  /** {client, booted}: booted once it answered `ready` and warmed up. */
  const spares = [];

  function showReady() {
    onReady(spares.filter((entry) => entry.booted).length);
  }

  /**
   * Boot the next spare, if fewer than `wanted` wait and none is booting now: one boot at a time, so that a
   * boot never competes with another for the processor. Each spare that boots starts the next.
   */
  function prepare() {
    if (spares.length >= wanted || spares.some((entry) => !entry.booted)) return;
    const entry = { client: start(), booted: false };
    spares.push(entry);
    // Booted means warm: the exercises' part unpacked and imported (the `exercises` request needs it), so the run
    // after a takeover is as quick as in a Python that has run code before. Cold, that first run took 1 to 1.5 s
    // of every Stop's wait on a busy machine (bench/exercise_recovery.py).
    entry.client.ready.then(() => entry.client.request(WARM_UP_KIND, {}).catch(() => {})).then(
      () => {
        if (!spares.includes(entry)) return; // it took over while booting
        entry.booted = true;
        showReady();
        prepare();
      },
      () => {}, // a spare that fails is not booted: the one that takes it over tries once more (see restart)
    );
  }

  /** The worker that takes over: a booted spare if there is one, else the one booting, else a fresh one. */
  function take() {
    const booted = spares.findIndex((entry) => entry.booted);
    const [taken] = spares.length ? spares.splice(Math.max(booted, 0), 1) : [{ client: start(), booted: false }];
    showReady();
    return taken;
  }

  return { prepare, take };
}

/**
 * @param {object} options
 * @param {Function} options.createClient starts a worker (runtime/client.js createClient)
 * @param {Int32Array|null} options.interruptBuffer given to every worker; null where code cannot be interrupted
 *   (then spares are kept)
 * @param {number} options.sparesWanted how many spares to keep booted where code cannot be interrupted
 * @param {(update: object) => void} options.setStatus hears `starting`, `spareReady` and `sparesReady` (the
 *   runner's RunStatus)
 * @returns {{readonly client: object, boot: () => Promise<{failed: string}|null>,
 *   restart: () => Promise<{how: "spare"|"restart", ms: number|null}>}}
 */
export function createLearnerPython({ createClient, interruptBuffer, sparesWanted, setStatus }) {
  const clientOptions = interruptBuffer ? { interruptBuffer } : {};
  const spares = createSparePool({
    start: () => createClient(clientOptions),
    wanted: sparesWanted,
    onReady: (ready) => setStatus({ spareReady: ready > 0, sparesReady: ready }),
  });
  let client = null;
  /** True once the current worker has answered `ready`. */
  let live = false;

  /** Where code cannot be interrupted, keep spares booting once the worker in use is live. */
  function keepSpareReady() {
    if (!interruptBuffer) spares.prepare();
  }

  /**
   * End the worker and let a spare take over. Resolves with `how` ("spare" if that spare had booted already,
   * "restart" if a boot had to be waited for) and the milliseconds until Python is live (null if it never is).
   * @returns {Promise<{how: "spare"|"restart", ms: number|null}>}
   */
  async function restart() {
    const started = performance.now();
    live = false;
    const taken = spares.take();
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

  /**
   * Wait until Python is live, booting it the first time (`starting` meanwhile). Resolves with null, or with
   * {failed: a sentence for the learner} if it could not start.
   */
  async function boot() {
    client ??= createClient(clientOptions);
    if (!live) setStatus({ starting: true });
    try {
      await client.ready;
      if (!live) keepSpareReady();
      live = true;
    } catch (error) {
      // The runtime could not start: try once more with a fresh worker.
      const recoveryMs = await restart();
      if (recoveryMs === null) {
        setStatus({ starting: false });
        return { failed: `Python could not start for your code: ${error.message}` };
      }
    }
    setStatus({ starting: false });
    return null;
  }

  return {
    get client() {
      return client;
    },
    boot,
    restart,
  };
}
