/**
 * The end of a lesson, on its last step: each step as the learner left it, the questions right at the first try,
 * and the download of the answers beside them.
 */

import { make, makeButton, withTestId } from "../shared/dom.js";
import { standing } from "./step-map.js";

/**
 * The end of the lesson: each step as the learner left it (right at the first try, right later, read), the count
 * of questions right at the first try, and the download of the answers beside it. Drawn on the last step.
 */
export function drawSummary(area, lesson, download) {
  const questions = lesson.steps.filter((step) => step.kind);
  const firstTry = questions.filter((step) => standing(lesson, step).mark === "done first-try").length;
  const list = make("ol", "lesson-summary-steps");
  for (const step of lesson.steps) {
    const { mark, words } = standing(lesson, step);
    const item = make("li", "", `${step.title} `); // a title may end in "?": a dash, not a colon, before its standing
    item.append(make("span", `lesson-summary-standing ${mark}`, `— ${words || "not done yet"}`));
    list.append(item);
  }
  const mine = makeButton("link-button", "download my answers (CSV)", "lesson-summary-download");
  mine.addEventListener("click", () => download("csv"));
  area.replaceChildren(
    make("h3", "lesson-summary-title", "Your lesson"),
    withTestId(make("p", "", `${firstTry} of ${questions.length} questions right at the first try; ${lesson.done.length} of ${lesson.steps.length} steps done.`), "lesson-summary-count"),
    list, mine,
  );
}
