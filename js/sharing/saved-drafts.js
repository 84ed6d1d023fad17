/**
 * The learner's edits, kept in this browser (localStorage) so that they survive a reload.
 *
 * Keys (all under one versioned prefix, so a later format can live beside this one):
 *   attention-playground/v1/<mode>/draft/<scene id>   the draft as typed, with its view
 *   attention-playground/v1/<mode>/kept/<scene id>    edits that something else replaced, kept to bring back
 *   attention-playground/v1/<mode>/current            the scene id on screen last, so a reload reopens it
 * <mode> is "page" for the full page; an embedded playground uses its own mode ("embed"), so it never
 * shares or overwrites the page's drafts. <scene id> is the example's id for an example, and
 * "scene-<hash>" for any other scene (a file, a link to a scene of one's own, the API), the hash being
 * that of the scene as it first arrived.
 *
 * Storage can fail (full, turned off, a private window, a frame on another site's page): every call here catches
 * that, reports it through `onProblem` (in the words of whyNotSaved), and the page carries on with the edits in
 * memory.
 */

import { openWorkStorage } from "./work-storage.js";

export const STORAGE_PREFIX = "attention-playground/v1";
const RECORD_FORMAT = 1;

/**
 * The storage key for one scene's saved state.
 * @param {string} mode "page", "embed", or another playground's own mode
 * @param {string} sceneId an example id, or sceneIdentity() of a scene
 * @param {"draft"|"kept"} [slot] "draft" for the saved edits, "kept" for edits put aside
 * @returns {string}
 */
export function storageKey(mode, sceneId, slot = "draft") {
  return `${STORAGE_PREFIX}/${mode}/${slot}/${sceneId}`;
}

/** The key that remembers which scene was on screen last in `mode`. */
function currentSceneKey(mode) {
  return `${STORAGE_PREFIX}/${mode}/current`;
}

/** JSON with object keys sorted (undefined left out), so the same scene or draft always gives the same text. */
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The id a scene is saved under: the example's id if it is one, else "scene-" and a 64-bit FNV-1a
 * hash of its canonical JSON (a name, not a secret: two different scenes sharing one is vanishingly rare).
 * @param {object} scene
 * @param {string|null} [presetId]
 * @returns {string}
 */
export function sceneIdentity(scene, presetId = null) {
  if (presetId) return presetId;
  const text = canonicalJson(scene);
  let low = 0x811c9dc5;
  let high = 0xcbf29ce4;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    low = Math.imul(low ^ code, 0x01000193) >>> 0;
    high = Math.imul(high ^ (code + i), 0x01000193) >>> 0;
  }
  return `scene-${high.toString(16).padStart(8, "0")}${low.toString(16).padStart(8, "0")}`;
}

/** Whether this page is shown inside another page (a course page's <iframe>). */
const inAFrame = () => window.parent !== window;

/**
 * Why the learner's work is not being saved, in their words, for a storage failure `error`: the storage is full,
 * the page is in a frame the browser keeps nothing for (a lesson on another site, in a browser that blocks
 * third-party storage: Incognito, Brave, Chrome with third-party cookies blocked), or storage is turned off. It
 * says what that means, not what to do: each place that shows it offers its own way to keep the work.
 * @param {unknown} error what the storage threw
 * @returns {string}
 */
export function whyNotSaved(error) {
  const full = /** @type {Error|null} */ (error)?.name === "QuotaExceededError" || /quota/i.test(String(/** @type {Error|null} */ (error)?.message));
  if (full) return "This browser’s storage is full, so your edits are not being saved: they last until you close or reload the page.";
  if (inAFrame()) {
    return "This page is inside another site’s page, and this browser does not let it keep anything: your edits last only until you close or reload the page.";
  }
  return "This browser does not let the page save (storage is turned off), so your edits last only until you close or reload the page.";
}

/**
 * @typedef {object} SavedRecord
 * @property {number} format        RECORD_FORMAT
 * @property {string} sceneId
 * @property {string|null} presetId the example it started from
 * @property {string} title         for messages ("your edits of …")
 * @property {object} draft         the draft exactly as typed (scene/draft.js)
 * @property {{focus: number|null, head: number}} view
 * @property {string} savedAt       ISO time
 */

/**
 * A store of saved drafts for one mode.
 * @param {object} [options]
 * @param {string} [options.mode] "page", "embed", or another playground's own mode (every caller names one)
 * @param {(message: string) => void} [options.onProblem] storage failed; the message says what it means (whyNotSaved)
 * @param {Storage|null} [options.storage] defaults to the work storage (work-storage.js: localStorage, or an LMS's;
 *   reading it can itself throw)
 */
export function createDraftStore({ mode, onProblem = () => {}, storage } = {}) {
  let backend = storage;
  let refusal = null;
  if (backend === undefined) {
    try {
      backend = openWorkStorage();
    } catch (error) {
      backend = null;
      refusal = error;
    }
  }
  let reported = false;
  function problem(error) {
    if (reported) return;
    reported = true;
    onProblem(whyNotSaved(error));
  }
  if (!backend) problem(refusal ?? new Error("storage unavailable"));

  function read(key) {
    if (!backend) return null;
    try {
      const text = backend.getItem(key);
      return text === null ? null : JSON.parse(text);
    } catch {
      return null; // unreadable (or not ours): as if nothing were saved
    }
  }
  function write(key, value) {
    if (!backend) return false;
    try {
      backend.setItem(key, JSON.stringify(value));
      reported = false; // it works again: a later failure is worth saying again
      return true;
    } catch (error) {
      problem(error);
      return false;
    }
  }
  function remove(key) {
    if (!backend) return;
    try {
      backend.removeItem(key);
    } catch (error) {
      problem(error);
    }
  }
  const valid = (record) => record && record.format === RECORD_FORMAT && record.draft && typeof record.draft === "object" ? record : null;

  return {
    mode,
    /** @returns {SavedRecord|null} the saved edits of a scene */
    load: (sceneId) => valid(read(storageKey(mode, sceneId))),
    /** @returns {SavedRecord|null} edits put aside for a scene */
    loadKept: (sceneId) => valid(read(storageKey(mode, sceneId, "kept"))),
    /** Save a scene's draft and view; returns false if storage failed. */
    save(sceneId, { presetId, title, draft, view }) {
      return write(storageKey(mode, sceneId), { format: RECORD_FORMAT, sceneId, presetId, title, draft, view, savedAt: new Date().toISOString() });
    },
    forget: (sceneId) => remove(storageKey(mode, sceneId)),
    /** Put the saved edits aside (replacing anything kept before for this scene). */
    keep(sceneId) {
      const record = read(storageKey(mode, sceneId));
      if (!record) return false;
      if (!write(storageKey(mode, sceneId, "kept"), record)) return false;
      remove(storageKey(mode, sceneId));
      return true;
    },
    /** Swap the kept edits and the saved ones: nothing is lost either way. */
    swapKept(sceneId) {
      const kept = read(storageKey(mode, sceneId, "kept"));
      const saved = read(storageKey(mode, sceneId));
      if (!kept) return null;
      if (!write(storageKey(mode, sceneId), kept)) return null;
      if (saved) write(storageKey(mode, sceneId, "kept"), saved);
      else remove(storageKey(mode, sceneId, "kept"));
      return valid(kept);
    },
    /** @returns {string|null} the scene id on screen last */
    current() {
      const value = read(currentSceneKey(mode));
      return typeof value === "string" ? value : null;
    },
    setCurrent: (sceneId) => write(currentSceneKey(mode), sceneId),
  };
}
