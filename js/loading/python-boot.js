/**
 * Python's boot, as the page follows it: the stages into the state (`state.boot`, change "boot"), computing
 * switched on once Python is live, and a fresh worker when the old one died or could not start.
 */

import { BOOTING } from "../state/state.js";

/** The sentence for a boot that failed, whichever way the failure was worded. */
function bootFailureMessage(error) {
  const message = error?.message ?? String(error);
  return message.startsWith("Python could not start") ? message : `Python could not start: ${message}`;
}

/** @typedef {{setLive: (live: boolean) => void, refuseChecks: (failure: Error) => void}} Session the scene session's part the boot tells */

/**
 * @param {object} options
 * @param {ReturnType<import("../service/service.js").createPythonService>} options.python
 * @param {ReturnType<import("../state/session.js").createStore>} options.store
 * @returns {{restart: () => void, reportTo: (session: Session) => void, readonly failure: Error|null}} `failure`: why
 *   Python could not start, while it cannot
 */
export function followPythonBoot({ python, store }) {
  let failure = null;
  /** The scene session, which computes once Python is live (reportTo); and what it was last told. */
  let session = null;
  let told = null; // ["setLive", true] or ["refuseChecks", failure]
  const tell = (method, value) => {
    told = [method, value];
    session?.[method](value);
  };

  python.onProgress(({ stage, detail }) => {
    const { boot } = store.state;
    store.update({ boot: { ...boot, stage, detail: typeof detail === "string" ? detail : "", live: stage === "ready" || boot.live } }, "boot");
  });

  /** Follow the current worker's boot (after a restart, python.ready is a new promise). */
  function follow() {
    const ready = python.ready;
    ready.then(
      () => {
        if (python.ready !== ready) return;
        store.update({ boot: { ...store.state.boot, stage: "ready", live: true } }, "boot");
        tell("setLive", true);
      },
      (error) => {
        if (python.ready !== ready) return;
        failure = new Error(bootFailureMessage(error));
        store.update({ boot: { ...store.state.boot, failed: true, message: failure.message } }, "boot");
        tell("refuseChecks", failure);
      },
    );
  }
  follow();

  return {
    /**
     * From now on, tell `session` when Python is live, or could not start (its checks are refused), or is started
     * again; and tell it now what it missed. (The session is made after the boot: it restarts a Python that died.)
     */
    reportTo(to) {
      session = to;
      if (told) session[told[0]](told[1]);
    },
    get failure() {
      return failure;
    },
    /** A fresh Python (the old one died, or could not start and the learner asked again); the page stays. */
    restart() {
      failure = null;
      tell("setLive", false);
      python.restart();
      store.update({ boot: { ...BOOTING } }, "boot");
      follow();
    },
  };
}
