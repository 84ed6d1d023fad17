// Python's boot as the page follows it (js/loading/python-boot.js), run by Node's own test runner
// (tests/tooling/test_js_units.py): the scene session it reports to hears of the boot's outcome, even one that came
// before it was joined, and of a restart.
import assert from "node:assert/strict";
import test from "node:test";

import { followPythonBoot } from "../../js/loading/python-boot.js";
import { createStore } from "../../js/state/session.js";

/** A Python service whose boot the test settles: `live()` or `fail(error)`; `restart()` starts a new boot. */
function fakePython() {
  const python = { restarts: 0, onProgress() {}, restart() {
    python.restarts += 1;
    boot();
  } };
  const boot = () => {
    python.ready = new Promise((resolve, reject) => Object.assign(python, { live: resolve, fail: reject }));
    python.ready.catch(() => {});
  };
  boot();
  return python;
}

/** A scene session that writes down what it was told. */
const listeningSession = (heard) => ({ setLive: (live) => heard.push(["live", live]), refuseChecks: (failure) => heard.push(["refused", failure.message]) });

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("a session joined after Python went live is told at once, and then of a restart", async () => {
  const python = fakePython();
  const store = createStore();
  const boot = followPythonBoot({ python, store });
  python.live();
  await settle();
  assert.equal(store.state.boot.live, true);
  const heard = [];
  boot.reportTo(listeningSession(heard));
  assert.deepEqual(heard, [["live", true]]);
  boot.restart();
  assert.deepEqual(heard, [["live", true], ["live", false]]);
  assert.equal(python.restarts, 1);
  python.live();
  await settle();
  assert.deepEqual(heard.at(-1), ["live", true]);
});

test("a boot that failed refuses the session's checks with the reason, worded once", async () => {
  const python = fakePython();
  const store = createStore();
  const boot = followPythonBoot({ python, store });
  const heard = [];
  boot.reportTo(listeningSession(heard));
  python.fail(new Error("the network went away"));
  await settle();
  assert.deepEqual(heard, [["refused", "Python could not start: the network went away"]]);
  assert.equal(boot.failure.message, "Python could not start: the network went away");
  assert.equal(store.state.boot.failed, true);
});
