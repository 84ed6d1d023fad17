/**
 * The playground in a course platform that tracks learners by SCORM (the packages `build.py --scorm` writes launch
 * `index.html?lms=1.2` or `?lms=2004`, with `&lesson=ID` for a lesson's package). In such a launch the page:
 *
 *   - finds the LMS's runtime (find-api.js) and initializes it; with none around, the page is the plain site;
 *   - keeps the learner's lesson progress and exercise code in the LMS's record (`suspend_data`, suspend-data.js)
 *     instead of this browser's storage, which a platform serving content from another site often blocks, and
 *     resumes from it on the next launch: the step, the answers, the edits;
 *   - reports the status (incomplete until every step of the package's lessons is done, then completed; in 2004
 *     also the progress measure), the score (questions right at the first try and exercises passed: raw, min 0,
 *     max, and in 2004 scaled), the step as the location, each answer and run of the checks as an interaction;
 *   - commits after every change that matters (debounced), and on leaving sets the session time and exit,
 *     commits and terminates.
 */

import { findApis } from "./find-api.js";
import { createRuntime } from "./runtime.js";
import { emptyWork, unpackWork } from "./suspend-data.js";
import { createCourseRecord } from "./record.js";
import { keepWorkIn } from "../sharing/work-storage.js";
import { saveProgress } from "../sharing/lesson-progress.js";
import { saveCode } from "../sharing/exercise-code.js";

/**
 * An in-memory store with localStorage's calls: the work while the LMS's record is what keeps it. `onChange` is
 * called after each write (the exercise code a learner types changes nothing else the record hears of).
 */
function memoryStorage() {
  const items = new Map();
  const storage = {
    onChange: () => {},
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => {
      items.set(key, String(value));
      storage.onChange();
    },
    removeItem: (key) => {
      items.delete(key);
      storage.onChange();
    },
  };
  return storage;
}

/** How long a launch looks for the LMS's runtime, and how often: some LMSs make it only once their own page has
 * loaded (Open edX's SCORM block, in jQuery's ready handler), after the package's page has started. */
const API_WAIT_MS = 5000;
const API_POLL_MS = 100;

/** What the learner is told where a package's launch finds no LMS to report to. */
export const UNRECORDED_NOTICE = "Your course is not recording this lesson's progress: your answers count only "
  + "while this page is open. Open it again from your course, or ask your course's team.";

/**
 * The LMS's runtime around `win`, initialized: each runtime offered tried in turn (the package's version first), and
 * the search repeated every API_POLL_MS until one initializes or API_WAIT_MS have passed; null then.
 * @param {Window} win
 * @param {Array<"1.2"|"2004">} versions
 * @param {{waitMs?: number}} [options]
 */
export async function initializedRuntime(win, versions, { waitMs = API_WAIT_MS } = {}) {
  const deadline = performance.now() + waitMs;
  const refused = { "1.2": new Set(), 2004: new Set() }; // asked once and refused: not asked again
  for (;;) {
    for (const { version, api } of findApis(win, versions)) {
      if (refused[version].has(api)) continue;
      const runtime = createRuntime(version, api);
      if (runtime.initialize()) return runtime;
      refused[version].add(api);
    }
    if (performance.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, API_POLL_MS));
  }
}

/**
 * Connect to the LMS around `win`: find its runtime, initialize it, and put the learner's kept work where the page
 * reads it. Resolves with the connection (call `track` once the page runs). Where there is no LMS (or none will
 * initialize) the page is the plain site, and `track` tells the learner their progress is not recorded.
 * @param {Window} win
 * @param {"1.2"|"2004"} version the package's version, searched first
 * @param {string} mode the page's storage mode ("page")
 * @param {{waitMs?: number}} [options]
 * @returns {Promise<{version: string|null, recorded: boolean, resumeAt: {lesson: string, step: string}|null,
 *   track: (page: {store: object, controller: object}, lessonIds: string[]|null) => Promise<void>}>}
 */
export async function connectLms(win, version, mode, options = {}) {
  const runtime = await initializedRuntime(win, [version, version === "2004" ? "1.2" : "2004"], options);
  if (!runtime) {
    return {
      version: null, recorded: false, resumeAt: null,
      track: async ({ store, controller }) => {
        store.update({ course: { recorded: false, version: null } }, "course");
        controller.actions.notify(UNRECORDED_NOTICE, { tone: "warning" });
      },
    };
  }
  const resumed = (await unpackWork(runtime.get("suspendData"))) ?? emptyWork();
  runtime.journalFrom(resumed.journaled);
  // From here on the work lives in memory and in the LMS's record, never in this browser's storage.
  const storage = memoryStorage();
  keepWorkIn(storage);
  for (const [id, progress] of Object.entries(resumed.lessons)) saveProgress(mode, id, progress);
  for (const [id, text] of Object.entries(resumed.code)) saveCode(id, text);
  return {
    version: runtime.version,
    recorded: true,
    /** The step on screen when the record was last written: where a launch that names no lesson resumes. */
    resumeAt: resumed.at,
    /**
     * Report the running page to the LMS from now on. `lessonIds`: the package's lessons (null: every lesson).
     * @param {{store: object, controller: object}} page
     */
    track: (page, lessonIds) => {
      page.store.update({ course: { recorded: true, version: runtime.version } }, "course");
      return createCourseRecord({ runtime, page, lessonIds, resumed, storage }).start();
    },
  };
}
