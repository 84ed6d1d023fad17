/**
 * The embed code: the <iframe> snippet a course author pastes into a lesson to show the scene on screen, in
 * embed mode, with the options the author chose (the panels shown, the locks, the theme button), plus the one
 * script that sizes the frame to fit and hands it the page's theme (js/embed-host.js). The controller makes it;
 * the "Copy embed code" view (ui/toolbar/embed-code.js) only shows it.
 */

import { sceneFromDraft } from "../scene/draft.js";
import { lessonFields } from "./links.js";

/** The height a frame starts at, before it reports its own (embed-host.js then sizes it to fit). */
const INITIAL_HEIGHT = 640;

/** Escape text for an HTML attribute value in double quotes. */
function attribute(text) {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * The embed options after "?embed", as the frame reads them (embed/embed-mode.js): `panels=` only when the
 * panels differ from the default, `lock=` only with something locked, `theme-toggle` only when asked for.
 * @param {{panels?: string[], defaultPanels?: string[], locks?: string[], themeToggle?: boolean}} options
 * @returns {string} e.g. "&panels=heatmap,bars&lock=Wq"
 */
export function embedQuery({ panels = null, defaultPanels = [], locks = [], themeToggle = false } = {}) {
  const parts = [];
  const same = panels && panels.length === defaultPanels.length && panels.every((name) => defaultPanels.includes(name));
  if (panels && !same) parts.push(`panels=${panels.join(",")}`);
  if (locks.length) parts.push(`lock=${locks.join(",")}`);
  if (themeToggle) parts.push("theme-toggle");
  return parts.map((part) => `&${part}`).join("");
}

/**
 * The embed snippet for a scene.
 * @param {object} options
 * @param {string} options.pageUrl the playground page's address (index.html), without query or hash
 * @param {string} options.hash the scene, as the URL's hash, e.g. "#preset=dog-bites-man" (see sceneHash)
 * @param {string} [options.title] the scene's title, for the frame's accessible name
 * @param {string} [options.query] embed options after "embed", e.g. "&panels=heatmap,bars" (see embedQuery)
 * @returns {string} an <iframe> element and a <script> element, one per line
 */
function embedSnippet({ pageUrl, hash, title = "", query = "" }) {
  const src = `${pageUrl}?embed${query}${hash}`;
  const hostScript = new URL("js/embed-host.js", pageUrl).href;
  const name = title ? `Attention Playground: ${title}` : "Attention Playground";
  return [
    `<iframe src="${attribute(src)}" title="${attribute(name)}" width="100%" height="${INITIAL_HEIGHT}" loading="lazy" data-attention-playground></iframe>`,
    `<script src="${attribute(hostScript)}" async></script>`,
  ].join("\n");
}

/**
 * The hash for the scene on show: "#preset=<id>" for an example as shipped (short, and it follows any
 * later improvement of the example), else a permalink holding the whole scene (see permalink.js).
 * @param {import("../state/state.js").PlaygroundState} state
 * @returns {Promise<string>}
 */
async function sceneHash(state) {
  // The link format's code loads on first use (see links.js).
  const { encodePermalinkHash, makePayload, presetHash } = await import("./permalink.js");
  if (state.presetId && !state.edited) return presetHash(state.presetId);
  const payload = makePayload({
    scene: sceneFromDraft(state.draft),
    preset: state.presetId,
    edited: state.edited,
    view: { focus: state.focusToken, head: state.activeHead },
  });
  return encodePermalinkHash(payload);
}

/**
 * The snippet for what is on screen, with the author's options.
 * @param {import("../state/state.js").PlaygroundState} state
 * @param {Parameters<typeof embedQuery>[0]} options
 * @returns {Promise<string>}
 */
export async function embedCodeFor(state, options) {
  if (!state.draft) throw new Error("there is no scene yet");
  const pageUrl = new URL("index.html", document.baseURI).href;
  const { lesson } = state;
  if (lesson) {
    // A lesson's step: the frame opens the lesson there; the panels are each step's own unless the author chose.
    const step = lesson.steps[lesson.step];
    const query = `&${lessonFields(lesson)}${embedQuery(options)}`;
    return embedSnippet({ pageUrl, hash: "", title: `${lesson.title}: ${step.title}`, query });
  }
  return embedSnippet({ pageUrl, hash: await sceneHash(state), title: state.draft.title ?? state.result?.title ?? "", query: embedQuery(options) });
}
