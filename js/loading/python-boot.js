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

/**
 * @param {object} options
 * @param {ReturnType<import("../service/service.js").createPythonService>} options.python
 * @param {ReturnType<import("../state/session.js").createStore>} options.store
 * @param {() => ReturnType<import("../state/session.js").createSceneSession>} options.session the scene session, which
 *   computes once Python is live (asked for when needed: the session itself calls back here when Python dies)
 * @returns {{restart: () => void, readonly failure: Error|null}} `failure`: why Python could not start, while it cannot
 */
export function followPythonBoot({ python, store, session }) {
  let failure = null;

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
        session().setLive(true);
      },
      (error) => {
        if (python.ready !== ready) return;
        failure = new Error(bootFailureMessage(error));
        store.update({ boot: { ...store.state.boot, failed: true, message: failure.message } }, "boot");
        session().refuseChecks(failure);
      },
    );
  }
  follow();

  return {
    get failure() {
      return failure;
    },
    /** A fresh Python (the old one died, or could not start and the learner asked again); the page stays. */
    restart() {
      failure = null;
      session().setLive(false);
      python.restart();
      store.update({ boot: { ...BOOTING } }, "boot");
      follow();
    },
  };
}
