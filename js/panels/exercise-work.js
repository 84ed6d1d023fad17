/**
 * The controller's actions for the learner's exercise code and the exercise they had open, kept in this browser
 * (sharing/exercise-code.js holds how): the exercise panel draws, and saves and reads through these.
 *
 * Where the browser keeps nothing (a course page's frame on another site, storage turned off or full), the code is
 * held here for the visit instead, so switching exercises loses nothing; the page says it is not saved
 * (`onNotKept`) and offers it as a file (`downloadExerciseCode`). Each run of an exercise's checks is recorded in
 * `state.exercises` (change "exercises"), where a course page (the "attention-playground:exercise-result" event) and
 * an LMS hear it.
 */

import { forgetCode, loadAllCode, loadCode, loadSelected, saveCode, saveSelected } from "../sharing/exercise-code.js";

/**
 * The actions, spread into the controller's.
 * @param {{onNotKept: () => void}} options `onNotKept`: the browser would not keep code the learner typed
 */
export function exerciseWorkActions({ onNotKept }) {
  /** The code the browser would not keep, by exercise id, as last typed. */
  const unsaved = new Map();
  // The panel puts an exercise's starter in the editor when it finds no code of the learner's, and the editor
  // hands every change back to be kept: that first text is the starter, not the learner's work.
  const starterNext = new Set();
  const starters = new Map();
  return {
    /** The learner's code for exercise `id` (kept in the browser, or held for this visit), or null (the starter). */
    savedExerciseCode(id) {
      const code = unsaved.get(id) ?? loadCode(id);
      if (code === null) starterNext.add(id);
      return code;
    },
    /** Keep `code` as the learner's code for exercise `id`; false if the browser would not store it (then said). */
    keepExerciseCode(id, code) {
      if (starterNext.delete(id)) starters.set(id, code);
      if (saveCode(id, code)) {
        unsaved.delete(id);
        return true;
      }
      if (code === starters.get(id)) unsaved.delete(id); // nothing of the learner's to lose
      else {
        unsaved.set(id, code);
        onNotKept();
      }
      return false;
    },
    /** Forget the learner's code for exercise `id` ("Start again"). */
    forgetExerciseCode(id) {
      unsaved.delete(id);
      return forgetCode(id);
    },
    /** The exercise the learner had open last in this browser, or null. */
    lastExercise: () => loadSelected(),
    /** Remember exercise `id` as the one open. */
    rememberExercise: (id) => saveSelected(id),
    /** Every exercise's code the learner has written, kept or held for this visit: {[exercise id]: code}. */
    exerciseCode: () => ({ ...loadAllCode(), ...Object.fromEntries(unsaved) }),
    /** Download the code the browser would not keep, every exercise's in one Python file. */
    async downloadExerciseCode() {
      const { downloadBlob } = await import("../sharing/export.js");
      const text = [...unsaved].map(([id, code]) => `# Exercise “${id}”\n${code.replace(/\n*$/, "\n")}`).join("\n");
      downloadBlob(new Blob([text], { type: "text/x-python" }), "my-exercise-code.py");
    },
  };
}

/**
 * Record a run of exercise `id`'s checks in `state.exercises[id]`: {exercise, passed, checks: [{name, passed,
 * message}], attempts}. A run the learner's code never finished (stopped, or Python went away) counts as an attempt
 * that passed nothing; a request refused before it ran is not a run.
 * @param {ReturnType<import("../state/session.js").createStore>} store
 * @param {string} id the exercise's id
 * @param {import("../service/exercise-runner.js").RunOutcome} outcome
 */
export function recordExerciseRun(store, id, outcome) {
  if (outcome?.status !== "done" && outcome?.status !== "stopped") return;
  const result = outcome.status === "done" ? outcome.result : null;
  const checks = (result?.checks ?? []).map((check) => ({ name: check.title, passed: check.passed === true, message: check.message ?? "" }));
  const attempts = (store.state.exercises[id]?.attempts ?? 0) + 1;
  const run = { exercise: id, passed: result?.passed === true, checks, attempts };
  store.update({ exercises: { ...store.state.exercises, [id]: run } }, "exercises");
}
