/**
 * A link shown to copy: the read-only field and its status line, shared by "Copy link" (share-menu.js) and the
 * "Not saved" line's link (unsaved-work.js).
 */

import { make } from "../shared/dom.js";

/**
 * A link's read-only field (hidden until a link is made, for a browser that will not copy it: the learner selects
 * it there) and the status line that says what happened.
 * @param {string} testId the field's data-testid
 * @param {string} label the field's accessible name
 */
export function makeLinkField(testId, label) {
  const field = make("input", "share-link");
  field.type = "text";
  field.readOnly = true;
  field.hidden = true;
  field.dataset.testid = testId;
  field.setAttribute("aria-label", label);
  const status = make("span", "share-status");
  status.setAttribute("role", "status");
  return { field, status };
}
