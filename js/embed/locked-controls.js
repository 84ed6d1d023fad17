/**
 * The controls of locked fields (locks.js) made read-only or disabled, and saying so: a note in their panel, an
 * accessible name ending in "locked by this page". A frame with locks loads this beside the page (embed-frame.js);
 * the page refuses edits of locked fields whether or not it has loaded (state/session.js).
 */

import { fieldsEditedBy, LOCKABLE_FIELDS } from "../scene/edits.js";
import { FIELD_NAMES } from "./locks.js";

/** The accessible name's ending, and the tooltip, of a control a locked field makes read-only. */
const LOCKED_LABEL = "locked by this page";

/** The locked fields a control's edit would change (its `data-edit`, and `data-matrix` for a cell). */
function lockedFieldsOfControl(control, locks) {
  return fieldsEditedBy({ kind: control.dataset.edit, matrix: control.dataset.matrix }).filter((field) => locks.has(field));
}

/**
 * Make every control of a locked field inside `root` read-only (inputs) or disabled (buttons, boxes), and say
 * so: its accessible name ends in LOCKED_LABEL, and so does its tooltip; the panel it is in gets a note naming
 * the locked fields whose controls it holds (Wq locks the "+ feature" button too, since a feature is a row of Wq).
 */
function markLocked(root, locks) {
  const touched = new Set();
  for (const control of root.querySelectorAll("[data-edit]")) {
    const fields = lockedFieldsOfControl(control, locks);
    if (!fields.length) continue;
    const panel = control.closest(".panel, .mask-controls");
    for (const field of fields) if (panel && addLockedField(panel, field)) touched.add(panel);
    if (control.dataset.locked !== "true") lockControl(control);
  }
  for (const panel of touched) showLockNote(panel);
}

/** Make one control read-only or disabled, and name it as locked. */
function lockControl(control) {
  control.dataset.locked = "true";
  // A drawn cell swapped for an input keeps its name (ui/grids/grid-input.js copies it), so it is extended only once.
  const name = control.getAttribute("aria-label") ?? control.textContent.trim();
  if (!name.endsWith(LOCKED_LABEL)) control.setAttribute("aria-label", name ? `${name}, ${LOCKED_LABEL}` : LOCKED_LABEL);
  control.title = `Locked by this page: ${name || "this control"} cannot be changed here.`;
  if (control instanceof HTMLInputElement && control.type === "text") {
    control.readOnly = true;
  } else if (control instanceof HTMLInputElement || control instanceof HTMLButtonElement) {
    control.disabled = true;
  } else {
    // A number cell drawn as text (it becomes an input only on focus): say it is read-only.
    control.setAttribute("aria-readonly", "true");
  }
}

/** The locked fields whose controls each panel holds. */
const lockedFieldsOf = new WeakMap();

/** Note that `panel` holds a control of locked `field`; true if that is news. */
function addLockedField(panel, field) {
  if (!lockedFieldsOf.has(panel)) lockedFieldsOf.set(panel, new Set());
  const fields = lockedFieldsOf.get(panel);
  if (fields.has(field)) return false;
  fields.add(field);
  return true;
}

/**
 * The visible "locked" note at the top of a panel that holds locked controls, naming the fields locked there;
 * it also speaks (politely) when the learner tries to type into a locked control (sayLockedOnTyping).
 */
function showLockNote(panel) {
  let note = panel.querySelector(":scope > .lock-note");
  if (!note) {
    note = document.createElement("p");
    note.className = "lock-note";
    note.dataset.testid = "lock-note";
    note.setAttribute("role", "status");
    note.setAttribute("aria-live", "polite");
    note.append(lockIcon(), document.createElement("span"));
    const heading = panel.querySelector(":scope > h2, :scope > .panel-head");
    if (heading) heading.after(note);
    else panel.prepend(note);
  }
  const fields = LOCKABLE_FIELDS.filter((field) => lockedFieldsOf.get(panel).has(field));
  note.dataset.fields = fields.join(",");
  note.classList.remove("tried");
  note.lastChild.textContent = `Locked by this page: ${fields.map((field) => FIELD_NAMES[field]).join(", ")}. The greyed controls cannot be changed here; everything else can.`;
}

/**
 * Keep the controls of locked fields read-only, including those the editors build later (grids are
 * rebuilt when the scene's shape changes; a drawn cell becomes an input when focused).
 */
export function keepLocked(root, locks) {
  if (!locks.size) return;
  markLocked(root, locks);
  sayLockedOnTyping(root);
  // Observers run before the next input event, so a cell that just became an input is read-only
  // before the first key reaches it.
  new MutationObserver(() => markLocked(root, locks)).observe(root, { childList: true, subtree: true });
  root.classList.add("has-locks");
}

/** A small padlock, drawn (a font may have no padlock symbol); the note's words say the same to everyone. */
function lockIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 12 14");
  svg.setAttribute("class", "lock-icon");
  svg.setAttribute("aria-hidden", "true");
  const shackle = document.createElementNS(ns, "path");
  shackle.setAttribute("d", "M3 6.5V4.5a3 3 0 0 1 6 0v2");
  const body = document.createElementNS(ns, "rect");
  for (const [key, value] of Object.entries({ x: 1, y: 6, width: 10, height: 7.5, rx: 1.5 })) body.setAttribute(key, String(value));
  svg.append(shackle, body);
  return svg;
}

/** Keys that only move around: a locked control lets them through without a word. */
const MOVING_KEYS = new Set(["Tab", "Shift", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "Enter", "Escape", "Control", "Alt", "Meta"]);

/** Typing into a locked control does nothing, and says why in the panel's lock note. */
function sayLockedOnTyping(root) {
  root.addEventListener("keydown", (event) => {
    const control = event.target;
    if (!(control instanceof HTMLElement) || control.dataset.locked !== "true" || MOVING_KEYS.has(event.key)) return;
    if (event.ctrlKey || event.metaKey) return; // copying a locked number is fine
    const note = control.closest(".panel, .mask-controls")?.querySelector(".lock-note");
    if (!note) return;
    const label = control.getAttribute("aria-label")?.replace(`, ${LOCKED_LABEL}`, "");
    note.lastChild.textContent = label
      ? `This one, ${label}, is locked by this page: it cannot be changed here.`
      : "This is locked by this page: it cannot be changed here.";
    note.classList.add("tried");
  });
}

