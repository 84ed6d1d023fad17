/**
 * A lesson's questions as the learner answers them: each answer judged by the module against the numbers of the
 * scene on show now (py/attention_playground/lessons/), never against a number typed into the lesson; a build
 * step checked on every new result; hints given one at a time; a claim's prediction judged once its pair has
 * trained. Every verdict goes into `state.lesson.answers`, and each answer is announced in `state.lesson.answered`
 * ({count, event}) for the course page (embed/post-message-api.js) and an LMS to hear.
 */

/** The event a course page receives for an answer (docs/reference.md, "Events"). */
const ANSWER_EVENT = "attention-playground:answer";

/**
 * @param {object} options
 * @param {ReturnType<import("../state/session.js").createStore>} options.store
 * @param {ReturnType<import("../service/service.js").createPythonService>} options.python
 * @param {ReturnType<import("../state/session.js").createSceneSession>} options.session
 * @param {{testClaim: Function}} options.claims "Test a claim"'s actions (claims.js)
 * @param {{current: () => {lesson: object, step: object}|null, update: (patch: object) => void, save: () => void}} options.lesson
 *   the lesson controller's hold on the step on show (lessons.js)
 */
export function createLessonAnswers({ store, python, session, claims, lesson }) {
  let startScene = null; // a build step's scene as it opened: edits are counted against it
  let checking = null; // the build check in flight
  let checkAgain = false; // a newer result came while it was in flight

  /** Record `verdict` for the step on show (and mark it done once it is right: a wrong answer is not done), and announce it. */
  function record(step, kind, answer, verdict) {
    const answers = store.state.lesson.answers;
    const before = answers[step.id];
    const attempts = (before?.attempts ?? 0) + 1;
    const first = before?.first ?? { correct: verdict.correct, score: verdict.score };
    const right = Boolean(before?.right || verdict.correct); // answered right at some attempt: the step is done
    const kept = { kind, answer, expected: verdict.expected ?? null, correct: verdict.correct, score: verdict.score, feedback: verdict.feedback ?? "", attempts, first, right };
    const done = verdict.correct ? [...new Set([...store.state.lesson.done, step.id])] : store.state.lesson.done;
    const { id } = store.state.lesson;
    const event = { type: ANSWER_EVENT, lesson: id, step: step.id, kind, answer, expected: kept.expected, correct: kept.correct, score: kept.score, attempts };
    lesson.update({ answers: { ...answers, [step.id]: kept }, done, status: "ready", answered: { count: (store.state.lesson.answered?.count ?? 0) + 1, event } });
    lesson.save();
  }

  /**
   * A claim's question is judged on its pair's outcome: the pair trains first (the learner watches it), once per
   * claim in a lesson (a second question on the same claim reads the same pair).
   */
  const outcomes = new Map();
  async function evidenceFor(step) {
    const claim = step.question?.measure?.of === "claim" ? step.question.measure.claim : null;
    if (!claim) return undefined;
    if (!outcomes.has(claim)) {
      lesson.update({ status: "training" });
      const training = claims.testClaim(claim);
      outcomes.set(claim, training);
      training.catch(() => outcomes.delete(claim));
    }
    return outcomes.get(claim);
  }

  /** Check a build step's target on the scene on show; `counted`: the learner asked (an attempt). */
  async function checkBuild(counted) {
    const now = lesson.current();
    if (!now || now.step.question?.kind !== "build" || !store.state.draft) return null;
    const { step } = now;
    const verdict = await python.lessonCheck({ question: step.question, scene: session.scene(), start: startScene });
    if (lesson.current()?.step !== step) return verdict; // the learner moved on
    lesson.update({ check: verdict });
    const answered = store.state.lesson.answers[step.id];
    if (counted || (verdict.correct && !answered?.correct)) record(step, "build", { edits: verdict.edits ?? null }, verdict);
    return verdict;
  }

  /** Check again after every new result while a build step is on show (one check at a time, the newest wins). */
  store.subscribe((state, changes) => {
    if (!changes.has("result") || state.resultIsPreview || lesson.current()?.step.question?.kind !== "build") return;
    if (checking) {
      checkAgain = true;
      return;
    }
    checking = checkBuild(false).catch(() => null).finally(() => {
      checking = null;
      if (checkAgain) {
        checkAgain = false;
        checkBuild(false).catch(() => null);
      }
    });
  });

  return {
    /** A step was put on the page: remember its scene (a build's edits count from it). */
    stepShown() {
      startScene = session.scene();
    },
    /**
     * Judge `value` as the answer to the step's question: {correct, score, expected, feedback}; rejects with the
     * module's message for an answer it cannot read (the learner's answer is kept, nothing is counted).
     */
    async answer(value) {
      const now = lesson.current();
      if (!now?.step.question) throw new Error("this step asks nothing: go on with “Next”");
      const { step } = now;
      if (step.question.kind === "build") return checkBuild(true);
      lesson.update({ status: "judging" });
      try {
        const evidence = await evidenceFor(step);
        const verdict = await python.lessonAnswer({ question: step.question, scene: session.scene(), answer: value, evidence });
        record(step, step.question.kind, value, verdict);
        return { correct: verdict.correct, score: verdict.score, expected: verdict.expected ?? null, feedback: verdict.feedback ?? "" };
      } catch (error) {
        lesson.update({ status: "ready", message: error.message });
        throw error;
      }
    },
    /** Check a build step now (the learner asked): {correct, score, feedback, conditions, edits}. */
    check: () => checkBuild(true),
    /** Show the step's next hint. */
    hint() {
      const now = lesson.current();
      const shown = store.state.lesson.hintsShown ?? 0;
      if (now && shown < now.step.hints.length) lesson.update({ hintsShown: shown + 1 });
    },
  };
}
