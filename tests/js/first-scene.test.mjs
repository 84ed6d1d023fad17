/**
 * A link pasted into the address of an open page (loading/first-scene.js): it is opened, then taken out of the
 * address; one that cannot be opened is taken out too, and the learner is told why, even when opening it failed in
 * a way nobody foresaw (left in the address, it would be opened again on the next reload). Links pasted one after
 * another open in that order, the last one pasted shown last.
 */
import assert from "node:assert/strict";
import test from "node:test";

import { createFirstScene } from "../../js/loading/first-scene.js";
import { encodePermalinkHash, makePayload } from "../../js/sharing/permalink.js";

const SCENE = {
  title: "dog bites man",
  tokens: ["dog", "bites", "man"],
  features: ["f0"],
  X: [[1], [0.5], [1]],
  heads: [{ name: "head 1", dims: ["d0"], Wq: [[1]], Wk: [[1]], Wv: null }],
  mask: "none",
  scale: true,
};

/**
 * An open page with `loader` as its scene loader: its address, what it told the learner, and `paste(hash)`, which
 * puts a link in the address as a learner would and resolves once the page has handled it.
 */
function openPage(loader) {
  const listeners = {};
  globalThis.window = { addEventListener: (type, listener) => { listeners[type] = listener; } };
  const address = { pathname: "/playground/", search: "", hash: "" };
  globalThis.location = address;
  globalThis.history = { state: null, replaceState: () => { address.hash = ""; } };
  const notices = [];
  createFirstScene({
    session: { state: { draft: null } }, loader, savedWork: {}, preview: Promise.resolve(null),
    notify: (text, options) => notices.push({ text, ...options }), reveal: () => {}, showAllPanels: () => {},
    openClaim: () => {}, openLesson: async () => {},
  });
  return {
    address,
    notices,
    paste(hash) {
      address.hash = hash;
      return listeners.hashchange();
    },
  };
}

test("a link pasted into the page opens, and leaves the address", async () => {
  const shown = [];
  const page = openPage({
    shippedPreview: async () => ({}),
    showScene: async (options) => shown.push(options),
  });
  await page.paste(await encodePermalinkHash(makePayload({ scene: SCENE, edited: true })));
  assert.equal(shown.length, 1);
  assert.deepEqual(shown[0].draft.tokens, SCENE.tokens);
  assert.equal(page.address.hash, "");
});

test("a link that fails to open in a way nobody foresaw leaves the address, and the learner hears why", async () => {
  const page = openPage({
    shippedPreview: async () => {
      throw new Error("the example's preview could not be read");
    },
    showScene: async () => assert.fail("nothing is shown"),
  });
  await page.paste(await encodePermalinkHash(makePayload({ scene: SCENE, preset: "dog-bites-man" })));
  assert.equal(page.address.hash, "");
  assert.deepEqual(page.notices.map(({ text, tone }) => ({ text, tone })), [{
    text: "This link could not be opened: the example's preview could not be read. The page is as it was.",
    tone: "error",
  }]);
});

test("a link that cannot be read leaves the address, and the learner hears why", async () => {
  const page = openPage({ shippedPreview: async () => ({}), showScene: async () => assert.fail("nothing is shown") });
  await page.paste("#s=4.not-a-link");
  assert.equal(page.address.hash, "");
  assert.equal(page.notices.length, 1);
  assert.equal(page.notices[0].tone, "error");
  assert.match(page.notices[0].text, /The page is as it was\.$/);
});

test("links pasted one after another open in that order, however long each takes", async () => {
  const shown = [];
  let letTheFirstFinish;
  const firstTakesLong = new Promise((resolve) => { letTheFirstFinish = resolve; });
  const page = openPage({
    shippedPreview: async () => ({}),
    showScene: async (options) => {
      if (shown.length === 0 && options.draft.tokens[0] === "dog") await firstTakesLong;
      shown.push(options.draft.tokens.join(" "));
    },
  });
  const first = page.paste(await encodePermalinkHash(makePayload({ scene: SCENE, edited: true })));
  const second = page.paste(await encodePermalinkHash(makePayload({
    scene: { ...SCENE, title: "man bites dog", tokens: ["man", "bites", "dog"] }, edited: true,
  })));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(shown, [], "the second waits for the first, which is still opening");
  letTheFirstFinish();
  await Promise.all([first, second]);
  assert.deepEqual(shown, ["dog bites man", "man bites dog"]);
});
