/**
 * The learner's record in the LMS, kept up to date while the page runs (tracking.js connects it): the work in
 * suspend_data, the status, progress, score and location, an interaction for each answer and each run of the
 * checks; a commit after each change (debounced), and on leaving the session time, the exit, a commit and the end.
 */

import { describeCourse, standing } from "./course.js";
import { editKeys, packWork } from "./suspend-data.js";
import { learnerWork } from "../page/learner-work.js";

/** How long the page waits after a change before it writes the record (a burst of typing is one write). */
const SAVE_DELAY_MS = 400;
/** The changes (page/state.js CHANGES) that can change the learner's work: the scene's edits, the lesson, the runs. */
const WORK_CHANGES = ["scene", "shape", "labels", "values", "mode", "lesson", "exercises"];

/** The edits in `work`, by key (suspend-data.js), each as text to compare. */
function editsOf(work) {
  const edits = new Map();
  for (const [lesson, progress] of Object.entries(work.lessons)) {
    for (const [step, draft] of Object.entries(progress.edits ?? {})) edits.set(editKeys.lesson(lesson, step), JSON.stringify(draft));
  }
  for (const [id, text] of Object.entries(work.exercises.code)) edits.set(editKeys.code(id), text);
  return edits;
}

/** The sentence that tells the learner which of their edits the LMS no longer keeps. */
function droppedNotice(limit, { dropped, fits }) {
  const size = `Your course keeps ${limit.toLocaleString("en")} characters of your work`;
  if (!fits) return `${size}, and your answers alone need more: leaving now would lose some of them.`;
  const edits = dropped.length === 1 ? "your oldest edit is" : `your ${dropped.length} oldest edits are`;
  return `${size}, so ${edits} no longer kept; where you are, your answers and your latest edits are.`;
}

/**
 * @param {object} options
 * @param {ReturnType<import("./runtime.js").createRuntime>} options.runtime
 * @param {{store: object, controller: object}} options.page the running page
 * @param {string[]|null} options.lessonIds the package's lessons (null: every lesson)
 * @param {{lessons: object, code: object, order: string[], passed: string[]}} options.resumed the work the LMS kept
 * @param {{onChange: () => void}} options.storage the work storage (tracking.js), which says when it is written to
 */
export function createCourseRecord({ runtime, page, lessonIds, resumed, storage }) {
  const { store, controller } = page;
  const startedAt = performance.now();
  const passed = new Set(resumed.passed);
  let order = [...resumed.order];
  const seen = editsOf({ lessons: resumed.lessons, exercises: { code: resumed.code } });
  const written = new Map(); // element → the value last set, so only changes are sent
  let course = null;
  let packed = null;
  let droppedTold = 0;
  let finished = false;
  let timer = null;
  let saving = Promise.resolve();

  const setIfNew = (name, value) => {
    if (!runtime.has(name) || written.get(name) === String(value)) return false;
    written.set(name, String(value));
    return runtime.set(name, value);
  };

  /** Move each edit that is new or changed to the end of `order` (the newest), and forget the ones gone. */
  function noteEdits(work) {
    const now = editsOf(work);
    for (const [key, text] of now) {
      if (seen.get(key) === text) continue;
      seen.set(key, text);
      order = [...order.filter((kept) => kept !== key), key];
    }
    order = order.filter((key) => now.has(key));
  }

  function report(work) {
    const now = standing(course, work.lessons, passed);
    let changed = setIfNew("suspendData", packed.text);
    changed = setIfNew("status", now.completed ? "completed" : "incomplete") || changed;
    changed = setIfNew("progress", now.progress.toFixed(4)) || changed;
    changed = setIfNew("min", 0) || changed;
    changed = setIfNew("max", now.max) || changed;
    changed = setIfNew("raw", now.raw) || changed;
    changed = setIfNew("scaled", now.max ? (now.raw / now.max).toFixed(4) : 0) || changed;
    const lesson = store.state.lesson;
    if (lesson) changed = setIfNew("location", `${lesson.id}/${lesson.steps[lesson.step].id}`) || changed;
    if (changed) runtime.commit();
    if (packed.dropped.length > droppedTold || !packed.fits) controller.actions.notify(droppedNotice(runtime.suspendLimit, packed), { tone: "warning" });
    droppedTold = packed.dropped.length;
  }

  async function save() {
    if (finished) return;
    const work = await learnerWork(page);
    for (const [id, run] of Object.entries(work.exercises.results)) if (run.passed) passed.add(id);
    noteEdits(work);
    const lessons = Object.fromEntries(Object.entries(work.lessons).map(([id, { step, done, answers, edits }]) => [id, { step, done, answers, edits }]));
    const result = await packWork({ lessons, code: work.exercises.code, order, passed: [...passed] }, runtime.suspendLimit);
    if (finished) return;
    packed = result;
    report(work);
  }

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      saving = saving.then(save).catch(() => {});
    }, SAVE_DELAY_MS);
  };

  /** Each answer and each run of the checks, journaled as an interaction. */
  function journal(state, changes, told) {
    const event = state.lesson?.answered?.event;
    if (changes.has("lesson") && event && event !== told.answer) {
      told.answer = event;
      runtime.interaction({ id: `${event.lesson}/${event.step}`, type: "other", response: JSON.stringify(event.answer), correct: event.correct,
        description: `${event.kind} question, attempt ${event.attempts}` });
    }
    for (const [id, run] of changes.has("exercises") ? Object.entries(state.exercises) : []) {
      if (told.runs.get(id) === run) continue;
      told.runs.set(id, run);
      const passedChecks = run.checks.filter((check) => check.passed).length;
      runtime.interaction({ id: `exercise/${id}`, type: "other", response: `${passedChecks} of ${run.checks.length} checks passed`, correct: run.passed,
        description: `exercise ${id}, run ${run.attempts}` });
    }
  }

  /** Leaving: the last record, the session's time and how it ended, a commit, the end. */
  function finish() {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    if (packed) setIfNew("suspendData", packed.text);
    runtime.sessionTime((performance.now() - startedAt) / 1000);
    const completed = written.get("status") === "completed";
    runtime.set("exit", completed ? (runtime.version === "2004" ? "normal" : "") : "suspend");
    runtime.commit();
    runtime.terminate();
  }

  return {
    async start() {
      course = await describeCourse(lessonIds);
      const told = { answer: store.state.lesson?.answered?.event ?? null, runs: new Map(Object.entries(store.state.exercises)) };
      store.subscribe((state, changes) => {
        journal(state, changes, told);
        if (WORK_CHANGES.some((name) => changes.has(name))) schedule();
      });
      storage.onChange = schedule;
      window.addEventListener("pagehide", finish);
      await save();
    },
  };
}
