/**
 * A course's own lesson file that cannot open, shown where its step would have been: each of its mistakes with the
 * file's line, the step, the key and what was expected (the checker's words: py/attention_playground/lessons/), or
 * why the file could not be had. A learner never sees half a lesson; an author sees what to fix.
 */

import { make, withTestId } from "../shared/dom.js";

/**
 * Draw `file` (state.lessonFile: {name, status, problems, message}) into `area`.
 * @param {HTMLElement} area
 * @param {{name: string, status: string, problems: Array<{line: number, step: number|null, step_id: string|null,
 *   field: string|null, message: string}>, message: string}} file
 */
export function drawFileProblems(area, file) {
  if (file.status === "loading") {
    area.replaceChildren(make("p", "lesson-file-loading", `Loading the lesson ${file.name}…`));
    return;
  }
  if (file.status !== "problems") {
    area.replaceChildren(withTestId(make("p", "lesson-file-failed", file.message), "lesson-file-failed"));
    return;
  }
  const count = file.problems.length;
  const list = withTestId(make("ol", "lesson-file-problems"), "lesson-file-problems");
  for (const problem of file.problems) {
    const item = make("li");
    const where = [`line ${problem.line}`];
    if (problem.step !== null) where.push(`step ${problem.step}${problem.step_id ? ` (${problem.step_id})` : ""}`);
    if (problem.field) where.push(problem.field);
    item.append(make("span", "lesson-file-where", `${where.join(" · ")}: `), problem.message);
    item.dataset.line = String(problem.line);
    list.append(item);
  }
  area.replaceChildren(
    make("p", "lesson-file-intro", `The lesson ${file.name} has ${count} mistake${count === 1 ? "" : "s"} to fix before it can open:`),
    list,
  );
}
