/**
 * A course's own lesson file (lessons/lesson-sources.js, lessons/lesson-preview.js): fetched only from the page's own
 * site or a site the frame's origins= names; compiled with the scene files it names fetched beside it (a missing
 * one told to Python as an error, never fetched twice); and, while previewed, read again until it changes.
 */
import assert from "node:assert/strict";
import test from "node:test";

globalThis.location ??= /** @type {any} */ ({ origin: "https://play.example", href: "https://play.example/index.html" });

const { compileLesson, lessonFileName, lessonUrlProblem } = await import("../../js/lessons/lesson-sources.js");
const { watchFiles } = await import("../../js/lessons/lesson-preview.js");

const PAGE = { pageOrigin: "https://play.example", origins: ["https://course.example"] };

/** A fetch that answers from `files` ({href: text}), counting each address it was asked for. */
function fakeFetch(files, asked = []) {
  return async (url) => {
    asked.push(url.href);
    const text = files[url.href];
    return text === undefined ? { ok: false, status: 404 } : { ok: true, status: 200, text: async () => text };
  };
}

test("a lesson comes from the page's own site or a site origins= names, and no other", () => {
  assert.equal(lessonUrlProblem(new URL("https://play.example/lessons/a.md"), PAGE), null);
  assert.equal(lessonUrlProblem(new URL("https://course.example/docs/a.md"), PAGE), null);
  const refused = lessonUrlProblem(new URL("https://elsewhere.example/a.md"), PAGE);
  assert.match(refused, /does not fetch lessons from https:\/\/elsewhere\.example/);
  assert.match(refused, /origins=https:\/\/elsewhere\.example/);
  assert.match(lessonUrlProblem(new URL("https://course.example/a.md"), { pageOrigin: PAGE.pageOrigin, origins: null }), /only from its own site\./);
  assert.match(lessonUrlProblem(new URL("data:text/plain,# A"), PAGE), /not an http\(s\) one/);
  assert.equal(lessonFileName(new URL("https://course.example/docs/my%20lesson.md?x=1")), "my lesson.md");
});

test("the scene files a lesson names are fetched beside it, once, and one that cannot be had is told as an error", async () => {
  const base = new URL("https://course.example/docs/lessons/ours.md");
  const asked = [];
  const fetching = fakeFetch({ "https://course.example/docs/lessons/scenes/a.json": "{\"tokens\": []}" }, asked);
  const requests = [];
  const compile = async (request) => {
    requests.push(structuredClone(request));
    const missing = ["scenes/a.json", "scenes/b.json", "https://elsewhere.example/c.json"].filter((path) => !(path in request.files));
    return missing.length ? { needs: missing } : { lesson: { steps: [] }, entry: { id: "ours" } };
  };
  const compiled = await compileLesson({ markdown: "# Ours", name: "ours.md", base }, { compile, allowed: PAGE, fetching });
  assert.deepEqual(compiled, { lesson: { steps: [] }, entry: { id: "ours" } });
  assert.equal(requests.length, 2);
  const { files } = requests[1];
  assert.equal(files["scenes/a.json"], "{\"tokens\": []}");
  assert.match(files["scenes/b.json"].error, /answered HTTP 404/);
  assert.match(files["https://elsewhere.example/c.json"].error, /does not fetch lessons from https:\/\/elsewhere\.example/);
  assert.deepEqual(asked.sort(), ["https://course.example/docs/lessons/scenes/a.json", "https://course.example/docs/lessons/scenes/b.json"]);
});

test("a lesson sent without its address has no folder for its scene files, and Python asking twice ends the loop", async () => {
  const compile = async (request) => (Object.keys(request.files).length ? { needs: ["scenes/a.json"] } : { needs: ["scenes/a.json"] });
  await assert.rejects(compileLesson({ markdown: "# Ours", name: "ours.md", base: null }, { compile, allowed: PAGE, fetching: fakeFetch({}) }),
    /asks again for scenes\/a\.json/);
  let sent = null;
  await compileLesson({ markdown: "# Ours", name: "ours.md", base: null }, {
    compile: async (request) => (Object.keys(request.files).length ? ((sent = request.files), { problems: [] }) : { needs: ["scenes/a.json"] }),
    allowed: PAGE, fetching: fakeFetch({}),
  });
  assert.match(sent["scenes/a.json"].error, /without its address/);
});

test("a previewed file is read again until it changes, and then again after", async () => {
  const files = { "https://play.example/lesson-preview/ours.md": "# One" };
  let changes = 0;
  const watcher = watchFiles(() => [new URL("https://play.example/lesson-preview/ours.md")], {
    every: 5, fetching: fakeFetch(files), changed: async () => { changes += 1; },
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 40));
  await settle();
  assert.equal(changes, 0, "the first look is the one the others are compared with");
  files["https://play.example/lesson-preview/ours.md"] = "# Two";
  await settle();
  assert.equal(changes, 1);
  await settle();
  assert.equal(changes, 1, "unchanged since: no reload");
  watcher.stop();
  files["https://play.example/lesson-preview/ours.md"] = "# Three";
  await settle();
  assert.equal(changes, 1, "stopped");
});
