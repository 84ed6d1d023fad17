/**
 * The controllers of the panels below the playground: the trained model (model.js, with opened-head.js and
 * model-training-run.js), "Test a claim" (claims.js), the experiments (experiments.js), and the exercises' part: the
 * learner's code kept (exercise-work.js) and the heatmap drawn with it (learner-drawing.js). They are no part of the
 * first view: controller.js loads this module when the views below the playground mount (once Python is live), or
 * sooner on the first call of one of their actions (a link or saved work that set a panel up, a lesson's step, the
 * JS API). Their actions' names are in panel-actions.js, which the page has from the start.
 */

import { createClaimController } from "./claims.js";
import { exerciseWorkActions, recordExerciseRun } from "./exercise-work.js";
import { createExperiments } from "./experiments.js";
import { createLearnerDrawing } from "./learner-drawing.js";
import { createModelController } from "./model.js";

/**
 * @param {object} options
 * @param {ReturnType<import("../state/session.js").createStore>} options.store
 * @param {ReturnType<import("../service/service.js").createPythonService>} options.python
 * @param {(place: string) => void} options.reveal take the learner to a place (controller.js)
 * @param {(text: string, options?: object) => void} options.notify
 * @param {(panel: string) => boolean} options.panelShown the panel is on the page (controller.js)
 * @param {(what: string) => (scene: object) => Promise<any>} options.showChecked shows a scene a panel asked for,
 *   checked first; `what` names it in a refusal (controller.js)
 * @param {(id: string) => Promise<void>} options.openExample shows example `id`
 * @param {ReturnType<import("../state/session.js").createSceneSession>} options.session the scene session (the learner's
 *   drawing shows its results through it)
 * @param {() => void} options.onCodeNotKept the browser would not keep code the learner typed (saved-work.js)
 */
export function createPanelControllers({ store, python, reveal, notify, panelShown, showChecked, openExample, session, onCodeNotKept }) {
  return {
    claims: createClaimController({ store, python, reveal, notify, panelShown }),
    experiments: createExperiments({ store, python, showScene: showChecked("this change"), openExample, settled: () => session.settled() }),
    model: createModelController({ store, python, reveal, notify, showScene: showChecked("this head of the trained model") }),
    exercises: {
      work: exerciseWorkActions({ onNotKept: onCodeNotKept }),
      drawing: createLearnerDrawing({ store, session, python }),
      /** A run of exercise `id`'s checks, into the state (exercise-work.js). */
      recordRun: (id, outcome) => recordExerciseRun(store, id, outcome),
    },
  };
}
