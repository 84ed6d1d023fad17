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

import { findApi } from "./find-api.js";
import { createRuntime } from "./runtime.js";
import { unpackWork } from "./suspend-data.js";
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

/**
 * Connect to the LMS around `win`: find its runtime, initialize it, and put the learner's kept work where the page
 * reads it. Resolves with the connection (call `track` once the page runs), or null where there is no LMS (or it
 * refuses to initialize): the page is then the plain site.
 * @param {Window} win
 * @param {"1.2"|"2004"} version the package's version, searched first
 * @param {string} mode the page's storage mode ("page")
 */
export async function connectLms(win, version, mode) {
  const found = findApi(win, [version, version === "2004" ? "1.2" : "2004"]);
  if (!found) return null;
  const runtime = createRuntime(found.version, found.api);
  if (!runtime.initialize()) return null;
  const resumed = (await unpackWork(runtime.get("suspendData"))) ?? { lessons: {}, code: {}, order: [], passed: [] };
  // From here on the work lives in memory and in the LMS's record, never in this browser's storage.
  const storage = memoryStorage();
  keepWorkIn(storage);
  for (const [id, progress] of Object.entries(resumed.lessons)) saveProgress(mode, id, progress);
  for (const [id, text] of Object.entries(resumed.code)) saveCode(id, text);
  return {
    version: runtime.version,
    /**
     * Report the running page to the LMS from now on. `lessonIds`: the package's lessons (null: every lesson).
     * @param {{store: object, controller: object}} page
     */
    track: (page, lessonIds) => createCourseRecord({ runtime, page, lessonIds, resumed, storage }).start(),
  };
}
