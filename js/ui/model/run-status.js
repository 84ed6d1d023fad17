/**
 * A training run's progress bar and status line, as both runs of the model panel show them: training one model
 * ("Train it yourself", state.training) and training a claim's two ("Test a claim", state.claim). Both runs go
 * through the same statuses (idle, starting, training, done, stopped, failed) and count steps the same way;
 * each words its own sentences while it trains and once it ends.
 */

import { make } from "../shared/dom.js";

/** Seconds as a learner reads them: "3.2 s" under ten, "41 s" from there. */
export const seconds = (value) => (value < 10 ? `${value.toFixed(1)} s` : `${Math.round(value)} s`);

/** Whether a run is under way: Python booting for it, or steps being taken. */
export const isRunning = (run) => run.status === "starting" || run.status === "training";

/**
 * @typedef {object} RunWords what one kind of run says in its status line
 * @property {(run: object, perStep: number) => string} training while steps are taken (`perStep`: seconds a step)
 * @property {(run: object) => string} finished once it is done or stopped
 * @property {string} failed the start of the sentence when it could not run ("Training could not run")
 */

/**
 * Create the bar and the line (the caller places them).
 * @param {{progressTestId?: string, statusTestId: string}} testIds
 * @returns {{progress: HTMLProgressElement, status: HTMLElement,
 *   show: (run: object, words: RunWords, error?: string|null) => void}}
 */
export function createRunStatus({ progressTestId = "", statusTestId }) {
  const progress = document.createElement("progress");
  progress.className = "model-progress";
  if (progressTestId) progress.dataset.testid = progressTestId;
  progress.max = 1;
  progress.value = 0;
  const status = make("p", "model-training-status");
  status.dataset.testid = statusTestId;
  status.setAttribute("aria-live", "polite");

  /** Show how far `run` got, and what it is doing; `error`, when given, is said instead (as an error). */
  function show(run, words, error = null) {
    progress.hidden = run.status === "idle";
    progress.value = run.steps ? run.step / run.steps : 0;
    status.textContent = error ?? statusSentence(run, words);
    status.classList.toggle("is-error", Boolean(error) || run.status === "failed");
  }

  return { progress, status, show };
}

/** The status line's sentence for `run` in its status now. */
function statusSentence(run, words) {
  switch (run.status) {
    case "starting":
      return `Starting Python for training: ${run.detail || "…"}`;
    case "training":
      return words.training(run, run.step ? run.seconds / run.step : 0);
    case "done":
    case "stopped":
      return words.finished(run);
    case "failed":
      return `${words.failed}: ${run.message}`;
    default:
      return "";
  }
}
