/**
 * What a package tracks, and the learner's standing in it: the lessons it launches (one, or every lesson for the
 * whole playground's package), their steps and questions, and the exercises their steps open. Read from the
 * compiled lessons (generated/lessons/) by the page's own reader (lessons/lesson-files.js).
 */

import { createLessonFiles } from "../lessons/lesson-files.js";

/**
 * The course a package tracks: `lessonIds` (null: every lesson the site has).
 * @returns {Promise<{lessons: Array<{id: string, steps: Array<{id: string, kind: string|null}>}>, exercises: string[]}>}
 */
export async function describeCourse(lessonIds) {
  const lessonFiles = createLessonFiles();
  const lessons = (await lessonFiles.list()).filter((lesson) => !lessonIds || lessonIds.includes(lesson.id));
  const files = await Promise.all(lessons.map((lesson) => lessonFiles.lesson(lesson.id)));
  const exercises = [...new Set(files.flatMap((file) => file.steps.map((step) => step.exercise).filter(Boolean)))];
  return { lessons: lessons.map(({ id, steps }) => ({ id, steps: steps.map((step) => ({ id: step.id, kind: step.kind ?? null })) })), exercises };
}

/**
 * The learner's standing: steps done of all steps, questions right at the first try, exercises passed.
 * @param {ReturnType<typeof describeCourse> extends Promise<infer T> ? T : never} course
 * @param {{[id: string]: {done: string[], answers: object}}} lessons each lesson's progress (work/learner-work.js)
 * @param {Set<string>} passed the exercises whose checks have all passed, in any launch
 * @returns {{done: number, steps: number, raw: number, max: number, completed: boolean, progress: number}}
 */
export function standing(course, lessons, passed) {
  let done = 0;
  let steps = 0;
  let right = 0;
  let questions = 0;
  for (const lesson of course.lessons) {
    const work = lessons[lesson.id] ?? { done: [], answers: {} };
    for (const step of lesson.steps) {
      steps += 1;
      if (work.done.includes(step.id)) done += 1;
      if (!step.kind) continue;
      questions += 1;
      if (work.answers[step.id]?.first?.correct === true) right += 1;
    }
  }
  const exercisesPassed = course.exercises.filter((id) => passed.has(id)).length;
  const max = questions + course.exercises.length;
  return { done, steps, raw: right + exercisesPassed, max, completed: steps > 0 && done === steps, progress: steps ? done / steps : 1 };
}
