/**
 * "Copy embed code": the snippet a course author pastes into a lesson (the controller makes it, see
 * sharing/embed-snippet.js), with the choices the frame offers beside it: which panels it shows, which parts of
 * the scene are locked, and whether the frame has its own theme button (without it, the frame follows the
 * course page's theme). Changing a choice rewrites the snippet at once; the snippet is also shown in a text box,
 * so an author can read it and copy it by hand where the clipboard is not available.
 */

import { make } from "../shared/dom.js";

/** Room a frame adds around its panels (the gaps between them and its padding), in CSS pixels, per row. */
const GAP_PER_PANEL = 12;

/**
 * Where each panel is on this page now, top and bottom in CSS pixels (null: not drawn here, e.g. a panel opened on
 * request). A frame as wide as this page's column lays them out alike; a narrower one, taller.
 */
function panelSpans(names, panelElement) {
  return Object.fromEntries(names.map((name) => {
    const element = panelElement(name);
    if (!element || element.getClientRects().length === 0) return [name, null];
    const { top, bottom } = element.getBoundingClientRect();
    return [name, { top, bottom }];
  }));
}

/** How tall `spans` stack: panels side by side (their spans overlap) count once, as one row. */
function stackedHeight(spans) {
  const rows = [];
  for (const span of [...spans].sort((a, b) => a.top - b.top)) {
    const last = rows.at(-1);
    if (last && span.top < last.bottom) last.bottom = Math.max(last.bottom, span.bottom);
    else rows.push({ ...span });
  }
  return Math.round(rows.reduce((sum, row) => sum + row.bottom - row.top + GAP_PER_PANEL, 0));
}

/** A fieldset of check boxes, one per name; `checked` names those ticked at first. */
function checkboxes(legendText, names, checked, testId) {
  const fieldset = make("fieldset", "embed-choices");
  fieldset.dataset.testid = testId;
  fieldset.append(make("legend", "", legendText));
  const boxes = names.map((name) => {
    const label = make("label", "choice");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = name;
    box.checked = checked.includes(name);
    box.dataset.testid = `${testId}-${name}`;
    const note = make("span", "choice-note");
    note.dataset.testid = `${testId}-${name}-note`;
    label.append(box, document.createTextNode(` ${name}`), note);
    fieldset.append(label);
    return box;
  });
  return {
    fieldset,
    ticked: () => boxes.filter((box) => box.checked).map((box) => box.value),
    tick: (wanted) => boxes.forEach((box) => { box.checked = wanted.includes(box.value); }),
    /** Write `notes` ({name: text}) beside the boxes. */
    annotate: (notes) => boxes.forEach((box) => { box.parentElement.querySelector(".choice-note").textContent = notes[box.value] ?? ""; }),
  };
}

/**
 * "Compact: what this example needs" and the line that says how tall the frame will be: the author sees each
 * panel's height beside its box, and the total of those ticked.
 */
function frameSize(shown, { panels, panelElement, compactPanels }) {
  const compact = make("button", "tool-button", "Compact: only what this example needs");
  compact.type = "button";
  compact.dataset.testid = "embed-compact-panels";
  shown.fieldset.append(compact);
  const line = make("p", "embed-frame-height");
  line.dataset.testid = "embed-frame-height";
  const measure = () => {
    const spans = panelSpans(panels, panelElement);
    const heightOf = (span) => Math.round(span.bottom - span.top);
    shown.annotate(Object.fromEntries(panels.map((name) => [name, spans[name] ? ` · ${heightOf(spans[name])} px` : " · opens on request"])));
    const total = stackedHeight(shown.ticked().map((name) => spans[name]).filter(Boolean));
    line.textContent = `This frame: about ${total} px tall at this page’s width (a narrower frame is taller). `
      + `For a short frame, tick the panels the lesson needs (“${compactPanels().join(", ")}” for this example).`;
    line.dataset.height = String(total);
  };
  return { compact, line, measure };
}

/**
 * Mount the button and its dialog in `host`.
 * @param {HTMLElement} host
 * @param {object} context
 * @param {{embedCode: (options: object) => Promise<string>, compactEmbedPanels: () => string[]}} context.actions
 *   the controller's
 * @param {string[]} context.panels the panels a frame can show; `defaultPanels` those it shows unless told
 * @param {string[]} context.defaultPanels
 * @param {string[]} context.lockable the parts of a scene a frame can lock
 * @param {(name: string) => HTMLElement|null} context.panelElement the page's panel of that name, to measure it
 */
export function mountEmbedCode(host, { actions, panels, defaultPanels, lockable, panelElement }) {
  const button = make("button", "tool-button", "Copy embed code");
  button.type = "button";
  button.dataset.testid = "copy-embed-code";
  const panel = make("div", "embed-code");
  panel.hidden = true;
  const shown = checkboxes("Panels the frame shows", panels, defaultPanels, "embed-panels");
  const locked = checkboxes("Locked: the learner cannot change", lockable, [], "embed-locks");
  const toggleLabel = make("label", "choice");
  const themeToggle = document.createElement("input");
  themeToggle.type = "checkbox";
  themeToggle.dataset.testid = "embed-theme-toggle";
  toggleLabel.append(themeToggle, document.createTextNode(" its own “Dark mode” button (without it, the frame follows the course page’s theme)"));
  const size = frameSize(shown, { panels, panelElement, compactPanels: actions.compactEmbedPanels });
  const choices = make("div", "embed-options");
  choices.append(shown.fieldset, locked.fieldset, toggleLabel);
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
  panel.append(choices, size.line, label, box, status);
  host.append(button, panel);

  const options = () => ({ panels: shown.ticked(), defaultPanels, locks: locked.ticked(), themeToggle: themeToggle.checked });

  async function write() {
    try {
      box.value = await actions.embedCode(options());
    } catch (error) {
      status.textContent = `No embed code yet: ${error.message}`;
      return false;
    }
    return true;
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(box.value);
      status.textContent = "Copied. The frame shows the scene as it is now, with the choices above.";
    } catch {
      box.select();
      status.textContent = "Select the code and copy it (Ctrl+C).";
    }
  }

  button.addEventListener("click", async () => {
    if (!(await write())) return;
    panel.hidden = false;
    size.measure();
    await copy();
  });
  const rewrite = async () => {
    size.measure();
    if (await write()) await copy();
  };
  choices.addEventListener("change", rewrite);
  size.compact.addEventListener("click", () => {
    shown.tick(actions.compactEmbedPanels());
    rewrite();
  });
}
