// The link format (js/sharing/permalink.js, js/sharing/links.js) and the view it carries (js/layout/panels.js), run by
// Node's own test runner: a link made today reads back as it was made, every older version still opens in today's
// shape, and a damaged or hostile link is refused with a sentence a learner can act on, never an exception.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import { deflateRawSync, inflateRawSync } from "node:zlib";

import { DEFAULT_VIEW, OPEN_AT_PANELS, PANEL_NAMES, claimViewOf, cleanView } from "../../js/layout/panels.js";
import { draftFromScene } from "../../js/scene/draft.js";
import { clearHash, lessonLink, linkTo, quotedName, readLink } from "../../js/sharing/links.js";
import {
  LINK_VERSION,
  PermalinkError,
  decodePermalinkHash,
  encodePermalinkHash,
  makePayload,
  presetHash,
} from "../../js/sharing/permalink.js";

// links.js builds its links from the page's address: a stand-in for the browser's, the same in every test.
globalThis.location = { origin: "https://example.org", pathname: "/playground/", search: "?embed=1" };

const SCENE = {
  title: "dog bites man",
  tokens: ["dog", "bites", "man"],
  features: ["f0", "f1"],
  X: [[1, 0], [0.5, 1], [1, 1]],
  heads: [
    { name: "head 1", dims: ["d0", "d1"], Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv: [[1, 0], [0, 1]] },
    { name: "head 2", dims: ["d0"], Wq: [[1], [0]], Wk: [[0], [1]], Wv: null },
  ],
  mask: "causal",
  scale: true,
};

/** The view a link without one opens with: every panel shown, nothing open, no tab chosen. */
const CLOSED_VIEW = { panels: [...PANEL_NAMES], steps: false, table: false, exercises: false, exercise: null, experiment: null, model: null };

/** The four panels a version-2 link could hide. */
const V2_PANELS = ["heatmap", "bars", "features", "weights"];

/** A hash of `version` holding `payload` as JSON, made without the page: raw deflate, base64url without padding. */
function oldLink(version, payload) {
  return `#s=${version}.${deflateRawSync(Buffer.from(JSON.stringify(payload))).toString("base64url")}`;
}

/** A hash whose data is `bytes`, raw-deflated, in the current version. */
const rawLink = (bytes) => `#s=${LINK_VERSION}.${deflateRawSync(bytes).toString("base64url")}`;

/** Assert that `hash` is refused with a PermalinkError whose message matches `words`. */
async function refused(hash, words) {
  await assert.rejects(decodePermalinkHash(hash), (error) => {
    assert.ok(error instanceof PermalinkError, `expected a PermalinkError, got ${error}`);
    assert.equal(error.name, "PermalinkError");
    assert.match(error.message, words);
    return true;
  });
}

/** The payload a link holds once it is encoded and read back. */
async function roundTrip(payload) {
  const read = await decodePermalinkHash(await encodePermalinkHash(payload));
  assert.equal(read.kind, "scene");
  assert.equal(read.version, LINK_VERSION);
  return read.payload;
}

/** The page's state as linkTo reads it, for SCENE as shown, with `extra` over it. */
function pageState(extra = {}) {
  return {
    lesson: null,
    draft: draftFromScene(SCENE),
    presetId: "dog-bites-man",
    edited: false,
    focusToken: 1,
    activeHead: 1,
    view: { ...DEFAULT_VIEW, panels: ["heatmap", "bars", "steps"], table: true },
    model: null,
    claim: null,
    ...extra,
  };
}

/** The payload inside a full link that linkTo returned, read back. */
async function payloadOf(link) {
  const read = await decodePermalinkHash(link.slice(link.indexOf("#")));
  return read.payload;
}

// ---- round trips ----------------------------------------------------------------------------

test("a scene and its view, encoded then decoded, come back exactly as they were", async () => {
  const payload = makePayload({
    scene: SCENE,
    preset: "dog-bites-man",
    edited: true,
    view: { focus: 2, head: 1, panels: ["heatmap", "steps"], steps: true, table: true, exercises: true, exercise: "softmax", experiment: "order" },
  });
  assert.deepEqual(await roundTrip(payload), payload);
});

test("a link is written in the current version and holds only the characters A–Z a–z 0–9 - _", async () => {
  const hash = await encodePermalinkHash(makePayload({ scene: { ...SCENE, title: "naïve “quotes” + / = ?" } }));
  assert.equal(LINK_VERSION, 4);
  assert.ok(hash.startsWith("#s=4."));
  assert.match(hash.slice("#s=4.".length), /^[A-Za-z0-9_-]+$/);
});

test("text outside ASCII (accents, Greek, emoji) and cells the learner typed as text survive a round trip", async () => {
  const scene = { ...SCENE, title: "ὁ κύων δάκνει 🐕 — naïve", tokens: ["κύων", "δάκνει", "🐕"], X: [["abc", 0], ["-", 1], [1, "1e"]] };
  const payload = await roundTrip(makePayload({ scene }));
  assert.deepEqual(payload.scene, scene);
});

test("the trained model's panel, the chosen claim and where the link opens survive a round trip", async () => {
  const model = {
    open: true,
    words: "the cat sat",
    knocked_out: [[0, 1], [1, 0]],
    head: [1, 2],
    focus: 2,
    opened: { layer: 0, head: 3, words: "the cat", knocked_out: [[0, 0]] },
  };
  const claim = { id: "heads-split", steps: 500, seed: 7, start: true };
  const payload = await roundTrip(makePayload({ scene: SCENE, view: { model, claim, at: "experiments" } }));
  assert.deepEqual(payload.view.model, model);
  assert.deepEqual(payload.view.claim, claim);
  assert.equal(payload.view.at, "experiments");
});

test("the English model, with <bos> hidden, survives a round trip; a hostile model name is read as the story world's", async () => {
  const model = { open: true, words: "Mary went home", knocked_out: [[1, 3]], head: [1, 3], focus: 2, model: "english", hide_start: true, opened: null };
  const payload = await roundTrip(makePayload({ scene: SCENE, view: { model } }));
  assert.deepEqual(payload.view.model, model);
  const hostile = await roundTrip(makePayload({ scene: SCENE, view: { model: { ...model, model: "gpt-4", hide_start: "yes" } } }));
  assert.equal(hostile.view.model.model, undefined);
  assert.equal(hostile.view.model.hide_start, undefined);
});

test("a scene at the module's limits round-trips and its link stays far below the largest one accepted", async () => {
  let seed = 1;
  /** A fixed sequence of numbers with two decimals, as a learner types them. */
  const next = () => { seed = (seed * 16807) % 2147483647; return Math.round((seed / 2147483647) * 200 - 100) / 100 + 0; }; // + 0: JSON has no -0
  const grid = (rows, columns) => Array.from({ length: rows }, () => Array.from({ length: columns }, next));
  const names = (prefix, count) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  const scene = {
    tokens: names("t", 64),
    features: names("f", 64),
    X: grid(64, 64),
    heads: Array.from({ length: 8 }, (_, h) => ({ name: `head ${h}`, dims: names("d", 64), Wq: grid(64, 64), Wk: grid(64, 64), Wv: grid(64, 64) })),
  };
  const hash = await encodePermalinkHash(makePayload({ scene }));
  assert.ok(hash.length < 4_000_000 / 2, `a full scene's link is ${hash.length} characters`);
  const read = await decodePermalinkHash(hash);
  assert.deepEqual(read.payload.scene, scene);
});

test("makePayload fills what is left out: no example, not edited, no focus, the first head, every panel shown", () => {
  assert.deepEqual(makePayload({ scene: SCENE }), {
    scene: SCENE,
    preset: null,
    edited: false,
    view: { focus: null, head: 0, ...CLOSED_VIEW },
  });
  assert.equal(makePayload({ scene: SCENE, edited: "yes" }).edited, true);
});

test("a hash is read with or without its leading '#', and padding on its data is accepted", async () => {
  const hash = await encodePermalinkHash(makePayload({ scene: SCENE, view: { focus: 1 } }));
  const withHash = await decodePermalinkHash(hash);
  assert.deepEqual(await decodePermalinkHash(hash.slice(1)), withHash);
  const data = hash.slice("#s=4.".length);
  const padded = `#s=4.${data}${"=".repeat((4 - (data.length % 4)) % 4)}`;
  assert.deepEqual(await decodePermalinkHash(padded), withHash);
});

// ---- old links ------------------------------------------------------------------------------

test("the real version-1 link opens its scene as the learner's own, focused where it was", async () => {
  const hash = readFileSync(new URL("../browser/fixtures/link-v1.txt", import.meta.url), "utf8").trim();
  // What the link holds, read here without the page: {scene, focus, head}.
  const v1 = JSON.parse(inflateRawSync(Buffer.from(hash.slice("#s=1.".length), "base64url")).toString());
  assert.equal(v1.focus, 2);
  const read = await decodePermalinkHash(hash);
  assert.equal(read.kind, "scene");
  assert.equal(read.version, 1);
  assert.deepEqual(read.payload.scene, v1.scene);
  assert.equal(read.payload.scene.title, "dog bites man, from an old link");
  assert.equal(read.payload.preset, null);
  assert.equal(read.payload.edited, true);
  assert.deepEqual(read.payload.view, { focus: 2, head: 0, ...CLOSED_VIEW });
});

test("a version-1 link whose focus and head point past its scene opens with no focus and the first head", async () => {
  const read = await decodePermalinkHash(oldLink(1, { scene: SCENE, focus: 9, head: 5 }));
  assert.equal(read.payload.view.focus, null);
  assert.equal(read.payload.view.head, 0);
  const fractional = await decodePermalinkHash(oldLink(1, { scene: SCENE, focus: 1.5, head: -1 }));
  assert.equal(fractional.payload.view.focus, null);
  assert.equal(fractional.payload.view.head, 0);
});

test("a version-1 link without focus or head opens with no focus, at the first head", async () => {
  const read = await decodePermalinkHash(oldLink(1, { scene: SCENE }));
  assert.deepEqual(read.payload.view, { focus: null, head: 0, ...CLOSED_VIEW });
});

test("a version-2 link that hid the bars opens with every later panel shown", async () => {
  const read = await decodePermalinkHash(oldLink(2, {
    scene: SCENE, preset: "dog-bites-man", edited: false, view: { focus: 1, head: 1, panels: ["heatmap", "features", "weights"] },
  }));
  assert.equal(read.version, 2);
  assert.equal(read.payload.preset, "dog-bites-man");
  assert.equal(read.payload.edited, false);
  assert.deepEqual(read.payload.view, { ...CLOSED_VIEW, focus: 1, head: 1, panels: PANEL_NAMES.filter((name) => name !== "bars") });
});

test("a version-2 link could hide only its four panels: the others show whatever it named", async () => {
  const read = await decodePermalinkHash(oldLink(2, { scene: SCENE, preset: null, edited: true, view: { panels: ["steps"] } }));
  assert.deepEqual(read.payload.view.panels, PANEL_NAMES.filter((name) => !V2_PANELS.includes(name)));
  assert.ok(read.payload.view.panels.includes("steps"));
  assert.ok(read.payload.view.panels.includes("model"));
});

test("a version-2 link without a view, or with panels that are not a list, shows every panel", async () => {
  for (const view of [undefined, null, "heatmap", { panels: "heatmap" }, { panels: null }]) {
    const read = await decodePermalinkHash(oldLink(2, { scene: SCENE, preset: "dog-bites-man", edited: false, view }));
    assert.deepEqual(read.payload.view, { focus: null, head: 0, ...CLOSED_VIEW }, `view ${JSON.stringify(view)}`);
  }
});

test("a version-2 link that says nothing about editing opens as edited, and an empty example name as none", async () => {
  const read = await decodePermalinkHash(oldLink(2, { scene: SCENE, preset: "", view: { panels: V2_PANELS } }));
  assert.equal(read.payload.preset, null);
  assert.equal(read.payload.edited, true);
});

test("a version-3 link keeps its panels, open states and tabs, and shows the model's panel closed", async () => {
  const v3Panels = PANEL_NAMES.filter((name) => name !== "model" && name !== "steps");
  const read = await decodePermalinkHash(oldLink(3, {
    scene: SCENE, preset: "dog-bites-man", edited: false,
    view: { focus: 1, head: 0, panels: v3Panels, steps: false, table: true, exercises: true, exercise: "attention", experiment: "order" },
  }));
  assert.equal(read.version, 3);
  assert.deepEqual(read.payload.view, {
    ...CLOSED_VIEW, focus: 1, head: 0, table: true, exercises: true, exercise: "attention", experiment: "order",
    panels: PANEL_NAMES.filter((name) => name !== "steps"),
  });
});

test("a version-3 link cannot carry a model panel's state: whatever it holds there opens as never opened", async () => {
  const read = await decodePermalinkHash(oldLink(3, {
    scene: SCENE, preset: null, edited: true,
    view: { panels: ["heatmap"], model: { open: true, words: "smuggled", knocked_out: [], head: [0, 0], focus: 0, opened: null } },
  }));
  assert.equal(read.payload.view.model, null);
  assert.deepEqual(read.payload.view.panels, ["heatmap", "model"]);
});

test("a version-3 link without a panel list shows every panel, the model's too", async () => {
  const read = await decodePermalinkHash(oldLink(3, { scene: SCENE, preset: null, edited: true, view: { table: true } }));
  assert.deepEqual(read.payload.view, { ...CLOSED_VIEW, focus: null, head: 0, table: true });
});

test("each old version of the same view opens in the same shape as today's link of it", async () => {
  const today = (await decodePermalinkHash(await encodePermalinkHash(makePayload({ scene: SCENE, edited: true, view: { focus: 2, head: 1 } })))).payload;
  const v1 = (await decodePermalinkHash(oldLink(1, { scene: SCENE, focus: 2, head: 1 }))).payload;
  const v2 = (await decodePermalinkHash(oldLink(2, { scene: SCENE, preset: null, edited: true, view: { focus: 2, head: 1, panels: V2_PANELS } }))).payload;
  const v3 = (await decodePermalinkHash(oldLink(3, {
    scene: SCENE, preset: null, edited: true,
    view: { focus: 2, head: 1, panels: PANEL_NAMES.filter((name) => name !== "model"), steps: false, table: false, exercises: false, exercise: null, experiment: null },
  }))).payload;
  for (const old of [v1, v2, v3]) assert.deepEqual(old, today);
});

// ---- broken and hostile links ---------------------------------------------------------------

test("a link from a newer playground is refused with both formats named, and where to open it", async () => {
  await refused(oldLink(5, { scene: SCENE }), /newer playground \(link format 5; this page reads formats 1 to 4\)\. Open it where it was made/);
  await refused("#s=9999.AAAA", /newer playground \(link format 9999/);
});

test("a link of format 0, or without a version, is refused as unknown or damaged", async () => {
  await refused(oldLink(0, { scene: SCENE }), /unknown format \(0\)/);
  await refused("#s=abc", /damaged: its version is missing/);
  await refused("#s=4", /damaged: its version is missing/);
  await refused("#s=12345.AAAA", /damaged: its version is missing/);
});

test("a link cut off right after its version says it was cut off", async () => {
  await refused("#s=4.", /empty after its version: it was cut off/);
  await refused("#s=1.", /empty after its version/);
});

test("a link cut short anywhere in its data is refused as incomplete, asking for it in full", async () => {
  const hash = await encodePermalinkHash(makePayload({ scene: SCENE, view: { focus: 1 } }));
  for (let cut = 1; cut <= 12; cut += 1) {
    await refused(hash.slice(0, hash.length - cut), /incomplete: part of it is missing.*Copy it again in full/);
  }
});

test("a link with characters a link never has (spaces, '+', '/', percent signs) is refused as damaged", async () => {
  for (const data of ["ab cd", "ab+cd", "ab/cd", "ab%20cd", "abcd===", "ab=cd"]) {
    await refused(`#s=4.${data}`, /damaged: it contains characters a playground link never has/);
  }
});

test("data that is not deflate at all is refused as incomplete, not with a decompressor's error", async () => {
  await refused(`#s=4.${Buffer.from("this was never compressed").toString("base64url")}`, /incomplete/);
});

test("deflated text that is not JSON, or not valid UTF-8, is refused with a readable sentence", async () => {
  await refused(rawLink(Buffer.from("{scene: not json")), /damaged: its data cannot be read/);
  await refused(rawLink(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])), /Copy it again in full/);
});

test("JSON that is not an object (a list, a number, null) holds no scene", async () => {
  for (const json of ["[1,2]", "42", "null", '"scene"']) {
    await refused(rawLink(Buffer.from(json)), /does not hold a scene/);
  }
  await refused(oldLink(1, [SCENE]), /does not hold a scene/);
});

test("a scene of the wrong shape is refused with the first problem named", async () => {
  await refused(oldLink(4, makePayload({ scene: { ...SCENE, tokens: "dog bites man" } })), /This link's scene cannot be shown: tokens must be a list\./);
  await refused(oldLink(4, makePayload({ scene: { ...SCENE, X: [[1, 0]] } })), /scene cannot be shown: X must have 3 rows/);
  await refused(oldLink(4, makePayload({ scene: { ...SCENE, heads: Array(9).fill(SCENE.heads[0]) } })), /there are 9 heads; the limit is 8/);
  await refused(oldLink(1, { focus: 0, head: 0 }), /scene cannot be shown: the scene is not an object/);
});

test("a hash longer than any real link is refused before any work is done on it", async () => {
  await refused(`#s=4.${"A".repeat(4_000_001)}`, /too large to open/);
  await refused(`#preset=${"a".repeat(4_000_001)}`, /too large to open/);
});

test("a tiny link that would inflate into a huge text (a zip bomb) is refused as too large", async () => {
  const bomb = rawLink(Buffer.alloc(17_000_000, 0x20));
  assert.ok(bomb.length < 100_000, `the bomb is ${bomb.length} characters`);
  await refused(bomb, /too large to open/);
});

test("a hostile link's __proto__ keys neither pollute objects nor reach the view", async () => {
  const json = `{"scene":${JSON.stringify(SCENE)},"__proto__":{"polluted":true},"view":{"__proto__":{"steps":true},"panels":["__proto__","constructor","heatmap"],"at":"__proto__"}}`;
  for (const version of [2, 3, 4]) {
    const read = await decodePermalinkHash(`#s=${version}.${deflateRawSync(Buffer.from(json)).toString("base64url")}`);
    assert.equal(read.payload.view.steps, false);
    assert.equal(Object.hasOwn(read.payload.view, "at"), false);
    assert.ok(read.payload.view.panels.every((name) => PANEL_NAMES.includes(name)));
  }
  assert.equal({}.polluted, undefined);
});

// ---- preset and lesson links ----------------------------------------------------------------

test("a preset link names its example by id, and presetHash writes one that reads back", async () => {
  assert.equal(presetHash("dog-bites-man"), "#preset=dog-bites-man");
  assert.deepEqual(await decodePermalinkHash(presetHash("two-heads")), { kind: "preset", id: "two-heads" });
  assert.deepEqual(await decodePermalinkHash("preset=it-strength-5"), { kind: "preset", id: "it-strength-5" });
});

test("a preset link with an id no example could have is refused, quoting at most 64 characters of it", async () => {
  await refused(presetHash("Dog Bites Man"), /names an example, “Dog Bites Man”, that is not a valid example id/);
  await refused("#preset=", /names an example, “”, that is not a valid example id/);
  await refused(presetHash("<script>alert(1)</script>"), /not a valid example id/);
  await assert.rejects(decodePermalinkHash(presetHash("x".repeat(200))), (error) => {
    assert.ok(error instanceof PermalinkError);
    assert.ok(error.message.includes(`“${"x".repeat(64)}”`));
    assert.ok(!error.message.includes("x".repeat(65)));
    return true;
  });
});

test("a preset link whose percent-escapes cannot be read says so", async () => {
  await refused("#preset=%E0%A4%A", /names an example in a way that cannot be read/);
});

test("a lesson link opens its lesson at a step given by id or number, or where the learner was", async () => {
  assert.deepEqual(await decodePermalinkHash("#lesson=attention-basics&step=3"), { kind: "lesson", id: "attention-basics", step: "3" });
  assert.deepEqual(await decodePermalinkHash("#lesson=attention-basics&step=the-scores"), { kind: "lesson", id: "attention-basics", step: "the-scores" });
  assert.deepEqual(await decodePermalinkHash("#lesson=attention-basics"), { kind: "lesson", id: "attention-basics", step: null });
});

test("a lesson link with a malformed lesson id or step is refused, naming what it gave", async () => {
  await refused("#lesson=Attention&step=1", /names a lesson, “Attention”, that is not a valid lesson id/);
  await refused("#lesson=", /not a valid lesson id/);
  await refused("#lesson=basics&step=two%20words", /names a step, “two words”, that is not a step's id or number/);
  await refused("#lesson=basics&step=", /names a step, “”, that is not a step's id or number/);
});

test("a hash that is not a playground link (empty, a heading's anchor) is left alone", async () => {
  for (const hash of ["", "#", "#the-scores", "#section=2", "#scene=4.AAAA"]) {
    assert.equal(await decodePermalinkHash(hash), null, hash);
  }
});

// ---- readLink, lessonLink, linkTo, quotedName -----------------------------------------------

test("readLink never throws: a broken link gives its problem, a foreign hash gives neither link nor problem", async () => {
  assert.deepEqual(await readLink("#preset=two-heads"), { link: { kind: "preset", id: "two-heads" }, problem: null });
  assert.deepEqual(await readLink("#the-scores"), { link: null, problem: null });
  const broken = await readLink("#s=7.AAAA");
  assert.equal(broken.link, null);
  assert.match(broken.problem, /newer playground/);
  // Not even a hash that is not text escapes as an exception.
  assert.deepEqual(await readLink(undefined), { link: null, problem: "This link cannot be read." });
});

test("lessonLink names the lesson and the step on show, keeping the page's address and its options", async () => {
  const lesson = { id: "attention-basics", step: 1, steps: [{ id: "intro" }, { id: "the-scores" }] };
  const link = lessonLink(lesson);
  assert.equal(link, "https://example.org/playground/?embed=1#lesson=attention-basics&step=the-scores");
  assert.equal(lessonLink(lesson, { fullPage: true }), "https://example.org/playground/#lesson=attention-basics&step=the-scores");
  assert.deepEqual((await readLink(link.slice(link.indexOf("#")))).link, { kind: "lesson", id: "attention-basics", step: "the-scores" });
});

test("a course's own lesson file is linked by its address, and the link reads back as that file's step", async () => {
  const lesson = { id: "ours", src: "../course/lessons/ours.md", step: 1, steps: [{ id: "intro" }, { id: "our-scene" }] };
  const link = lessonLink(lesson, { fullPage: true });
  assert.equal(link, "https://example.org/playground/#lesson-src=..%2Fcourse%2Flessons%2Fours.md&step=our-scene");
  assert.deepEqual((await readLink(link.slice(link.indexOf("#")))).link,
    { kind: "lesson", src: "../course/lessons/ours.md", step: "our-scene", preview: false });
  const previewed = await readLink("#lesson-src=lesson-preview%2Fours.md&step=2&preview");
  assert.deepEqual(previewed.link, { kind: "lesson", src: "lesson-preview/ours.md", step: "2", preview: true });
  assert.match((await readLink("#lesson-src=&step=2")).problem, /without an address/);
});

test("linkTo on a lesson links to its step, not to the scene", async () => {
  const lesson = { id: "basics", step: 0, steps: [{ id: "intro" }] };
  assert.equal(await linkTo(pageState({ lesson }), { fullPage: true }), "https://example.org/playground/#lesson=basics&step=intro");
});

test("linkTo links the scene on screen with its example, focus, head and view, and reads back the same", async () => {
  const link = await linkTo(pageState());
  assert.ok(link.startsWith("https://example.org/playground/?embed=1#s=4."));
  const payload = await payloadOf(link);
  assert.deepEqual(payload.scene, SCENE);
  assert.equal(payload.preset, "dog-bites-man");
  assert.equal(payload.edited, false);
  assert.deepEqual(payload.view, { ...CLOSED_VIEW, focus: 1, head: 1, panels: ["heatmap", "bars", "steps"], table: true });
  assert.ok((await linkTo(pageState(), { fullPage: true })).startsWith("https://example.org/playground/#s=4."));
});

test("linkTo keeps where the link opens only for a known panel, and starts the claim only when asked", async () => {
  const claim = { id: "heads-split", chosenSteps: 300, chosenSeed: null };
  const plain = await payloadOf(await linkTo(pageState({ claim })));
  assert.deepEqual(plain.view.claim, { id: "heads-split", steps: 300, seed: null });
  assert.equal(Object.hasOwn(plain.view, "at"), false);
  const started = await payloadOf(await linkTo(pageState({ claim }), { at: "heads", startClaim: true }));
  assert.deepEqual(started.view.claim, { id: "heads-split", steps: 300, seed: null, start: true });
  assert.equal(started.view.at, "heads");
  const nowhere = await payloadOf(await linkTo(pageState(), { at: "nowhere", startClaim: true }));
  assert.equal(Object.hasOwn(nowhere.view, "at"), false);
  assert.equal(Object.hasOwn(nowhere.view, "claim"), false);
});

test("linkTo carries the open model panel's state in the shape a link reads back", async () => {
  const model = { open: true, words: "the cat sat", knockedOut: [[0, 1]], head: { layer: 1, head: 0 }, focus: 2, opened: { layer: 0, head: 1, words: "the cat", knockedOut: [] } };
  const payload = await payloadOf(await linkTo(pageState({ model })));
  assert.deepEqual(payload.view.model, {
    open: true, words: "the cat sat", knocked_out: [[0, 1]], head: [1, 0], focus: 2, opened: { layer: 0, head: 1, words: "the cat", knocked_out: [] },
  });
});

test("linkTo with no scene yet refuses plainly", async () => {
  await assert.rejects(linkTo(pageState({ draft: null })), /there is no scene yet/);
});

test("clearHash puts back the page's own address, its options kept and its hash dropped", () => {
  const calls = [];
  globalThis.history = { state: { kept: true }, replaceState: (...args) => calls.push(args) };
  try {
    clearHash();
  } finally {
    delete globalThis.history;
  }
  assert.deepEqual(calls, [[{ kept: true }, "", "/playground/?embed=1"]]);
});

test("quotedName puts a name in curly quotes unless it brings quotes of its own", () => {
  assert.equal(quotedName("dog bites man"), "“dog bites man”");
  assert.equal(quotedName('the "trap"'), 'the "trap"');
  assert.equal(quotedName("“already”"), "“already”");
  assert.equal(quotedName(""), "“”");
});

// ---- the view from untrusted data -----------------------------------------------------------

test("cleanView keeps known panels only, in page order, and shows every panel when none is left", () => {
  assert.deepEqual(cleanView({ panels: ["weights", "nonsense", "heatmap", "HEATMAP", 3] }).panels, ["heatmap", "weights"]);
  assert.deepEqual(cleanView({ panels: ["nonsense"] }).panels, [...PANEL_NAMES]);
  assert.deepEqual(cleanView({ panels: [] }).panels, [...PANEL_NAMES]);
  assert.deepEqual(cleanView({ panels: "heatmap" }).panels, [...PANEL_NAMES]);
});

test("cleanView gives the default view for anything that is not a view object", () => {
  for (const view of [undefined, null, 7, "view", [], [{ steps: true }], true]) {
    assert.deepEqual(cleanView(view), CLOSED_VIEW, JSON.stringify(view));
  }
});

test("cleanView opens a state only for a real true, and keeps a tab only if it reads as an id", () => {
  const view = cleanView({ steps: "true", table: 1, exercises: true, exercise: "Softmax!", experiment: "scaling" });
  assert.equal(view.steps, false);
  assert.equal(view.table, false);
  assert.equal(view.exercises, true);
  assert.equal(view.exercise, null);
  assert.equal(view.experiment, "scaling");
  assert.equal(cleanView({ experiment: "x".repeat(65) }).experiment, null);
  assert.equal(cleanView({ exercise: ["softmax"] }).exercise, null);
});

test("cleanView keeps 'at' only for a panel a link may open at, never an object's own property names", () => {
  for (const at of Object.keys(OPEN_AT_PANELS)) assert.equal(cleanView({ at }).at, at);
  for (const at of ["heatmap", "toString", "__proto__", "constructor", null, 3]) {
    assert.equal(Object.hasOwn(cleanView({ at }), "at"), false, String(at));
  }
});

test("cleanView trims a hostile model panel: bad pairs dropped, long text cut, lists capped", () => {
  const model = cleanView({
    model: {
      open: "yes",
      words: "w".repeat(5000),
      knocked_out: [[0, 1], [16, 0], [1, -1], "0,1", [2, 2, 2], ...Array.from({ length: 100 }, () => [3, 3])],
      head: [0.5, 1],
      focus: -2,
      opened: { layer: 1, head: 2, knocked_out: [[1, 1]] },
    },
  }).model;
  assert.equal(model.open, false);
  assert.equal(model.words.length, 2000);
  assert.equal(model.knocked_out.length, 64);
  assert.deepEqual(model.knocked_out.slice(0, 2), [[0, 1], [3, 3]]);
  assert.equal(model.head, null);
  assert.equal(model.focus, null);
  assert.equal(model.opened, null, "an opened head without its sentence is dropped");
  assert.equal(cleanView({ model: [1, 2] }).model, null);
  assert.deepEqual(cleanView({ model: {} }).model, { open: false, words: "", knocked_out: [], head: null, focus: null, opened: null });
});

test("cleanView keeps a claim only with an id, and its steps and seed only as whole numbers in range", () => {
  assert.equal(Object.hasOwn(cleanView({ claim: { id: "Not An Id", steps: 10 } }), "claim"), false);
  assert.equal(Object.hasOwn(cleanView({ claim: "heads-split" }), "claim"), false);
  assert.deepEqual(cleanView({ claim: { id: "heads-split", steps: 100_001, seed: 2 ** 31, start: "true" } }).claim, { id: "heads-split", steps: null, seed: null });
  assert.deepEqual(cleanView({ claim: { id: "heads-split", steps: 0, seed: 1.5 } }).claim, { id: "heads-split", steps: null, seed: null });
  assert.deepEqual(cleanView({ claim: { id: "heads-split", steps: 100_000, seed: 2 ** 31 - 1, start: true } }).claim, { id: "heads-split", steps: 100_000, seed: 2 ** 31 - 1, start: true });
});

test("claimViewOf keeps the chosen claim with the steps and seed chosen for it, and nothing without one", () => {
  assert.equal(claimViewOf(null), null);
  assert.equal(claimViewOf({ id: "" }), null);
  assert.deepEqual(claimViewOf({ id: "heads-split" }), { id: "heads-split", steps: null, seed: null });
  assert.deepEqual(claimViewOf({ id: "heads-split", chosenSteps: 200, chosenSeed: 4, running: true }), { id: "heads-split", steps: 200, seed: 4 });
});

test("a current-version link with malformed view fields opens with their defaults", async () => {
  const read = await decodePermalinkHash(oldLink(4, {
    scene: SCENE, preset: 42, edited: "no",
    view: { focus: "1", head: 2, panels: ["bars", "bogus"], steps: 1, exercise: "<b>", model: "open", claim: { id: 5 }, at: "bars" },
  }));
  assert.equal(read.payload.preset, null);
  assert.equal(read.payload.edited, true);
  assert.deepEqual(read.payload.view, { ...CLOSED_VIEW, focus: null, head: 0, panels: ["bars"] });
});
