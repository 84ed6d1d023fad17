// The learner's record as an LMS receives it (js/lms/), over fake SCORM 1.2 and 2004 runtimes that note every call:
// the element names each version writes, what the record sends and commits as a lesson is answered, completed, left
// and resumed, and the work in suspend_data kept whole or refused when damaged, so a course platform grades it right.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { describeCourse, standing } from "../../js/lms/course.js";
import { lmsAsked } from "../../js/lms/launch.js";
import { createCourseRecord } from "../../js/lms/record.js";
import { createRuntime, nextInteractionIndex, scoreElements, sessionTime } from "../../js/lms/runtime.js";
import { editKeys, emptyWork, packWork, unpackWork } from "../../js/lms/suspend-data.js";
import { connectLms, initializedRuntime } from "../../js/lms/tracking.js";
import { createStore } from "../../js/state/session.js";
import { CHANGES } from "../../js/state/state.js";
import { loadCode } from "../../js/sharing/exercise-code.js";
import { loadProgress } from "../../js/sharing/lesson-progress.js";
import { workKeptBy } from "../../js/sharing/work-storage.js";
import { noise } from "./text-noise.mjs";

// ---- Fakes ------------------------------------------------------------------------------------------------------

/** Each version's five calls, in the order initialize, get, set, commit, terminate. */
const CALL_NAMES = { "1.2": ["LMSInitialize", "LMSGetValue", "LMSSetValue", "LMSCommit", "LMSFinish"], 2004: ["Initialize", "GetValue", "SetValue", "Commit", "Terminate"] };

/** A fake LMS runtime of `version` that keeps what is set, notes every call and answers "true"/"false" as LMSs do. */
function fakeLms(version, { values = {}, refuse = [], reportsCount = false } = {}) {
  const [initialize, get, set, commit, terminate] = CALL_NAMES[version];
  const names = { initialize, get, set, commit, terminate };
  const data = new Map(Object.entries(values));
  const calls = [];
  const interactionCount = () => new Set([...data.keys()].filter((key) => /^cmi\.interactions\.\d+\.id$/.test(key))).size;
  const api = {
    [initialize]: (arg) => { calls.push([initialize, arg]); return "true"; },
    [get]: (element) => {
      calls.push([get, element]);
      if (element === "cmi.interactions._count") return reportsCount ? String(interactionCount()) : "";
      return data.get(element) ?? "";
    },
    [set]: (element, value) => {
      calls.push([set, element, value]);
      if (refuse.includes(element) || typeof value !== "string") return "false";
      data.set(element, value);
      return "true";
    },
    [commit]: (arg) => { calls.push([commit, arg]); return "true"; },
    [terminate]: (arg) => { calls.push([terminate, arg]); return "true"; },
  };
  return {
    api,
    data,
    calls,
    /** The [element, value] pairs set from call number `from` on, in order. */
    sets: (from = 0) => calls.slice(from).filter(([name]) => name === set).map(([, element, value]) => [element, value]),
    /** How many times the call that does `what` ("commit", "terminate", …) was made. */
    count: (what) => calls.filter(([name]) => name === names[what]).length,
  };
}

/** The elements set, in order, without their values. */
const elementsOf = (pairs) => pairs.map(([element]) => element);

/** The value last set on `element`, or undefined. */
const lastSet = (lms, element) => lms.sets().filter(([set]) => set === element).at(-1)?.[1];

/** The work in the suspend_data last set. */
const lastSuspend = async (lms) => unpackWork(lastSet(lms, "cmi.suspend_data"));

/** A chain of windows, the first the content's, each the next one's child. */
function chain(...windows) {
  windows.forEach((win, index) => { win.parent = windows[index + 1] ?? win; });
  return windows[0];
}

/** Resolve once `done()` holds, looking every few milliseconds (fail after two seconds). */
async function until(done, what = "the condition") {
  const deadline = performance.now() + 2000;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Wait `ms` milliseconds. */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The compiled lesson files the fake site serves: the index (with each step's kind) and each lesson (its exercises). */
const LESSON_FILES = {
  index: [
    { id: "a", title: "Lesson A", steps: [{ id: "s1", title: "Read", kind: null }, { id: "s2", title: "Pick", kind: "pick" }, { id: "s3", title: "Compute", kind: "compute" }] },
    { id: "b", title: "Lesson B", steps: [{ id: "t1", title: "Write it", kind: null }, { id: "t2", title: "Again" }] },
  ],
  a: { format: 1, id: "a", steps: [{ id: "s1" }, { id: "s2" }, { id: "s3" }] },
  b: { format: 1, id: "b", steps: [{ id: "t1", exercise: "softmax" }, { id: "t2", exercise: "softmax" }] },
};

/** A fetch serving `files` by name under generated/lessons/ (404 for the rest), noting each address asked. */
function lessonServer(files) {
  const asked = [];
  const fetch = async (url) => {
    asked.push(url);
    const name = String(url).replace(/^generated\/lessons\//, "").replace(/\.json$/, "");
    const found = Object.hasOwn(files, name);
    return { ok: found, status: found ? 200 : 404, json: async () => structuredClone(files[name]) };
  };
  return { fetch, asked };
}

/** Put `values` on globalThis for the test `t`, and put back what was there once it ends. */
function useGlobals(t, values) {
  const saved = Object.keys(values).map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]);
  Object.assign(globalThis, values);
  t.after(() => {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else delete globalThis[name];
    }
  });
}

/** The window and document record.js listens on, with the site's lesson files: hide() and leave() fire their events. */
function fakeBrowser(t) {
  const win = new EventTarget();
  const doc = Object.assign(new EventTarget(), { visibilityState: "visible" });
  const leave = () => win.dispatchEvent(new Event("pagehide"));
  useGlobals(t, { window: win, document: doc, fetch: lessonServer(LESSON_FILES).fetch });
  t.after(leave); // the record ends, its timer cleared, before the globals go back
  return {
    leave,
    hide: () => { doc.visibilityState = "hidden"; doc.dispatchEvent(new Event("visibilitychange")); },
    show: () => { doc.visibilityState = "visible"; doc.dispatchEvent(new Event("visibilitychange")); },
  };
}

/** Lesson "a" as lessons/lessons.js opens it, at step index `step`, with `patch` over it. */
function lessonState(step = 0, patch = {}) {
  return { id: "a", title: "Lesson A", steps: LESSON_FILES.index[0].steps, step, done: [], answers: {}, edits: {}, status: "ready",
    answered: { count: 0, event: null }, ...patch };
}

/** The learner answers `stepId` of the open lesson, recorded and announced as lessons/lesson-answers.js does it. */
function answer(store, stepId, { correct, value = 1, kind = "pick" }) {
  const lesson = store.state.lesson;
  const before = lesson.answers[stepId];
  const attempts = (before?.attempts ?? 0) + 1;
  const score = correct ? 1 : 0;
  const kept = { kind, answer: value, expected: null, correct, score, feedback: correct ? "Right." : "Not quite.", attempts, first: before?.first ?? { correct, score } };
  const event = { type: "attention-playground:answer", lesson: lesson.id, step: stepId, kind, answer: value, expected: null, correct, score, attempts };
  store.update({ lesson: { ...lesson, answers: { ...lesson.answers, [stepId]: kept }, done: [...new Set([...lesson.done, stepId])],
    answered: { count: lesson.answered.count + 1, event } } }, "lesson");
}

/** A running page as the record sees it: the real store, and actions that give the open lesson's work and `work.code`. */
function fakePage({ lesson = lessonState(), exercises = {}, code = {}, kept = {} } = {}) {
  const store = createStore();
  store.update({ lesson, exercises }, "lesson", "exercises");
  const notices = [];
  const work = { code: { ...code }, kept: { ...kept } };
  const open = () => {
    const now = store.state.lesson;
    return now ? { [now.id]: { step: now.steps[now.step].id, done: now.done, answers: now.answers, edits: now.edits } } : {};
  };
  const controller = {
    session: { scene: () => null },
    actions: {
      lessonsWork: async () => ({ ...work.kept, ...open() }),
      exerciseCode: async () => ({ ...work.code }),
      notify: (text, { tone }) => notices.push([text, tone]),
    },
  };
  return { store, controller, notices, work, writeScene: store.takeSceneWriter() };
}

/** A course record started over a fake LMS of `version`, in a fake browser; the calls of the start itself included. */
async function startedRecord(t, { version = "2004", lessonIds = ["a"], resumed = emptyWork(), lms = {}, ...pageOptions } = {}) {
  const browser = fakeBrowser(t);
  const fake = fakeLms(version, lms);
  const runtime = createRuntime(version, fake.api);
  runtime.journalFrom(resumed.journaled);
  const page = fakePage(pageOptions);
  const storage = { onChange: () => {} };
  await createCourseRecord({ runtime, page: { store: page.store, controller: page.controller }, lessonIds, resumed, storage }).start();
  return { ...fake, ...browser, ...page, runtime, storage };
}

/** Hide the page, and wait for the commit that follows the record written. */
async function hideAndWait(record) {
  const commits = record.count("commit");
  record.hide();
  await until(() => record.count("commit") > commits, "the commit after hiding");
}

/** `text` as deflate-raw bytes, base64url, after suspend_data's prefix: a record made by hand. */
async function handPacked(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return `ap1.${Buffer.from(bytes).toString("base64url")}`;
}

// ---- runtime.js -------------------------------------------------------------------------------------------------

test("a 2004 runtime calls Initialize, Commit and Terminate with an empty string, and writes the cmi.* elements", () => {
  const lms = fakeLms("2004");
  const runtime = createRuntime("2004", lms.api);
  assert.equal(runtime.initialize(), true);
  for (const [name, value] of [["status", "completed"], ["location", "a/s2"], ["suspendData", "ap1.x"], ["exit", "suspend"], ["progress", "0.5000"],
    ["raw", "50"], ["min", "0"], ["max", "100"], ["scaled", "0.5000"]]) assert.equal(runtime.set(name, value), true, name);
  assert.equal(runtime.sessionTime(61), true);
  assert.equal(runtime.commit(), true);
  assert.equal(runtime.terminate(), true);
  assert.deepEqual(lms.calls.filter(([name]) => name !== "SetValue"), [["Initialize", ""], ["Commit", ""], ["Terminate", ""]]);
  assert.deepEqual(lms.sets(), [["cmi.completion_status", "completed"], ["cmi.location", "a/s2"], ["cmi.suspend_data", "ap1.x"], ["cmi.exit", "suspend"],
    ["cmi.progress_measure", "0.5000"], ["cmi.score.raw", "50"], ["cmi.score.min", "0"], ["cmi.score.max", "100"], ["cmi.score.scaled", "0.5000"],
    ["cmi.session_time", "PT0H1M1S"]]);
  assert.equal(runtime.suspendLimit, 64000);
});

test("a 1.2 runtime writes cmi.core.* and has no progress measure nor scaled score, asking the LMS nothing for them", () => {
  const lms = fakeLms("1.2");
  const runtime = createRuntime("1.2", lms.api);
  assert.equal(runtime.initialize(), true);
  for (const [name, value] of [["status", "incomplete"], ["location", "a/s1"], ["suspendData", "ap1.y"], ["exit", ""], ["raw", "0"]]) {
    assert.equal(runtime.set(name, value), true, name);
  }
  assert.equal(runtime.sessionTime(3723.456), true);
  assert.equal(runtime.has("progress"), false);
  assert.equal(runtime.has("scaled"), false);
  assert.equal(runtime.has("status"), true);
  assert.equal(runtime.set("progress", "0.5"), false);
  runtime.get("suspendData");
  runtime.commit();
  runtime.terminate();
  assert.deepEqual(lms.sets(), [["cmi.core.lesson_status", "incomplete"], ["cmi.core.lesson_location", "a/s1"], ["cmi.suspend_data", "ap1.y"],
    ["cmi.core.exit", ""], ["cmi.core.score.raw", "0"], ["cmi.core.session_time", "0001:02:03.46"]]);
  assert.deepEqual(lms.calls.filter(([name]) => name !== "LMSSetValue"), [["LMSInitialize", ""], ["LMSGetValue", "cmi.suspend_data"], ["LMSCommit", ""], ["LMSFinish", ""]]);
  assert.equal(runtime.suspendLimit, 4096);
});

test("each call is true only where the LMS says \"true\": a refusal, a throw or a missing call is false, never an error", () => {
  const refusing = createRuntime("2004", { Initialize: () => "false", SetValue: () => "false", Commit: () => false, GetValue: () => "ap1.z" });
  assert.equal(refusing.initialize(), false);
  assert.equal(refusing.set("status", "completed"), false);
  assert.equal(refusing.commit(), false);
  assert.equal(refusing.terminate(), false, "an LMS without Terminate");
  assert.equal(refusing.get("suspendData"), "ap1.z");
  const throwing = createRuntime("1.2", { LMSGetValue: () => { throw new Error("not initialized"); }, LMSSetValue: () => { throw new Error("401"); } });
  assert.equal(throwing.get("suspendData"), "false");
  assert.equal(throwing.set("raw", 1), false);
  assert.equal(throwing.interaction({ id: "a/s1", type: "choice", response: "1", correct: true }), false);
  assert.equal(throwing.journaled(), 0);
  const booleans = createRuntime("2004", { Initialize: () => true, Commit: () => true });
  assert.equal(booleans.initialize(), true, "an LMS answering a boolean true is understood");
  assert.equal(booleans.commit(), true);
});

test("the location is cut to 255 characters in 1.2 and to 1000 in 2004", () => {
  const long = "x".repeat(1500);
  const lms12 = fakeLms("1.2");
  createRuntime("1.2", lms12.api).location(long);
  assert.equal(lastSet(lms12, "cmi.core.lesson_location").length, 255);
  const lms2004 = fakeLms("2004");
  createRuntime("2004", lms2004.api).location(long);
  assert.equal(lastSet(lms2004, "cmi.location").length, 1000);
  createRuntime("2004", lms2004.api).location(42);
  assert.equal(lastSet(lms2004, "cmi.location"), "42");
});

test("a 2004 interaction keeps its type and description, says incorrect, and its response is cut to 4000 characters", () => {
  const lms = fakeLms("2004");
  const runtime = createRuntime("2004", lms.api);
  assert.equal(runtime.interaction({ id: "a/s2", type: "other", response: "r".repeat(5000), correct: false, description: "d".repeat(300) }), true);
  const set = Object.fromEntries(lms.sets());
  assert.deepEqual(Object.keys(set), ["cmi.interactions.0.id", "cmi.interactions.0.type", "cmi.interactions.0.learner_response", "cmi.interactions.0.result",
    "cmi.interactions.0.timestamp", "cmi.interactions.0.description"]);
  assert.equal(set["cmi.interactions.0.type"], "other");
  assert.equal(set["cmi.interactions.0.learner_response"].length, 4000);
  assert.equal(set["cmi.interactions.0.result"], "incorrect");
  assert.match(set["cmi.interactions.0.timestamp"], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  assert.equal(set["cmi.interactions.0.description"].length, 250);
  assert.deepEqual(lms.calls[0], ["GetValue", "cmi.interactions._count"], "the LMS's count is asked first");
});

test("a 1.2 interaction's response is cut to 255 characters, its time is the time of day, and a right one says correct", () => {
  const lms = fakeLms("1.2");
  const runtime = createRuntime("1.2", lms.api);
  runtime.interaction({ id: "exercise/softmax", type: "choice", response: "q".repeat(400), correct: true });
  const set = Object.fromEntries(lms.sets());
  assert.equal(set["cmi.interactions.0.type"], "choice", "only \"other\" becomes fill-in");
  assert.equal(set["cmi.interactions.0.student_response"].length, 255);
  assert.equal(set["cmi.interactions.0.result"], "correct");
  assert.match(set["cmi.interactions.0.time"], /^\d\d:\d\d:\d\d$/);
});

test("an interaction whose id the LMS refuses is not counted, and the next one goes at the same index", () => {
  const lms = fakeLms("2004", { refuse: ["cmi.interactions.0.id"] });
  const runtime = createRuntime("2004", lms.api);
  assert.equal(runtime.interaction({ id: "a/s1", type: "other", response: "1", correct: true }), false);
  assert.deepEqual(elementsOf(lms.sets()), ["cmi.interactions.0.id"], "nothing else of it is written");
  assert.equal(runtime.journaled(), 0);
  const counting = fakeLms("2004", { reportsCount: true, values: { "cmi.interactions.0.id": "x", "cmi.interactions.1.id": "y" } });
  const journal = createRuntime("2004", counting.api);
  journal.interaction({ id: "a/s2", type: "other", response: "2", correct: true });
  assert.equal(lastSet(counting, "cmi.interactions.2.id"), "a/s2", "at the count the LMS reports");
  assert.equal(journal.journaled(), 3);
  journal.journalFrom(1);
  assert.equal(journal.journaled(), 3, "going on from an earlier count never goes back");
});

test("session time at its edges: nothing yet, a fraction of a second, a day, and 1.2's four digits of hours at most", () => {
  assert.equal(sessionTime("1.2", 0), "0000:00:00.00");
  assert.equal(sessionTime("2004", 0), "PT0H0M0S");
  assert.equal(sessionTime("1.2", 0.005), "0000:00:00.01");
  assert.equal(sessionTime("2004", 0.005), "PT0H0M0.01S");
  assert.equal(sessionTime("1.2", 86400), "0024:00:00.00");
  assert.equal(sessionTime("2004", 86400), "PT24H0M0S");
  assert.equal(sessionTime("1.2", 36000000 + 61), "9999:01:01.00");
  assert.equal(sessionTime("2004", 36000000 + 61), "PT10000H1M1S");
});

test("a time that rounds up to a whole minute or hour carries into it: never 60 seconds or 60 minutes, which 1.2 refuses", () => {
  assert.equal(sessionTime("1.2", 59.999), "0000:01:00.00");
  assert.equal(sessionTime("2004", 59.999), "PT0H1M0S");
  assert.equal(sessionTime("1.2", 3599.999), "0001:00:00.00");
  assert.equal(sessionTime("2004", 3599.999), "PT1H0M0S");
  assert.equal(sessionTime("1.2", 119.994), "0000:01:59.99");
});

test("the raw score is the share to two decimals with no trailing zeros, the scaled one to four, and no questions score 0", () => {
  assert.deepEqual(scoreElements("2004", 2, 3), { raw: "66.67", min: "0", max: "100", scaled: "0.6667" });
  assert.deepEqual(scoreElements("2004", 1, 8), { raw: "12.5", min: "0", max: "100", scaled: "0.1250" });
  assert.deepEqual(scoreElements("1.2", 0, 0), { raw: "0", min: "0", max: "100", scaled: null });
  assert.deepEqual(scoreElements("1.2", 0, 5), { raw: "0", min: "0", max: "100", scaled: null });
});

test("the LMS's count counts only as a whole number, spaces around it allowed", () => {
  assert.equal(nextInteractionIndex(" 4 ", 0), 4);
  assert.equal(nextInteractionIndex(4, 0), 4, "a number as well as a string");
  assert.equal(nextInteractionIndex("2.5", 1), 1);
  assert.equal(nextInteractionIndex("-1", 1), 1);
  assert.equal(nextInteractionIndex("0", 0), 0);
  assert.equal(nextInteractionIndex(undefined, 2), 2);
});

// ---- suspend-data.js --------------------------------------------------------------------------------------------

test("suspend_data is \"ap1.\" and base64url, and gives back exactly what was packed, any characters included", async () => {
  const work = {
    lessons: { "ünï": { step: "s1", done: ["s1"], answers: { s1: { correct: true, answer: "√d → “it” 🐈", first: { correct: true } } }, edits: { s1: { X: [[0.1, -2e-7]] } } } },
    code: { softmax: "def softmax(x):\n    return x / x.sum()  # ±∞" },
    order: [editKeys.lesson("ünï", "s1"), editKeys.code("softmax")],
    passed: ["softmax"],
    at: { lesson: "ünï", step: "s1" },
    journaled: 7,
  };
  const { text, dropped, feedbackDropped, fits } = await packWork(work, 64000);
  assert.match(text, /^ap1\.[A-Za-z0-9_-]+$/, "no +, / or = an LMS might mangle");
  assert.deepEqual({ dropped, feedbackDropped, fits }, { dropped: [], feedbackDropped: false, fits: true });
  assert.deepEqual(await unpackWork(text), work);
});

test("packing leaves the work it was given alone while it leaves edits out", async () => {
  const work = { lessons: { a: { step: "s1", done: [], answers: {}, edits: { s1: { X: noise(5, 3000) } } } }, code: { softmax: noise(6, 3000) },
    order: [editKeys.lesson("a", "s1"), editKeys.code("softmax")], passed: [] };
  const before = structuredClone(work);
  const packed = await packWork(work, 4096);
  assert.deepEqual(packed.dropped, [editKeys.lesson("a", "s1")]);
  assert.deepEqual(work, before);
  const kept = await unpackWork(packed.text);
  assert.deepEqual(kept.lessons.a.edits, {});
  assert.deepEqual(kept.order, [editKeys.code("softmax")]);
});

test("work whose answers alone are over the limit is packed anyway, every edit and the feedback left out, and says it does not fit", async () => {
  const work = { lessons: { a: { step: "s2", done: [], answers: { s2: { correct: false, answer: noise(7, 6000), feedback: "Not quite." } }, edits: { s1: { X: "x" } } } },
    code: { softmax: "y" }, order: [editKeys.code("softmax"), editKeys.lesson("a", "s1")], passed: [] };
  const packed = await packWork(work, 4096);
  assert.equal(packed.fits, false);
  assert.equal(packed.feedbackDropped, true);
  assert.deepEqual(packed.dropped, [editKeys.code("softmax"), editKeys.lesson("a", "s1")]);
  assert.ok(packed.text.length > 4096);
  const kept = await unpackWork(packed.text);
  assert.equal(kept.lessons.a.answers.s2.answer, work.lessons.a.answers.s2.answer);
  assert.equal(kept.lessons.a.answers.s2.feedback, undefined);
});

test("an edit key for a lesson no longer kept is dropped first without harm, and a code key takes the code with it", async () => {
  const work = { lessons: {}, code: { softmax: noise(8, 3000), attention: noise(10, 3000) },
    order: [editKeys.lesson("gone", "s1"), editKeys.code("softmax"), editKeys.code("attention")], passed: [] };
  assert.equal(editKeys.lesson("gone", "s1"), "lesson/gone/s1");
  assert.equal(editKeys.code("softmax"), "code/softmax");
  const packed = await packWork(work, 4096);
  assert.deepEqual(packed.dropped, ["lesson/gone/s1", "code/softmax"]);
  const kept = await unpackWork(packed.text);
  assert.deepEqual(Object.keys(kept.code), ["attention"]);
  assert.deepEqual(kept.order, ["code/attention"]);
});

test("anything but this content's record unpacks to null: no text, another prefix, an empty or damaged body, JSON that is not an object", async () => {
  for (const text of [null, undefined, 42, "", "ap2.AAAA", "AP1.AAAA", "ap1.", "ap1.!!!!", "ap1.AAAA"]) assert.equal(await unpackWork(text), null, String(text));
  assert.equal(await unpackWork(await handPacked("{not json")), null);
  assert.equal(await unpackWork(await handPacked("null")), null);
  assert.deepEqual(await unpackWork(await handPacked("{}")), emptyWork(), "an object with nothing in it is a record of nothing");
});

test("a record damaged inside is emptied part by part: wrong shapes become empty, non-strings are left out, a bad count is 0", async () => {
  const damaged = { lessons: ["a"], code: "softmax", order: ["code/x", 3, null], passed: [1, "softmax"], at: { lesson: "a", step: 2 }, journaled: -1 };
  assert.deepEqual(await unpackWork(await handPacked(JSON.stringify(damaged))),
    { lessons: {}, code: {}, order: ["code/x"], passed: ["softmax"], at: null, journaled: 0 });
  assert.equal((await unpackWork(await handPacked(JSON.stringify({ journaled: 2.5 })))).journaled, 0);
  assert.equal((await unpackWork(await handPacked(JSON.stringify({ journaled: "3" })))).journaled, 0);
  assert.deepEqual((await unpackWork(await handPacked(JSON.stringify({ at: { lesson: "a", step: "s1", extra: 1 } })))).at, { lesson: "a", step: "s1" });
});

test("the empty work is what a packed empty work unpacks to, and each call gives a new one", async () => {
  const empty = emptyWork();
  assert.deepEqual(empty, { lessons: {}, code: {}, order: [], passed: [], at: null, journaled: 0 });
  assert.deepEqual(await unpackWork((await packWork(empty, 4096)).text), empty);
  empty.lessons.a = { done: ["s1"] };
  empty.order.push("code/x");
  assert.deepEqual(emptyWork(), { lessons: {}, code: {}, order: [], passed: [], at: null, journaled: 0 });
});

// ---- course.js and launch.js ------------------------------------------------------------------------------------

test("a lesson's course is read from the compiled lessons: its steps and kinds from the list, its exercises from its own file", async (t) => {
  const server = lessonServer(LESSON_FILES);
  useGlobals(t, { fetch: server.fetch });
  assert.deepEqual(await describeCourse(["b"]), { lessons: [{ id: "b", steps: [{ id: "t1", kind: null }, { id: "t2", kind: null }] }], exercises: ["softmax"] });
  assert.deepEqual(server.asked, ["generated/lessons/index.json", "generated/lessons/b.json"], "no other lesson's file is fetched");
  assert.deepEqual(await describeCourse(["nowhere"]), { lessons: [], exercises: [] });
});

test("the whole playground's course is every lesson in the list's order, each exercise once", async (t) => {
  useGlobals(t, { fetch: lessonServer(LESSON_FILES).fetch });
  const course = await describeCourse(null);
  assert.deepEqual(course.lessons.map((lesson) => lesson.id), ["a", "b"]);
  assert.deepEqual(course.lessons[0].steps, [{ id: "s1", kind: null }, { id: "s2", kind: "pick" }, { id: "s3", kind: "compute" }]);
  assert.deepEqual(course.exercises, ["softmax"]);
  assert.deepEqual(standing(course, {}, new Set(["softmax"])), { done: 0, steps: 5, raw: 1, max: 3, completed: false, progress: 0 });
});

test("a course whose lesson file is missing or in another format is refused", async (t) => {
  useGlobals(t, { fetch: lessonServer({ ...LESSON_FILES, a: { ...LESSON_FILES.a, format: 2 } }).fetch });
  await assert.rejects(describeCourse(["a"]), /format 2; this page reads 1/);
  useGlobals(t, { fetch: lessonServer({ index: LESSON_FILES.index }).fetch });
  await assert.rejects(describeCourse(["b"]), /HTTP 404/);
});

test("the standing counts only this course's steps, a first try exactly right, and exercises of the course", () => {
  const course = { lessons: [{ id: "a", steps: [{ id: "s1", kind: null }, { id: "s2", kind: "pick" }] }], exercises: ["attention"] };
  const lessons = {
    a: { done: ["s1", "elsewhere"], answers: { s2: { correct: true, first: { correct: 1 } } } },
    other: { done: ["s1", "s2"], answers: { s2: { first: { correct: true } } } },
  };
  assert.deepEqual(standing(course, lessons, new Set(["softmax"])), { done: 1, steps: 2, raw: 0, max: 2, completed: false, progress: 0.5 });
  const nothing = { lessons: [], exercises: [] };
  assert.deepEqual(standing(nothing, {}, new Set()), { done: 0, steps: 0, raw: 0, max: 0, completed: false, progress: 1 },
    "a course with no steps is never completed, though its progress is whole");
});

test("a launch asks for SCORM 1.2 or 2004 by its lms parameter, exactly, the first one given", () => {
  assert.equal(lmsAsked({ search: "?lms=1.2" }), "1.2");
  assert.equal(lmsAsked({ search: "?lesson=self-attention-lab&lms=2004" }), "2004");
  assert.equal(lmsAsked({ search: "?lms=1%2E2" }), "1.2", "as the address encodes it");
  assert.equal(lmsAsked({ search: "?lms=2004&lms=1.2" }), "2004");
  for (const search of ["", "?lms=", "?lms=1.3", "?lms=2004 ", "?LMS=1.2", "?lesson=a"]) assert.equal(lmsAsked({ search }), null, search);
});

// ---- tracking.js ------------------------------------------------------------------------------------------------

test("where both runtimes are offered the package's version is initialized and the other never asked", async () => {
  const lms12 = fakeLms("1.2");
  const lms2004 = fakeLms("2004");
  const content = chain({}, { API: lms12.api }, { API_1484_11: lms2004.api });
  const runtime = await initializedRuntime(content, ["2004", "1.2"], { waitMs: 0 });
  assert.equal(runtime.version, "2004");
  assert.equal(lms2004.count("initialize"), 1);
  assert.equal(lms12.calls.length, 0);
  assert.equal((await initializedRuntime(content, ["1.2", "2004"], { waitMs: 0 })).version, "1.2");
});

test("a runtime that refused or threw is asked once only, however often the search runs, and then there is none", async () => {
  let thrown = 0;
  let refused = 0;
  const content = chain({}, { API: { LMSInitialize: () => { thrown += 1; throw new Error("boom"); } }, API_1484_11: { Initialize: () => { refused += 1; return "false"; } } });
  const started = performance.now();
  assert.equal(await initializedRuntime(content, ["2004", "1.2"], { waitMs: 350 }), null);
  assert.ok(performance.now() - started >= 300, "the search went on for the whole wait");
  assert.deepEqual([thrown, refused], [1, 1]);
});

test("a runtime put in the place of one that refused is tried, and the calls then go to it", async () => {
  const refusing = { calls: 0, LMSInitialize() { this.calls += 1; return "false"; } };
  const lmsWindow = { API: refusing };
  const accepting = fakeLms("1.2");
  setTimeout(() => { lmsWindow.API = accepting.api; }, 150);
  const runtime = await initializedRuntime(chain({}, lmsWindow), ["1.2"], { waitMs: 2000 });
  assert.equal(refusing.calls, 1);
  assert.equal(runtime.commit(), true);
  assert.deepEqual(accepting.calls, [["LMSInitialize", ""], ["LMSCommit", ""]]);
});

test("a launch resumes from the LMS's record: the step, the lesson's progress and code in the page's storage, the journal's count", async (t) => {
  const kept = { lessons: { a: { step: "s2", done: ["s1"], answers: {}, edits: {} } }, code: { softmax: "def softmax(x): ..." }, order: ["code/softmax"],
    passed: ["softmax"], at: { lesson: "a", step: "s2" }, journaled: 3 };
  const lms = fakeLms("2004", { values: { "cmi.suspend_data": (await packWork(kept, 64000)).text } });
  const connection = await connectLms(chain({}, { API_1484_11: lms.api }), "2004", "page", { waitMs: 0 });
  assert.deepEqual([connection.version, connection.recorded, connection.resumeAt], ["2004", true, { lesson: "a", step: "s2" }]);
  assert.equal(workKeptBy(), "course");
  assert.deepEqual(loadProgress("page", "a"), { step: "s2", done: ["s1"], answers: {}, edits: {} });
  assert.equal(loadCode("softmax"), "def softmax(x): ...");
  fakeBrowser(t);
  const page = fakePage({ lesson: lessonState(1, { done: ["s1"] }), code: kept.code });
  await connection.track({ store: page.store, controller: page.controller }, ["a"]);
  assert.deepEqual(page.store.state.course, { recorded: true, version: "2004" });
  answer(page.store, "s2", { correct: true });
  assert.equal(lastSet(lms, "cmi.interactions.3.id"), "a/s2", "the journal goes on after the three interactions of earlier launches");
  await until(async () => (await lastSuspend(lms)).journaled === 4, "the record counting the interaction");
  assert.deepEqual((await lastSuspend(lms)).passed, ["softmax"], "an exercise passed in an earlier launch stays passed");
});

test("a launch whose LMS keeps another content's suspend_data starts from nothing, and still records", async () => {
  const lms = fakeLms("1.2", { values: { "cmi.suspend_data": "bookmark=3;score=40" } });
  const connection = await connectLms(chain({}, { API: lms.api }), "1.2", "page", { waitMs: 0 });
  assert.deepEqual([connection.version, connection.recorded, connection.resumeAt], ["1.2", true, null]);
  assert.deepEqual(lms.calls, [["LMSInitialize", ""], ["LMSGetValue", "cmi.suspend_data"]]);
});

// ---- record.js --------------------------------------------------------------------------------------------------

test("every change the record listens for is a change the page's state declares, and so is the course's", async (t) => {
  const source = readFileSync(new URL("../../js/lms/record.js", import.meta.url), "utf8");
  const listed = [...source.match(/const WORK_CHANGES = \[([^\]]*)\]/)[1].matchAll(/"([^"]+)"/g)].map((match) => match[1]);
  const tested = [...source.matchAll(/changes\.has\("([^"]+)"\)/g)].map((match) => match[1]);
  assert.ok(listed.length > 0 && tested.length > 0, "the names were found in record.js");
  for (const name of [...listed, ...tested]) assert.ok(Object.hasOwn(CHANGES, name), `"${name}" is not in state/state.js CHANGES`);

  // The names the running record asks about, heard through a spy set of changes (none of them true: it asks them all).
  fakeBrowser(t);
  const page = fakePage();
  let listener = null;
  const store = { ...page.store, subscribe: (heard) => { listener = heard; return page.store.subscribe(heard); } };
  const runtime = createRuntime("2004", fakeLms("2004").api);
  await createCourseRecord({ runtime, page: { store, controller: page.controller }, lessonIds: ["a"], resumed: emptyWork(), storage: {} }).start();
  const asked = new Set();
  listener(page.store.state, { has: (name) => { asked.add(name); return false; } });
  assert.deepEqual([...asked].sort(), [...new Set([...listed, ...tested])].sort());

  // The slice and change a launch without an LMS sets: the real store refuses any it does not declare.
  const none = await connectLms(chain({}, {}), "2004", "page", { waitMs: 0 });
  const real = createStore();
  await none.track({ store: real, controller: { actions: { notify: () => {} } } }, null);
  assert.deepEqual(real.state.course, { recorded: false, version: null });
});

test("a 2004 record's start writes the work, status, progress, score, location, session time and exit, then commits once", async (t) => {
  const record = await startedRecord(t);
  assert.deepEqual(elementsOf(record.sets()), ["cmi.suspend_data", "cmi.completion_status", "cmi.progress_measure", "cmi.score.min", "cmi.score.max",
    "cmi.score.raw", "cmi.score.scaled", "cmi.location", "cmi.session_time", "cmi.exit"]);
  const set = Object.fromEntries(record.sets());
  assert.deepEqual([set["cmi.completion_status"], set["cmi.progress_measure"], set["cmi.score.raw"], set["cmi.score.scaled"], set["cmi.location"], set["cmi.exit"]],
    ["incomplete", "0.0000", "0", "0.0000", "a/s1", "suspend"]);
  assert.match(set["cmi.session_time"], /^PT0H0M[\d.]+S$/);
  assert.deepEqual([record.count("commit"), record.count("terminate")], [1, 0]);
  const work = await lastSuspend(record);
  assert.deepEqual(work.at, { lesson: "a", step: "s1" });
  assert.deepEqual(work.lessons, { a: { step: "s1", done: [], answers: {}, edits: {} } });
  assert.equal(work.journaled, 0);
});

test("a 1.2 record's start writes cmi.core.* and neither a progress measure nor a scaled score", async (t) => {
  const record = await startedRecord(t, { version: "1.2", lesson: lessonState(2) });
  assert.deepEqual(elementsOf(record.sets()), ["cmi.suspend_data", "cmi.core.lesson_status", "cmi.core.score.min", "cmi.core.score.max", "cmi.core.score.raw",
    "cmi.core.lesson_location", "cmi.core.session_time", "cmi.core.exit"]);
  const set = Object.fromEntries(record.sets());
  assert.equal(set["cmi.core.lesson_status"], "incomplete");
  assert.equal(set["cmi.core.lesson_location"], "a/s3");
  assert.match(set["cmi.core.session_time"], /^\d{4}:\d\d:\d\d\.\d\d$/);
  assert.equal(record.count("commit"), 1);
  assert.deepEqual((await lastSuspend(record)).at, { lesson: "a", step: "s3" });
});

test("an answer is journaled and committed at once, then the record with its score and progress follows without the pause", async (t) => {
  const record = await startedRecord(t, { lesson: lessonState(1) });
  const from = record.calls.length;
  answer(record.store, "s2", { correct: true, value: [1, 2] });
  assert.deepEqual(record.sets(from).map(([element, value]) => (element.endsWith("timestamp") ? [element, "…"] : [element, value])), [
    ["cmi.interactions.0.id", "a/s2"], ["cmi.interactions.0.type", "other"], ["cmi.interactions.0.learner_response", "[1,2]"],
    ["cmi.interactions.0.result", "correct"], ["cmi.interactions.0.timestamp", "…"], ["cmi.interactions.0.description", "pick question, attempt 1"]]);
  assert.deepEqual(record.calls.at(-1), ["Commit", ""], "committed before anything else");
  await until(() => record.count("commit") === 3, "the record after the answer");
  const after = record.sets(from).filter(([element]) => !element.startsWith("cmi.interactions."));
  assert.deepEqual(elementsOf(after), ["cmi.suspend_data", "cmi.progress_measure", "cmi.score.raw", "cmi.score.scaled", "cmi.session_time"],
    "only what changed: not the status, the location, the exit nor the score's bounds");
  assert.deepEqual(Object.fromEntries(after.slice(1, 4)), { "cmi.progress_measure": "0.3333", "cmi.score.raw": "50", "cmi.score.scaled": "0.5000" });
  const work = await lastSuspend(record);
  assert.equal(work.journaled, 1);
  assert.deepEqual(work.lessons.a.answers.s2.first, { correct: true, score: 1 });
});

test("in 1.2 a wrong answer is journaled as wrong fill-in, and a right second try goes next without raising the score", async (t) => {
  const record = await startedRecord(t, { version: "1.2", lesson: lessonState(1) });
  answer(record.store, "s2", { correct: false, value: 3 });
  answer(record.store, "s2", { correct: true, value: 2 });
  const set = Object.fromEntries(record.sets());
  assert.deepEqual([set["cmi.interactions.0.type"], set["cmi.interactions.0.student_response"], set["cmi.interactions.0.result"]], ["fill-in", "3", "wrong"]);
  assert.deepEqual([set["cmi.interactions.1.id"], set["cmi.interactions.1.result"]], ["a/s2", "correct"]);
  assert.ok(!Object.keys(set).some((element) => element.endsWith(".description")));
  await until(async () => (await lastSuspend(record)).journaled === 2, "the record after both answers");
  assert.deepEqual(record.sets().filter(([element]) => element === "cmi.core.score.raw"), [["cmi.core.score.raw", "0"]], "only the first try counts");
  assert.equal((await lastSuspend(record)).lessons.a.answers.s2.attempts, 2);
});

test("an answer is journaled once: not the one announced before tracking began, nor again on a later change of the lesson", async (t) => {
  const earlier = { lesson: "a", step: "s2", kind: "pick", answer: 1, correct: true, attempts: 1 };
  const record = await startedRecord(t, { lesson: lessonState(1, { answered: { count: 1, event: earlier } }) });
  const ids = () => record.sets().filter(([element]) => element.endsWith(".id"));
  assert.deepEqual(ids(), []);
  record.store.update({ lesson: { ...record.store.state.lesson, status: "judging" } }, "lesson");
  assert.deepEqual(ids(), []);
  answer(record.store, "s3", { correct: false, kind: "compute" });
  record.store.update({ lesson: { ...record.store.state.lesson, status: "ready" } }, "lesson");
  assert.deepEqual(ids(), [["cmi.interactions.0.id", "a/s3"]]);
});

test("the last step done completes the lesson: 2004 then exits normal, 1.2 with an empty exit", async (t) => {
  for (const [version, status, exit] of [["2004", "cmi.completion_status", "cmi.exit"], ["1.2", "cmi.core.lesson_status", "cmi.core.exit"]]) {
    await t.test(version, async (t) => {
      const record = await startedRecord(t, { version, lesson: lessonState(2, { done: ["s1", "s2"] }) });
      assert.equal(lastSet(record, status), "incomplete");
      answer(record.store, "s3", { correct: true, kind: "compute" });
      await until(() => lastSet(record, status) === "completed", "the completed status");
      assert.equal(lastSet(record, exit), version === "2004" ? "normal" : "");
      if (version === "2004") assert.equal(lastSet(record, "cmi.progress_measure"), "1.0000");
    });
  }
});

test("moving between steps is written once the moves pause: the new location and the step in suspend_data, nothing else", async (t) => {
  const record = await startedRecord(t);
  const from = record.calls.length;
  record.store.update({ lesson: { ...record.store.state.lesson, step: 1 } }, "lesson");
  record.store.update({ lesson: { ...record.store.state.lesson, step: 2 } }, "lesson");
  await sleep(250);
  assert.deepEqual(record.calls.slice(from), [], "nothing written while the learner is still moving");
  await until(() => record.count("commit") === 2, "the debounced record");
  assert.deepEqual(elementsOf(record.sets(from)), ["cmi.suspend_data", "cmi.location", "cmi.session_time"]);
  assert.equal(lastSet(record, "cmi.location"), "a/s3");
  assert.deepEqual((await lastSuspend(record)).at, { lesson: "a", step: "s3" });
});

test("a burst of scene edits and storage writes that changes no work sends the session time once and commits nothing", async (t) => {
  const record = await startedRecord(t);
  const from = record.calls.length;
  record.writeScene({ edited: true }, "values");
  record.writeScene({ edited: true }, "shape", "labels");
  record.storage.onChange();
  await until(() => record.sets(from).length > 0, "the debounced save");
  await sleep(50);
  assert.deepEqual(elementsOf(record.sets(from)), ["cmi.session_time"]);
  assert.equal(record.count("commit"), 1, "only the start's commit");
  record.writeScene({ focusToken: 1 }, "focus");
  await sleep(450);
  assert.equal(record.sets(from).length, 1, "a change that is no work's writes nothing");
});

test("a hidden page writes its record and commits even with nothing changed; a page shown again does neither", async (t) => {
  const record = await startedRecord(t);
  const from = record.calls.length;
  record.show();
  await sleep(20);
  assert.deepEqual(record.calls.slice(from), []);
  await hideAndWait(record);
  assert.deepEqual(record.calls.slice(from).map(([name, element]) => (name === "SetValue" ? element : name)), ["cmi.session_time", "cmi.session_time", "Commit"],
    "the save's session time, then the session's end as it would be now");
  assert.equal(record.count("terminate"), 0);
});

test("leaving sets the session time, commits and terminates once; a save pending then, or a later hide, writes nothing", async (t) => {
  const record = await startedRecord(t);
  record.store.update({ lesson: { ...record.store.state.lesson, step: 1 } }, "lesson"); // a save waits for the pause
  const from = record.calls.length;
  record.leave();
  assert.deepEqual(record.calls.slice(from).map(([name, element]) => (name === "SetValue" ? element : name)), ["cmi.session_time", "Commit", "Terminate"]);
  record.leave();
  record.hide();
  await sleep(500);
  assert.equal(record.calls.length, from + 3, "nothing after Terminate");
  assert.equal(lastSet(record, "cmi.location"), "a/s1");
});

test("an answer after leaving (a page brought back from the browser's cache) sends nothing after Terminate", async (t) => {
  const record = await startedRecord(t);
  record.leave();
  const from = record.calls.length;
  answer(record.store, "s2", { correct: true });
  await sleep(500);
  assert.deepEqual(record.calls.slice(from), [], "no call after Terminate");
});

test("the edits are kept oldest first: an edit changed becomes the newest, an edit gone leaves the order", async (t) => {
  const edits = { s1: { X: [[1]] } };
  const resumed = { ...emptyWork(), lessons: { a: { step: "s1", done: [], answers: {}, edits } }, code: { softmax: "x = 1" },
    order: [editKeys.lesson("a", "s1"), editKeys.code("softmax")] };
  const record = await startedRecord(t, { resumed, lesson: lessonState(0, { edits }), code: resumed.code });
  assert.deepEqual((await lastSuspend(record)).order, ["lesson/a/s1", "code/softmax"]);
  record.store.update({ lesson: { ...record.store.state.lesson, edits: { s1: { X: [[2]] } } } }, "lesson");
  await hideAndWait(record);
  assert.deepEqual((await lastSuspend(record)).order, ["code/softmax", "lesson/a/s1"]);
  record.work.code = {};
  await hideAndWait(record);
  const work = await lastSuspend(record);
  assert.deepEqual(work.order, ["lesson/a/s1"]);
  assert.deepEqual(work.code, {});
  assert.deepEqual(work.lessons.a.edits, { s1: { X: [[2]] } });
});

test("each new run of an exercise's checks is journaled, not committed at once, and a passing one raises the score", async (t) => {
  const record = await startedRecord(t, { lessonIds: null, lesson: null });
  assert.equal(lastSet(record, "cmi.score.raw"), "0");
  const failing = { exercise: "softmax", passed: false, checks: [{ passed: true }, { passed: false }, { passed: true }], attempts: 1 };
  record.store.update({ exercises: { softmax: failing } }, "exercises");
  const set = Object.fromEntries(record.sets());
  assert.deepEqual([set["cmi.interactions.0.id"], set["cmi.interactions.0.learner_response"], set["cmi.interactions.0.result"], set["cmi.interactions.0.description"]],
    ["exercise/softmax", "2 of 3 checks passed", "incorrect", "exercise softmax, run 1"]);
  assert.equal(record.count("commit"), 1, "a run waits for the debounced record");
  record.store.update({ exercises: { softmax: failing } }, "exercises");
  assert.equal(record.sets().filter(([element]) => element.endsWith(".id")).length, 1, "the same run is not journaled twice");
  const passing = { ...failing, passed: true, checks: [{ passed: true }], attempts: 2 };
  record.store.update({ exercises: { softmax: passing } }, "exercises");
  assert.equal(lastSet(record, "cmi.interactions.1.result"), "correct");
  await hideAndWait(record);
  assert.equal(lastSet(record, "cmi.score.raw"), "33.33", "one exercise passed of two questions and one exercise");
  assert.deepEqual((await lastSuspend(record)).passed, ["softmax"]);
});

test("a run of the checks from before tracking began is not journaled again, though its pass still counts", async (t) => {
  const run = { exercise: "softmax", passed: true, checks: [{ passed: true }], attempts: 4 };
  const record = await startedRecord(t, { lessonIds: ["b"], lesson: null, exercises: { softmax: run } });
  record.store.update({ exercises: { softmax: run } }, "exercises");
  assert.ok(!record.sets().some(([element]) => element.startsWith("cmi.interactions.")));
  assert.equal(lastSet(record, "cmi.score.raw"), "100");
});

test("with no lesson open the record keeps no step and sets no location, and counts every lesson of the playground", async (t) => {
  const record = await startedRecord(t, { lessonIds: null, lesson: null, kept: { a: { step: "s3", done: ["s1", "s2", "s3"], answers: {}, edits: {} } } });
  assert.ok(!record.sets().some(([element]) => element === "cmi.location"));
  const work = await lastSuspend(record);
  assert.equal(work.at, null);
  assert.deepEqual(Object.keys(work.lessons), ["a"]);
  assert.equal(lastSet(record, "cmi.progress_measure"), "0.6000", "three steps done of five");
  assert.equal(lastSet(record, "cmi.completion_status"), "incomplete");
});

test("a 1.2 record over its 4,096 characters leaves the oldest edit out and tells the learner once", async (t) => {
  const code = { softmax: noise(11, 2500), attention: noise(12, 2500) };
  const resumed = { ...emptyWork(), code, order: [editKeys.code("softmax"), editKeys.code("attention")] };
  const record = await startedRecord(t, { version: "1.2", resumed, code });
  const kept = lastSet(record, "cmi.suspend_data");
  assert.ok(kept.length <= 4096);
  assert.deepEqual(Object.keys((await unpackWork(kept)).code), ["attention"]);
  assert.deepEqual(record.notices, [["Your course keeps 4,096 characters of your work, so your oldest edit is no longer kept; "
    + "where you are, your answers and your latest edits are.", "warning"]]);
  await hideAndWait(record);
  assert.equal(record.notices.length, 1, "not told again while no more is left out");
});

test("where the answers alone are over the limit the learner is warned that leaving would lose some", async (t) => {
  const answers = { s2: { kind: "pick", answer: noise(13, 6000), correct: false, score: 0, feedback: "", attempts: 1, first: { correct: false, score: 0 } } };
  const record = await startedRecord(t, { version: "1.2", lesson: lessonState(1, { answers }) });
  assert.deepEqual(record.notices, [["Your course keeps 4,096 characters of your work, and your answers alone need more: leaving now would lose some of them.", "warning"]]);
  assert.ok(lastSet(record, "cmi.suspend_data").length > 4096, "the LMS is given the whole of it, to keep what it can");
});
