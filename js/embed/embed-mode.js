/**
 * Embed mode: the playground inside a course page's <iframe>.
 *
 * Turned on by `?embed` in the page's URL. The options an author can add:
 *
 *   panels=heatmap,bars,features,weights   which panels show (names in PANELS; default: DEFAULT_PANELS)
 *   lock=X,Wq,mask                         which parts of the scene the learner may not change (names in
 *                                          LOCKABLE_FIELDS, or "all"); the editors show them read-only, each
 *                                          panel says what is locked in it, and a locked control's name
 *                                          ends in "locked by this page"
 *   origins=https://a.example,...          which pages may drive the playground by postMessage (see
 *                                          post-message-api.js); default: any
 *
 * A locked field is enforced twice: the editors mark their inputs read-only (so the learner sees why
 * nothing happens), and the page refuses any edit that touches it (`isEditAllowed`, checked where edits
 * are applied), so no way around the inputs changes it either. Every other way a learner can replace the
 * whole scene (an example, reset, a scene file, a shuffle, a link) is refused too when it would change a
 * locked field (`lockedFieldsChangedBy`). A scene set by the course page itself (setScene) is not the
 * learner's doing: the author may always change what the learner sees.
 *
 * The frame also tells its parent how tall it is, whenever that changes, so the parent can size the
 * <iframe> to fit (js/embed-host.js does it for any page):
 *
 *   {type: "attention-playground:resize", height}      height in CSS pixels
 *
 * and sends it again whenever the parent asks with {type: "attention-playground:measure"}.
 */

import { PANEL_SELECTORS } from "../page/view.js";

/** The panels an author can choose, by name (page-view.js). */
export const PANELS = PANEL_SELECTORS;

/** The panels shown when the URL names none: the playground itself, without the longer teaching views. */
export const DEFAULT_PANELS = Object.freeze(["presets", "controls", "notes", "heatmap", "bars", "features", "weights"]);

/** Parts of a scene an author can lock. */
export const LOCKABLE_FIELDS = Object.freeze(["tokens", "features", "X", "Wq", "Wk", "Wv", "heads", "mask", "scale", "shift", "positions"]);

/** Each lockable field in words, for the notes that say what is locked. */
const FIELD_NAMES = {
  tokens: "the words", features: "the feature names", X: "X", Wq: "Wq", Wk: "Wk", Wv: "Wv", heads: "the heads",
  mask: "the mask", scale: "the ÷√d scaling", shift: "the shift", positions: "the positions",
};

/** The accessible name's ending, and the tooltip, of a control a locked field makes read-only. */
export const LOCKED_LABEL = "locked by this page";

/** The message type a frame sends its parent with its height. */
export const RESIZE_MESSAGE = "attention-playground:resize";
/** The message type a parent sends a frame to have its height sent again (its width may have changed). */
export const MEASURE_MESSAGE = "attention-playground:measure";

/**
 * The inputs and buttons each locked field makes read-only. Structural buttons (add or remove a row,
 * a column, a head) are listed under every field whose shape they change.
 */
const LOCKED_CONTROLS = {
  tokens: ['[data-testid="token-name"]', '[data-testid="sentence-input"]', '[data-testid="add-token"]', '[data-testid="remove-token"]'],
  features: ['[data-testid="feature-name"]', '[data-testid="add-feature"]', '[data-testid="remove-feature"]'],
  X: ['[data-testid="x-cell"]', '[data-testid="sentence-input"]', '[data-testid="add-token"]', '[data-testid="remove-token"]',
    '[data-testid="add-feature"]', '[data-testid="remove-feature"]'],
  Wq: ['[data-testid="wq-cell"]', '[data-testid="dim-name"]', '[data-testid="add-dim"]', '[data-testid="remove-dim"]',
    '[data-testid="add-feature"]', '[data-testid="remove-feature"]', '[data-testid="add-head"]', '[data-testid="remove-head"]'],
  Wk: ['[data-testid="wk-cell"]', '[data-testid="add-dim"]', '[data-testid="remove-dim"]',
    '[data-testid="add-feature"]', '[data-testid="remove-feature"]', '[data-testid="add-head"]', '[data-testid="remove-head"]'],
  Wv: ['[data-testid="wv-cell"]', '[data-testid="value-dim-name"]', '[data-testid="add-value-dim"]', '[data-testid="remove-value-dim"]',
    '[data-testid="wv-onehot"]', '[data-testid="add-feature"]', '[data-testid="remove-feature"]', '[data-testid="add-head"]',
    '[data-testid="remove-head"]'],
  heads: ['[data-testid="add-head"]', '[data-testid="remove-head"]', '[data-testid="dim-name"]'],
  mask: ['[data-testid^="mask-"][type="radio"]'],
  scale: ['[data-testid="scale-toggle"]'],
  shift: ['[data-testid="shift-toggle"]'],
  positions: ['[data-testid="positions-toggle"]'],
};

/** The scene fields each kind of edit changes (see app.js `applyEdit`). */
const FIELDS_EDITED_BY = {
  "token-name": ["tokens"],
  sentence: ["tokens", "X"],
  "add-token": ["tokens", "X"],
  "remove-token": ["tokens", "X"],
  "feature-name": ["features"],
  "add-feature": ["features", "X", "Wq", "Wk", "Wv"],
  "remove-feature": ["features", "X", "Wq", "Wk", "Wv"],
  "dim-name": ["heads"],
  "add-dim": ["Wq", "Wk"],
  "remove-dim": ["Wq", "Wk"],
  "value-dim-name": ["Wv"],
  "add-value-dim": ["Wv"],
  "remove-value-dim": ["Wv"],
  "one-hot": ["Wv"],
  "add-head": ["heads", "Wq", "Wk", "Wv"],
  "remove-head": ["heads", "Wq", "Wk", "Wv"],
  "mask-mode": ["mask"],
  "toggle-mask": ["mask"],
  scale: ["scale"],
  shift: ["shift"],
  positions: ["positions"],
};

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

/** Split a comma-separated URL option into its non-empty, trimmed items. */
function listOption(params, name) {
  const value = params.get(name);
  if (value === null) return null;
  return value.split(",").map((item) => item.trim()).filter(Boolean);
}

/**
 * Read the embed options from a URL.
 * @param {{search: string}} location the page's location (or a URL)
 * @returns {{embedded: boolean, panels: string[], locks: Set<string>, origins: string[]|null}}
 *   `panels`: the panel names to show, in PANELS order (DEFAULT_PANELS unless `panels=` names some);
 *   `locks`: the locked fields; `origins`: the origins allowed to send messages, null for any.
 *   Unknown names are left out.
 */
export function readEmbedOptions(location) {
  const params = new URLSearchParams(location.search);
  const embedded = params.has("embed") && params.get("embed") !== "0" && params.get("embed") !== "false";
  const asked = listOption(params, "panels");
  const panels = Object.keys(PANELS).filter((name) => (asked ?? DEFAULT_PANELS).includes(name));
  const askedLocks = listOption(params, "lock") ?? [];
  const locks = new Set(askedLocks.includes("all") ? LOCKABLE_FIELDS : LOCKABLE_FIELDS.filter((field) => askedLocks.includes(field)));
  const origins = listOption(params, "origins");
  return { embedded, panels, locks, origins: origins === null ? null : origins.map(normalOrigin).filter(Boolean) };
}

/** An origin as the browser writes it in `event.origin` ("https://a.example", no path, no slash), or "". */
function normalOrigin(text) {
  try {
    const { origin } = new URL(text);
    return origin === "null" ? "" : origin;
  } catch {
    return "";
  }
}

/** The scene fields an edit would change. */
export function fieldsEditedBy(edit) {
  if (edit.kind === "cell") return [edit.matrix];
  return FIELDS_EDITED_BY[edit.kind] ?? [];
}

/** False when `edit` would change a locked field. */
export function isEditAllowed(edit, locks) {
  return !fieldsEditedBy(edit).some((field) => locks.has(field));
}

/**
 * The locked fields that showing scene `after` in place of `before` would change (both in the scene format,
 * as numbers: a cell typed as "1" and a 1 are the same). Empty when the new scene keeps every locked field.
 */
export function lockedFieldsChangedBy(before, after, locks) {
  const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  return LOCKABLE_FIELDS.filter((field) => locks.has(field) && !same(FIELD_IN_SCENE[field](before), FIELD_IN_SCENE[field](after)));
}

/** The sentence refusing a scene that would change locked `fields`; `what` names the scene ("this example"). */
export function lockedSceneMessage(fields, what) {
  const names = fields.map((field) => FIELD_NAMES[field]);
  const listed = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
  return `This page keeps ${listed} as they are, and ${what} would change them, so the page stays as it was.`;
}

/**
 * Make every control of a locked field inside `root` read-only (inputs) or disabled (buttons, boxes), and say
 * so: its accessible name ends in LOCKED_LABEL, and so does its tooltip; the panel it is in gets a note naming
 * the locked fields whose controls it holds (Wq locks the "+ feature" button too, since a feature is a row of Wq).
 */
function markLocked(root, locks) {
  const touched = new Set();
  for (const field of locks) {
    for (const selector of LOCKED_CONTROLS[field] ?? []) {
      for (const control of root.querySelectorAll(selector)) {
        const panel = control.closest(".panel, .mask-controls");
        if (panel && addLockedField(panel, field)) touched.add(panel);
        if (control.dataset.locked !== "true") lockControl(control);
      }
    }
  }
  for (const panel of touched) showLockNote(panel);
}

/** Make one control read-only or disabled, and name it as locked. */
function lockControl(control) {
  control.dataset.locked = "true";
  // A drawn cell swapped for an input keeps its name (grid-input.js copies it), so it is extended only once.
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
function keepLocked(root, locks) {
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

/**
 * Tell the parent page this document's height whenever it changes, so that it is right before the reader
 * first sees the frame.
 *
 * The height is measured after every change to the page, on a timer, not in the browser's rendering steps: a
 * browser does not render a frame that is off screen (Chromium throttles cross-origin frames), so a
 * ResizeObserver there fires only once the reader scrolls to it, and the text below the frame would jump. A
 * MutationObserver's callback and a timer run whether or not the frame is drawn, and reading the height lays
 * the page out on the spot. The parent can also ask for the height at any time (MEASURE_MESSAGE), as
 * embed-host.js does when its own window is resized, which changes the frame's width.
 */
function reportHeight() {
  if (window.parent === window) return;
  let last = -1;
  let scheduled = false;
  const send = () => {
    scheduled = false;
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    // Only a number: nothing about the scene leaves the frame this way, so any parent may know it.
    window.parent.postMessage({ type: RESIZE_MESSAGE, height }, "*");
  };
  // One measurement per burst of changes (a new result redraws many elements at once).
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(send, 0);
  };
  new MutationObserver(schedule).observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
  new ResizeObserver(schedule).observe(document.body);
  window.addEventListener("resize", schedule);
  window.addEventListener("load", schedule);
  document.fonts?.ready.then(schedule, () => {});
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || event.data?.type !== MEASURE_MESSAGE) return;
    last = -1; // asked: answer even if nothing changed
    send();
  });
  send();
}

/**
 * Switch the page to embed mode: compact layout, only the chosen panels, locked fields read-only, and
 * the frame's height reported to its parent. Call it before the views mount, so the first paint is
 * already compact.
 * @param {ReturnType<typeof readEmbedOptions>} options
 */
export function startEmbedMode({ panels, locks }) {
  document.documentElement.classList.add("embedded");
  const root = document.querySelector('[data-testid="playground"]');
  // A mark of its own, not `hidden`: a permalink's view may show or hide panels too, and a panel the
  // author left out must stay out whatever the link says.
  const leaveOut = (element, out) => element?.toggleAttribute("data-embed-hidden", out);
  for (const [name, selector] of Object.entries(PANELS)) leaveOut(document.querySelector(selector), !panels.includes(name));
  leaveOut(document.querySelector('[data-testid="share-area"]'), true); // sharing belongs to the full page
  // Sections that hold several panels: with none of theirs shown they would leave an empty strip. The toolbar
  // also holds the notices (a refused example, say), so with none of its panels it shows only while one is up.
  root.querySelector(".toolbar")?.toggleAttribute("data-only-notices", !["presets", "controls", "notes"].some((name) => panels.includes(name)));
  leaveOut(document.querySelector(".teaching"), !["steps", "heads", "experiments", "exercise"].some((name) => panels.includes(name)));
  keepLocked(document.body, locks); // the body: the teaching views (the positions switch) are outside `root`
  reportHeight();
}
