/**
 * The exercises: write softmax and attention yourself, run them, and read which checks pass.
 *
 * Closed at first (a button opens it). Opening it loads the code editor and has the controller start a Python
 * of its own for the learner's code; nothing of either is loaded before. The panel shows the task, the editor
 * (the learner's code is kept in the browser: the controller's savedExerciseCode and keepExerciseCode), Run / Stop, the checks with a
 * sentence for each failure, the error with the line it points at, hints one at a time, the solution on
 * request, and a switch that draws the heatmap with the learner's function (panels/learner-drawing.js).
 */

import { sceneFromDraft } from "../../scene/draft.js";
import { createCodeEditor, loadCodeMirror } from "./code-editor.js";
import { make, makeButton, withTestId } from "../shared/dom.js";

/**
 * Mount the panel in `host`. Whether it is open and which exercise is chosen are the view's `exercises` and
 * `exercise` (layout/panels.js), so a link or saved work opens it again at the same tab.
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, when?: import("../../state/redraw-schedule.js").RedrawTiming, actions: object}} context
 *   actions used: setView, exercises, runExercise, stopLearnerCode, followLearnerRuns, drawWithLearnerCode,
 *   stopDrawingWithLearnerCode, savedExerciseCode, keepExerciseCode, forgetExerciseCode, lastExercise,
 *   rememberExercise
 */
export function mountExercisePanel(host, { store, actions, when }) {
  const heading = make("h2", "", "Write it yourself");
  heading.id = "exercise-panel-title";
  const intro = make("p", "panel-note", "Write softmax and attention in Python, run them here, and see which checks pass. You can draw the heatmap with your own function.");
  const open = makeButton("", "Open the exercises", "exercise-open");
  open.setAttribute("aria-expanded", "false");
  const body = withTestId(make("div", "exercise-body"), "exercise-body");
  body.id = "exercise-body";
  body.hidden = true;
  open.setAttribute("aria-controls", body.id);
  host.append(heading, intro, open, body);

  let started = false;
  open.addEventListener("click", () => actions.setView({ exercises: body.hidden }));

  function showExercises(opening) {
    if (body.hidden === !opening) return;
    body.hidden = !opening;
    open.setAttribute("aria-expanded", String(opening));
    open.textContent = opening ? "Close the exercises" : "Open the exercises";
    if (opening && !started) {
      started = true;
      startExercises(body, store, actions, when);
    }
  }
  store.subscribe((state, changes) => {
    if (changes.has("view")) showExercises(state.view.exercises);
  }, when);
  showExercises(store.state.view.exercises);
}

/** Every element of the open panel, made once. The status sits below the buttons, so its changing text never
 * moves them under the pointer. */
function buildBody(body) {
  const status = withTestId(make("p", "exercise-status", "Loading the editor and starting Python for your code…"), "exercise-status");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const tabs = withTestId(make("div", "exercise-tabs"), "exercise-tabs");
  tabs.setAttribute("role", "group");
  tabs.setAttribute("aria-label", "Exercise");
  const text = withTestId(make("p", "exercise-text"), "exercise-text");
  const editorHost = withTestId(make("div", "exercise-editor"), "code-editor");
  const keysNote = make("p", "panel-note", "Ctrl+Enter runs your code. Tab indents; press Escape, then Tab, to leave the editor.");
  const run = makeButton("primary-button", "Run the checks", "exercise-run");
  const stop = makeButton("", "Stop", "exercise-stop");
  stop.disabled = true;
  const hint = makeButton("", "Show a hint", "exercise-hint");
  const showSolution = makeButton("", "Show the solution", "exercise-show-solution");
  const reset = makeButton("", "Start again", "exercise-reset");
  const controls = make("div", "exercise-controls");
  controls.append(run, stop, hint, showSolution, reset);
  const drawLabel = make("label", "exercise-draw");
  const draw = withTestId(make("input"), "exercise-draw");
  draw.type = "checkbox";
  drawLabel.append(draw, document.createTextNode(" Draw the heatmap with my function"));
  const drawNote = withTestId(make("p", "exercise-draw-note"), "exercise-draw-note");
  drawNote.setAttribute("aria-live", "polite");
  const error = withTestId(make("pre", "exercise-error"), "exercise-error");
  error.hidden = true;
  const checks = withTestId(make("ul", "exercise-checks"), "exercise-checks");
  checks.setAttribute("aria-label", "Checks");
  const printed = withTestId(make("pre", "exercise-printed"), "exercise-printed");
  printed.hidden = true;
  const hints = withTestId(make("ol", "exercise-hints"), "exercise-hints");
  hints.hidden = true;
  const solution = withTestId(make("div", "exercise-solution"), "exercise-solution");
  solution.hidden = true;
  const solutionCode = withTestId(make("pre", "exercise-solution-code"), "exercise-solution-code");
  const useSolution = makeButton("link-button", "Put the solution in the editor", "exercise-use-solution");
  solution.append(make("h3", "", "A solution"), solutionCode, useSolution);
  body.append(tabs, text, editorHost, keysNote, controls, status, drawLabel, drawNote, error, checks, printed, hints, solution);
  return { status, tabs, text, editorHost, run, stop, hint, showSolution, reset, draw, drawNote, error, checks, printed, hints, solution, solutionCode, useSolution };
}

/** The checks as a list: a mark, the title, what a screen reader hears, and the message of a failing one. */
function showChecks(list, results) {
  list.replaceChildren(...results.map((check) => {
    const item = make("li", "exercise-check");
    item.dataset.checkId = check.id;
    item.dataset.passed = check.passed === true ? "true" : check.passed === false ? "false" : "none";
    const mark = make("span", "check-mark", check.passed === true ? "✓" : check.passed === false ? "✗" : "–");
    mark.setAttribute("aria-hidden", "true");
    const state = check.passed === true ? "passes" : check.passed === false ? "fails" : "not run";
    item.append(mark, make("span", "check-title", check.title), make("span", "visually-hidden", ` (${state})`));
    if (check.message) item.append(make("span", "check-message", check.message));
    return item;
  }));
}

/** The checks of `exercise`, none run yet. */
const notRun = (exercise) => exercise.checks.map((check) => ({ ...check, passed: null, message: "" }));

/** What a run came back with, on the panel: the status line, the checks, the error (once) and what was printed. */
function showOutcome(parts, editor, exercise, outcome) {
  const { status, error, printed, checks } = parts;
  error.hidden = true;
  printed.hidden = true;
  if (outcome.status === "stopped") {
    status.textContent = outcome.message;
    status.dataset.outcome = "stopped";
    status.dataset.stoppedBy = outcome.how ?? "";
    if (outcome.recoveryMs !== null && outcome.recoveryMs !== undefined) status.dataset.recoveryMs = String(outcome.recoveryMs);
    showChecks(checks, notRun(exercise));
    return;
  }
  if (outcome.status === "failed") {
    status.textContent = `The checks could not run: ${outcome.message}`;
    status.dataset.outcome = "failed";
    return;
  }
  const result = outcome.result;
  showChecks(checks, result.checks);
  if (result.printed) {
    printed.textContent = `What your code printed:\n${result.printed}`;
    printed.hidden = false;
  }
  // One error shown once, with the line it points at: the code's own failure, or the first error its
  // function raised in a check (the checks it broke say only that it is shown above).
  const shown = result.error ?? result.raised;
  if (shown) {
    error.textContent = shown.traceback || shown.summary;
    error.hidden = false;
    editor.markLine(shown.line);
  } else {
    const lines = result.checks.map((check) => /^line (\d+):/.exec(check.message)).filter(Boolean);
    if (lines.length) editor.markLine(Number(lines[0][1]));
  }
  const failed = result.checks.filter((check) => check.passed === false).length;
  const total = result.checks.length;
  if (result.interrupted) status.textContent = result.error.summary;
  else if (result.error?.kind === "signature") status.textContent = "The checks cannot call your function: see why below.";
  else if (result.error) status.textContent = `Your code did not run: ${result.error.summary}`;
  else if (result.passed) status.textContent = `All ${total} checks pass. Well done!`;
  else if (result.raised) status.textContent = `${failed} of ${total} checks fail; your ${exercise.function}() raised an error (below, with its line).`;
  else status.textContent = `${failed} of ${total} checks fail: read why below, change your code, and run again.`;
  status.dataset.outcome = result.passed ? "passed" : "failed";
}

/** Follow the learner's runs on the status line: starting, a countdown once a run takes a while, stopping. */
function followRuns(parts, actions) {
  const { status, stop } = parts;
  let countdown = null;
  actions.followLearnerRuns(({ running, deadline, starting, stopping, spareReady, sparesReady = 0 }) => {
    stop.disabled = !running || stopping !== null;
    status.dataset.spareReady = String(spareReady); // a Stop will cost no boot (where code cannot be interrupted)
    status.dataset.sparesReady = String(sparesReady);
    clearInterval(countdown);
    countdown = null;
    if (starting) {
      status.textContent = "Starting Python for your code…";
      status.dataset.outcome = "starting";
    }
    if (stopping) {
      // Until Python is back, which the outcome then says (interrupted, or restarted, and how long it took).
      status.textContent = stopping === "time" ? "Your code ran too long: stopping it…" : "Stopping your code…";
      status.dataset.outcome = "stopping";
      return;
    }
    if (!running || deadline === null) return;
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
      status.textContent = `Running your code… it will be stopped in ${left} s if it has not finished.`;
      status.dataset.outcome = "running";
    };
    // Quick runs finish before anyone could read a countdown; show it only once a run takes a while.
    countdown = setInterval(tick, 250);
  });
}

/** The editor and the exercises, or why they could not start (said on the status line); null then. */
async function loadExercises(parts, actions) {
  const [listing, editorModules] = await Promise.allSettled([actions.exercises(), loadCodeMirror()]);
  if (listing.status === "rejected" || listing.value.status !== "done" || editorModules.status === "rejected") {
    const why = editorModules.status === "rejected"
      ? `the editor could not load (${editorModules.reason?.message}); run python3 build.py`
      // The listing may have failed or answered with an error: whichever side it is not reads as undefined.
      : /** @type {PromiseFulfilledResult<{message?: string}>} */ (listing).value?.message
        ?? /** @type {PromiseRejectedResult} */ (listing).reason?.message;
    parts.status.textContent = `The exercises could not start: ${why}`;
    return null;
  }
  return listing.value.result;
}

/** Build the open panel: fetch the exercises from Python, load the editor, wire everything. */
async function startExercises(body, store, actions, when) {
  const parts = buildBody(body);
  const exercises = await loadExercises(parts, actions);
  if (!exercises) return;
  // The tab a link or saved work names, else the one the learner had last in this browser.
  const chosen = (id) => exercises.find((exercise) => exercise.id === id);
  let current = chosen(store.state.view.exercise) ?? chosen(actions.lastExercise()) ?? exercises[0];
  let hintsShown = 0;
  const drawing = () => store.state.learnerDrawing?.drawing === true;
  const editor = await createCodeEditor(parts.editorHost, {
    text: actions.savedExerciseCode(current.id) ?? current.starter,
    label: "Your Python code",
    onChange: (code) => actions.keepExerciseCode(current.id, code),
    onRun: () => runChecks(),
  });
  const tabButtons = exercises.map((exercise) => {
    const tab = makeButton("exercise-tab", exercise.title, `exercise-tab-${exercise.id}`);
    tab.addEventListener("click", () => actions.setView({ exercise: exercise.id }));
    parts.tabs.append(tab);
    return tab;
  });

  function select(exercise) {
    current = exercise;
    actions.rememberExercise(exercise.id);
    if (store.state.view.exercise !== exercise.id) actions.setView({ exercise: exercise.id });
    tabButtons.forEach((tab, index) => tab.setAttribute("aria-pressed", String(exercises[index] === exercise)));
    parts.text.textContent = exercise.text;
    editor.setText(actions.savedExerciseCode(exercise.id) ?? exercise.starter);
    editor.markLine(null);
    hintsShown = 0;
    parts.hints.replaceChildren();
    parts.hints.hidden = true;
    parts.hint.disabled = false;
    parts.hint.textContent = "Show a hint";
    parts.solution.hidden = true;
    parts.showSolution.textContent = "Show the solution";
    parts.solutionCode.textContent = exercise.solution;
    parts.error.hidden = true;
    parts.printed.hidden = true;
    showChecks(parts.checks, notRun(exercise));
    parts.status.textContent = `Write ${exercise.function}() in the editor, then run the checks.`;
    // The last run's outcome (its colour, its recovery time) was another exercise's, or code since replaced.
    delete parts.status.dataset.outcome;
    delete parts.status.dataset.stoppedBy;
    delete parts.status.dataset.recoveryMs;
    // Drawing goes on with this exercise's function; a note about another's (its code failed) is gone with it.
    if (drawing()) actions.drawWithLearnerCode(exercise.id, editor.getText());
    else parts.drawNote.textContent = "";
  }

  async function runChecks() {
    if (parts.run.disabled) return;
    parts.run.disabled = true;
    const exercise = current;
    const code = editor.getText();
    const scene = store.state.draft && !store.state.error ? sceneFromDraft(store.state.draft) : null;
    editor.markLine(null);
    delete parts.status.dataset.recoveryMs;
    let outcome;
    try {
      outcome = await actions.runExercise({ exerciseId: exercise.id, code, scene });
    } finally {
      parts.run.disabled = false;
    }
    if (exercise !== current) return;
    showOutcome(parts, editor, exercise, outcome);
    if (outcome.status === "done" && drawing()) actions.drawWithLearnerCode(exercise.id, code);
  }

  parts.run.addEventListener("click", () => runChecks());
  parts.stop.addEventListener("click", () => actions.stopLearnerCode());
  parts.hint.addEventListener("click", () => {
    if (hintsShown >= current.hints.length) return;
    parts.hints.append(make("li", "", current.hints[hintsShown]));
    hintsShown += 1;
    parts.hints.hidden = false;
    parts.hint.disabled = hintsShown >= current.hints.length;
    parts.hint.textContent = parts.hint.disabled ? "No more hints" : "Show another hint";
  });
  parts.showSolution.addEventListener("click", () => {
    parts.solution.hidden = !parts.solution.hidden;
    parts.showSolution.textContent = parts.solution.hidden ? "Show the solution" : "Hide the solution";
  });
  parts.useSolution.addEventListener("click", () => {
    editor.setText(current.solution);
    editor.focus();
  });
  parts.reset.addEventListener("click", () => {
    actions.forgetExerciseCode(current.id);
    editor.setText(current.starter);
    actions.keepExerciseCode(current.id, current.starter);
  });
  parts.draw.addEventListener("change", () => {
    if (parts.draw.checked) actions.drawWithLearnerCode(current.id, editor.getText());
    else actions.stopDrawingWithLearnerCode();
  });
  followRuns(parts, actions);
  store.subscribe((state, changes) => {
    // Drawing with the learner's function: the controller says what it is doing (state.learnerDrawing).
    if (changes.has("learner") && state.learnerDrawing) {
      const { drawing: on, message } = state.learnerDrawing;
      parts.draw.checked = on;
      parts.drawNote.textContent = message || (on ? `Drawing the heatmap with your ${current.function}()…` : "");
    }
    const picked = changes.has("view") ? chosen(state.view.exercise) : null;
    if (picked && picked !== current) select(picked);
  }, when);
  select(current);
}
