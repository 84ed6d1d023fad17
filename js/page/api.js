/**
 * `window.attentionPlayground`: the page's API for course pages and tests.
 *
 *   ready        a Promise that resolves when Python is live and the first scene is shown (rejects if Python
 *                cannot start)
 *   getScene()   the scene as shown, in the scene format (a plain deep copy: cells the learner typed
 *                that are not numbers appear as the strings they typed)
 *   setScene(s)  show scene `s`; resolves to the result exactly as compute() returns it, or rejects
 *                with an Error whose message is the module's validation message (its fields are on
 *                `.detail`) and leaves the page as it was. Waits for Python; rejects if it cannot start.
 *   result()     the last good result (a copy), or null before the first one
 *   getWork()    the learner's work (work/learner-work.js): the scene, the exercises' code and last runs, every
 *                lesson's progress and answers with the scenes edited on the way
 *   course()     in a SCORM package's launch, whether its course platform records the learner: {recorded,
 *                version} (version "1.2" or "2004", null where nothing records); null in any other visit or
 *                while the launch is still looking for the platform
 *   model.run({words, knockedOut, model, focus})
 *                the trained model on a sentence (text or a list of words): resolves with what
 *                model/requests.py's model_run gives (tokens; weights[layer][head], each n × n; the top
 *                predictions at every position; effects; metrics); rejects with the module's message (an
 *                unknown word is named, with close words). The panel is left as it is. `model` is
 *                "shipped" (the default), "trained" (a model trained on this page) or "english" (the model
 *                trained on the Brown corpus: any text; english/requests.py's english_run: tokens as it reads
 *                them, "·" before a piece inside a word, and effects at `focus` alone, the last token unless given).
 *   model.train(settings, {onProgress})
 *                train a model from scratch on this page, as the panel's Train does (the panel shows it):
 *                settings {seed, steps, n_heads, repeat_fraction}, each optional; onProgress({step, steps,
 *                losses, seconds, weights}) after every batch of steps. Resolves with {status ("done" or
 *                "stopped"), config, step, losses, seconds, metrics, heads}; rejects with the module's message
 *                for a setting it refuses.
 *   model.compare(claim, {seed, steps, onProgress})
 *                test one of the tutorials' claims as the "Test a claim" view does (the view shows it): two
 *                models trained side by side from one seed, one with the design choice and one without.
 *                `claim` is an id of model/claims.py ("scale", "mask", "positions", "separate-qk"); seed and
 *                steps are optional; onProgress({step, steps, losses: {with, without}, seconds}) after every
 *                batch of steps. Resolves with {status, claim, configs: {with, without}, step, losses: {with,
 *                without}, seconds, metrics: {with, without}, verdict: {with_accuracy, without_accuracy, shown,
 *                sentence, shown_gap}}; rejects with the module's message for an unknown claim.
 *   model.openClaim(claim)
 *                choose a claim in the "Test a claim" view and bring the view into sight, as a place's "Test this
 *                claim by training" does, without training: resolves with the claim (model_claims' entry: id,
 *                title, statement, source, labels, settings); rejects naming the claims for an unknown one.
 *   model.stop() ends a training run or a claim's test in progress (it then resolves with status "stopped").
 *
 * Every call settles: anything that is not a scene object is rejected at once with a clear Error.
 */

import { TOO_DEEP_MESSAGE, nestedTooDeeply } from "../service/service.js";
import { learnerWork } from "../work/learner-work.js";
import { copyPlainData } from "../state/plain-data.js";

/**
 * Install the API on `window`. It exists before the page has finished loading; calls that need the
 * page wait for it.
 * @param {object} options
 * @param {{ready: Promise<unknown>}} options.python the Python service (its first `ready`)
 * @param {Promise<import("./playground.js").Playground>} options.playground
 *   the running page: its state object and its controller
 */
/** @typedef {ReturnType<typeof installApi>} PlaygroundApi `window.attentionPlayground` */

export function installApi({ python, playground }) {
  // Live means a scene to read too: where Python was live already (a frame sharing another frame's), the
  // first scene can still be on its way when Python answers.
  const liveReady = Promise.all([python.ready, playground.then((started) => started.firstScene)]).then(() => undefined);
  // The page itself reports a failed boot; this keeps an unobserved rejection off the console.
  liveReady.catch(() => {});
  playground.catch(() => {});
  let page = null;
  playground.then((started) => {
    page = started;
  });

  const api = {
    ready: liveReady,
    getScene() {
      return page ? page.controller.session.scene() : null;
    },
    setScene(scene) {
      if (scene === null || typeof scene !== "object" || Array.isArray(scene)) {
        const got = scene === null ? "null" : Array.isArray(scene) ? "an array" : typeof scene;
        return Promise.reject(new TypeError(`setScene needs a scene object (tokens, features, X, heads, mask, scale), but got ${got}`));
      }
      if (nestedTooDeeply(scene)) return Promise.reject(new TypeError(`setScene refused it: ${TOO_DEEP_MESSAGE}`));
      let copy;
      try {
        copy = structuredClone(scene);
      } catch (error) {
        return Promise.reject(new TypeError(`setScene needs plain JSON-like data: ${error.message}`));
      }
      return playground.then(({ controller }) => controller.setScene(copy)).then(copyPlainData);
    },
    result() {
      return page?.store.state.result ? copyPlainData(page.store.state.result) : null;
    },
    /** The learner's work: {scene, exercises: {code, results}, lessons: {[id]: {step, done, answers, edits}}}. */
    getWork: () => playground.then(learnerWork),
    course: () => (page?.store.state.course ? { ...page.store.state.course } : null),
    lessons: Object.freeze({
      /** The lessons: [{id, title, source, summary, steps: [{id, title, kind}]}]. */
      list: () => playground.then(({ controller }) => controller.actions.lessonsList()).then(copyPlainData),
      /** Open lesson `id` at `step` (its id or number); resolves once drawn with the step and its question. */
      open(id, { step = null } = {}) {
        if (typeof id !== "string") return Promise.reject(new TypeError("lessons.open needs a lesson's id, e.g. lessons.open(\"attention-from-scratch\")"));
        return playground.then(({ controller }) => controller.actions.openLesson(id, { step })).then(copyPlainData);
      },
      /**
       * Load a course's own lesson file and open it at `step`: `source` is {url} (relative to the page; another
       * site only where the frame's origins= names it) or {markdown, name?, base?} (the file's text, its name, and
       * the address its scene files are found beside). Resolves with the step, or with {problems} (the file's
       * mistakes, each {line, step, step_id, field, message, text}; the player lists them) or {problem}.
       */
      load(source, { step = null } = {}) {
        if (source === null || typeof source !== "object" || (typeof source.url !== "string" && typeof source.markdown !== "string")) {
          return Promise.reject(new TypeError("lessons.load needs {url: \"my-lesson.md\"} or {markdown: \"# My lesson …\", name?: \"my-lesson.md\"}"));
        }
        const { url, markdown, name, base } = source;
        return playground.then(({ controller }) => controller.actions.loadLesson(structuredClone({ url, markdown, name, base }), { step })).then(copyPlainData);
      },
      /** Answer the step's question (a word or a column, a number, a list of numbers, an option's id). */
      answer: (value) => playground.then(({ controller }) => controller.actions.lessonAnswer(structuredClone(value))).then(copyPlainData),
      /** Check a build step's target on the scene as it is now. */
      check: () => playground.then(({ controller }) => controller.actions.lessonCheck()).then(copyPlainData),
      next: () => playground.then(({ controller }) => controller.actions.lessonNext()).then(copyPlainData),
      back: () => playground.then(({ controller }) => controller.actions.lessonBack()).then(copyPlainData),
      /** Where the learner is: {id, step, number, of, done, answers}, or null while no lesson is open. */
      progress: () => playground.then(({ controller }) => controller.actions.lessonProgress()).then(copyPlainData),
      /** Leave the lesson open (its progress stays kept): the playground whole again. */
      close: () => playground.then(({ controller }) => controller.actions.closeLesson()).then(() => null),
    }),
    model: Object.freeze({
      run(request) {
        if (request === null || typeof request !== "object" || Array.isArray(request)) {
          return Promise.reject(new TypeError("model.run needs {words, knockedOut?}, e.g. {words: \"the cat sat\"}"));
        }
        const { words, knockedOut = [], model = "shipped" } = request;
        return playground.then(({ controller }) => controller.actions.runModel({ words, knockedOut, model })).then(copyPlainData);
      },
      train(settings = {}, { onProgress = () => {} } = {}) {
        if (settings === null || typeof settings !== "object" || Array.isArray(settings)) {
          return Promise.reject(new TypeError("model.train needs settings such as {seed: 3, steps: 400}"));
        }
        return playground.then(({ controller }) => controller.actions.trainModel(structuredClone(settings), { onProgress }))
          .then((outcome) => structuredClone(outcome));
      },
      /**
       * @param {string} claim
       * @param {{seed?: number, steps?: number, onProgress?: (progress: object) => void}} [options]
       */
      compare(claim, { seed, steps, onProgress = () => {} } = {}) {
        if (typeof claim !== "string") {
          return Promise.reject(new TypeError("model.compare needs a claim's id, e.g. model.compare(\"positions\")"));
        }
        return playground.then(({ controller }) => controller.actions.testClaim(claim, { seed, steps, onProgress }))
          .then((outcome) => structuredClone(outcome));
      },
      openClaim(claim) {
        if (typeof claim !== "string") {
          return Promise.reject(new TypeError("model.openClaim needs a claim's id, e.g. model.openClaim(\"mask\")"));
        }
        return playground.then(({ controller }) => controller.actions.openClaim(claim)).then((entry) => structuredClone(entry));
      },
      stop() {
        page?.controller.actions.stopTraining();
      },
    }),
  };
  Object.defineProperty(window, "attentionPlayground", { value: Object.freeze(api), enumerable: true });
  return api;
}
