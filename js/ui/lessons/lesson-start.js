/**
 * Where a lesson starts from the page: "Follow a lesson", one button per lesson with its title and its number of
 * steps (the list only: the lessons themselves load when one opens).
 */

import { make, makeButton } from "../shared/dom.js";

/**
 * Mount the list in `host` once the lessons are listed.
 * @param {HTMLElement} host
 * @param {{actions: {lessonsList: () => Promise<object[]>, openLesson: (id: string, options?: {by?: string}) => Promise<object>}}} context
 */
export async function mountLessonStart(host, { actions }) {
  let lessons;
  try {
    lessons = await actions.lessonsList();
  } catch {
    return; // no lessons to offer: the playground is whole without them
  }
  if (!lessons.length) return;
  const label = make("span", "lesson-start-label", "New here? Follow a lesson:");
  const list = make("ul", "lesson-start-list");
  for (const lesson of lessons) {
    const button = makeButton("lesson-start-button", `${lesson.title} (${lesson.steps.length} steps)`, "lesson-start-button");
    button.dataset.lesson = lesson.id;
    if (lesson.summary) button.title = lesson.summary;
    button.addEventListener("click", () => actions.openLesson(lesson.id, { by: "learner" }).catch(() => {}));
    const item = make("li");
    item.append(button);
    list.append(item);
  }
  host.replaceChildren(label, list);
}
