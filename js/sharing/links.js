/**
 * Links: the one the learner copies (everything on screen, see permalink.js), and reading the one in the
 * address. This module only makes and reads them; the controller shows what a link holds.
 *
 * The link format's code (permalink.js) loads the first time a link is made or read: most visits open no link,
 * and its bytes should not compete with Python's download.
 */

import { sceneFromDraft } from "../scene/draft.js";
import { viewOf } from "./saved-work.js";

/** A title or file name in quotes, unless it brings its own. */
export const quotedName = (text) => (/["“”]/.test(text) ? text : `“${text}”`);

/**
 * The link to what is on screen now: the scene, the example it came from, the view, and where it opens.
 * @param {object} state the page's state
 * @param {{at?: string|null, startClaim?: boolean, fullPage?: boolean}} [options] the panel the link opens at
 *   (layout/panels.js OPEN_AT_PANELS), or null for the top; `startClaim`: the link trains the chosen claim's pair
 *   as it opens; `fullPage`: from a course page's frame, the link opens the full page (without the frame's embed
 *   options), where the learner's work can be kept
 * @returns {Promise<string>}
 */
export async function linkTo(state, { at = null, startClaim = false, fullPage = false } = {}) {
  if (state.lesson) return lessonLink(state.lesson, { fullPage });
  if (!state.draft) throw new Error("there is no scene yet");
  const { encodePermalinkHash, makePayload } = await import("./permalink.js");
  const view = viewOf(state);
  const claim = view.claim && startClaim ? { ...view.claim, start: true } : view.claim;
  const payload = makePayload({ scene: sceneFromDraft(state.draft), preset: state.presetId, edited: state.edited, view: { ...view, claim, at } }); // `at` null: cleaned away
  return `${location.origin}${location.pathname}${fullPage ? "" : location.search}${await encodePermalinkHash(payload)}`;
}

/**
 * How a link, a frame or the page's own address names a lesson's step: `lesson=<id>`, or `lesson-src=<address>` for
 * a course's own lesson file (`src`, its address as it was given: relative to the page), then `step=<step id>`
 * (the step on show unless `stepId` names another).
 * @param {{id: string, src?: string|null, steps: Array<{id: string}>, step: number}} lesson
 * @param {string} [stepId]
 */
export function lessonFields(lesson, stepId = lesson.steps[lesson.step].id) {
  const named = lesson.src ? `lesson-src=${encodeURIComponent(lesson.src)}` : `lesson=${encodeURIComponent(lesson.id)}`;
  return `${named}&step=${encodeURIComponent(stepId)}`;
}

/**
 * The link to the lesson's step on show: `#lesson=<id>&step=<step id>` or `#lesson-src=…` (permalink.js reads it);
 * `fullPage` as for linkTo.
 */
export function lessonLink(lesson, { fullPage = false } = {}) {
  return `${location.origin}${location.pathname}${fullPage ? "" : location.search}#${lessonFields(lesson)}`;
}

/**
 * What a playground link holds (permalink.js decodePermalinkHash).
 * @typedef {{kind: "preset", id: string} | {kind: "lesson", id?: string, src?: string, step: string|null, preview?: boolean} | {kind: "scene", payload: object}} Link
 */

/**
 * What a hash holds; never throws.
 * @param {string} hash
 * @returns {Promise<{link: Link|null, problem: string|null}>}
 *   `link` null and `problem` null: the hash is not a playground link; `problem`: why it cannot be opened
 */
export async function readLink(hash) {
  const { PermalinkError, decodePermalinkHash } = await import("./permalink.js");
  try {
    // permalink.js builds its links with `kind` typed as any string: these are the kinds it builds.
    return { link: /** @type {Link|null} */ (await decodePermalinkHash(hash)), problem: null };
  } catch (error) {
    return { link: null, problem: error instanceof PermalinkError ? error.message : "This link cannot be read." };
  }
}

/** The link is read once; then the address is the page's own, so a reload opens the saved work. */
export function clearHash() {
  history.replaceState(history.state, "", `${location.pathname}${location.search}`);
}
