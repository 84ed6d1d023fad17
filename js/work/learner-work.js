/**
 * The learner's work in one plain object, for a course page that keeps it itself (getWork() in page/api.js and by
 * postMessage) and for an LMS's learner record (js/lms/):
 *
 *   {scene,                                    the scene on show, in the scene format (null before the first)
 *    exercises: {code: {[id]: text},           the code the learner wrote for each exercise they opened
 *                results: {[id]: run}},        each exercise's last run of its checks (state.js, "exercises")
 *    lessons: {[id]: {step, done, answers, edits}}}   each lesson's progress (sharing/lesson-progress.js), the
 *                                              open one as it is now, the scene edited on its step included
 */

/**
 * @param {{store: object, controller: {session: {scene: () => object|null}, actions: object}}} page the running page
 * @returns {Promise<{scene: object|null, exercises: {code: object, results: object}, lessons: object}>}
 */
export async function learnerWork({ store, controller }) {
  const lessons = await controller.actions.lessonsWork();
  const code = await controller.actions.exerciseCode(); // its code may load first (panels/panel-controllers.js)
  return structuredClone({
    scene: controller.session.scene(),
    exercises: { code, results: store.state.exercises },
    lessons,
  });
}
