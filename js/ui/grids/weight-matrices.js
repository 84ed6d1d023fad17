/**
 * The weight matrices of the head being edited: Wq, Wk and Wv as labelled grids (rows = features,
 * columns = the head's dims), plus the head selector.
 *
 * Wq and Wk share their dims (a query and a key must be the same length to take a dot product); Wv has
 * its own value dims, or is switched to one-hot markers (Wv = null: each token's value marks its own
 * position, so the output shows where attention went). Grids rebuild only on a change of shape or
 * head; otherwise only inputs whose text changed are updated, and never the one being typed in.
 */

import { createErrorLine, createInvalidMarks, errorTarget, inputsAt } from "./error-message.js";
import { CellGrid, iconButton, markEdit, markNonZero } from "./grid-input.js";
import { frameSideScroll } from "./side-scroll.js";
import { make } from "../shared/dom.js";
import { quoted } from "../shared/format.js";
import { shownValueDims } from "../../scene/draft.js";
import { LIMITS } from "../../scene/shape.js";

const MESSAGE_ID = "w-error";

const MATRICES = [
  { key: "Wq", testId: "wq-cell", sub: "q", role: "query: what a token looks for" },
  { key: "Wk", testId: "wk-cell", sub: "k", role: "key: what a token offers" },
  { key: "Wv", testId: "wv-cell", sub: "v", role: "value: what a token hands over" },
];


function matrixTitle({ sub, role }) {
  const title = make("h3", "matrix-title");
  const name = make("span", "matrix-name", "W");
  name.append(make("sub", "", sub));
  title.append(name, make("span", "matrix-role", role));
  return title;
}

/**
 * The head tabs (one per head, marked ⚠ where the error is) with "+ head" and "remove this head" beside them
 * (a tablist holds only tabs).
 */
function drawTabs(tabs, tabList, state) {
  const { heads } = state.draft;
  const target = errorTarget(state.error);
  const buttons = heads.map((head, h) => {
    const button = make("button", "head-tab", head.name || `head ${h + 1}`);
    button.type = "button";
    button.dataset.testid = "head-tab";
    button.dataset.head = String(h);
    button.setAttribute("role", "tab");
    button.setAttribute("aria-selected", String(h === state.activeHead));
    if (target?.head === h) button.append(make("span", "tab-warning", " ⚠"));
    return button;
  });
  const add = iconButton({ testId: "add-head", edit: "add-head", symbol: "+ head", label: "add a head", className: "add-button" });
  add.disabled = heads.length >= LIMITS.heads;
  const remove = iconButton({ testId: "remove-head", edit: "remove-head", symbol: "remove this head", label: "remove this head", className: "link-button" });
  remove.hidden = heads.length <= 1;
  tabList.replaceChildren(...buttons);
  tabs.replaceChildren(tabList, add, remove);
}

/** Wv's switch between a matrix and one-hot position markers (then it has no matrix: returns true). */
function drawOneHotSwitch(section, head) {
  const toggle = make("label", "toggle");
  const box = make("input");
  box.type = "checkbox";
  box.dataset.testid = "wv-onehot";
  markEdit(box, "one-hot");
  box.checked = head.Wv === null;
  toggle.append(box, make("span", "", "one-hot markers"));
  section.append(toggle);
  if (head.Wv !== null) return false;
  section.append(make("p", "panel-note onehot-note",
    "Each token’s value is a 1 at its own position and 0 elsewhere, so a token’s output is exactly its row of weights: where its attention went."));
  return true;
}

/** One column header: Wq names the dims (inputs, with a remove button), Wk shows them, Wv names its own. */
function drawColumnHead(spec, name, j, editor) {
  const th = make("th", "column-head");
  th.scope = "col";
  if (spec.key === "Wk") {
    const label = make("span", "dim-label", name);
    editor.dimLabels.push(label);
    th.append(label);
    return th;
  }
  const nameRow = spec.key === "Wq" ? editor.dimNames : editor.valueDimNames;
  const nameKind = spec.key === "Wq" ? "dim-name" : "value-dim-name";
  const input = nameRow.createLabel(j, {
    testId: nameKind, edit: nameKind, value: name, column: j,
    label: `name of ${spec.key === "Wq" ? "query/key" : "value"} dim ${j + 1}`,
  });
  const removeKind = spec.key === "Wq" ? "remove-dim" : "remove-value-dim";
  const wrap = make("div", "head-cell");
  wrap.append(input, iconButton({ testId: removeKind, edit: removeKind, symbol: "×", label: `remove dim ${quoted(name)}`, column: j }));
  th.append(wrap);
  return th;
}

/** One of Wq, Wk, Wv as a titled grid: rows are features, columns the head's dims (or value dims). */
function drawMatrix(spec, head, features, valueNames, editor) {
  const section = make("section", "matrix");
  section.dataset.matrix = spec.key;
  section.append(matrixTitle(spec));
  if (spec.key === "Wv" && drawOneHotSwitch(section, head)) return section;
  const names = spec.key === "Wv" ? valueNames : head.dims;
  const table = make("table", "grid weight-grid");
  table.dataset.testid = `${spec.key.toLowerCase()}-grid`;
  const headRow = make("tr");
  const corner = make("th", "corner", "feature \\ dim");
  corner.scope = "col";
  headRow.append(corner, ...names.map((name, j) => drawColumnHead(spec, name, j, editor)));
  if (spec.key !== "Wk") {
    const addCell = make("th", "add-cell");
    const addKind = spec.key === "Wq" ? "add-dim" : "add-value-dim";
    addCell.append(iconButton({ testId: addKind, edit: addKind, symbol: "+", label: `add a ${spec.key === "Wq" ? "query/key" : "value"} dim`, className: "add-button" }));
    headRow.append(addCell);
  }
  const thead = make("thead");
  thead.append(headRow);
  const body = make("tbody");
  features.forEach((feature, i) => {
    const tr = make("tr");
    const th = make("th", "row-head feature-label", feature);
    th.scope = "row";
    editor.featureLabels.push([i, th]);
    tr.append(th);
    names.forEach((name, j) => {
      const td = make("td");
      td.append(editor.grids[spec.key].create({
        testId: spec.testId, edit: "cell", matrix: spec.key, value: head[spec.key][i]?.[j] ?? "", label: `${spec.key} row ${feature}, column ${name}`, row: i, column: j,
      }));
      tr.append(td);
    });
    body.append(tr);
  });
  table.append(thead, body);
  const scroller = make("div", "grid-scroll");
  scroller.append(table);
  section.append(frameSideScroll(scroller, "dims"));
  if (spec.key === "Wk") section.append(make("p", "panel-note", "Shares its dims with Wq."));
  return section;
}

/** The edit an input event in the matrices makes, or null (the grids' own bookkeeping is done here too). */
function editFromInput(input, head, editor) {
  const row = Number(input.dataset.row);
  const column = Number(input.dataset.column);
  const text = input.value;
  switch (input.dataset.edit) {
    case "cell":
      editor.grids[input.dataset.matrix].typed(row, column, text);
      return { kind: "cell", matrix: input.dataset.matrix, head, row, column, text };
    case "dim-name":
      editor.dimNames.typed(0, column, text);
      return { kind: "dim-name", head, column, text };
    case "value-dim-name":
      editor.valueDimNames.typed(0, column, text);
      return { kind: "value-dim-name", head, column, text };
    case "one-hot":
      return { kind: "one-hot", head, oneHot: input.checked };
    default:
      return null;
  }
}

/**
 * Mount the weight editor in `host`.
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, when?: import("../../state/redraw-schedule.js").RedrawTiming, actions: object}} context
 */
export function mountWeightMatrices(host, { store, actions, when }) {
  const tabs = make("div", "head-tabs");
  const tabList = make("div", "head-tab-list");
  tabList.setAttribute("role", "tablist");
  tabList.setAttribute("aria-label", "Attention heads");
  const matrices = make("div", "matrices");
  const errorLine = createErrorLine("w-error");
  errorLine.element.id = MESSAGE_ID;
  host.append(tabs, matrices, errorLine.element);

  /** The inputs by matrix key, the dim-name rows, and the headers that follow renamed features and dims. */
  const editor = {
    grids: { Wq: new CellGrid({ lazy: true }), Wk: new CellGrid({ lazy: true }), Wv: new CellGrid({ lazy: true }) },
    dimNames: new CellGrid(),
    valueDimNames: new CellGrid(),
    dimLabels: [], // Wk's column headers: text, not inputs (the dims are named in Wq)
    featureLabels: [], // the row headers of every grid
  };
  for (const grid of Object.values(editor.grids)) grid.attach(matrices);
  const marks = createInvalidMarks(MESSAGE_ID, matrices);
  let builtKey = "";
  let tabsKey = "";
  const activeHead = () => store.state.draft.heads[store.state.activeHead];

  matrices.addEventListener("input", (event) => {
    markNonZero(event.target);
    const edit = editFromInput(event.target, store.state.activeHead, editor);
    if (edit) actions.edit(edit);
  });
  matrices.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    const head = store.state.activeHead;
    const kind = button.dataset.edit;
    if (kind === "add-dim" || kind === "add-value-dim") actions.edit({ kind, head });
    else if (kind === "remove-dim" || kind === "remove-value-dim") actions.edit({ kind, head, column: Number(button.dataset.column) });
  });
  tabs.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.head !== undefined) actions.selectHead(Number(button.dataset.head));
    else if (button.dataset.edit === "add-head") actions.edit({ kind: "add-head" });
    else if (button.dataset.edit === "remove-head") actions.edit({ kind: "remove-head", head: store.state.activeHead });
  });

  function build(state) {
    for (const grid of [...Object.values(editor.grids), editor.dimNames, editor.valueDimNames]) grid.clear();
    editor.dimLabels = [];
    editor.featureLabels = [];
    const head = activeHead();
    const valueNames = shownValueDims(head, state.result?.heads?.[state.activeHead]);
    matrices.replaceChildren(...MATRICES.map((spec) => drawMatrix(spec, head, state.draft.features, valueNames, editor)));
  }

  /** Put the draft's numbers into the inputs (after a scene or preset replaced the draft). */
  function syncValues() {
    const head = activeHead();
    for (const spec of MATRICES) if (head[spec.key]) editor.grids[spec.key].sync(head[spec.key]);
  }

  /** Put the names of features and dims into the headers, touching only what changed. */
  function syncLabels(state) {
    const head = activeHead();
    editor.dimNames.sync([head.dims]);
    editor.valueDimNames.sync([shownValueDims(head, state.result?.heads?.[state.activeHead])]);
    editor.dimLabels.forEach((label, j) => {
      if (label.textContent !== (head.dims[j] ?? "")) label.textContent = head.dims[j] ?? "";
    });
    for (const [i, th] of editor.featureLabels) {
      if (th.textContent !== (state.draft.features[i] ?? "")) th.textContent = state.draft.features[i] ?? "";
    }
  }

  function showError(state) {
    const target = errorTarget(state.error);
    const h = state.activeHead;
    const mine = target && target.head !== null;
    const elsewhere = mine && target.head !== h ? ` (in ${state.draft.heads[target.head]?.name ?? `head ${target.head + 1}`})` : "";
    errorLine.show(mine ? `${state.error.message}${elsewhere}` : null);
    if (!mine || target.head !== h) {
      marks.set([]);
    } else if (editor.grids[target.field]) {
      marks.set(inputsAt(target, target.field, h, editor.grids[target.field].inputs));
    } else if (target.field === "dims" || target.field === "value_dims") {
      const names = target.field === "dims" ? editor.dimNames : editor.valueDimNames;
      const index = target.column ?? target.row;
      marks.set(index === null || !names.inputs[0]?.[index] ? [] : [names.inputs[0][index]]);
    } else {
      marks.set([]);
    }
  }

  store.subscribe((state, changes) => {
    if (!state.draft) return;
    const heads = state.draft.heads;
    const nextTabsKey = JSON.stringify([heads.map((head) => head.name), state.activeHead, errorTarget(state.error)?.head ?? null]);
    if (nextTabsKey !== tabsKey) {
      drawTabs(tabs, tabList, state);
      tabsKey = nextTabsKey;
    }
    const head = activeHead();
    if (!head) return;
    const key = `${state.activeHead}|${state.draft.features.length}|${head.dims.length}|${head.Wv ? head.Wv[0]?.length ?? 0 : "onehot"}`;
    if (key !== builtKey) {
      build(state);
      builtKey = key;
      showError(state);
      return;
    }
    if (changes.has("scene")) syncValues();
    if (changes.has("scene") || changes.has("labels") || (changes.has("result") && !head.valueDims)) syncLabels(state);
    if (changes.has("error") || changes.has("scene")) showError(state);
  }, when);
}
