/**
 * Locks: the parts of a scene a course page keeps as they are (`?embed&lock=X,Wq`; LOCKABLE_FIELDS, or "all").
 *
 * A locked field is enforced twice. The controls that would change it are made read-only or disabled, and say
 * so (a note in their panel, an accessible name ending in "locked by this page"), so the learner sees why
 * nothing happens. And the page refuses any edit that touches it (the scene session, state/session.js, is given
 * the locked fields and checks every edit against the fields it changes) and any whole new scene a learner brings in that would change it (`lockedFieldsChangedBy`: an
 * example, reset, a scene file, a shuffle, a link), so no way around the controls changes it either. A scene
 * set by the course page itself (setScene) is not the learner's doing: the author may always change it.
 *
 * Which controls a lock reaches is not listed here: every control says which edit it makes (`data-edit`, and
 * `data-matrix` for a number cell), and the table of edits (scene/edits.js) says which fields each changes. The
 * controls are marked by locked-controls.js, which a frame loads beside the page (embed-frame.js); this module is
 * what the page needs from the start: the locks read from the URL, and the scenes they refuse.
 */

import { LOCKABLE_FIELDS } from "../scene/edits.js";
import { sameSceneData } from "../scene/sameness.js";

export { LOCKABLE_FIELDS };

/** Each lockable field in words, for the notes that say what is locked. */
export const FIELD_NAMES = {
  tokens: "the words", features: "the feature names", X: "X", Wq: "Wq", Wk: "Wk", Wv: "Wv", heads: "the heads",
  mask: "the mask", scale: "the ÷√d scaling", shift: "the shift", positions: "the positions",
};

/** The locks a URL asks for (`lock=X,Wq` or `lock=all`); unknown names are left out. */
export function locksFromOption(asked) {
  return new Set(asked.includes("all") ? LOCKABLE_FIELDS : LOCKABLE_FIELDS.filter((field) => asked.includes(field)));
}

/**
 * Each lockable field as it reads in a scene (the scene format, defaults filled in), for telling whether a
 * whole new scene (an example, a file, a shuffle) would change it.
 */
const FIELD_IN_SCENE = {
  tokens: (scene) => scene.tokens,
  features: (scene) => scene.features,
  X: (scene) => scene.X,
  Wq: (scene) => scene.heads?.map((head) => head.Wq),
  Wk: (scene) => scene.heads?.map((head) => head.Wk),
  Wv: (scene) => scene.heads?.map((head) => [head.Wv ?? null, head.value_dims ?? null]),
  heads: (scene) => scene.heads?.map((head) => [head.name, head.dims]),
  mask: (scene) => scene.mask ?? "none",
  scale: (scene) => scene.scale ?? true,
  shift: (scene) => scene.shift ?? true,
  positions: (scene) => scene.positions ?? "none",
};

/**
 * The locked fields that showing scene `after` in place of `before` would change (both in the scene format,
 * as numbers: a cell typed as "1" and a 1 are the same). Empty when the new scene keeps every locked field.
 */
export function lockedFieldsChangedBy(before, after, locks) {
  return LOCKABLE_FIELDS.filter((field) => locks.has(field) && !sameSceneData(FIELD_IN_SCENE[field](before) ?? null, FIELD_IN_SCENE[field](after) ?? null));
}

/** The sentence refusing a scene that would change locked `fields`; `what` names the scene ("this example"). */
export function lockedSceneMessage(fields, what) {
  const names = fields.map((field) => FIELD_NAMES[field]);
  const listed = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
  return `This page keeps ${listed} as they are, and ${what} would change them, so the page stays as it was.`;
}
