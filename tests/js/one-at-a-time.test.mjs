// The model panel's questions one at a time (js/panels/one-at-a-time.js), run by Node's own test runner: calls that
// come while a run is asked make one more run, and a call that comes as a run ends starts a run of its own.
import assert from "node:assert/strict";
import test from "node:test";

import { oneAtATime } from "../../js/panels/one-at-a-time.js";

/** An ask that counts its runs and waits for the test to let each one finish. */
function controlledAsk() {
  const pending = [];
  let runs = 0;
  const ask = () => {
    runs += 1;
    return new Promise((resolve) => pending.push(resolve));
  };
  return { ask, runs: () => runs, finish: () => pending.shift()() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("calls while a run is asked make one more run, however many came", async () => {
  const { ask, runs, finish } = controlledAsk();
  const call = oneAtATime(ask);
  const first = call();
  call();
  call();
  const last = call();
  assert.equal(runs(), 1);
  finish();
  await settle();
  assert.equal(runs(), 2); // the three calls that waited: one more run
  finish();
  await Promise.all([first, last]);
  assert.equal(runs(), 2);
});

test("an ask learns whether a call came since it began: its answer is then to an older question", async () => {
  const seen = [];
  let release;
  const call = oneAtATime(async (superseded) => {
    await new Promise((resolve) => {
      release = resolve;
    });
    seen.push(superseded());
  });
  const done = call();
  call(); // while the first ask waits
  release();
  await settle();
  release();
  await done;
  assert.deepEqual(seen, [true, false]); // the first's answer is stale; the run after it is the newest
});

test("a call that comes as a run ends, from another chain's next step, is asked, not dropped", async () => {
  const { ask, runs, finish } = controlledAsk();
  const call = oneAtATime(ask);
  call();
  finish(); // the run's last ask resolves: its end is the next step, queued before this test's own step below
  let late = null;
  queueMicrotask(() => {
    late = call(); // another chain's step, between the run's end and anything queued after it
  });
  await settle();
  assert.equal(runs(), 2);
  finish();
  await late;
});
