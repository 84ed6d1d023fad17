/**
 * The lesson player: step n of N, the map of the steps (done ones marked), the step's words, its question (asked
 * before anything it asks about is shown: the page hides the weights until the learner commits), the reveal (their
 * answer beside the live numbers, and what the gap means, said by the module), hints, back and next, and "My
 * answers" to download. It draws `state.lesson` and acts through the lesson actions (lessons/lessons.js); while a
 * course's own lesson file loads, or when it cannot open, `state.lessonFile` in place of a step.
 *
 * The reveal is a live region: a screen reader hears the verdict as it comes.
 */

import { make, makeButton, withTestId } from "../shared/dom.js";
import { drawFileProblems } from "./lesson-file-problems.js";
import { createHeldPartsSheet } from "./held-parts.js";
import { drawSummary } from "./lesson-summary.js";
import { drawProse } from "./prose.js";
import { answerInWords, expectedInWords, optionWords, questionForm } from "./question-forms.js";
import { drawMap, moveFocusWithArrows } from "./step-map.js";

/** What the player says where a course platform launched the lesson and records none of it. */
const UNRECORDED = "Your course is not recording your progress in this lesson: it is kept only while this page is open.";

/**
 * After the learner moved to another step (Next, Back, the map), the step is brought to them: its title scrolled to
 * the top where it is off screen or low (a learner who had scrolled down to the weights would land below the
 * question), and focus on it, so the next Tab reaches the question's answer.
 */
function bringToLearner(stepTitle) {
  const { top } = stepTitle.getBoundingClientRect();
  if (top < 0 || top > window.innerHeight / 2) stepTitle.scrollIntoView({ block: "start" });
  stepTitle.focus({ preventScroll: true });
}

/** The reveal of the step's answer: the learner's beside the page's, the verdict, the module's sentence, the why. */
function drawReveal(reveal, lesson, content) {
  const step = lesson.steps[lesson.step];
  const answer = lesson.answers[step.id];
  if (!answer || step.kind === "build") {
    reveal.replaceChildren();
    return;
  }
  const verdict = withTestId(make("p", `lesson-verdict ${answer.correct ? "right" : "wrong"}`, answer.correct ? "✓ Right." : "✗ Not quite."), "lesson-verdict");
  const sideBySide = make("dl", "lesson-compare");
  const yours = withTestId(make("dd", "", answerInWords(lesson.asked, answer.answer)), "lesson-your-answer");
  const pages = withTestId(make("dd", "", expectedInWords(lesson.asked, answer.expected)), "lesson-expected");
  if (lesson.asked?.kind === "choose") { // an option's words as the form drew them: its Markdown, not its backticks
    const drawnOption = (id) => lesson.asked.options?.find((option) => option.id === id);
    for (const [cell, id] of [[yours, answer.answer], [pages, answer.expected?.option]]) {
      const option = drawnOption(id);
      if (option) cell.replaceChildren(optionWords(option, content.options));
    }
  }
  sideBySide.append(make("dt", "", "Your answer"), yours, make("dt", "", "The page"), pages);
  const feedback = withTestId(make("p", "lesson-feedback", answer.feedback), "lesson-feedback");
  const explain = make("div", "lesson-explain");
  explain.append(drawProse(content.explain));
  reveal.replaceChildren(verdict, sideBySide, feedback, explain);
}

/** A build step: each condition of its target, met or not, on the scene as it is now; a check and the hints. */
function drawBuild(area, lesson, content, actions) {
  const list = withTestId(make("ul", "lesson-conditions"), "lesson-conditions");
  for (const condition of lesson.check?.conditions ?? []) {
    list.append(make("li", condition.met ? "met" : "unmet", `${condition.met ? "✓" : "○"} ${condition.sentence ?? condition.text ?? ""}`));
  }
  const check = makeButton("small-button", "Check my scene", "lesson-check");
  check.addEventListener("click", () => actions.lessonCheck().catch(() => {}));
  const status = withTestId(make("p", `lesson-build-status${lesson.check?.correct ? " right" : ""}`, lesson.check?.feedback ?? "Edit the scene; the page checks the target at every change."), "lesson-build-status");
  area.append(list, status, check);
}

/** The hints given so far, and the button for the next. */
function drawHints(area, lesson, content, actions) {
  const shown = lesson.hintsShown ?? 0;
  content.hints.slice(0, shown).forEach((hint, i) => {
    const box = withTestId(make("div", "lesson-hint"), "lesson-hint");
    box.append(make("strong", "", `Hint ${i + 1}. `), drawProse(hint));
    area.append(box);
  });
  if (shown < content.hints.length) {
    const more = makeButton("link-button", shown ? "another hint" : "a hint", "lesson-hint-button");
    more.addEventListener("click", () => actions.lessonHint());
    area.append(more);
  }
}

/** The step's question: what it asks, and the form to answer (or the build's checklist), with its hints. */
function drawQuestion(area, lesson, content, actions) {
  area.replaceChildren();
  if (!lesson.asked) return;
  const ask = make("div", "lesson-ask");
  ask.append(drawProse(content.ask));
  area.append(ask);
  if (lesson.asked.kind === "build") drawBuild(area, lesson, content, actions);
  else {
    const form = questionForm(lesson.asked, (value) => actions.lessonAnswer(value).catch(() => {}), content.options);
    if (form) area.append(form);
  }
  drawHints(area, lesson, content, actions);
}

/**
 * Mount the player in `host` (index.html's lesson panel); it shows while a lesson is open.
 * @param {HTMLElement} host
 * @param {{store: object, actions: object}} context
 */
export function mountLessonPanel(host, { store, actions }) {
  const heading = withTestId(make("h2", "lesson-title"), "lesson-title");
  heading.id = "lesson-panel-title";
  const counter = withTestId(make("p", "lesson-counter"), "lesson-counter");
  const leave = makeButton("link-button", "leave the lesson", "lesson-close");
  const map = withTestId(make("ol", "lesson-map"), "lesson-map");
  const mapBar = make("div", "lesson-map-bar");
  mapBar.setAttribute("role", "toolbar");
  mapBar.setAttribute("aria-label", "the lesson's steps");
  mapBar.append(map);
  moveFocusWithArrows(map);
  const stepTitle = withTestId(make("h3", "lesson-step-title"), "lesson-step-title");
  stepTitle.tabIndex = -1; // focused after the learner moves to a step (bringToLearner), not a Tab stop
  const prose = withTestId(make("div", "lesson-prose"), "lesson-prose");
  const question = withTestId(make("div", "lesson-question"), "lesson-question");
  const reveal = withTestId(make("div", "lesson-reveal"), "lesson-reveal");
  reveal.setAttribute("aria-live", "polite");
  const summary = withTestId(make("section", "lesson-summary"), "lesson-summary");
  summary.setAttribute("aria-label", "your lesson, step by step");
  const status = withTestId(make("p", "lesson-status"), "lesson-status");
  status.setAttribute("role", "status");
  const fileProblems = withTestId(make("div", "lesson-file"), "lesson-file");
  fileProblems.setAttribute("role", "status"); // a file's mistakes appear as it is saved, in a preview: said when they do
  // A package launched by a course platform that records nothing: said where the learner answers, all along.
  const unrecorded = withTestId(make("p", "lesson-unrecorded", UNRECORDED), "lesson-unrecorded");
  unrecorded.hidden = store.state.course?.recorded !== false;
  const back = makeButton("small-button", "← Back", "lesson-back");
  const next = makeButton("small-button", "Next →", "lesson-next");
  const mine = makeButton("link-button", "My answers (CSV)", "lesson-my-answers-csv");
  const mineJson = makeButton("link-button", "(JSON)", "lesson-my-answers-json");
  const nav = make("div", "lesson-nav");
  nav.append(back, next, mine, mineJson);
  host.append(heading, counter, unrecorded, leave, fileProblems, mapBar, stepTitle, prose, question, reveal, summary, status, nav);
  // The rows and heads of the weights the step holds back, hidden wherever they show on the page (held-parts.js).
  const heldParts = createHeldPartsSheet(document);
  const stepParts = [counter, mapBar, stepTitle, prose, question, reveal, summary, status, nav];
  host.setAttribute("aria-labelledby", heading.id);

  let learnerMoved = false; // the step on show changes because the learner asked: it is brought to them once drawn
  let arrivalBrought = 0; // the last lesson opening (`lesson.arrival.count`) the player has seen to
  // A lesson opened by a link or from the lesson list comes to the learner too, but not in a course page's frame,
  // whose page the learner is reading: the frame must not scroll it or take its focus.
  const bringsArrivals = window.self === window.top;
  /** Move to another step as the learner asked (the store draws the new step before the move resolves). */
  const move = (going) => {
    learnerMoved = true;
    going().catch(() => {}).finally(() => { learnerMoved = false; });
  };
  const goTo = (index) => move(() => actions.lessonGoTo(index));
  leave.addEventListener("click", () => actions.closeLesson());
  back.addEventListener("click", () => move(() => actions.lessonBack()));
  next.addEventListener("click", () => move(() => actions.lessonNext()));
  mine.addEventListener("click", () => actions.downloadLessonAnswers("csv"));
  mineJson.addEventListener("click", () => actions.downloadLessonAnswers("json"));

  let drawnStep = null; // the lesson and step (and its question as asked) the words and the form were drawn for
  /** Draw what `changes` changed of the lesson (and of the course's record). */
  const draw = (state, changes) => {
    if (changes.has("course")) unrecorded.hidden = state.course?.recorded !== false;
    if (!changes.has("lesson")) return;
    const { lesson, lessonFile } = state;
    heldParts.draw(lesson);
    host.hidden = !lesson && !lessonFile;
    fileProblems.hidden = !lessonFile;
    for (const part of stepParts) part.hidden = !lesson;
    if (lessonFile) {
      heading.textContent = `Lesson: ${lessonFile.name}`;
      drawFileProblems(fileProblems, lessonFile);
    }
    if (!lesson) {
      drawnStep = null;
      return;
    }
    const content = lesson.content ?? { prose: [], ask: [], explain: [], hints: [] };
    heading.textContent = `Lesson: ${lesson.title}`;
    counter.textContent = `Step ${lesson.step + 1} of ${lesson.steps.length} · ${lesson.done.length} done`;
    drawMap(map, lesson, goTo);
    const anotherStep = drawnStep !== null && (drawnStep.lesson !== lesson.id || drawnStep.step !== lesson.step);
    const redraw = anotherStep || drawnStep?.content !== lesson.content || drawnStep?.asked !== lesson.asked
      || drawnStep?.hints !== lesson.hintsShown || drawnStep?.check !== lesson.check;
    if (redraw) {
      stepTitle.textContent = lesson.steps[lesson.step].title;
      prose.replaceChildren(drawProse(content.prose));
      drawQuestion(question, lesson, content, actions);
      drawnStep = { lesson: lesson.id, step: lesson.step, content: lesson.content, asked: lesson.asked, hints: lesson.hintsShown, check: lesson.check };
      if (anotherStep && learnerMoved) bringToLearner(stepTitle);
    }
    const { arrival } = lesson;
    if (arrival && arrival.count !== arrivalBrought && lesson.status === "ready") {
      arrivalBrought = arrival.count;
      if (bringsArrivals && (arrival.by === "link" || arrival.by === "learner")) bringToLearner(stepTitle);
    }
    drawReveal(reveal, lesson, content);
    summary.hidden = lesson.step + 1 < lesson.steps.length;
    if (!summary.hidden) drawSummary(summary, lesson, actions.downloadLessonAnswers);
    status.textContent = lesson.status === "loading" ? "Putting the step on the page…"
      : lesson.status === "judging" ? "Checking your answer against the live numbers…"
        : lesson.status === "training" ? "Training the pair to test the claim: this takes some seconds…"
          : lesson.message || (lesson.unsaved ? "This browser does not let the page keep your progress: download your answers to keep them." : "");
    back.disabled = lesson.step === 0;
    next.disabled = lesson.step + 1 >= lesson.steps.length;
  };
  host.hidden = true;
  store.subscribe(draw);
  // Mounted when the first lesson opens (its code loads then): the lesson as it is by now, drawn at once.
  draw(store.state, new Set(["lesson", "course"]));
}
