/**
 * Lessons as the learner follows them: which lesson, which step, what they answered, where they left it. A lesson
 * is a compiled file (generated/lessons/<id>.json, written by the build from lessons/<id>.md); its steps go on the
 * page through lesson-steps.js and its questions are judged through lesson-answers.js. The lesson files load when
 * a lesson opens: they are not part of the page's first view.
 *
 * State: `state.lesson` (change "lesson"), null while no lesson is open (state/state.js says its shape). Progress is
 * kept in this browser (sharing/lesson-progress.js) and resumed when the lesson opens again.
 */

import { forgetProgress, loadProgress, rememberLessonOpen, saveProgress } from "../sharing/lesson-progress.js";
import { createLessonAnswers } from "./lesson-answers.js";
import { createStepShower } from "./lesson-steps.js";
import { lessonFields } from "../sharing/links.js";
import { compileLessonFile, sourceName } from "./lesson-sources.js";
import { watchFiles } from "./lesson-preview.js";

/** How long the panels a step changed wait for its question at most (while Python runs the model, say). */
const PANELS_WAIT_AT_MOST_MS = 500;

/** The index of the step `wanted` names (its id, or its number from 1; or the first of a list that names one), or null. */
function stepIndex(lesson, wanted) {
  if (Array.isArray(wanted)) return wanted.map((each) => stepIndex(lesson, each)).find((index) => index !== null) ?? null;
  if (wanted === null || wanted === undefined || wanted === "") return null;
  const byId = lesson.steps.findIndex((step) => step.id === String(wanted));
  if (byId >= 0) return byId;
  const number = Number(wanted);
  return Number.isInteger(number) && number >= 1 && number <= lesson.steps.length ? number - 1 : null;
}

/** What a course page or a test may see of a step: everything but how its question is judged. */
function publicStep(step, index, count, asked) {
  return { id: step.id, number: index + 1, of: count, title: step.title, kind: step.question?.kind ?? null, question: asked ?? null };
}

/**
 * The scene step `at` of `lesson` opens on: its own, or the learner's `edits` of it; for a step that keeps the scene
 * on show, the scene as it is when the learner comes from the step before (`fromBefore`), else the scene of the
 * nearest step before it that names one (a link or the map jumped there), with the learner's edits of that step.
 */
function sceneFor(lesson, at, edits, fromBefore) {
  const step = lesson.steps[at];
  if (edits[step.id]) return { edited: edits[step.id] };
  if (step.scene || fromBefore) return {};
  for (let before = at - 1; before >= 0; before -= 1) {
    const earlier = lesson.steps[before];
    if (edits[earlier.id]) return { edited: edits[earlier.id] };
    if (earlier.scene) return { sceneStep: earlier };
  }
  return {};
}

/** The open lesson's edits, with the draft on show as the edit of `step` if the learner changed it. */
function editsWithDraft(state, step) {
  const { edits } = state.lesson;
  return state.edited && state.draft && edits[step.id] !== state.draft ? { ...edits, [step.id]: state.draft } : edits;
}

/**
 * Run `open` (a step put on the page, its question asked and drawn) with the deferred views held
 * (`store.hold`: redraw-schedule.js): the question is drawn and painted first, then the grids the step's scene rebuilds and the
 * views below. Resolves with what `open` returns once those are drawn too. While Python starts (not `live`) the
 * question waits for it, and the panels do not.
 */
async function questionFirst(live, hold, open) {
  if (!live) return open();
  const release = hold();
  const giveUp = setTimeout(release, PANELS_WAIT_AT_MOST_MS);
  try {
    return await open();
  } finally {
    clearTimeout(giveUp);
    await release();
  }
}

/**
 * Show `step` (lesson-steps.js) and ask Python its question as soon as the step's scene is known, ahead of the
 * scene's own computation: {asking}, the question as asked (null for a step that asks none), once the scene is shown;
 * nothing is shown once `wanted()` is false (the learner left the lesson, or went to another step, meanwhile).
 */
async function showAsking(steps, python, step, opening, wanted) {
  let asking = Promise.resolve(null);
  await steps.show(step, opening, (scene) => {
    if (!step.question) return;
    asking = python.lessonAsk({ question: step.question, scene });
    asking.catch(() => {}); // a failure is met by the caller, or not at all when showing the scene failed first
  }, wanted);
  return { asking };
}

/** Every lesson's progress kept in `mode`: {[id]: {step, done, answers, edits}}. */
async function keptWork(files, mode) {
  return Object.fromEntries((await files.list()).map(({ id }) => [id, loadProgress(mode, id)]).filter(([, work]) => work));
}

/** The open lesson's progress as it is now, {[id]: progress}, the scene edited on its step on show included; {} if none. */
function openWork(state, shown) {
  const { lesson } = state;
  if (!lesson || !shown) return {};
  return { [lesson.id]: { step: shown.step.id, done: lesson.done, answers: lesson.answers, edits: editsWithDraft(state, shown.step) } };
}

/**
 * "My answers" as a file: the open `lesson`'s answers as CSV, or its `progress` (lessonProgress) as JSON.
 * @param {object|null} lesson state.lesson
 * @param {object|null} progress
 * @param {string} format "csv" or "json"
 */
async function downloadAnswers(lesson, progress, format) {
  if (!lesson) return;
  const { answersCsv, downloadBlob } = await import("../sharing/export.js");
  const name = `${lesson.id}-answers.${format === "json" ? "json" : "csv"}`;
  const text = format === "json" ? `${JSON.stringify(progress, null, 2)}\n` : answersCsv(lesson);
  downloadBlob(new Blob([text], { type: format === "json" ? "application/json" : "text/csv" }), name);
}

/**
 * The steps of kept progress that are done as a step is done now: a question once answered right. (Progress kept
 * before counted a question done once answered at all: a question whose answers were all wrong is not done.)
 * @param {Array<{id: string, kind: string|null}>} steps
 * @param {{done: string[], answers: {[id: string]: {correct: boolean, right?: boolean}}}} kept
 */
function trulyDone(steps, kept) {
  const asks = new Set(steps.filter((step) => step.kind).map((step) => step.id));
  const neverRight = (id) => kept.answers[id] && !kept.answers[id].right && !kept.answers[id].correct;
  return kept.done.filter((id) => !asks.has(id) || !neverRight(id));
}

/**
 * A lesson's state as it opens: its steps (`listed`, from the list of lessons), the progress `kept`, nothing asked
 * yet; `arrival` says who opened it ({by, count}: lesson-panel.js brings the step to the learner for some); `src` the
 * address of a course's own lesson file it was loaded from (null for a built lesson).
 */
function openingState(lesson, listed, kept, arrival, src) {
  return { id: listed.id, src, title: lesson.title, source: lesson.source, steps: listed.steps, step: 0, done: trulyDone(listed.steps, kept),
    answers: kept.answers, edits: kept.edits, status: "loading", message: "", asked: null, check: null, hintsShown: 0,
    answered: { count: 0, event: null }, unsaved: false, arrival };
}

/**
 * The address names the step on show (`#lesson=ID&step=STEP-ID`, or `#lesson-src=URL&step=STEP-ID` for a course's
 * own file, with `&preview` while it is previewed: links.js lessonFields), so a step can be bookmarked or shared as it
 * is; with no lesson open, no lesson's hash. Replaced, not pushed: Back leaves the page, as before, and no
 * `hashchange` opens the step a second time.
 * @param {object|null} lesson state.lesson, or null once it is left
 * @param {string} [stepId]
 * @param {boolean} [preview]
 */
function showInAddress(lesson, stepId, preview = false) {
  const hash = lesson ? `#${lessonFields(lesson, stepId)}${preview ? "&preview" : ""}` : "";
  if (!lesson && !/^#lesson(-src)?=/.test(location.hash)) return; // another link's hash is not ours to clear
  history.replaceState(history.state, "", `${location.pathname}${location.search}${hash}`);
}

/**
 * @param {object} options
 * @param {ReturnType<import("../state/session.js").createStore>} options.store
 * @param {ReturnType<import("../service/service.js").createPythonService>} options.python
 * @param {ReturnType<import("../state/session.js").createSceneSession>} options.session
 * @param {object} options.loader the scene loader (scene-loader.js)
 * @param {object} options.presets the examples (presets.js)
 * @param {(patch: object) => void} options.setView
 * @param {object} options.model the model panel's controller (model.js)
 * @param {object} options.claims "Test a claim"'s controller (claims.js)
 * @param {string} options.mode where progress is kept: "page", or "embed" in a course page's frame
 * @param {ReturnType<import("./lesson-files.js").createLessonFiles>} options.files the lesson files, fetched once
 * @param {{pageOrigin: string, origins: string[]|null}} [options.allowed] where a course's own lesson file may come
 *   from (lesson-sources.js): the page's origin, and a frame's `origins=`; by default the page's origin alone
 */
export function createLessonController({ allowed = null, ...options }) {
  // The address each lesson loaded from a course's own file came from, by the lesson's id: {url, preview}.
  const fetchedFrom = new Map();
  const { actions } = createLessonPlayer({ ...options, fetchedFrom });
  const { store, python, files } = options;
  let watching = null; // the file being previewed: {url, files: the URLs watched, step: the step to reopen at, watcher}

  /** While an author previews a file (`preview`), watch it and the scene files it named; a save reloads it. */
  function follow(source, watched) {
    if (watching?.url !== source.url) {
      watching?.watcher.stop();
      const followed = { url: source.url, files: [], step: null, watcher: null };
      followed.watcher = watchFiles(() => followed.files, { changed: () => reload(source, followed) });
      watching = followed;
    }
    watching.files = watched;
  }
  /**
   * The file changed: load it again at the step on show (or the one shown before its mistakes), found by its id, or
   * by its number where the author renamed it (a step's id is its title's, unless it has one of its own).
   */
  function reload(source, followed) {
    const { lesson } = store.state;
    if (lesson) followed.step = [lesson.steps[lesson.step].id, lesson.step + 1];
    return loadLesson(source, { step: followed.step }).catch(() => {});
  }

  /**
   * Load a course's own lesson file and open it at `step` as `openLesson` does: `source` is {url, preview?}
   * (`lesson-src=`; `preview` reloads it at every save) or {markdown, name?, base?} (lessonsLoad). Resolves with the
   * step, or with {problems} (the file's mistakes, shown in the player in place of a step) or {problem} (why it could
   * not be had); a learner never sees half a lesson. A lesson on show stays until the file has compiled.
   */
  async function loadLesson(source, { step = null, by = "script" } = {}) {
    if (!store.state.lesson) store.update({ lessonFile: { name: sourceName(source), status: "loading", problems: [], message: "" } }, "lesson");
    const compile = (request) => python.lessonCompile(request);
    const outcome = await compileLessonFile(source, { compile, allowed: allowed ?? { pageOrigin: location.origin, origins: null } });
    if (source.preview && typeof source.url === "string") follow(source, outcome.watched);
    if (outcome.file) {
      actions.closeLesson(); // the lesson on show (its progress kept) gives way to the file's mistakes
      store.update({ lessonFile: outcome.file }, "lesson");
      return outcome.file.problems.length ? { problems: structuredClone(outcome.file.problems) } : { problem: outcome.file.message };
    }
    files.add(outcome.entry, outcome.lesson);
    if (typeof source.url === "string") fetchedFrom.set(outcome.entry.id, { url: source.url, preview: Boolean(source.preview) });
    if (store.state.lessonFile) store.update({ lessonFile: null }, "lesson");
    return actions.openLesson(outcome.entry.id, { step, by });
  }
  /** Leave the lesson, or the file's mistakes: a file previewed is no longer watched. */
  function closeLesson() {
    watching?.watcher.stop();
    watching = null;
    actions.closeLesson();
  }
  return { actions: { ...actions, loadLesson, closeLesson } };
}

/**
 * The player's side of the controller: lessons opened by id, their steps, answers and progress (createLessonController's
 * options, and `fetchedFrom`: the address each lesson loaded from a course's own file came from, by id).
 */
function createLessonPlayer({ store, python, session, loader, presets, setView, model, claims, mode, files, fetchedFrom }) {
  let shown = null; // {lesson, step} on the page now
  let openings = 0; // lessons opened so far: each opening's `arrival` is told apart by its count
  const update = (patch) => store.update({ lesson: { ...store.state.lesson, ...patch } }, "lesson");
  const steps = createStepShower({ session, loader, presets, setView, view: () => store.state.view, model, claims });

  /** The progress worth keeping: where the learner is, what is done and answered, and the current step's edits. */
  function save() {
    const lesson = store.state.lesson;
    if (!lesson || !shown) return;
    const edits = editsWithDraft(store.state, shown.step);
    if (edits !== lesson.edits) update({ edits });
    const kept = saveProgress(mode, lesson.id, { step: shown.step.id, done: lesson.done, answers: lesson.answers, edits });
    if (!kept && !lesson.unsaved) update({ unsaved: true });
  }
  const answers = createLessonAnswers({ store, python, session, claims: claims.actions, lesson: { current: () => shown, update, save } });

  /** Put step `at` of the open lesson on the page and ask Python how its question meets the scene. */
  const goTo = (at) => questionFirst(store.state.boot.live, store.hold, () => showStep(at));
  async function showStep(at) {
    const lesson = await files.lesson(store.state.lesson.id);
    const step = lesson.steps[at];
    save(); // the step being left keeps its edits
    const leaving = shown && lesson.steps.includes(shown.step) && shown.step !== step ? shown.step : null;
    const opening = sceneFor(lesson, at, store.state.lesson.edits, Boolean(shown && lesson.steps.indexOf(shown.step) === at - 1 && store.state.draft));
    shown = { lesson, step };
    if (mode === "page") showInAddress(store.state.lesson, step.id, fetchedFrom.get(store.state.lesson.id)?.preview);
    const content = { prose: step.prose, ask: step.ask ?? [], explain: step.explain ?? [], hints: step.hints ?? [], options: step.options ?? {}, holds: step.holds ?? [] };
    update({ step: at, status: "loading", message: "", asked: null, check: null, hintsShown: 0, content });
    const { asking } = await showAsking(steps, python, step, opening, () => shown?.step === step);
    answers.stepShown();
    const asked = await asking;
    if (shown?.step !== step) return publicStep(step, at, lesson.steps.length, asked);
    steps.showBelow(step);
    // A step that only shows is done once the learner has read it and moved on, or has reached it as the last; a
    // question, once it is answered right (lesson-answers.js).
    const read = [leaving, at === lesson.steps.length - 1 ? step : null].filter((seen) => seen && !seen.question);
    const done = [...new Set([...store.state.lesson.done, ...read.map((seen) => seen.id)])];
    update({ status: "ready", asked, done });
    save();
    return publicStep(step, at, lesson.steps.length, asked);
  }

  const actions = {
    /** The lessons this page has: [{id, title, source, summary, steps: [{id, title, kind}]}]. */
    lessonsList: () => files.list(),
    /**
     * Open lesson `id` at `step` (its id or number; by default where the learner left it, else the first): resolves
     * once the step is drawn, with the step and its question as asked (never its answer). `by` says who asked: "link"
     * (a link in the address), "learner" (the lesson list), else a script (the JS API, a resumed lesson); the player
     * brings the step to the learner for the first two (`arrival`).
     */
    async openLesson(id, { step = null, by = "script" } = {}) {
      const listed = (await actions.lessonsList()).find((entry) => entry.id === id);
      if (!listed) throw new Error(`there is no lesson “${id}”; the lessons are ${(await actions.lessonsList()).map((entry) => `“${entry.id}”`).join(", ")}`);
      const lesson = await files.lesson(id);
      const kept = loadProgress(mode, id) ?? { step: null, done: [], answers: {}, edits: {} };
      store.update({ lesson: openingState(lesson, listed, kept, { by, count: ++openings }, fetchedFrom.get(id)?.url ?? null) }, "lesson");
      const at = stepIndex(lesson, step) ?? stepIndex(lesson, kept.step) ?? 0;
      rememberLessonOpen(mode, id);
      try {
        const opened = await goTo(at);
        steps.prefetch(lesson);
        return opened;
      } catch (error) {
        update({ status: "failed", message: `This step cannot be shown: ${error.message}` });
        throw error;
      }
    },
    /** The step after this one. */
    async lessonNext() {
      const lesson = store.state.lesson;
      return lesson && lesson.step + 1 < lesson.steps.length ? goTo(lesson.step + 1) : null;
    },
    /** The step before this one. */
    async lessonBack() {
      const lesson = store.state.lesson;
      return lesson && lesson.step > 0 ? goTo(lesson.step - 1) : null;
    },
    /** Any step of the open lesson (the map of steps). */
    lessonGoTo: (at) => (store.state.lesson ? goTo(Math.max(0, Math.min(at, store.state.lesson.steps.length - 1))) : null),
    lessonAnswer: (value) => answers.answer(value),
    lessonCheck: () => answers.check(),
    lessonHint: () => answers.hint(),
    /**
     * Where the learner is: {id, step, number, of, status, question (as asked, never its answer), done, answers};
     * null while no lesson is open.
     */
    lessonProgress() {
      const lesson = store.state.lesson;
      if (!lesson) return null;
      const { id, step, steps, status, asked, done, answers } = lesson;
      return structuredClone({ id, step: steps[step].id, number: step + 1, of: steps.length, status, question: asked, done, answers });
    },
    /** Every lesson's work kept here, {[id]: {step, done, answers, edits}}, the open one as it is now. */
    lessonsWork: async () => ({ ...(await keptWork(files, mode)), ...openWork(store.state, shown) }),
    /** Leave the lesson: the playground whole again (the progress stays kept). */
    closeLesson() {
      if (store.state.lessonFile) store.update({ lessonFile: null }, "lesson");
      if (!store.state.lesson) return;
      save();
      rememberLessonOpen(mode, null);
      shown = null;
      if (mode === "page") showInAddress(null);
      store.update({ lesson: null }, "lesson");
      steps.leave();
    },
    /** "My answers": every answer of the open lesson as a file, CSV or JSON. */
    downloadLessonAnswers: (format = "csv") => downloadAnswers(store.state.lesson, actions.lessonProgress(), format),
    /** Start lesson `id` again from its first step, its answers and edits forgotten. */
    async restartLesson() {
      const { id } = store.state.lesson ?? {};
      if (!id) return null;
      forgetProgress(mode, id);
      shown = null;
      return actions.openLesson(id, { step: 1 });
    },
  };
  return { actions };
}
