/**
 * The lesson's map of steps: one button per step, marked with where the learner stands on it (right at the first
 * try, right later, answered and not right yet, read), the step on show current. It is one Tab stop; the arrow keys
 * move in it, as in a toolbar.
 */

import { make, makeButton } from "../shared/dom.js";

/**
 * The map of steps: one button per step, the one on show marked current, the done ones ticked. It is one stop for
 * Tab, on the step on show; the arrow keys, Home and End move between the steps (the map is a toolbar), Enter or a
 * click opens one.
 */
export function drawMap(map, lesson, go) {
  map.replaceChildren(...lesson.steps.map((step, index) => {
    const item = make("li");
    const { mark, words } = standing(lesson, step);
    const button = makeButton(`map-step${mark ? ` ${mark}` : ""}`, `${index + 1}`, "lesson-map-step");
    button.title = `${index + 1}. ${step.title}${words ? ` (${words})` : ""}`;
    button.setAttribute("aria-label", button.title);
    button.tabIndex = index === lesson.step ? 0 : -1;
    if (index === lesson.step) button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => go(index));
    item.append(button);
    return item;
  }));
}

/**
 * Where the learner stands on `step`, as the map marks it and the summary says it: right at the first try, right
 * after more tries, answered but not right yet, read, or nothing yet. `mark` is the map button's class.
 * @returns {{mark: string, words: string}}
 */
export function standing(lesson, step) {
  const done = lesson.done.includes(step.id);
  const answer = lesson.answers[step.id];
  if (!step.kind) return done ? { mark: "done read", words: "read" } : { mark: "", words: "" };
  if (!answer) return { mark: "", words: "" };
  if (done && answer.first?.correct) return { mark: "done first-try", words: "right at the first try" };
  if (done) return { mark: "done later", words: `right after ${answer.attempts} tries` };
  return { mark: "tried", words: answer.attempts === 1 ? "answered, not right yet" : `${answer.attempts} answers, not right yet` };
}

/** The keys that move between a toolbar's buttons: where each takes focus, from `at` of `count`. */
const MAP_KEYS = {
  ArrowRight: (at, count) => Math.min(at + 1, count - 1),
  ArrowDown: (at, count) => Math.min(at + 1, count - 1),
  ArrowLeft: (at) => Math.max(at - 1, 0),
  ArrowUp: (at) => Math.max(at - 1, 0),
  Home: () => 0,
  End: (at, count) => count - 1,
};

/** Arrow keys, Home and End in the map move the focus between its buttons (and the one Tab stop with it). */
export function moveFocusWithArrows(map) {
  map.addEventListener("keydown", (event) => {
    const buttons = [...map.querySelectorAll("button")];
    const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    const to = MAP_KEYS[event.key]?.(at, buttons.length);
    if (at < 0 || to === undefined) return;
    event.preventDefault();
    buttons[at].tabIndex = -1;
    buttons[to].tabIndex = 0;
    buttons[to].focus();
  });
}
