/**
 * "Copy embed code": the snippet a course author pastes into a lesson (the controller makes it, see
 * sharing/embed-snippet.js), with the choices the frame offers beside it: which panels it shows, which parts of
 * the scene are locked, and whether the frame has its own theme button (without it, the frame follows the
 * course page's theme). Changing a choice rewrites the snippet at once; the snippet is also shown in a text box,
 * so an author can read it and copy it by hand where the clipboard is not available.
 */

import { make } from "../shared/dom.js";

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
    label.append(box, document.createTextNode(` ${name}`));
    fieldset.append(label);
    return box;
  });
  return { fieldset, ticked: () => boxes.filter((box) => box.checked).map((box) => box.value) };
}

/**
 * Mount the button and its dialog in `host`.
 * @param {HTMLElement} host
 * @param {object} context
 * @param {{embedCode: (options: object) => Promise<string>}} context.actions the controller's
 * @param {string[]} context.panels the panels a frame can show; `defaultPanels` those it shows unless told
 * @param {string[]} context.defaultPanels
 * @param {string[]} context.lockable the parts of a scene a frame can lock
 */
export function mountEmbedCode(host, { actions, panels, defaultPanels, lockable }) {
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
  panel.append(choices, label, box, status);
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
    await copy();
  });
  choices.addEventListener("change", async () => {
    if (await write()) await copy();
  });
}
