/**
 * "Copy embed code": the <iframe> snippet a course author pastes into a lesson to show the scene on
 * screen, in embed mode, plus the one script that sizes the frame to fit (js/embed-host.js).
 *
 * The snippet is also shown in a text box, so an author can read it, add URL options (panels=, lock=,
 * origins=; see embed.js) and copy it by hand where the clipboard is not available.
 */

import { sceneFromDraft } from "../../scene/draft.js";
import { make } from "../shared/dom.js";

/** The height a frame starts at, before it reports its own (embed-host.js then sizes it to fit). */
const INITIAL_HEIGHT = 640;

/** Escape text for an HTML attribute value in double quotes. */
function attribute(text) {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * The embed snippet for a scene.
 * @param {object} options
 * @param {string} options.pageUrl the playground page's address (index.html), without query or hash
 * @param {string} options.hash the scene, as the URL's hash, e.g. "#preset=dog-bites-man" (see sceneHash)
 * @param {string} [options.title] the scene's title, for the frame's accessible name
 * @param {string} [options.query] embed options after "embed", e.g. "&panels=heatmap,bars"
 * @returns {string} an <iframe> element and a <script> element, one per line
 */
export function embedSnippet({ pageUrl, hash, title = "", query = "" }) {
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
 * @param {import("../../page/state.js").PlaygroundState} state
 * @returns {Promise<string>}
 */
export async function sceneHash(state) {
  // The link format's code loads on first use (see sharing/links.js).
  const { encodePermalinkHash, makePayload, presetHash } = await import("../../sharing/permalink.js");
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
 * Mount the button and its text box in `host`.
 * @param {HTMLElement} host
 * @param {object} context
 * @param {ReturnType<import("../../page/state.js").createStore>} context.store
 */
export function mountEmbedCode(host, { store }) {
  const button = make("button", "tool-button", "Copy embed code");
  button.type = "button";
  button.dataset.testid = "copy-embed-code";
  const panel = make("div", "embed-code");
  panel.hidden = true;
  const label = make("label", "embed-code-label", "Paste this into a course page:");
  const box = make("textarea", "embed-code-text");
  box.readOnly = true;
  box.rows = 3;
  box.spellcheck = false;
  box.dataset.testid = "embed-code";
  box.id = "embed-code-text";
  label.htmlFor = box.id;
  const status = make("p", "embed-code-status");
  status.dataset.testid = "embed-code-status";
  status.setAttribute("role", "status");
  panel.append(label, box, status);
  host.append(button, panel);

  button.addEventListener("click", async () => {
    const { state } = store;
    if (!state.draft) return;
    const pageUrl = new URL("index.html", document.baseURI).href;
    box.value = embedSnippet({ pageUrl, hash: await sceneHash(state), title: state.result?.title ?? state.draft.title ?? "" });
    panel.hidden = false;
    try {
      await navigator.clipboard.writeText(box.value);
      status.textContent = "Copied. The frame shows the scene as it is now.";
    } catch {
      box.select();
      status.textContent = "Select the code and copy it (Ctrl+C).";
    }
  });
}
