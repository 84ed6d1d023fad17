/**
 * The playground's API by postMessage, for a course page that embeds it in an <iframe> on another
 * origin (where `window.attentionPlayground` cannot be reached). It mirrors that API method for method.
 *
 * Parent → frame, a request:
 *
 *     {type: "attention-playground:request", id, method, params}
 *
 *   `id` is a string or number the parent chooses; the reply carries it back. `method` is one of METHODS:
 *     "getScene"   params ignored        → the scene as shown (scene format)
 *     "setScene"   params {scene}        → the result of compute(scene); the page shows the scene
 *     "result"     params ignored        → the last good result, or null
 *     "getWork"    params ignored        → the learner's work: {scene, exercises: {code, results}, lessons} (getWork)
 *     "course"     params ignored        → whether a SCORM launch's course platform records the learner (course)
 *     "modelRun"   params {words, knockedOut?, model?, focus?} → a trained model on the sentence (model.run; model "english" reads any text)
 *     "modelTrain" params {settings?}    → the outcome of training a model on the page (model.train); while it
 *                                          trains, progress events (below) carry the request's id
 *     "modelStop"  params ignored        → null; a training run in progress ends (its modelTrain replies)
 *     "modelCompare" params {claim, options?: {seed?, steps?}} → the outcome of a claim's test (model.compare);
 *                                          while its two models train, progress events carry the request's id
 *     "modelOpenClaim" params {claim}    → the claim, chosen and brought into view without training (model.openClaim)
 *     "lessonsList"  params ignored      → the lessons (lessons.list)
 *     "lessonsOpen"  params {lesson, step?} → the step, once drawn, and its question (lessons.open)
 *     "lessonsLoad"  params {markdown, name?, base?, step?} or {url, step?} → a course's own lesson file, checked and
 *                                          opened: the step, or {problems} (its mistakes, line by line) (lessons.load)
 *     "lessonsAnswer" params {answer}    → the verdict {correct, score, expected, feedback} (lessons.answer)
 *     "lessonsCheck", "lessonsNext", "lessonsBack", "lessonsProgress"  params ignored → as lessons.check, .next,
 *                                          .back and .progress
 *
 * Frame → parent, exactly one reply per request it accepts, sent to the requesting window and origin only:
 *
 *     {type: "attention-playground:reply", id, ok: true, result}
 *     {type: "attention-playground:reply", id, ok: false, error: {type, message, field, row, column, row_index, column_index}}
 *
 *   A bad scene's error is the module's own (type "SceneError", the same message a learner would see);
 *   a malformed request gets {type: "BadRequest", message}.
 *
 * Frame → parent, an event each time the result on show changes (an edit, setScene, a new example):
 *
 *     {type: "attention-playground:result", result, preview}
 *
 *   `preview` is true for the shipped first-paint result, shown before Python is live.
 *
 * Frame → parent, an event each time the learner answers a lesson's question (or a build step's target is met or
 * checked), to the same windows as result events:
 *
 *     {type: "attention-playground:answer", lesson, step, kind, answer, expected, correct, score, attempts}
 *
 * Frame → parent, an event after every run of an exercise's checks, to the same windows as result events:
 *
 *     {type: "attention-playground:exercise-result", exercise, passed, checks: [{name, passed, message}], attempts}
 *
 * Frame → parent, while a "modelTrain" request trains, after every batch of steps (to the requester only):
 *
 *     {type: "attention-playground:train-progress", id, progress: {step, steps, losses, seconds, weights}}
 *
 * and the same while a "modelCompare" request trains its pair, with `losses` {with, without} and no weights.
 *
 * Who may talk to the frame: by default any page (the frame holds nothing secret: only the scene on
 * show, which the embedding page chose). With `?origins=https://a.example,https://b.example` in the
 * frame's URL only those origins are answered; messages from any other are ignored without a reply.
 * Result events then go only to origins that have sent an accepted request (send `getScene` once to
 * subscribe); without `origins` they go to the parent window whatever its origin.
 *
 * Messages that are not requests (any other `type`) are ignored, so the frame coexists with other
 * scripts that use postMessage. Requests larger than MAX_REQUEST_CHARACTERS (as JSON) are refused.
 */

/** Message types, by role. */
export const MESSAGE_TYPES = Object.freeze({
  REQUEST: "attention-playground:request",
  REPLY: "attention-playground:reply",
  RESULT: "attention-playground:result",
  TRAIN_PROGRESS: "attention-playground:train-progress",
  ANSWER: "attention-playground:answer",
  EXERCISE_RESULT: "attention-playground:exercise-result",
});

/** The methods a request may call. */
const METHODS = Object.freeze(["getScene", "setScene", "result", "getWork", "course", "modelRun", "modelTrain", "modelStop", "modelCompare", "modelOpenClaim",
  "lessonsList", "lessonsOpen", "lessonsLoad", "lessonsAnswer", "lessonsCheck", "lessonsNext", "lessonsBack", "lessonsProgress"]);

/**
 * The largest request accepted, in characters of JSON: a scene at the module's limits (64 tokens,
 * features and dims, 8 heads) written out in full is about 2 million.
 */
const MAX_REQUEST_CHARACTERS = 4_000_000;

/** The longest id accepted (an id is echoed back, so it is kept small). */
const MAX_ID_LENGTH = 200;

function badRequest(message) {
  return { type: "BadRequest", message, field: null, row: null, column: null, row_index: null, column_index: null };
}

/** The error object a reply carries for anything thrown or rejected. */
function errorDetail(error) {
  if (error?.detail && typeof error.detail === "object") return structuredClone(error.detail);
  const message = error instanceof Error ? error.message : String(error);
  return { type: error?.name ?? "Error", message, field: null, row: null, column: null, row_index: null, column_index: null };
}

/** True for an id a reply can carry back: a finite number or a short string. */
function isValidId(id) {
  return (typeof id === "number" && Number.isFinite(id)) || (typeof id === "string" && id.length <= MAX_ID_LENGTH);
}

/**
 * Check a request's shape. Returns null when it is not a request at all (ignore it), else
 * {id, method, params, problem}: `problem` is the reason to refuse it, or null.
 */
function parseRequest(data) {
  if (data === null || typeof data !== "object" || data.type !== MESSAGE_TYPES.REQUEST) return null;
  if (!isValidId(data.id)) return null; // nowhere to send a reply
  const { id, method } = data;
  const params = data.params ?? {};
  if (typeof method !== "string" || !METHODS.includes(method)) {
    return { id, method, params, problem: `unknown method ${JSON.stringify(String(method)).slice(0, 60)}: use ${METHODS.join(", ")}` };
  }
  if (params === null || typeof params !== "object" || Array.isArray(params)) {
    return { id, method, params, problem: "params must be an object, e.g. {scene: {...}}" };
  }
  let size;
  try {
    size = JSON.stringify(params)?.length ?? 0;
  } catch (error) {
    return { id, method, params, problem: `params must be plain JSON data: ${error.message}` };
  }
  if (size > MAX_REQUEST_CHARACTERS) {
    return { id, method, params, problem: `the request is ${size} characters of JSON; the limit is ${MAX_REQUEST_CHARACTERS}` };
  }
  if (method === "setScene" && !("scene" in params)) {
    return { id, method, params, problem: "setScene needs params {scene: {...}}" };
  }
  if (method === "lessonsOpen" && typeof params.lesson !== "string") {
    return { id, method, params, problem: "lessonsOpen needs params {lesson: \"attention-from-scratch\", step?: 3}" };
  }
  if (method === "lessonsLoad" && typeof params.markdown !== "string" && typeof params.url !== "string") {
    return { id, method, params, problem: "lessonsLoad needs params {markdown: \"# My lesson …\", name?: \"my-lesson.md\", step?: 1} or {url, step?}" };
  }
  if (method === "lessonsAnswer" && !("answer" in params)) {
    return { id, method, params, problem: "lessonsAnswer needs params {answer}: a word or a column, a number, a list of numbers, an option's id" };
  }
  if (method === "modelRun" && !("words" in params)) {
    return { id, method, params, problem: "modelRun needs params {words: \"the cat sat\", knockedOut?: [[layer, head], ...]}" };
  }
  return { id, method, params, problem: null };
}

/**
 * Answer postMessage requests with `api`, and post result events to the parent.
 * @param {object} options
 * @param {import("../page/api.js").PlaygroundApi} options.api window.attentionPlayground
 * @param {Promise<import("../page/playground.js").Playground>} options.playground the running page
 * @param {string[]|null} [options.origins] origins allowed to send requests; null for any
 * @param {MessageEvent[]} [options.earlyMessages] messages that came before this code had loaded, answered first
 */
export function installPostMessageApi({ api, playground, origins = null, earlyMessages = [] }) {
  const allowed = (origin) => origins === null || origins.includes(origin);
  /** Origins that sent an accepted request: where result events go when `origins` is set. */
  const listeners = new Set();

  const answer = (event) => {
    const request = parseRequest(event.data);
    if (request === null || !allowed(event.origin) || !event.source || event.source === window) return;
    const reply = (body) => {
      try {
        event.source.postMessage({ type: MESSAGE_TYPES.REPLY, id: request.id, ...body }, event.origin);
      } catch {
        // the requesting window went away, or the result could not be cloned: nothing to tell anyone
      }
    };
    if (origins !== null && event.source === window.parent) listeners.add(event.origin);
    if (request.problem) {
      reply({ ok: false, error: badRequest(request.problem) });
      return;
    }
    const progress = (report) => {
      try {
        event.source.postMessage({ type: MESSAGE_TYPES.TRAIN_PROGRESS, id: request.id, progress: report }, event.origin);
      } catch {
        // the requester went away: training goes on for the learner
      }
    };
    const calls = {
      getScene: () => api.getScene(),
      result: () => api.result(),
      getWork: () => api.getWork(),
      course: () => api.course(),
      setScene: () => api.setScene(request.params.scene),
      modelRun: () => api.model.run(request.params),
      modelTrain: () => api.model.train(request.params.settings ?? {}, { onProgress: progress }),
      modelStop: () => api.model.stop(),
      modelCompare: () => api.model.compare(request.params.claim, { ...request.params.options, onProgress: progress }),
      modelOpenClaim: () => api.model.openClaim(request.params.claim),
      lessonsList: () => api.lessons.list(),
      lessonsOpen: () => api.lessons.open(request.params.lesson, { step: request.params.step ?? null }),
      lessonsLoad: () => api.lessons.load(request.params, { step: request.params.step ?? null }),
      lessonsAnswer: () => api.lessons.answer(request.params.answer),
      lessonsCheck: () => api.lessons.check(),
      lessonsNext: () => api.lessons.next(),
      lessonsBack: () => api.lessons.back(),
      lessonsProgress: () => api.lessons.progress(),
    };
    let outcome;
    try {
      outcome = calls[request.method]();
    } catch (error) {
      outcome = Promise.reject(error);
    }
    Promise.resolve(outcome).then(
      (result) => reply({ ok: true, result: result ?? null }),
      (error) => reply({ ok: false, error: errorDetail(error) }),
    );
  };
  for (const event of earlyMessages) answer(event);
  window.addEventListener("message", answer);

  if (window.parent === window) return;
  /** An event to the parent: any page without `origins`, else the allowed origins that have sent a request. */
  const tell = (event) => {
    if (origins === null) window.parent.postMessage(event, "*");
    else for (const origin of listeners) window.parent.postMessage(event, origin);
  };
  playground.then(({ store }) => {
    let lastAnswer = null; // the answer event told last (each answer is a new one)
    const runsTold = new Map(); // each exercise's run told last (each run is a new object)
    const told = (state, changes) => {
      if (changes.has("result") && state.result) tell({ type: MESSAGE_TYPES.RESULT, result: state.result, preview: state.resultIsPreview });
      for (const [id, run] of changes.has("exercises") ? Object.entries(state.exercises) : []) {
        if (runsTold.get(id) === run) continue;
        runsTold.set(id, run);
        tell({ type: MESSAGE_TYPES.EXERCISE_RESULT, ...structuredClone(run) });
      }
      const answered = state.lesson?.answered;
      if (changes.has("lesson") && answered?.event && answered.event !== lastAnswer) {
        lastAnswer = answered.event;
        tell(structuredClone(answered.event));
      }
    };
    store.subscribe(told);
    // This code loads after the page has started: the result already on show is told as if it had just come.
    told(store.state, new Set(["result"]));
  }, () => {});
}
