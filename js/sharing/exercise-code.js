/**
 * The learner's exercise code, kept in the browser (localStorage) so it survives a reload.
 *
 * One entry under a versioned key: {version, selected, code: {exerciseId: text}}. A different version, or
 * anything unreadable, counts as nothing saved (the starter code is shown). Storage can be full, turned off
 * (private windows) or refused (a course page's frame on another site): nothing here throws then; saving returns
 * false, and the page says the code is not kept and holds it for the visit (panels/exercise-work.js). In an LMS the
 * storage is the LMS's record (sharing/work-storage.js).
 */

import { workStorage } from "./work-storage.js";

/** The localStorage key; the number changes if the stored shape ever does. */
export const STORAGE_KEY = "attention-playground.exercises.v1";
const VERSION = 1;

function readAll() {
  try {
    const saved = JSON.parse(workStorage()?.getItem(STORAGE_KEY) ?? "null");
    if (saved && saved.version === VERSION && saved.code && typeof saved.code === "object") return saved;
  } catch {
    // unreadable or unavailable: nothing saved
  }
  return { version: VERSION, selected: null, code: {} };
}

function writeAll(saved) {
  const storage = workStorage();
  if (!storage) return false;
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(saved));
    return true;
  } catch {
    return false;
  }
}

/** Every exercise's saved code: {[exercise id]: text}. */
export function loadAllCode() {
  return Object.fromEntries(Object.entries(readAll().code).filter(([, text]) => typeof text === "string"));
}

/** The learner's saved code for `exerciseId`, or null. */
export function loadCode(exerciseId) {
  const text = readAll().code[exerciseId];
  return typeof text === "string" ? text : null;
}

/** Keep `text` as the learner's code for `exerciseId`; false if the browser would not store it. */
export function saveCode(exerciseId, text) {
  const saved = readAll();
  saved.code[exerciseId] = text;
  return writeAll(saved);
}

/** Forget the learner's code for `exerciseId` (back to the starter). */
export function forgetCode(exerciseId) {
  const saved = readAll();
  delete saved.code[exerciseId];
  return writeAll(saved);
}

/** The exercise the learner had open last, or null. */
export function loadSelected() {
  const { selected } = readAll();
  return typeof selected === "string" ? selected : null;
}

export function saveSelected(exerciseId) {
  const saved = readAll();
  saved.selected = exerciseId;
  return writeAll(saved);
}
