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
 * Mount the weight editor in `host`.
 * @param {HTMLElement} host
 * @param {{store: ReturnType<import("../../page/state.js").createStore>, actions: object}} context
 */
export function mountWeightMatrices(host, { store, actions }) {
  const tabs = make("div", "head-tabs");
  // The tabs alone form the tablist; the add and remove buttons sit beside it (a tablist holds only tabs).
  const tabList = make("div", "head-tab-list");
  tabList.setAttribute("role", "tablist");
  tabList.setAttribute("aria-label", "Attention heads");
  const matrices = make("div", "matrices");
  const errorLine = createErrorLine("w-error");
  errorLine.element.id = MESSAGE_ID;
  host.append(tabs, matrices, errorLine.element);

  /** Inputs by matrix key ("Wq", "Wk", "Wv"), plus the dim-name and value-dim-name rows. */
  const grids = { Wq: new CellGrid({ lazy: true }), Wk: new CellGrid({ lazy: true }), Wv: new CellGrid({ lazy: true }) };
  const dimNames = new CellGrid();
  const valueDimNames = new CellGrid();
  for (const grid of Object.values(grids)) grid.attach(matrices);
  let dimLabels = []; // Wk's column headers: text, not inputs (the dims are named in Wq)
  let featureLabels = []; // the row headers of every grid
  const marks = createInvalidMarks(MESSAGE_ID, matrices);
  let builtKey = "";
  let tabsKey = "";

  const activeHead = () => store.state.draft.heads[store.state.activeHead];

  matrices.addEventListener("input", (event) => {
    const input = event.target;
    markNonZero(input);
    const row = Number(input.dataset.row);
    const column = Number(input.dataset.column);
    const head = store.state.activeHead;
    const text = input.value;
    const kind = input.dataset.edit;
    if (kind === "cell") {
      grids[input.dataset.matrix].typed(row, column, text);
      actions.edit({ kind: "cell", matrix: input.dataset.matrix, head, row, column, text });
    } else if (kind === "dim-name") {
      dimNames.typed(0, column, text);
      actions.edit({ kind: "dim-name", head, column, text });
    } else if (kind === "value-dim-name") {
      valueDimNames.typed(0, column, text);
      actions.edit({ kind: "value-dim-name", head, column, text });
    } else if (kind === "one-hot") {
      actions.edit({ kind: "one-hot", head, oneHot: input.checked });
    }
  });
  matrices.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    const head = store.state.activeHead;
    const column = Number(button.dataset.column);
    const kind = button.dataset.edit;
    if (kind === "add-dim" || kind === "add-value-dim") actions.edit({ kind, head });
    else if (kind === "remove-dim" || kind === "remove-value-dim") actions.edit({ kind, head, column });
  });
  tabs.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.head !== undefined) actions.selectHead(Number(button.dataset.head));
    else if (button.dataset.edit === "add-head") actions.edit({ kind: "add-head" });
    else if (button.dataset.edit === "remove-head") actions.edit({ kind: "remove-head", head: store.state.activeHead });
  });

  function buildTabs(state) {
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
    const remove = iconButton({ testId: "remove-head", edit: "remove-head", symbol: "remove this head", label: "remove the selected head", className: "link-button" });
    remove.hidden = heads.length <= 1;
    tabList.replaceChildren(...buttons);
    tabs.replaceChildren(tabList, add, remove);
  }

  function buildMatrix(spec, head, features, valueNames) {
    const section = make("section", "matrix");
    section.dataset.matrix = spec.key;
    section.append(matrixTitle(spec));
    if (spec.key === "Wv") {
      const toggle = make("label", "toggle");
      const box = make("input");
      box.type = "checkbox";
      box.dataset.testid = "wv-onehot";
      markEdit(box, "one-hot");
      box.checked = head.Wv === null;
      toggle.append(box, make("span", "", "one-hot markers"));
      section.append(toggle);
      if (head.Wv === null) {
        section.append(
          make("p", "panel-note onehot-note",
            "Each token’s value is a 1 at its own position and 0 elsewhere, so a token’s output is exactly its row of weights: where its attention went."),
        );
        return section;
      }
    }
    const names = spec.key === "Wv" ? valueNames : head.dims;
    const grid = head[spec.key];
    const scroller = make("div", "grid-scroll");
    const table = make("table", "grid weight-grid");
    table.dataset.testid = `${spec.key.toLowerCase()}-grid`;
    const headRow = make("tr");
    const corner = make("th", "corner", "feature \\ dim");
    corner.scope = "col";
    headRow.append(corner);
    names.forEach((name, j) => {
      const th = make("th", "column-head");
      th.scope = "col";
      if (spec.key === "Wk") {
        const label = make("span", "dim-label", name);
        dimLabels.push(label);
        th.append(label);
      } else {
        const nameRow = spec.key === "Wq" ? dimNames : valueDimNames;
        const nameKind = spec.key === "Wq" ? "dim-name" : "value-dim-name";
        const input = nameRow.createLabel(j, {
          testId: nameKind, edit: nameKind, value: name, column: j,
          label: `name of ${spec.key === "Wq" ? "query/key" : "value"} dim ${j + 1}`,
        });
        const wrap = make("div", "head-cell");
        const removeKind = spec.key === "Wq" ? "remove-dim" : "remove-value-dim";
        wrap.append(input, iconButton({ testId: removeKind, edit: removeKind, symbol: "×", label: `remove dim ${quoted(name)}`, column: j }));
        th.append(wrap);
      }
      headRow.append(th);
    });
    if (spec.key !== "Wk") {
      const addCell = make("th", "add-cell");
      const kind = spec.key === "Wq" ? "query/key" : "value";
      const addKind = spec.key === "Wq" ? "add-dim" : "add-value-dim";
      addCell.append(iconButton({ testId: addKind, edit: addKind, symbol: "+", label: `add a ${kind} dim`, className: "add-button" }));
      headRow.append(addCell);
    }
    const thead = make("thead");
    thead.append(headRow);
    const body = make("tbody");
    features.forEach((feature, i) => {
      const tr = make("tr");
      const th = make("th", "row-head feature-label", feature);
      th.scope = "row";
      featureLabels.push([i, th]);
      tr.append(th);
      names.forEach((name, j) => {
        const td = make("td");
        td.append(grids[spec.key].create({ testId: spec.testId, edit: "cell", matrix: spec.key, value: grid[i]?.[j] ?? "", label: `${spec.key} row ${feature}, column ${name}`, row: i, column: j }));
        tr.append(td);
      });
      body.append(tr);
    });
    table.append(thead, body);
    scroller.append(table);
    section.append(scroller);
    if (spec.key === "Wk") section.append(make("p", "panel-note", "Shares its dims with Wq."));
    return section;
  }

  function build(state) {
    for (const grid of [...Object.values(grids), dimNames, valueDimNames]) grid.clear();
    dimLabels = [];
    featureLabels = [];
    const head = activeHead();
    const valueNames = shownValueDims(head, state.result?.heads?.[state.activeHead]);
    matrices.replaceChildren(...MATRICES.map((spec) => buildMatrix(spec, head, state.draft.features, valueNames)));
  }

  /** Put the draft's numbers into the inputs (after a scene or preset replaced the draft). */
  function syncValues() {
    const head = activeHead();
    for (const spec of MATRICES) if (head[spec.key]) grids[spec.key].sync(head[spec.key]);
  }

  /** Put the names of features and dims into the headers, touching only what changed. */
  function syncLabels(state) {
    const head = activeHead();
    dimNames.sync([head.dims]);
    valueDimNames.sync([shownValueDims(head, state.result?.heads?.[state.activeHead])]);
    dimLabels.forEach((label, j) => {
      if (label.textContent !== (head.dims[j] ?? "")) label.textContent = head.dims[j] ?? "";
    });
    for (const [i, th] of featureLabels) {
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
      return;
    }
    if (grids[target.field]) {
      marks.set(inputsAt(target, target.field, h, grids[target.field].inputs));
    } else if (target.field === "dims" || target.field === "value_dims") {
      const names = target.field === "dims" ? dimNames : valueDimNames;
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
      buildTabs(state);
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
  });
}
