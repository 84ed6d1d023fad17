/**
 * The learner's record in the LMS, kept up to date while the page runs (tracking.js connects it): the work in
 * suspend_data, the status, progress, score and location, an interaction for each answer and each run of the
 * checks, the session's time and its exit; a commit after each answer at once, after other changes (debounced) and
 * when the page is hidden, and on leaving a last commit and the end.
 *
 * The record is whole after every commit, not only at the end: some LMSs end the session themselves as the learner
 * leaves (wagtail-lms commits and terminates from its own `beforeunload`, before this page hears of leaving), and what the
 * page would set then is lost.
 */

import { describeCourse, standing } from "./course.js";
import { scoreElements } from "./runtime.js";
import { editKeys, packWork } from "./suspend-data.js";
import { learnerWork } from "../work/learner-work.js";

/** How long the page waits after a change before it writes the record (a burst of typing is one write). */
const SAVE_DELAY_MS = 400;
/** The changes (state/state.js CHANGES) that can change the learner's work: the scene's edits, the lesson, the runs. */
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
 * Each answer and each run of the checks, journaled as an interaction (an answer committed at once). Returns the
 * function the store's changes go to, which says whether an answer was journaled.
 * @param {ReturnType<import("./runtime.js").createRuntime>} runtime
 * @param {object} state the state when tracking starts (what was answered and run before is not journaled again)
 */
function createJournal(runtime, state) {
  const told = { answer: state.lesson?.answered?.event ?? null, runs: new Map(Object.entries(state.exercises)) };
  return (next, changes) => {
    let answered = false;
    const event = next.lesson?.answered?.event;
    if (changes.has("lesson") && event && event !== told.answer) {
      told.answer = event;
      runtime.interaction({ id: `${event.lesson}/${event.step}`, type: "other", response: JSON.stringify(event.answer), correct: event.correct,
        description: `${event.kind} question, attempt ${event.attempts}` });
      // Committed at once, and the record that counts it follows without the pause a burst of edits gets: a
      // learner who answers and leaves has both with the LMS.
      runtime.commit();
      answered = true;
    }
    for (const [id, run] of changes.has("exercises") ? Object.entries(next.exercises) : []) {
      if (told.runs.get(id) === run) continue;
      told.runs.set(id, run);
      const passedChecks = run.checks.filter((check) => check.passed).length;
      runtime.interaction({ id: `exercise/${id}`, type: "other", response: `${passedChecks} of ${run.checks.length} checks passed`, correct: run.passed,
        description: `exercise ${id}, run ${run.attempts}` });
    }
    return answered;
  };
}

/**
 * The learner's edits, oldest first (suspend_data leaves the oldest out first when the work does not fit).
 * @param {{lessons: object, code: object, order: string[]}} resumed
 */
function createEditOrder(resumed) {
  let order = [...resumed.order];
  const seen = editsOf({ lessons: resumed.lessons, exercises: { code: resumed.code } });
  return {
    /** Move each edit that is new or changed to the end (the newest), and forget the ones gone. */
    note(work) {
      const now = editsOf(work);
      for (const [key, text] of now) {
        if (seen.get(key) === text) continue;
        seen.set(key, text);
        order = [...order.filter((kept) => kept !== key), key];
      }
      order = order.filter((key) => now.has(key));
      return order;
    },
  };
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
  const edits = createEditOrder(resumed);
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

  /** The session's time so far and how it would end now: set with every commit, so the LMS has them whenever it
   * ends the session. */
  function setSessionEnd(completed) {
    runtime.sessionTime((performance.now() - startedAt) / 1000);
    return setIfNew("exit", completed ? (runtime.version === "2004" ? "normal" : "") : "suspend");
  }

  function report(work) {
    const now = standing(course, work.lessons, passed);
    const score = scoreElements(runtime.version, now.raw, now.max);
    let changed = setIfNew("suspendData", packed.text);
    changed = setIfNew("status", now.completed ? "completed" : "incomplete") || changed;
    changed = setIfNew("progress", now.progress.toFixed(4)) || changed;
    for (const name of ["min", "max", "raw", "scaled"]) if (score[name] !== null) changed = setIfNew(name, score[name]) || changed;
    const lesson = store.state.lesson;
    if (lesson) changed = setIfNew("location", `${lesson.id}/${lesson.steps[lesson.step].id}`) || changed;
    changed = setSessionEnd(now.completed) || changed;
    if (changed) runtime.commit();
    if (packed.dropped.length > droppedTold || !packed.fits) controller.actions.notify(droppedNotice(runtime.suspendLimit, packed), { tone: "warning" });
    droppedTold = packed.dropped.length;
  }

  /** The step on screen, so that a launch of the whole playground's package resumes there. */
  function currentStep() {
    const lesson = store.state.lesson;
    return lesson ? { lesson: lesson.id, step: lesson.steps[lesson.step].id } : null;
  }

  async function save() {
    if (finished) return;
    const work = await learnerWork(page);
    for (const [id, run] of Object.entries(work.exercises.results)) if (run.passed) passed.add(id);
    const order = edits.note(work);
    const lessons = Object.fromEntries(Object.entries(work.lessons).map(([id, { step, done, answers, edits }]) => [id, { step, done, answers, edits }]));
    const kept = { lessons, code: work.exercises.code, order, passed: [...passed], at: currentStep(), journaled: runtime.journaled() };
    const result = await packWork(kept, runtime.suspendLimit);
    if (finished) return;
    packed = result;
    report(work);
  }

  /** Write the record now (after the saves already under way). */
  const saveNow = () => {
    clearTimeout(timer);
    saving = saving.then(save).catch(() => {});
    return saving;
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(saveNow, SAVE_DELAY_MS);
  };

  /** Leaving: the last record, the session's time and how it ended, a commit, the end. */
  function finish() {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    if (packed) setIfNew("suspendData", packed.text);
    setSessionEnd(written.get("status") === "completed");
    runtime.commit();
    runtime.terminate();
  }

  /** The page hidden (another tab, the LMS's own navigation, a phone's app switcher): the record written now, and
   * committed, since the page may never be shown, or hear of leaving, again. */
  function onHidden() {
    if (document.visibilityState !== "hidden" || finished) return;
    saveNow().then(() => {
      if (finished) return;
      setSessionEnd(written.get("status") === "completed");
      runtime.commit();
    });
  }

  return {
    async start() {
      course = await describeCourse(lessonIds);
      const journal = createJournal(runtime, store.state);
      store.subscribe((state, changes) => {
        // Once the session is terminated nothing more is sent: a page brought back from the browser's cache keeps
        // its store, but the LMS accepts no call after Terminate.
        if (finished) return;
        if (journal(state, changes)) saveNow();
        else if (WORK_CHANGES.some((name) => changes.has(name))) schedule();
      });
      storage.onChange = schedule;
      window.addEventListener("pagehide", finish);
      document.addEventListener("visibilitychange", onHidden);
      await save();
    },
  };
}
