/**
 * A lesson's progress, kept in this browser so that a learner who comes back finds the lesson where they left it:
 * the step on show, the steps done, every answer with its verdict, and the scenes they edited on the way.
 *
 * One record per lesson under the page's versioned prefix (sharing/saved-drafts.js STORAGE_PREFIX):
 *   attention-playground/v1/<mode>/lesson/<lesson id>
 *   {format, id, step, done: [step ids], answers: {[step id]: answer}, edits: {[step id]: draft}}
 *   attention-playground/v1/<mode>/lesson-open              the lesson open when the page was left, so a reload
 *                                                            opens it again where the learner was
 * <mode> is the page's ("page") or a course page's frame's ("embed"). Storage can fail (a frame on another site,
 * a private window, a full disk): reading then finds nothing and saving says false; the page says so itself. In an
 * LMS the records are kept in the LMS's learner record instead (work-storage.js, js/lms/).
 */

import { STORAGE_PREFIX } from "./saved-drafts.js";
import { workStorage } from "./work-storage.js";

const FORMAT = 1;

/** The storage key of lesson `id`'s progress in `mode`. */
const progressKey = (mode, id) => `${STORAGE_PREFIX}/${mode}/lesson/${id}`;

/** This browser's storage (or an LMS's: work-storage.js), or null where it cannot be read. */
const storage = workStorage;

/** A plain object, or null for anything else. */
const objectOrNull = (value) => (value && typeof value === "object" && !Array.isArray(value) ? value : null);

/**
 * Lesson `id`'s saved progress in `mode`, checked for its shape; null when there is none (or it cannot be read).
 * @returns {{step: string|null, done: string[], answers: object, edits: object}|null}
 */
export function loadProgress(mode, id) {
  let record;
  try {
    record = JSON.parse(storage()?.getItem(progressKey(mode, id)) ?? "null");
  } catch {
    return null;
  }
  if (!objectOrNull(record) || record.format !== FORMAT || record.id !== id) return null;
  return {
    step: typeof record.step === "string" ? record.step : null,
    done: Array.isArray(record.done) ? record.done.filter((step) => typeof step === "string") : [],
    answers: objectOrNull(record.answers) ?? {},
    edits: objectOrNull(record.edits) ?? {},
  };
}

/**
 * Keep lesson `id`'s progress in `mode`; false when this browser will not store it.
 * @param {string} mode
 * @param {string} id
 * @param {{step: string|null, done: string[], answers: object, edits: object}} progress
 */
export function saveProgress(mode, id, { step, done, answers, edits }) {
  const store = storage();
  if (!store) return false;
  try {
    store.setItem(progressKey(mode, id), JSON.stringify({ format: FORMAT, id, step, done, answers, edits }));
    return true;
  } catch {
    return false;
  }
}

/** Forget lesson `id`'s progress in `mode` ("start again"). */
export function forgetProgress(mode, id) {
  try {
    storage()?.removeItem(progressKey(mode, id));
  } catch {
    // nothing kept, nothing to forget
  }
}

/** The key that remembers the lesson open in `mode`. */
const openKey = (mode) => `${STORAGE_PREFIX}/${mode}/lesson-open`;

/** The lesson that was open when the page was left in `mode`, or null. */
export function lessonLeftOpen(mode) {
  try {
    const id = storage()?.getItem(openKey(mode)) ?? null;
    return id && /^[a-z0-9][a-z0-9-]{0,63}$/.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** Remember lesson `id` as the one open in `mode` (null: none is). */
export function rememberLessonOpen(mode, id) {
  try {
    if (id) storage()?.setItem(openKey(mode), id);
    else storage()?.removeItem(openKey(mode));
  } catch {
    // nothing kept: a reload then opens the playground, and the lesson resumes when the learner opens it
  }
}
