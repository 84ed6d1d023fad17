/**
 * The names of the actions whose code loads after the first view: the lessons' (lessons.js) and the panels' below
 * the playground (panel-controllers.js). The page hands the views every action from the start (controller.js), so it
 * needs the names before the code; tests/js/panel-actions.test.mjs checks them against the controllers.
 */

/** The lesson controller's actions (lessons.js), each an async call. */
export const LESSON_ACTIONS = Object.freeze(["lessonsList", "openLesson", "loadLesson", "lessonNext", "lessonBack", "lessonGoTo", "lessonAnswer",
  "lessonCheck", "lessonHint", "lessonProgress", "lessonsWork", "closeLesson", "restartLesson", "downloadLessonAnswers"]);

/** The trained model's panel (model.js). */
export const MODEL_ACTIONS = Object.freeze(["openModel", "setModelWords", "showModelExample", "toggleKnockOut", "chooseModelHead",
  "focusModelPosition", "openHeadInPlayground", "useTrainedWeights", "trainModel", "stopTraining", "useShippedModel", "runModel",
  "chooseModel", "setHideStart"]);

/** "Test a claim" (claims.js). */
export const CLAIM_ACTIONS = Object.freeze(["loadClaims", "testClaim", "stopClaim", "chooseClaim", "openClaim", "claimPlace",
  "showClaimPlace"]);

/** The experiments on the scene (experiments.js). */
export const EXPERIMENT_ACTIONS = Object.freeze(["shuffleWords", "compareWordOrder", "knockOutInExample", "knockOutWord"]);

/** The learner's code kept for each exercise (exercise-work.js). */
export const EXERCISE_WORK_ACTIONS = Object.freeze(["savedExerciseCode", "keepExerciseCode", "forgetExerciseCode", "lastExercise",
  "rememberExercise", "exerciseCode", "downloadExerciseCode"]);
