/**
 * A lesson a course keeps in its own site: a Markdown file the page fetches (`lesson-src=URL`) or that the course
 * page sends (the `lessonsLoad` message), checked and compiled by the page's Python with the same code as
 * `python -m attention_playground.lessons check` and the build (py/attention_playground/lessons/authoring.py), the
 * scene files its steps name fetched beside it. The file is data: nothing in it runs, and what it says reaches the
 * page as plain trees (compile.py).
 *
 * Where a file may come from: the page's own origin always; another origin only when a course page's frame names
 * it in `origins=` (embed-mode.js), the same list that may drive the frame by postMessage. Either way the other
 * site must let the page read it (CORS: `Access-Control-Allow-Origin`).
 */

/** The most bytes a lesson file or a scene file may have. */
const MAX_FILE_BYTES = 8_000_000;
/** The file name a lesson sent without one is known by (its stem is the lesson's id). */
export const UNNAMED_LESSON = "course-lesson.md";

/**
 * Why the page will not fetch `url`, or null when it may: its own origin, or one `origins` allows.
 * @param {URL} url
 * @param {{pageOrigin: string, origins: string[]|null}} allowed `origins`: a frame's `origins=`, null for none named
 */
export function lessonUrlProblem(url, { pageOrigin, origins }) {
  if (url.protocol !== "https:" && url.protocol !== "http:") return `the lesson's address ${url.href.slice(0, 80)} is not an http(s) one`;
  if (url.origin === pageOrigin || (origins ?? []).includes(url.origin)) return null;
  return `this page does not fetch lessons from ${url.origin}: only from its own site${origins?.length ? ` and ${origins.join(", ")}` : ""}. `
    + `A course page's frame allows another site with origins=${url.origin} in the frame's address.`;
}

/** The name a lesson file at `url` is known by: the last part of its path ("my-lesson.md"). */
export function lessonFileName(url) {
  const last = url.pathname.split("/").pop() ?? "";
  try {
    return decodeURIComponent(last) || UNNAMED_LESSON;
  } catch {
    return last || UNNAMED_LESSON;
  }
}

/**
 * The text at `url`, fetched whole every time (a lesson being written changes between two loads, and a server's
 * Last-Modified counts whole seconds: a revalidation could keep a file saved twice in one second): {text} or
 * {error}, the error a sentence that names the address.
 * @param {URL} url
 * @param {typeof fetch} fetching
 */
export async function fetchText(url, fetching = fetch) {
  let response;
  try {
    response = await fetching(url, { cache: "no-store", credentials: "omit", mode: url.origin === location.origin ? "same-origin" : "cors" });
  } catch {
    return { error: `${url.href} could not be fetched (the site is not reachable, or does not let this page read it: CORS)` };
  }
  if (!response.ok) return { error: `${url.href} answered HTTP ${response.status}` };
  const text = await response.text();
  if (text.length > MAX_FILE_BYTES) return { error: `${url.href} is larger than 8 MB` };
  return { text };
}

/**
 * Compile a lesson's Markdown in the page's Python, fetching the scene files it names beside `base` (the lesson's own
 * address; null for a lesson sent without one, whose scene files cannot be found). Resolves with {lesson, entry} or
 * {problems: [{line, step, step_id, field, message, text}]}.
 * @param {{markdown: string, name: string, base: URL|null}} source
 * @param {{compile: (request: object) => Promise<object>, allowed: {pageOrigin: string, origins: string[]|null},
 *   fetching?: typeof fetch}} with
 */
export async function compileLesson({ markdown, name, base }, { compile, allowed, fetching = fetch }) {
  const files = {};
  for (;;) {
    const compiled = await compile({ markdown, name, files });
    if (!compiled.needs) return compiled;
    const asked = compiled.needs.filter((path) => !(path in files));
    if (!asked.length) throw new Error(`the lesson asks again for ${compiled.needs.join(", ")}`); // never loop
    await Promise.all(asked.map(async (path) => {
      files[path] = await sceneFileText(path, base, allowed, fetching);
    }));
  }
}

/** The scene files a compiled lesson read beside it, as addresses (what a preview watches besides the lesson). */
function sceneFileUrls(lesson, base) {
  const paths = new Set(lesson.steps.map((step) => step.scene?.file).filter(Boolean));
  return base ? [...paths].map((path) => new URL(path, base)) : [];
}

/** A scene file's text, or {error} saying why it cannot be had. */
async function sceneFileText(path, base, allowed, fetching) {
  if (!base) return { error: "a lesson sent without its address (lessonsLoad without `base`) has no folder to find it in" };
  const url = new URL(path, base);
  const problem = lessonUrlProblem(url, allowed);
  if (problem) return { error: problem };
  const { text, error } = await fetchText(url, fetching);
  return text === undefined ? { error } : text;
}

/**
 * A course's own lesson file, as `loadLesson` is given it: {url} (relative to the page) or {markdown, name?, base?};
 * resolves with {markdown, name, base} to compile, or rejects with a sentence for the learner and the author.
 * @param {{url?: string, markdown?: string, name?: string, base?: string}} source
 * @param {{pageOrigin: string, origins: string[]|null}} allowed
 */
export async function lessonText(source, allowed) {
  const address = (text, what) => {
    try {
      return new URL(text, location.href);
    } catch {
      throw new Error(`${what} ${JSON.stringify(String(text).slice(0, 80))} is not an address`);
    }
  };
  if (typeof source?.markdown === "string") {
    const base = typeof source.base === "string" ? address(source.base, "base") : null;
    const problem = base && lessonUrlProblem(base, allowed);
    if (problem) throw new Error(problem);
    return { markdown: source.markdown, name: typeof source.name === "string" && source.name ? source.name : UNNAMED_LESSON, base };
  }
  if (typeof source?.url !== "string") throw new Error("a lesson is loaded from {url} or {markdown}");
  const url = address(source.url, "the lesson's address");
  const problem = lessonUrlProblem(url, allowed);
  if (problem) throw new Error(problem);
  const { text, error } = await fetchText(url);
  if (text === undefined) throw new Error(error);
  return { markdown: text, name: lessonFileName(url), base: url };
}

/** The name a source is shown by while it loads: its file's name, or its address. */
export function sourceName(source) {
  if (typeof source?.name === "string" && source.name) return source.name;
  return typeof source?.url === "string" ? source.url : UNNAMED_LESSON;
}

/**
 * A course's own lesson file (`source`: lessonText), checked and compiled: {entry, lesson, watched} or {file, watched},
 * `file` what the player shows in place of a step ({name, status: "problems" | "failed", problems, message}) and
 * `watched` the addresses a preview follows (the lesson's, and its scene files').
 * @param {{url?: string, markdown?: string, name?: string, base?: string}} source
 * @param {{compile: (request: object) => Promise<object>, allowed: {pageOrigin: string, origins: string[]|null}}} with
 */
export async function compileLessonFile(source, { compile, allowed }) {
  let name = sourceName(source);
  let watched = [];
  try {
    const text = await lessonText(source, allowed);
    name = text.name;
    watched = text.base ? [text.base] : [];
    const compiled = await compileLesson(text, { compile, allowed });
    if (compiled.problems) return { file: { name, status: "problems", problems: compiled.problems, message: "" }, watched };
    return { entry: compiled.entry, lesson: compiled.lesson, watched: [...watched, ...sceneFileUrls(compiled.lesson, text.base)] };
  } catch (error) {
    return { file: { name, status: "failed", problems: [], message: `This lesson cannot be loaded: ${error.message}` }, watched };
  }
}
