/**
 * The controller's actions for the learner's exercise code and the exercise they had open, kept in this browser
 * (sharing/exercise-code.js holds how): the exercise panel draws, and saves and reads through these.
 */

import { forgetCode, loadCode, loadSelected, saveCode, saveSelected } from "../sharing/exercise-code.js";

/** The actions, spread into the controller's. */
export const exerciseWorkActions = {
  /** The learner's saved code for exercise `id`, or null (the starter is shown). */
  savedExerciseCode: (id) => loadCode(id),
  /** Keep `code` as the learner's code for exercise `id`; false if the browser would not store it. */
  keepExerciseCode: (id, code) => saveCode(id, code),
  /** Forget the learner's code for exercise `id` ("Start again"). */
  forgetExerciseCode: (id) => forgetCode(id),
  /** The exercise the learner had open last in this browser, or null. */
  lastExercise: () => loadSelected(),
  /** Remember exercise `id` as the one open. */
  rememberExercise: (id) => saveSelected(id),
};
