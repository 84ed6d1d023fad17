/**
 * Training a model of one's own from the model's panel (and the JS API's model.train): the run in the training
 * worker, its progress into `state.training` (TRAINING_STATE in state.js), and the new model into the panel once
 * its heads are measured.
 */

import { reportProgress } from "./training-progress.js";
import { TRAINING_STATE } from "../state/state.js";

/**
 * @param {object} options the model panel's (panels/model.js): `store`, `python`, `update` (its state), `rerun`,
 *   `loadInfo`, and `forgetOpenedHead` (no head of the old model stays open)
 */
export function createTrainingRun({ store, python, update, rerun, loadInfo, forgetOpenedHead }) {
  const model = () => store.state.model;
  const updateTraining = (patch) => store.update({ training: { ...store.state.training, ...patch } }, "training");

  /** The run's progress into the state, and to `listener` as the JS API documents it. */
  function follow(listener) {
    const losses = [];
    return (progress) => {
      if (progress.phase === "starting") {
        updateTraining({ status: "starting", detail: progress.detail });
        return;
      }
      losses.push(...progress.losses);
      updateTraining({ status: "training", step: progress.step, steps: progress.steps, losses: [...losses],
        drop: progress.loss_drop ?? null, seconds: progress.seconds, weights: progress.weights ?? null });
      reportProgress(listener, { step: progress.step, steps: progress.steps, losses: progress.losses, seconds: progress.seconds, weights: progress.weights });
    };
  }

  return {
    actions: {
      /**
       * Train a model from scratch in the training worker; resolves with the outcome and the new model's metrics
       * and heads. `onProgress` hears every report as the panel does (the JS API passes one on).
       */
      async trainModel(config, { onProgress: listener = () => {} } = {}) {
        updateTraining({ ...TRAINING_STATE, status: "starting", config });
        try {
          // The heads are reported on the panel's sentence, if the model can read it.
          const outcome = await python.trainModel({ config, words: model().error ? "" : model().words, onProgress: follow(listener) });
          updateTraining({ status: outcome.status, config: outcome.config, step: outcome.step, steps: outcome.config.steps,
            losses: outcome.losses, drop: outcome.drop, seconds: outcome.seconds, measuring: true });
          // The panel keeps the model it shows until the new one is measured: that takes seconds, and the run's
          // end is said at once (the training view says the panel is catching up).
          forgetOpenedHead();
          await loadInfo("trained");
          updateTraining({ measuring: false });
          await rerun();
          return { ...outcome, metrics: model().info.metrics, heads: model().info.heads };
        } catch (error) {
          updateTraining({ status: "failed", message: error.message });
          throw error;
        }
      },
      stopTraining: () => python.stopTraining(),
    },
  };
}
