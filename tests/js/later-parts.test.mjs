// The registry of what loads after the first view (js/loading/later-parts.js), run by Node's own test runner
// (tests/tooling/test_js_units.py): each part's import loads the module it names, its files exist, its actions are
// the ones its code gives, docs/architecture.md gives the same list; and the one way of loading a part.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import test from "node:test";

import { LATER_PARTS, liveAndIdle, loadOnce, loadPart } from "../../js/loading/later-parts.js";
import { CLAIM_ACTIONS, EXERCISE_WORK_ACTIONS, EXPERIMENT_ACTIONS, LESSON_ACTIONS, MODEL_ACTIONS } from "../../js/panels/panel-actions.js";

const ROOT = new URL("../../", import.meta.url);
/** When a part loads, by the names LATER_PARTS uses, in the words of docs/architecture.md's "What loads when". */
const WHEN = Object.freeze({
  live: "once Python is live and the page is idle",
  firstUse: "on first use",
  frame: "at once, beside the page, in a course page's frame",
  lms: "at once, in a package a course platform launched",
});
const parts = Object.entries(LATER_PARTS);

test("each part's import loads the module the part names, and its module and stylesheet exist", () => {
  assert.ok(parts.length >= 10);
  for (const [name, part] of parts) {
    const imported = /import\("([^"]+)"\)/.exec(String(part.importModule))?.[1];
    assert.ok(imported, `${name}: its import names a module`);
    assert.equal(new URL(imported, new URL("js/loading/", ROOT)).href, new URL(`js/${part.module}`, ROOT).href, name);
    assert.ok(existsSync(new URL(`js/${part.module}`, ROOT)), `${name}: js/${part.module}`);
    if (part.stylesheet) assert.ok(existsSync(new URL(part.stylesheet, ROOT)), `${name}: ${part.stylesheet}`);
    assert.ok(part.when.length > 0 && part.when.every((when) => Object.hasOwn(WHEN, when)), `${name}: ${part.when}`);
  }
  assert.equal(new Set(parts.map(([, part]) => part.module)).size, parts.length, "a module is one part");
});

test("the actions a part brings are the panels' and the lessons' action names, each group's once", () => {
  assert.deepEqual([...LATER_PARTS.panelControllers.actions].sort(),
    [...MODEL_ACTIONS, ...CLAIM_ACTIONS, ...EXPERIMENT_ACTIONS, ...EXERCISE_WORK_ACTIONS].sort());
  // The list of lessons is the lesson files', the page's from the start; every other lesson action is the controller's.
  assert.deepEqual([...LATER_PARTS.lessonController.actions, "lessonsList"].sort(), [...LESSON_ACTIONS].sort());
  const all = parts.flatMap(([, part]) => part.actions);
  assert.equal(new Set(all).size, all.length, "an action is one part's");
});

test("the lessons' controller gives every action the registry says it brings", async () => {
  const { createLessonController } = await LATER_PARTS.lessonController.importModule();
  const store = { state: { lesson: null }, update() {}, subscribe: () => () => {}, hold: () => async () => {} };
  const controller = createLessonController({ store, python: {}, session: {}, loader: {}, presets: {}, setView() {},
    mode: "page", files: { list: async () => [] }, model: {}, claims: {} });
  assert.deepEqual(Object.keys(controller.actions).filter((name) => name !== "lessonsList").sort(),
    [...LATER_PARTS.lessonController.actions].sort());
});

test("docs/architecture.md's \"What loads when\" names each part's module in the row of each time it loads", () => {
  const docs = readFileSync(new URL("docs/architecture.md", ROOT), "utf8");
  const section = docs.split("## What loads when")[1].split("\n## ")[0];
  const rows = Object.fromEntries(Object.entries(WHEN).map(([key, words]) => {
    const row = section.split("\n").find((line) => line.startsWith(`| ${words} |`));
    assert.ok(row, `a row "${words}"`);
    return [key, row];
  }));
  for (const [name, part] of parts) {
    for (const when of part.when) assert.ok(rows[when].includes(`\`${part.module}\``), `${name}: ${part.module} under "${WHEN[when]}"`);
    if (part.stylesheet) assert.ok(part.when.some((when) => rows[when].includes(`\`${part.stylesheet}\``)), `${name}: ${part.stylesheet}`);
  }
  const table = Object.values(rows).join("\n");
  const named = new Set(table.match(/`[a-z/-]+\.js`/g).map((quoted) => quoted.slice(1, -1)));
  const modules = new Set(parts.map(([, part]) => part.module));
  assert.deepEqual([...named].filter((module) => !modules.has(module)), [], "every module the table names is a part");
});

test("a part loads its module and its stylesheet together, and the module is what it resolves with", async () => {
  const added = [];
  const before = globalThis.document;
  globalThis.document = fakeDocument(added);
  try {
    const module = { mount: () => "mounted" };
    const loaded = await loadPart({ module: "x.js", stylesheet: "static/x.css", actions: [], when: ["live"], what: "x", importModule: async () => module });
    assert.equal(loaded, module);
    assert.deepEqual(added, ["http://127.0.0.1/static/x.css"]);
    assert.equal(await loadPart({ module: "y.js", stylesheet: null, actions: [], when: ["live"], what: "y", importModule: async () => 7 }), 7);
    assert.equal(added.length, 1, "no stylesheet, none added");
  } finally {
    globalThis.document = before;
  }
});

test("a load shared by every call, tried again after it failed", async () => {
  let calls = 0;
  const load = loadOnce(async () => {
    calls += 1;
    if (calls === 1) throw new Error("offline");
    return "loaded";
  });
  await assert.rejects(load(), /offline/);
  const [first, second] = await Promise.all([load(), load()]);
  assert.deepEqual([first, second, calls], ["loaded", "loaded", 2]);
});

test("\"live and idle\" waits for Python to settle, failed or not, then for an idle moment", async () => {
  const idle = [];
  globalThis.requestIdleCallback = (callback, options) => idle.push({ callback, options });
  try {
    let resolveBoot;
    const boot = new Promise((resolve) => (resolveBoot = resolve));
    let done = false;
    const waiting = liveAndIdle(boot).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(idle.length, 0, "nothing before Python settles");
    resolveBoot();
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(idle.length, 1);
    assert.equal(done, false, "not before the page is idle");
    assert.ok(idle[0].options.timeout > 0, "an idle moment waited for at most a while");
    idle[0].callback();
    await waiting;
    const failed = liveAndIdle(Promise.reject(new Error("no Python")));
    await new Promise((resolve) => setTimeout(resolve, 0));
    idle[1].callback();
    await failed;
  } finally {
    delete globalThis.requestIdleCallback;
  }
});

/** Just enough of a document for stylesheets.js: it adds <link> elements, each loading at once. */
function fakeDocument(added) {
  return {
    baseURI: "http://127.0.0.1/",
    styleSheets: [],
    createElement: () => {
      const listeners = {};
      return { addEventListener: (type, listener) => (listeners[type] = listener), set href(value) { this._href = value; }, get href() { return this._href; }, listeners };
    },
    head: { append: (link) => {
      added.push(link.href);
      queueMicrotask(() => link.listeners.load());
    } },
  };
}
