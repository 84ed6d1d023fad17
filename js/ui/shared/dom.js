/**
 * Building DOM by hand, the one way every view does it: elements made with `make`, text always set as
 * textContent (never as markup), so a name typed by a learner or sent by a course page is shown as text.
 */

/**
 * Set `node`'s text to `text` unless it already reads so. Writing textContent replaces the node's text even
 * when it is the same, and every replaced text is laid out again; a view that redraws often writes only
 * what changed.
 */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * Set `node`'s attribute `name` to `value` unless it already is. Chromium treats every write to an SVG
 * attribute as a change: one that places an outline in a heatmap of 4,096 cells lays out the whole SVG again.
 */
export function setAttributeIfChanged(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/**
 * Set a form control's `property` (value, checked, disabled…) to `value` unless it already is. Chromium's autofill
 * counts every write to a control as the form changing, even of the same value, and answers it with a task that
 * lays the page out: redrawing a toolbar on every setScene of a course page's script cost each call that task.
 */
export function setPropertyIfChanged(control, property, value) {
  if (control[property] !== value) control[property] = value;
}

/**
 * Mark what `element` shows in its data attributes (`{head: 2, focusRow: 7}` gives `data-head="2"` and
 * `data-focus-row="7"`), writing only what changed; null takes a mark away. A style sheet can then hide a part of
 * what it shows (a lesson's held row of a head: ui/lessons/held-parts.js).
 * @param {HTMLElement} element
 * @param {Record<string, number|string|null>} marks
 */
export function markShown(element, marks) {
  for (const [key, value] of Object.entries(marks)) {
    const text = value === null || value === undefined ? undefined : String(value);
    if (element.dataset[key] === text) continue;
    if (text === undefined) delete element.dataset[key];
    else element.dataset[key] = text;
  }
}

/** Create an element with a class and optional text. */
export function make(tag, className = "", text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

/** `node`, named `testId` for the tests (its data-testid). */
export function withTestId(node, testId) {
  node.dataset.testid = testId;
  return node;
}

/**
 * A button reading `text`, named `testId` for the tests. Of type "button" unless told otherwise: inside a form,
 * a button of the default type submits it.
 */
export function makeButton(className, text, testId, type = "button") {
  const button = withTestId(make("button", className, text), testId);
  button.type = type;
  return button;
}
