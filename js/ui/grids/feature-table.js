/**
 * The feature table X: one row per token, one column per feature. Cells, token names and feature
 * names are all editable; tokens and features can be added and removed; a sentence typed into the
 * box replaces the tokens (known words keep their rows, new words start at zeros).
 *
 * The table is rebuilt only when its shape changes. Otherwise only the inputs whose text changed are
 * updated, and the one the learner is typing in is never touched, so focus and caret survive every
 * recompute.
 */

import { lexiconOf, wordsOf } from "../../scene/edits.js";
import { createErrorLine, createInvalidMarks, errorTarget, inputsAt } from "./error-message.js";
import { CellGrid, iconButton, markEdit, markNonZero } from "./grid-input.js";
import { frameSideScroll } from "./side-scroll.js";
import { make, setPropertyIfChanged, withTestId } from "../shared/dom.js";
import { quoted } from "../shared/format.js";

const MESSAGE_ID = "x-error";

/** The table afresh for `draft`: feature names across (each removable), token names down, X's cells. */
function drawTable(table, draft, { cells, tokenNames, featureNames }) {
  cells.clear();
  tokenNames.clear();
  featureNames.clear();
  const head = make("thead");
  const headRow = make("tr");
  const corner = make("th", "corner", "token \\ feature");
  corner.scope = "col";
  headRow.append(corner);
  draft.features.forEach((feature, j) => {
    const th = make("th", "column-head");
    th.scope = "col";
    const wrap = make("div", "head-cell");
    const input = featureNames.createLabel(j, { testId: "feature-name", edit: "feature-name", value: feature, label: `name of feature ${j + 1}`, column: j });
    wrap.append(input, iconButton({ testId: "remove-feature", edit: "remove-feature", symbol: "×", label: `remove feature ${quoted(feature)}`, column: j }));
    th.append(wrap);
    headRow.append(th);
  });
  head.append(headRow);
  const body = make("tbody");
  draft.tokens.forEach((token, i) => {
    const tr = make("tr");
    tr.dataset.row = String(i);
    const th = make("th", "row-head");
    th.scope = "row";
    const wrap = make("div", "head-cell");
    const input = tokenNames.createLabel(i, { testId: "token-name", edit: "token-name", value: token, label: `token ${i + 1}`, row: i });
    wrap.append(iconButton({ testId: "remove-token", edit: "remove-token", symbol: "×", label: `remove token ${quoted(token)}`, row: i }), input);
    th.append(wrap);
    tr.append(th);
    draft.features.forEach((feature, j) => {
      const td = make("td");
      td.append(cells.create({ testId: "x-cell", edit: "cell", matrix: "X", value: draft.X[i]?.[j] ?? "", label: `${feature} of ${quoted(token)}`, row: i, column: j }));
      tr.append(td);
    });
    body.append(tr);
  });
  table.replaceChildren(head, body);
}

/** Whether a row of X holds nothing but zeros (as typed: "0", "0.0", or nothing yet). */
const allZero = (row) => row.every((text) => String(text).trim() === "" || Number(text) === 0);

/**
 * The words of the sentence last typed that the scene had no features for and that still have none, in the order
 * typed; [] once the tokens are no longer that sentence (an example opened, a token renamed).
 */
function blankNewWords(typed, draft) {
  if (!typed || draft.tokens.join(" ") !== typed.words.join(" ")) return [];
  return typed.fresh.filter((word) => draft.tokens.every((token, i) => token !== word || allZero(draft.X[i] ?? [])));
}

/** What the sentence box says of `words`, new and still all zeros: which they are, and where to fill them in. */
function newWordsNotice(words) {
  const one = words.length === 1;
  return `Still without features: ${words.map(quoted).join(", ")} (${one ? "its row is" : "their rows are"} marked in the ` +
    `table below; at 0, every query scores ${one ? "it" : "them"} alike).`;
}

/**
 * The sentence box: typing a sentence replaces the tokens (each known word keeps its features, looked up in
 * the words on screen when the box got focus); leaving it writes the tokens back as a sentence. Words the scene
 * had no features for are named under the box, and their rows marked (`blankRows`), until they are given some.
 */
function mountSentenceBox({ store, actions }) {
  const form = make("form", "sentence-form");
  const label = make("label", "", "Type a sentence");
  label.htmlFor = "sentence-input";
  const sentence = make("input", "sentence-input");
  sentence.id = "sentence-input";
  sentence.type = "text";
  sentence.dataset.testid = "sentence-input";
  markEdit(sentence, "sentence");
  sentence.autocomplete = "off";
  sentence.spellcheck = false;
  const notice = withTestId(make("p", "new-words"), "new-words");
  notice.id = "new-words";
  notice.setAttribute("role", "status");
  notice.hidden = true;
  form.append(label, sentence, make("span", "hint", "known words keep their features; new words start at 0"), notice);
  form.addEventListener("submit", (event) => event.preventDefault());
  let lexicon = null;
  let typed = null; // the sentence last typed, and its words the scene had no features for
  sentence.addEventListener("focus", () => {
    lexicon = lexiconOf(store.state.draft);
  });
  sentence.addEventListener("input", () => {
    const words = wordsOf(sentence.value);
    const known = lexicon ?? lexiconOf(store.state.draft);
    if (!words.length) return;
    typed = { words, fresh: [...new Set(words.filter((word) => !known.has(word)))] };
    actions.typeSentence(words, known);
  });
  sentence.addEventListener("blur", () => {
    lexicon = null;
    sentence.value = store.state.draft.tokens.join(" ");
  });
  return {
    element: form,
    /** Show the tokens as a sentence, unless the learner is typing one. */
    show(tokens) {
      if (document.activeElement !== sentence) setPropertyIfChanged(sentence, "value", tokens.join(" "));
    },
    /** Name the typed words `draft` still has no features for; the rows of X that are theirs. */
    blankRows(draft) {
      const blank = blankNewWords(typed, draft);
      if (!blank.length) typed = null;
      notice.hidden = !blank.length;
      setPropertyIfChanged(notice, "textContent", blank.length ? newWordsNotice(blank) : "");
      return draft.tokens.flatMap((token, i) => (blank.includes(token) ? [i] : []));
    },
  };
}

/**
 * The table's edits, told to the actions: a cell, a token's or a feature's name typed (the grid remembers what
 * was typed, so the next draft does not move the caret), a token or a feature added or removed.
 */
function listenForEdits({ table, gridActions, actions, cells, tokenNames, featureNames }) {
  table.addEventListener("input", (event) => {
    const input = event.target;
    markNonZero(input);
    const row = Number(input.dataset.row);
    const column = Number(input.dataset.column);
    const text = input.value;
    const kind = input.dataset.edit;
    if (kind === "cell") {
      cells.typed(row, column, text);
      actions.edit({ kind: "cell", matrix: "X", row, column, text });
    } else if (kind === "token-name") {
      tokenNames.typed(0, row, text);
      actions.edit({ kind: "token-name", row, text });
    } else if (kind === "feature-name") {
      featureNames.typed(0, column, text);
      actions.edit({ kind: "feature-name", column, text });
    }
  });
  const onButton = (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    const kind = button.dataset.edit;
    if (kind === "add-token") {
      actions.edit({ kind: "add-token" });
      focusInput(tokenNames.inputs[0]?.at(-1));
    } else if (kind === "add-feature") {
      actions.edit({ kind: "add-feature" });
      focusInput(featureNames.inputs[0]?.at(-1));
    } else if (kind === "remove-token") actions.edit({ kind: "remove-token", row: Number(button.dataset.row) });
    else if (kind === "remove-feature") actions.edit({ kind: "remove-feature", column: Number(button.dataset.column) });
  };
  table.addEventListener("click", onButton);
  gridActions.addEventListener("click", onButton);
}

/** Put the focus in `input` with its text selected, so typing replaces it. */
function focusInput(input) {
  if (input) {
    input.focus();
    input.select();
  }
}

/**
 * Mount the feature table in `host`.
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, when?: import("../../state/redraw-schedule.js").RedrawTiming, actions: object}} context
 */
export function mountFeatureTable(host, { store, actions, when }) {
  const sentence = mountSentenceBox({ store, actions });

  const scroller = make("div", "grid-scroll");
  const table = make("table", "grid feature-grid");
  table.dataset.testid = "feature-table";
  scroller.append(table);
  const gridActions = make("div", "grid-actions");
  gridActions.append(
    iconButton({ testId: "add-token", edit: "add-token", symbol: "+ token", label: "add a token", className: "add-button" }),
    iconButton({ testId: "add-feature", edit: "add-feature", symbol: "+ feature", label: "add a feature", className: "add-button" }),
  );
  const errorLine = createErrorLine("x-error");
  errorLine.element.id = MESSAGE_ID;
  host.append(sentence.element, frameSideScroll(scroller, "features"), gridActions, errorLine.element);

  const cells = new CellGrid({ lazy: true });
  const tokenNames = new CellGrid(); // one row: the token-name inputs
  const featureNames = new CellGrid(); // one row: the feature-name inputs
  const marks = createInvalidMarks(MESSAGE_ID, table);
  cells.attach(table);
  let builtShape = "";
  let drawn = null; // the draft the table shows (a draft is never changed in place: this one stays as drawn)

  listenForEdits({ table, gridActions, actions, cells, tokenNames, featureNames });

  function build(draft) {
    drawTable(table, draft, { cells, tokenNames, featureNames });
    drawn = draft;
  }

  /** Put the draft's text into the inputs, touching only what changed. */
  function syncFromDraft(draft) {
    cells.sync(draft.X);
    tokenNames.sync([draft.tokens]);
    featureNames.sync([draft.features]);
    // Spoken names of cells ("animal of “cat”") follow renamed tokens and features.
    draft.tokens.forEach((token, i) => {
      draft.features.forEach((feature, j) => {
        if (token !== drawn.tokens[i] || feature !== drawn.features[j]) cells.inputs[i]?.[j]?.setAttribute("aria-label", `${feature} of ${quoted(token)}`);
      });
    });
    drawn = draft;
    sentence.show(draft.tokens);
  }

  function showError(state) {
    const target = errorTarget(state.error);
    const mine = target && target.head === null && ["X", "tokens", "features"].includes(target.field);
    errorLine.show(mine ? state.error.message : null);
    if (!mine) {
      marks.set([]);
    } else if (target.field === "X") {
      marks.set(inputsAt(target, "X", null, cells.inputs));
    } else {
      // Token names are one list (the error gives its position as the row), feature names another (as the column).
      const index = target.field === "tokens" ? target.row ?? target.column : target.column ?? target.row;
      const names = target.field === "tokens" ? tokenNames : featureNames;
      marks.set(index === null || !names.inputs[0]?.[index] ? [] : [names.inputs[0][index]]);
    }
  }

  let highlighted = { focus: null, hover: [] };
  function highlightRows(state) {
    const rows = table.tBodies[0]?.rows ?? [];
    rows[highlighted.focus]?.classList.remove("focused");
    for (const i of highlighted.hover) rows[i]?.classList.remove("hovered");
    highlighted = { focus: state.focusToken, hover: state.hover ? [state.hover.row, state.hover.column] : [] };
    rows[highlighted.focus]?.classList.add("focused");
    for (const i of highlighted.hover) rows[i]?.classList.add("hovered");
  }

  /** The rows of words typed with no features, marked (and named under the sentence box) until they get some. */
  function markBlankRows(draft) {
    const blank = new Set(sentence.blankRows(draft));
    [...(table.tBodies[0]?.rows ?? [])].forEach((row, i) => {
      row.classList.toggle("new-word", blank.has(i));
      if (blank.has(i)) row.setAttribute("aria-describedby", "new-words");
      else row.removeAttribute("aria-describedby");
    });
  }

  store.subscribe((state, changes) => {
    if (!state.draft) return;
    const shape = `${state.draft.tokens.length}x${state.draft.features.length}`;
    if (shape !== builtShape) {
      build(state.draft);
      builtShape = shape;
      sentence.show(state.draft.tokens);
      showError(state);
      highlightRows(state);
      markBlankRows(state.draft);
      return;
    }
    if (changes.has("scene") || changes.has("labels")) syncFromDraft(state.draft);
    if (changes.has("scene") || changes.has("labels") || changes.has("values")) markBlankRows(state.draft); // a row filled in
    if (changes.has("error") || changes.has("scene")) showError(state);
    if (changes.has("focus") || changes.has("hover") || changes.has("scene")) highlightRows(state);
  }, when);
}
