/**
 * How a learner answers each kind of question, before the page reveals anything: a word picked from the row whose
 * weights are hidden (pick), a number (estimate, compute), a whole row of weights drawn as bars (sketch), one of the
 * options (choose). A build step has no form: its target is checked on the live scene (lesson-panel.js draws its
 * checklist). Every control is a real form control with a label, so a keyboard and a screen reader answer too.
 *
 * Each form calls `submit(value)` with the answer as the JS API takes it (docs/reference.md, `lessons.answer`).
 */

import { make, makeButton, withTestId } from "../shared/dom.js";
import { quoted } from "../shared/format.js";
import { drawInline } from "./prose.js";

/** A labelled number box and its submit button, for estimate and compute. */
function numberForm(asked, submit) {
  const form = withTestId(make("form", "lesson-form"), "lesson-form");
  const unit = asked.unit === "percent" ? "%" : "";
  const label = make("label", "lesson-number", asked.unit === "percent" ? "Your answer, in percent " : "Your answer ");
  const input = withTestId(make("input", "lesson-input"), "lesson-number");
  input.type = "text";
  input.inputMode = "decimal";
  input.autocomplete = "off";
  label.append(input, make("span", "", unit));
  form.append(label, makeButton("small-button", "Answer", "lesson-submit", "submit"));
  const problem = withTestId(make("p", "lesson-problem"), "lesson-problem");
  problem.setAttribute("role", "alert");
  form.append(problem);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = Number(input.value.trim().replace(/\u2212/g, "-").replace(/%$/, ""));
    if (input.value.trim() === "" || !Number.isFinite(value)) {
      problem.textContent = `Type a number${unit ? " (a percentage, 0 to 100)" : ""}, then press Answer.`;
      input.focus();
      return;
    }
    problem.textContent = "";
    submit(value);
  });
  return form;
}

/** The row's words as buttons, their weights hidden: the learner picks the one it reads most. */
function pickForm(asked, submit) {
  const group = withTestId(make("div", "lesson-pick"), "lesson-pick");
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", `the words ${quoted(asked.columns[asked.row] ?? "")} may read`);
  asked.columns.forEach((word, column) => {
    const button = makeButton("pick-word", word, "lesson-pick-word");
    button.dataset.column = String(column);
    button.addEventListener("click", () => submit(column));
    group.append(button);
  });
  return group;
}

/**
 * The options in an order that does not give the answer away (a lesson may list the right one first), the same
 * every time the question is shown: sorted by a hash of each option's text.
 */
function inAnOrderOfItsOwn(options) {
  const hash = (text) => [...text].reduce((value, character) => Math.imul(value ^ character.codePointAt(0), 0x01000193) >>> 0, 0x811c9dc5);
  return [...options].sort((a, b) => hash(`${a.id}:${a.text}`) - hash(`${b.id}:${b.text}`));
}

/** One labelled choice per option, its words drawn from the lesson's Markdown where the step has them, and the answer button. */
function chooseForm(asked, submit, optionProse = {}) {
  const form = withTestId(make("form", "lesson-form"), "lesson-form");
  const fieldset = make("fieldset", "lesson-options");
  fieldset.append(make("legend", "visually-hidden", "Your answer"));
  const name = `lesson-option-${Math.random().toString(36).slice(2)}`;
  for (const option of inAnOrderOfItsOwn(asked.options ?? [])) {
    const label = make("label", "lesson-option");
    const radio = withTestId(make("input"), "lesson-option");
    radio.type = "radio";
    radio.name = name;
    radio.value = option.id;
    label.append(radio, optionWords(option, optionProse));
    fieldset.append(label);
  }
  const problem = withTestId(make("p", "lesson-problem"), "lesson-problem");
  problem.setAttribute("role", "alert");
  form.append(fieldset, makeButton("small-button", "Answer", "lesson-submit", "submit"), problem);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = form.querySelector("input:checked");
    if (!chosen) {
      problem.textContent = "Choose one of the answers, then press Answer.";
      return;
    }
    problem.textContent = "";
    submit(chosen.value);
  });
  return form;
}

/** A slider per word, drawn as bars that always add up to 100%: the learner's guess at the whole row. */
function sketchForm(asked, submit) {
  const form = withTestId(make("form", "lesson-form lesson-sketch"), "lesson-form");
  const count = asked.columns.length;
  const sliders = asked.columns.map((word) => {
    const row = make("label", "sketch-row");
    const slider = withTestId(make("input", "sketch-slider"), "lesson-sketch-slider");
    Object.assign(slider, { type: "range", min: "0", max: "100", step: "1", value: String(Math.round(100 / count)) });
    const share = make("span", "sketch-share");
    row.append(make("span", "sketch-word", word), slider, share);
    form.append(row);
    return { slider, share };
  });
  const redraw = () => {
    const total = sliders.reduce((sum, { slider }) => sum + Number(slider.value), 0) || 1;
    for (const { slider, share } of sliders) {
      const percent = (100 * Number(slider.value)) / total;
      share.textContent = `${percent.toFixed(0)}%`;
      slider.setAttribute("aria-valuetext", `${percent.toFixed(0)} percent of the row`);
    }
  };
  for (const { slider } of sliders) slider.addEventListener("input", redraw);
  redraw();
  form.append(makeButton("small-button", "Answer", "lesson-submit", "submit"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(sliders.map(({ slider }) => Number(slider.value)));
  });
  return form;
}

const FORMS = { pick: pickForm, estimate: numberForm, compute: numberForm, choose: chooseForm, sketch: sketchForm };

/**
 * The form for the question as asked on the scene on show (lesson_ask's reply), or null for a kind with none.
 * @param {object} asked {kind, columns, row, options, unit, …}
 * @param {(value: any) => void} submit
 * @param {Record<string, Array<object>>} [optionProse] a choice's options as inline prose, by id (the step's `options`)
 * @returns {HTMLElement|null}
 */
export function questionForm(asked, submit, optionProse = {}) {
  const form = FORMS[asked?.kind];
  return form ? form(asked, submit, optionProse) : null;
}

/**
 * An option's words: its Markdown drawn (a code span as code, never its backticks) where the step has them,
 * else its text.
 * @param {{id: string, text: string}} option
 * @param {Record<string, Array<object>>} optionProse
 * @returns {HTMLElement}
 */
export function optionWords(option, optionProse) {
  const words = make("span");
  const nodes = optionProse?.[option.id];
  if (Array.isArray(nodes)) words.append(drawInline(nodes));
  else words.textContent = option.text;
  return words;
}

/** The learner's answer in words, for the reveal ("“cat”", "65%", "10 × 10"). */
export function answerInWords(asked, answer) {
  if (answer === null || answer === undefined) return "";
  if (asked?.kind === "pick") return quoted(asked.columns?.[answer] ?? String(answer));
  if (asked?.kind === "choose") return asked.options?.find((option) => option.id === answer)?.text ?? String(answer);
  if (asked?.kind === "sketch" && Array.isArray(answer)) {
    const total = answer.reduce((sum, value) => sum + value, 0) || 1;
    return answer.map((value, i) => `${quoted(asked.columns?.[i] ?? "")} ${((100 * value) / total).toFixed(0)}%`).join(", ");
  }
  if (asked?.kind === "estimate" && asked.unit === "percent") return `${answer}%`;
  return String(answer);
}

/** What the page measured, in words beside the learner's answer: the word, the number, the row, the option. */
export function expectedInWords(asked, expected) {
  if (!expected) return "";
  if (asked?.kind === "pick") return quoted(expected.word ?? asked.columns?.[expected.column] ?? "");
  if (asked?.kind === "choose") return asked.options?.find((option) => option.id === expected.option)?.text ?? String(expected.option ?? "");
  if (asked?.kind === "sketch" && Array.isArray(expected.weights)) {
    return expected.weights.map((weight, i) => `${quoted(asked.columns?.[i] ?? "")} ${(100 * weight).toFixed(1)}%`).join(", ");
  }
  if (typeof expected.value === "number") {
    if (asked?.kind === "estimate" && asked.unit === "percent") return `${expected.value.toFixed(1)}%`; // in percent already
    return asked?.kind === "estimate" && asked.unit === "weight" ? expected.value.toFixed(3) : expected.value.toFixed(4);
  }
  return typeof expected.sentence === "string" ? expected.sentence : "";
}
