/**
 * "Train it yourself": the settings a learner may change (seed, steps, heads per layer, the share of repeated
 * runs in the data), Train, a quick run (repeated runs only, fewer steps: the induction head in seconds) and Stop, a progress bar with the step, the loss and the time left, the loss curve,
 * and the way back to the model that comes with the page. While a run goes on, the head cards above redraw
 * from its reports, so the learner watches the heads form. Until a run starts, the curve is the shown model's
 * own training. On either curve the sudden drop Python found (model/loss_drop.py) is marked and said in a
 * sentence written from its numbers.
 */

import { make, makeButton, withTestId } from "../shared/dom.js";
import { createLossCurve } from "./loss-curve.js";
import { createRunStatus, isRunning, seconds } from "./run-status.js";
import { createDisclosure } from "./disclosure.js";

/**
 * The settings, in order: [name in the config, label, step of the input].
 * @type {[string, string, number][]}
 */
const SETTINGS = [
  ["seed", "seed", 1],
  ["steps", "steps", 1],
  ["n_heads", "heads per layer", 1],
  ["repeat_fraction", "share of repeated runs", 0.05],
];

/**
 * What a setting's box expects, in words, from its range (model_info's `trainable`) and its step: "a whole
 * number from 1 to 2000".
 */
function expected(input) {
  const kind = input.step === "1" ? "a whole number" : "a number";
  return input.min !== "" && input.max !== "" ? `${kind} from ${input.min} to ${input.max}` : kind;
}

/**
 * What is wrong with what was typed in the setting `label`, in words naming it, or null when it reads as a
 * number (the module then checks its range). The boxes are text boxes, so what the learner typed is there to
 * quote: a number box would hand over "" for "abc", and the module could only say it got nothing.
 */
function typedProblem(label, text, expectedText) {
  const typed = text.trim();
  if (typed === "") return `${label} is empty: type ${expectedText}.`;
  if (!Number.isFinite(Number(typed))) return `${label}: “${typed}” is not a number; type ${expectedText}.`;
  return null;
}

/** The settings as typed: {config} when each reads as a number, else {problem}, a sentence on the first that does not. */
function readSettings(inputs) {
  const problem = SETTINGS.map(([name, label]) => typedProblem(label, inputs[name].value, expected(inputs[name]))).find(Boolean);
  if (problem) return { problem };
  const config = {};
  for (const [name] of SETTINGS) config[name] = Number(inputs[name].value.trim());
  return { config };
}

/** One text box per setting, each in its labelled field at the end of `form`: {name in the config: input}. */
function settingInputs(form) {
  const inputs = {};
  for (const [name, label, step] of SETTINGS) {
    const field = make("label", "model-setting");
    const input = withTestId(document.createElement("input"), `model-setting-${name}`);
    input.type = "text";
    input.inputMode = step === 1 ? "numeric" : "decimal";
    input.autocomplete = "off";
    input.step = String(step);
    input.name = name;
    inputs[name] = input;
    field.append(make("span", "", label), input);
    form.append(field);
  }
  return inputs;
}

/** What the status line says of a run that trains one model (state.training). */
const TRAINING_WORDS = {
  training: (run, perStep) => `Step ${run.step} of ${run.steps} · loss ${run.losses.at(-1).toFixed(3)} · ` +
    `${seconds(perStep * (run.steps - run.step))} left (${(perStep * 1000).toFixed(1)} ms a step)`,
  finished: (run) => `${run.status === "done" ? "Trained" : "Stopped at"} step ${run.step} of ${run.steps} in ` +
    `${seconds(run.seconds)} · loss ${run.losses.at(-1)?.toFixed(3) ?? "–"}. ` +
    (run.measuring ? "Measuring its heads for the panel above…" : "The panel above now shows this model."),
  failed: "Training could not run",
};

/**
 * The sentence about the sudden drop in a loss curve, written from its numbers (`drop` as model/loss_drop.py
 * finds it, or null).
 * @param {{drop: {start: number, end: number, before: number, after: number, window: number}|null, whose: string,
 *          running: boolean}} curve `whose`: the curve's owner as the sentence starts ("This run")
 * @returns {string}
 */
function lossDropSentence({ drop, whose, running }) {
  if (!drop) {
    return running
      ? `No sudden drop in the loss so far. When an induction head forms, the loss falls suddenly after a plateau; the curve marks it when it comes.`
      : `${whose}: no sudden drop in the loss (the heads above show whether an induction head formed anyway).`;
  }
  return `${whose}: the loss fell suddenly between steps ${drop.start} and ${drop.end}, from ${drop.before.toFixed(2)} ` +
    `(the mean of the ${drop.window} steps before) to ${drop.after.toFixed(2)} (the ${drop.window} steps after). ` +
    `That is the mark of an induction head forming: once a head copies the word that came after the same word ` +
    `earlier, the repeated runs can be predicted, and the loss falls at once instead of slowly.`;
}

/**
 * The settings and the buttons that train with them: Train, a quick run (the settings model_info's `quick_run`
 * gives: repeated runs only, fewer steps; then Train) and Stop. A setting typed as something that is not a number
 * is said (`onTypedError`) instead of training, and again at each update until the next Train.
 * @param {{onTrain: (config: object) => void, onStop: () => void, onTypedError: (problem: string) => void}} handlers
 */
function createSettingsForm({ onTrain, onStop, onTypedError }) {
  const form = make("form", "model-training-form");
  form.noValidate = true; // the module checks the settings, and its message names the one that is wrong
  const inputs = settingInputs(form);
  const train = makeButton("primary-button", "Train", "model-train", "submit");
  const stop = makeButton("small-button", "Stop", "model-stop");
  stop.addEventListener("click", onStop);
  const quick = makeButton("small-button", "Quick run: repeated runs only", "model-quick-run");
  let quickRun = null;
  quick.addEventListener("click", () => {
    if (!quickRun) return;
    for (const [name, value] of Object.entries(quickRun)) if (inputs[name]) inputs[name].value = String(value);
    form.requestSubmit(train);
  });
  form.append(train, quick, stop);
  let typedError = null;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const { problem = null, config } = readSettings(inputs);
    typedError = problem;
    if (problem) onTypedError(problem);
    else onTrain(config);
  });
  let filled = false;

  /** Fill the boxes from model_info's ranges once they come; while a run goes on, nothing but Stop can be used. */
  function update({ running, trainable, quickRun: quickSettings }) {
    quickRun = quickSettings;
    if (!filled && trainable) {
      for (const [key] of SETTINGS) {
        const range = trainable[key];
        Object.assign(inputs[key], { min: String(range.min), max: String(range.max), value: String(range.default) });
      }
      filled = true;
    }
    train.disabled = running;
    quick.disabled = running || !quickRun;
    stop.disabled = !running;
    for (const input of Object.values(inputs)) input.disabled = running;
  }

  return { form, update, get typedError() { return typedError; } };
}

/**
 * The loss curve to show: a run's own from its start until the panel goes back to the model that comes with the
 * page; before (and after), the shown model's own (`ownCurve`). `shown` is null when that model has no curve.
 */
function curveToShow({ training, name, model }, running) {
  const ownCurve = !running && !training.measuring && name !== "trained" && training.status !== "starting";
  const shown = ownCurve
    ? (model?.losses?.length ? { losses: model.losses, steps: model.steps, drop: model.drop ?? null } : null)
    : { losses: training.losses, steps: training.steps || training.config?.steps || 1, drop: training.drop ?? null };
  return { ownCurve, shown };
}

/**
 * @param {{onTrain: (config: object) => void, onStop: () => void, onShipped: () => void}} handlers
 * @returns {{element: HTMLElement, update: (view: {training: object, trainable: object, quickRun?: object|null, name: string,
 *   model?: {losses: number[], drop: object|null, steps: number}}) => void}}
 */
export function createTrainingView({ onTrain, onStop, onShipped }) {
  const element = withTestId(make("section", "model-training"), "model-training");
  element.setAttribute("aria-labelledby", "model-training-title");
  const heading = make("h3", "", "Train it yourself");
  heading.id = "model-training-title";
  const note = make("p", "panel-note", "A model of the same shape, trained from scratch here in your browser, in a Python worker of its own (so the page stays live), on the same NumPy code the tests run, gradients included.");
  const runStatus = createRunStatus({ progressTestId: "model-progress", statusTestId: "model-training-status" });
  const settings = createSettingsForm({
    onTrain,
    onStop,
    onTypedError(problem) {
      runStatus.status.textContent = problem;
      runStatus.status.classList.add("is-error");
    },
  });
  const shipped = makeButton("small-button", "Back to the model that comes with the page", "model-use-shipped");
  shipped.addEventListener("click", onShipped);
  const curve = createLossCurve();
  const dropNote = withTestId(make("p", "panel-note model-loss-drop"), "model-loss-drop");
  const quickNote = withTestId(make("p", "panel-note", "A quick run trains on repeated runs only: with nothing but copying to learn, the induction head forms within a few hundred steps, while the pronoun head, which needs the sentences, does not form."), "model-quick-note");
  const run = createDisclosure({ summary: "Train a model here: settings, run and loss curve", testId: "model-training-run" });
  run.body.append(note, settings.form, quickNote, runStatus.progress, runStatus.status, curve.element, dropNote, shipped);
  element.append(heading, run.element);

  /**
   * view = {training (state.training), trainable (model_info's ranges), quickRun (model_info's quick_run),
   * name ("shipped" or "trained"), model: the shown model's own curve, {losses, drop, steps} (model_info's
   * loss_curve, loss_drop and steps)}
   */
  function update(view) {
    const { training, trainable, quickRun = null, name } = view;
    const running = isRunning(training);
    settings.update({ running, trainable, quickRun });
    shipped.hidden = name !== "trained" || running;
    const typedError = running ? null : settings.typedError;
    runStatus.show(training, TRAINING_WORDS, typedError);
    if (typedError) return;
    const { ownCurve, shown } = curveToShow(view, running);
    curve.element.toggleAttribute("hidden", !shown); // an SVG element has no .hidden
    dropNote.hidden = !shown || (!ownCurve && training.status === "starting");
    if (!shown) return;
    curve.update(shown);
    dropNote.textContent = lossDropSentence({
      drop: shown.drop,
      whose: ownCurve ? (name === "shipped" ? "The model that comes with the page" : "This model") : "This run",
      running,
    });
  }

  return { element, update };
}
