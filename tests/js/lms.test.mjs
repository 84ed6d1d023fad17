// The LMS adapter's parts that need no browser (js/lms/), run by Node's own test runner (tests/tooling/test_js_units.py):
// the standard search for the runtime, the two versions' formats, the learner's standing, and the work packed into
// suspend_data within its limit, the oldest edits left out first.
import assert from "node:assert/strict";
import test from "node:test";

import { findApis } from "../../js/lms/find-api.js";
import { createRuntime, nextInteractionIndex, scoreElements, sessionTime } from "../../js/lms/runtime.js";
import { standing } from "../../js/lms/course.js";
import { editKeys, packWork, unpackWork } from "../../js/lms/suspend-data.js";
import { noise } from "./text-noise.mjs";

/** A window whose properties cannot be read, as one of another origin. */
function foreignWindow() {
  return new Proxy({}, { get() { throw new Error("SecurityError: blocked a frame with origin"); } });
}

/** A chain of windows, the first the content's, each the next one's child. */
function chain(...windows) {
  windows.forEach((win, index) => { win.parent = windows[index + 1] ?? win; });
  return windows[0];
}

test("the runtime is found in a parent, several levels up, in the package's version first", () => {
  const api12 = { name: "1.2" };
  const api2004 = { name: "2004" };
  const content = chain({}, {}, { API: api12 }, { API_1484_11: api2004 });
  assert.deepEqual(findApis(content, ["1.2", "2004"]), [{ version: "1.2", api: api12 }, { version: "2004", api: api2004 }]);
  assert.deepEqual(findApis(content, ["2004", "1.2"]), [{ version: "2004", api: api2004 }, { version: "1.2", api: api12 }]);
});

test("the search stops at a window of another origin, then tries the opener and its parents", () => {
  const api = { name: "opener's" };
  const content = chain({}, foreignWindow());
  assert.deepEqual(findApis(content, ["2004"]), []);
  content.opener = chain({}, { API_1484_11: api });
  assert.deepEqual(findApis(content, ["1.2", "2004"]), [{ version: "2004", api }]);
});

test("session time in each version's format", () => {
  assert.equal(sessionTime("1.2", 3723.456), "0001:02:03.46");
  assert.equal(sessionTime("1.2", 7.8), "0000:00:07.80");
  assert.equal(sessionTime("2004", 3723.456), "PT1H2M3.46S");
});

test("one set of calls over both versions: 1.2 has no scaled score, and journals an interaction at the next index", () => {
  const calls = [];
  const api = {
    LMSInitialize: () => "true",
    LMSGetValue: (element) => (element === "cmi.interactions._count" ? "2" : ""),
    LMSSetValue: (element, value) => { calls.push([element, value]); return "true"; },
  };
  const runtime = createRuntime("1.2", api);
  assert.equal(runtime.initialize(), true);
  assert.equal(runtime.set("scaled", "0.5"), false);
  assert.equal(runtime.set("raw", 3), true);
  assert.equal(runtime.interaction({ id: "lesson/step", type: "other", response: "[1,2]", correct: false, description: "not in 1.2" }), true);
  assert.deepEqual(calls.slice(0, 5), [["cmi.core.score.raw", "3"], ["cmi.interactions.2.id", "lesson/step"], ["cmi.interactions.2.type", "fill-in"],
    ["cmi.interactions.2.student_response", "[1,2]"], ["cmi.interactions.2.result", "wrong"]]);
  assert.ok(!calls.some(([element]) => element.endsWith("description")));
});

test("the standing counts steps done, questions right at the first try and exercises passed", () => {
  const course = { lessons: [{ id: "a", steps: [{ id: "s1", kind: null }, { id: "s2", kind: "pick" }, { id: "s3", kind: "compute" }] }], exercises: ["softmax"] };
  const lessons = { a: { done: ["s1", "s2", "s3"], answers: { s2: { correct: true, first: { correct: false } }, s3: { correct: true, first: { correct: true } } } } };
  assert.deepEqual(standing(course, lessons, new Set()), { done: 3, steps: 3, raw: 1, max: 3, completed: true, progress: 1 });
  assert.deepEqual(standing(course, {}, new Set(["softmax"])), { done: 0, steps: 3, raw: 1, max: 3, completed: false, progress: 0 });
});

test("suspend_data keeps the work within its limit, the oldest edits left out first, and unpacks to what was kept", async () => {
  const answers = { s2: { correct: true, score: 1, feedback: noise(4, 300), first: { correct: true } } };
  const work = {
    lessons: { a: { step: "s3", done: ["s1", "s2"], answers, edits: { s1: { X: noise(1, 900) }, s2: { X: noise(2, 900) } } } },
    code: { softmax: noise(3, 900) },
    order: [editKeys.lesson("a", "s1"), editKeys.code("softmax"), editKeys.lesson("a", "s2")],
    passed: ["softmax"],
  };
  const whole = await packWork(work, 64000);
  assert.deepEqual(whole.dropped, []);
  assert.deepEqual(await unpackWork(whole.text), { ...work, at: null, journaled: 0 });
  const limit = whole.text.length - 100; // one edit too many
  const fitted = await packWork(work, limit);
  assert.ok(fitted.fits && fitted.text.length <= limit);
  assert.deepEqual(fitted.dropped, [editKeys.lesson("a", "s1")]);
  const kept = await unpackWork(fitted.text);
  assert.deepEqual(Object.keys(kept.lessons.a.edits), ["s2"]);
  assert.equal(kept.code.softmax, work.code.softmax);
  assert.deepEqual(kept.lessons.a.answers, answers);
  const withoutEdits = { ...work, lessons: { a: { ...work.lessons.a, edits: {} } }, code: {}, order: [] };
  const tightLimit = (await packWork(withoutEdits, 64000)).text.length - 50; // no edit fits, nor the feedback
  const tight = await packWork(work, tightLimit); // the verdicts stay
  assert.deepEqual(tight.dropped, work.order);
  assert.ok(tight.feedbackDropped && tight.fits && tight.text.length <= tightLimit);
  assert.deepEqual((await unpackWork(tight.text)).lessons.a.answers.s2, { correct: true, score: 1, first: { correct: true } });
  assert.equal(await unpackWork("someone else's data"), null);
});

test("with no LMS around, a package's launch records nothing, and says so to the learner", async () => {
  const { connectLms, UNRECORDED_NOTICE } = await import("../../js/lms/tracking.js");
  const notices = [];
  const updates = [];
  const page = {
    store: { update: (slice, change) => updates.push([slice, change]) },
    controller: { actions: { notify: (text, options) => notices.push([text, options.tone]) } },
  };
  const none = await connectLms(chain({}, {}), "1.2", "page", { waitMs: 50 });
  assert.equal(none.recorded, false);
  assert.equal(none.resumeAt, null);
  await none.track(page, null);
  assert.deepEqual(notices, [[UNRECORDED_NOTICE, "warning"]]);
  assert.deepEqual(updates, [[{ course: { recorded: false, version: null } }, "course"]], "the player says it too");
  const refusing = chain({}, { API_1484_11: { Initialize: () => "false" } });
  assert.equal((await connectLms(refusing, "2004", "page", { waitMs: 50 })).recorded, false, "an LMS that will not initialize is as good as none");
});

test("every runtime offered is found, the package's version first, one object under two names twice", () => {
  const shared = { LMSInitialize: () => "true" };
  const content = chain({}, { API: shared, API_1484_11: shared });
  assert.deepEqual(findApis(content, ["2004", "1.2"]), [{ version: "2004", api: shared }, { version: "1.2", api: shared }]);
  assert.deepEqual(findApis(chain({}, {}), ["2004", "1.2"]), []);
});

test("a runtime whose Initialize fails makes way for the next one: a 1.2 runtime offered under 2004's name too", async () => {
  const { initializedRuntime } = await import("../../js/lms/tracking.js");
  const calls = [];
  const api12 = { LMSInitialize: () => { calls.push("LMSInitialize"); return "true"; } };
  const content = chain({}, { API: api12, API_1484_11: api12 }); // as wagtail-lms offers its 1.2 runtime
  const runtime = await initializedRuntime(content, ["2004", "1.2"], { waitMs: 0 });
  assert.equal(runtime.version, "1.2");
  assert.deepEqual(calls, ["LMSInitialize"]);
});

test("the runtime is looked for until it appears, as an LMS that makes it once its own page has loaded", async () => {
  const { initializedRuntime } = await import("../../js/lms/tracking.js");
  const lmsWindow = {};
  const content = chain({}, lmsWindow);
  setTimeout(() => { lmsWindow.API = { LMSInitialize: () => "true" }; }, 250);
  const started = performance.now();
  const runtime = await initializedRuntime(content, ["1.2", "2004"], { waitMs: 3000 });
  assert.equal(runtime?.version, "1.2");
  assert.ok(performance.now() - started >= 200, "found once it was there, not before");
  assert.equal(await initializedRuntime(chain({}, {}), ["1.2"], { waitMs: 120 }), null, "and given up after the wait");
});

test("an interaction goes at the LMS's count, or the content's own where the LMS gives none", () => {
  assert.equal(nextInteractionIndex("3", 0), 3);
  assert.equal(nextInteractionIndex("", 2), 2);
  assert.equal(nextInteractionIndex("", 0), 0);
  assert.equal(nextInteractionIndex("1", 4), 4, "the further of the two: an LMS that forgets is not overwritten");
  assert.equal(nextInteractionIndex("false", 1), 1);
  const set = [];
  const runtime = createRuntime("1.2", { LMSGetValue: () => "", LMSSetValue: (element, value) => { set.push(element); return "true"; } });
  runtime.journalFrom(5);
  runtime.interaction({ id: "a/s1", type: "other", response: "1", correct: true });
  runtime.interaction({ id: "a/s2", type: "other", response: "2", correct: false });
  assert.deepEqual(set.filter((element) => element.endsWith(".id")), ["cmi.interactions.5.id", "cmi.interactions.6.id"]);
  assert.equal(runtime.journaled(), 7);
});

test("scores every LMS reads the same: raw on 0-100 in both versions, and in 2004 scaled, the same share", () => {
  assert.deepEqual(scoreElements("1.2", 14, 14), { raw: "100", min: "0", max: "100", scaled: null });
  assert.deepEqual(scoreElements("1.2", 7, 14), { raw: "50", min: "0", max: "100", scaled: null });
  assert.deepEqual(scoreElements("1.2", 1, 3), { raw: "33.33", min: "0", max: "100", scaled: null });
  assert.deepEqual(scoreElements("2004", 7, 14), { raw: "50", min: "0", max: "100", scaled: "0.5000" });
  assert.deepEqual(scoreElements("2004", 14, 14), { raw: "100", min: "0", max: "100", scaled: "1.0000" });
  assert.deepEqual(scoreElements("2004", 0, 0), { raw: "0", min: "0", max: "100", scaled: "0.0000" });
});

test("suspend_data keeps the step on screen and the interactions journaled, and reads older records without them", async () => {
  const work = { lessons: {}, code: {}, order: [], passed: [], at: { lesson: "a", step: "s2" }, journaled: 3 };
  const unpacked = await unpackWork((await packWork(work, 4096)).text);
  assert.deepEqual(unpacked.at, { lesson: "a", step: "s2" });
  assert.equal(unpacked.journaled, 3);
  const older = await unpackWork((await packWork({ lessons: {}, code: {}, order: [], passed: [] }, 4096)).text);
  assert.equal(older.at, null);
  assert.equal(older.journaled, 0);
});
