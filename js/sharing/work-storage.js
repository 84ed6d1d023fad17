/**
 * Where a learner's lesson progress and exercise code are kept: this browser's localStorage, or, in a course
 * platform that tracks the learner (js/lms/), a store of the LMS's that it saves in the learner's record. The
 * modules that keep work (lesson-progress.js, exercise-code.js) ask here each time, so the choice is made once.
 */

let replacement = null;

/**
 * Keep the learner's work in `storage` from now on instead of localStorage (an object with localStorage's
 * getItem, setItem and removeItem).
 * @param {{getItem: (key: string) => string|null, setItem: (key: string, value: string) => void, removeItem: (key: string) => void}} storage
 */
export function keepWorkIn(storage) {
  replacement = storage;
}

/** Who keeps the learner's work: "browser" (localStorage), or "course" (an LMS's record, js/lms/). */
export function workKeptBy() {
  return replacement ? "course" : "browser";
}

/** The storage to keep work in; throws what reading localStorage throws (storage blocked, a sandboxed frame). */
export function openWorkStorage() {
  return replacement ?? window.localStorage;
}

/** The storage to keep work in, or null where reading localStorage throws. */
export function workStorage() {
  try {
    return openWorkStorage();
  } catch {
    return null;
  }
}
