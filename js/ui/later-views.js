/**
 * The views below the playground, which the first view does without: the worked steps, heads side by side, the
 * experiments, the trained model with "Test a claim", and the exercises. The page mounts them together once Python
 * is live (page/playground.js); one module, so that they load as one file and share one file of what they take
 * from the first view's modules, instead of a file for each combination of them.
 */

export { mountStepView } from "./teaching/step-view.js";
export { mountMultiHead } from "./teaching/multi-head.js";
export { mountExperiments } from "./teaching/experiments.js";
export { mountModelPanel } from "./model/model-panel.js";
export { mountClaimTest } from "./claims/claim-test.js";
export { mountExercisePanel } from "./exercises/exercise-panel.js";
