/**
 * The compiled lesson files (generated/lessons/, written by the build from lessons/*.md), each fetched once: the
 * list, which the page's start shows, and each lesson when it opens; and the lessons the page compiled itself from a
 * course's own file (lesson-sources.js), added to both. Kept apart from the lesson controller so the start can name
 * the lessons without loading the player.
 */

import { fetchJson } from "../loading/fetch-json.js";

const LESSONS_URL = "generated/lessons/";
/** The compiled lesson format this page reads (py/attention_playground/lessons/compile.py FORMAT). */
const LESSON_FORMAT = 1;

/** The lesson files, each fetched once: the list (index.json) and each lesson (its id's file), format checked. */
export function createLessonFiles() {
  let index = null;
  const files = new Map();
  /** The lessons compiled in the page, by id: listed after the built ones, one of the same id in their place. */
  const added = new Map();
  return {
    list() {
      index ??= fetchJson(`${LESSONS_URL}index.json`).catch((error) => {
        index = null;
        throw error;
      });
      if (!added.size) return index;
      return index.catch(() => []).then((built) => [...built.filter((entry) => !added.has(entry.id)), ...added.values()]);
    },
    /** A lesson compiled in the page (its index entry and the lesson): listed, and opened, as a built one is. */
    add(entry, lesson) {
      added.set(entry.id, entry);
      files.set(entry.id, Promise.resolve(lesson));
    },
    lesson(id) {
      if (!files.has(id)) {
        const loading = fetchJson(`${LESSONS_URL}${encodeURIComponent(id)}.json`).then((lesson) => {
          if (lesson.format !== LESSON_FORMAT) throw new Error(`the lesson is in format ${lesson.format}; this page reads ${LESSON_FORMAT}`);
          return lesson;
        });
        loading.catch(() => files.delete(id));
        files.set(id, loading);
      }
      return files.get(id);
    },
  };
}
