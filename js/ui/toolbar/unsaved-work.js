/**
 * "Not saved", said where the learner is working: once they have edited the scene (or typed exercise code) and the
 * browser keeps nothing (state.saveStatus.problem, sharing/saved-work.js), a line in each editing panel says so and
 * why, and offers a way to keep the work. A course page's frame on another site is the common case: there the
 * browser refuses the frame its storage, the toolbar's "Copy link" and downloads belong to the full page, and the
 * example picker with its save status may not be shown at all.
 *
 * A scene's line offers a link to the work (it opens the full page, where the work can be kept) and the scene as a
 * file; the exercises' line offers the code as a file.
 */

import { make, setText } from "../shared/dom.js";
import { makeLinkField } from "./link-field.js";

/** A button of the line. */
function lineButton(text, testId) {
  const button = make("button", "tool-button small", text);
  button.type = "button";
  button.dataset.testid = testId;
  return button;
}

/** The link to the work, shown selected (a frame on another site may not write to the clipboard), and copied. */
async function showLink({ field, status }, actions) {
  setText(status, "");
  try {
    field.value = await actions.link({ fullPage: true });
  } catch (error) {
    setText(status, `No link yet: ${error.message}`);
    return;
  }
  field.hidden = false;
  field.select();
  // A frame may write to the clipboard only if the page around it allows it (allow="clipboard-write"); asking
  // anyway is refused with a console error. featurePolicy is Chromium's only, so TypeScript's DOM lacks it.
  const allowed = /** @type {Document & {featurePolicy?: {allowsFeature: (name: string) => boolean}}} */ (document)
    .featurePolicy?.allowsFeature("clipboard-write") ?? true;
  const copied = allowed && (await navigator.clipboard?.writeText(field.value).then(() => true, () => false));
  setText(status, copied ? "Link copied: open it to get your work back." : "Copy this link (Ctrl+C / ⌘C) and open it to get your work back.");
}

/** The line for a scene's editing panel: the link and the scene as a file. */
function sceneLine(actions) {
  const line = make("div", "unsaved-work");
  const text = make("p", "unsaved-text");
  const copy = lineButton("Copy link to my work", "unsaved-copy-link");
  const download = lineButton("Download the scene (JSON)", "unsaved-download");
  const { field, status } = makeLinkField("unsaved-link", "Link to your work");
  line.append(text, copy, download, field, status);
  copy.addEventListener("click", () => showLink({ field, status }, actions));
  download.addEventListener("click", () => actions.download("json"));
  field.addEventListener("focus", () => field.select());
  return { line, text, lead: "⚠ Not saved." };
}

/** The line for the exercises: the code as a file. */
function codeLine(actions) {
  const line = make("div", "unsaved-work");
  const text = make("p", "unsaved-text");
  const download = lineButton("Download my code (.py)", "unsaved-download-code");
  line.append(text, download);
  download.addEventListener("click", () => actions.downloadExerciseCode());
  return { line, text, lead: "⚠ Your code is not saved." };
}

/**
 * Put `line` in `panel`, under its heading if it has one: the exercise panel draws its heading once its view has
 * loaded, so the line takes its place when it is first shown.
 */
function place(line, panel) {
  if (line.parentElement === panel) return;
  const heading = panel.querySelector(":scope > h2, :scope > h3");
  if (heading) heading.after(line);
  else panel.prepend(line);
}

/**
 * Mount the lines.
 * @param {{scene: HTMLElement[], code: HTMLElement[]}} panels the panels where the scene is edited, and the
 *   exercises' panel
 * @param {{store: {state: object, subscribe: Function}, actions: {link: Function, download: Function,
 *   downloadExerciseCode: Function}}} context
 */
export function mountUnsavedWork(panels, { store, actions }) {
  const lines = [
    ...panels.scene.filter(Boolean).map((panel) => ({ panel, what: "scene", ...sceneLine(actions) })),
    ...panels.code.filter(Boolean).map((panel) => ({ panel, what: "code", ...codeLine(actions) })),
  ];
  for (const { line } of lines) {
    line.dataset.testid = "unsaved-work";
    line.dataset.tone = "error";
    line.hidden = true;
  }

  function render(state) {
    const { problem, codeUnsaved } = state.saveStatus;
    for (const { panel, what, line, text, lead } of lines) {
      const lost = problem && (what === "code" ? codeUnsaved : state.edited);
      if (lost) {
        place(line, panel);
        setText(text, `${lead} ${problem}`);
      }
      line.hidden = !lost;
    }
  }
  store.subscribe((state, changes) => {
    if (["saved", "example", "scene"].some((part) => changes.has(part))) render(state);
  });
  render(store.state);
}
