/**
 * Every edit a learner can make to the draft, in one place, so that the matrices always stay
 * consistent with their labels: a new feature is a new column of X and a new row of every W; a new
 * token is a new row of X and a new row and column of a custom mask.
 *
 * EDIT_KINDS, at the end, is the one table of edit kinds: for each, the scene fields it changes (so what a
 * course page can lock, see embed/locks.js), what it does to the draft, and the parts of the state it changes
 * (state.js). A control on the page names the kind of edit it makes in its `data-edit` attribute.
 *
 * A draft is never changed in place: `applyEdit` returns a new draft that shares every row the edit left alone
 * (typing into one cell of a 64 × 64 matrix copies that matrix's row list and one row, not the scene), so
 * whoever holds the old draft (a view, saved work, an undo) still holds the scene as it was. The helpers
 * below change the new draft `applyEdit` made for them. New cells start at "0".
 */

import { MODULE_FACTS } from "../../generated/module-facts.js";
import { shownValueDims } from "./draft.js";

const zeros = (count) => Array.from({ length: count }, () => "0");

/** A name not yet in `names`: `${stem}${k}` for the smallest free k from `start`. */
function freshName(names, stem, start = 1) {
  const taken = new Set(names);
  let k = start;
  while (taken.has(`${stem}${k}`)) k += 1;
  return `${stem}${k}`;
}

/** Every matrix with one row per feature: each head's Wq, Wk and Wv (also a Wv set aside while one-hot). */
function featureRowMatrices(draft) {
  const matrices = [];
  for (const head of draft.heads) {
    matrices.push(head.Wq, head.Wk);
    if (head.Wv) matrices.push(head.Wv);
    if (head.hiddenWv) matrices.push(head.hiddenWv);
  }
  return matrices;
}

/** Columns in a matrix with one row per feature (kept even when it has no rows). */
const columnCount = (matrix, fallback) => (matrix.length ? matrix[0].length : fallback);

/** Add a token (a row of X, zeros) at the end, or at `index`. */
function addToken(draft, name, index = draft.tokens.length) {
  draft.tokens.splice(index, 0, name);
  draft.X.splice(index, 0, zeros(draft.features.length));
  if (Array.isArray(draft.mask)) {
    for (const row of draft.mask) row.splice(index, 0, false);
    draft.mask.splice(index, 0, Array.from({ length: draft.tokens.length }, () => false));
  }
}

/** Remove token `index` with its row of X (and its row and column of a custom mask). */
function removeToken(draft, index) {
  draft.tokens.splice(index, 1);
  draft.X.splice(index, 1);
  if (Array.isArray(draft.mask)) {
    draft.mask.splice(index, 1);
    for (const row of draft.mask) row.splice(index, 1);
  }
}

/** Add a feature: a column of X and a row of every W, all zeros. */
function addFeature(draft, name) {
  draft.features.push(name);
  for (const row of draft.X) row.push("0");
  for (const head of draft.heads) {
    head.Wq.push(zeros(head.dims.length));
    head.Wk.push(zeros(head.dims.length));
    if (head.Wv) head.Wv.push(zeros(columnCount(head.Wv, valueCount(head))));
    if (head.hiddenWv) head.hiddenWv.push(zeros(columnCount(head.hiddenWv, 0)));
  }
}

/** Remove feature `index`: its column of X and its row of every W. */
function removeFeature(draft, index) {
  draft.features.splice(index, 1);
  for (const row of draft.X) row.splice(index, 1);
  for (const matrix of featureRowMatrices(draft)) matrix.splice(index, 1);
}

/** How many value columns a head has (its Wv's width, or its value-dim names when Wv has no rows). */
function valueCount(head) {
  if (!head.Wv) return 0;
  return head.Wv.length ? head.Wv[0].length : head.valueDims?.length ?? 0;
}

/** Add a query/key dim to a head: a column of Wq and of Wk. */
function addDim(head) {
  head.dims.push(freshName(head.dims, "d", head.dims.length));
  for (const row of head.Wq) row.push("0");
  for (const row of head.Wk) row.push("0");
}

/** Remove query/key dim `index` from a head. */
function removeDim(head, index) {
  head.dims.splice(index, 1);
  for (const row of head.Wq) row.splice(index, 1);
  for (const row of head.Wk) row.splice(index, 1);
}

/**
 * Add a value dim (a column of Wv). `shownNames` are the value-dim labels on screen; when the scene
 * does not name its value dims yet, they become its names so that the labels the learner saw stay.
 */
function addValueDim(head, shownNames) {
  if (!head.Wv) return;
  if (!head.valueDims) head.valueDims = [...shownNames];
  head.valueDims.push(freshName(head.valueDims, MODULE_FACTS.valueDimNames.prefix, head.valueDims.length));
  for (const row of head.Wv) row.push("0");
}

/** Remove value dim `index` (a column of Wv). */
function removeValueDim(head, index, shownNames) {
  if (!head.Wv) return;
  if (!head.valueDims) head.valueDims = [...shownNames];
  head.valueDims.splice(index, 1);
  for (const row of head.Wv) row.splice(index, 1);
}

/** Rename value dim `index`, naming the others as shown if the scene did not name them. */
function renameValueDim(head, index, name, shownNames) {
  if (!head.valueDims) head.valueDims = [...shownNames];
  head.valueDims[index] = name;
}

/**
 * Switch a head's values between a matrix Wv and one-hot position markers (Wv = null). The matrix is
 * set aside, not thrown away, so switching back restores what the learner typed. With nothing set
 * aside, Wv starts as the identity on the features: each token passes along its own features.
 */
function setOneHotValues(draft, head, oneHot) {
  if (oneHot && head.Wv) {
    head.hiddenWv = head.Wv;
    head.hiddenValueDims = head.valueDims;
    head.Wv = null;
    head.valueDims = null;
  } else if (!oneHot && !head.Wv) {
    if (head.hiddenWv && head.hiddenWv.length === draft.features.length) {
      head.Wv = head.hiddenWv;
      head.valueDims = head.hiddenValueDims;
    } else {
      const count = draft.features.length;
      head.Wv = draft.features.map((_, i) => Array.from({ length: count }, (__, j) => (i === j ? "1" : "0")));
      head.valueDims = [...draft.features];
    }
    head.hiddenWv = null;
    head.hiddenValueDims = null;
  }
}

/** Add a head with one dim, zero weights and one-hot values. */
function addHead(draft) {
  const names = draft.heads.map((head) => head.name);
  draft.heads.push({
    name: freshName(names, "head ", draft.heads.length + 1),
    dims: ["d1"],
    valueDims: null,
    Wq: draft.features.map(() => ["0"]),
    Wk: draft.features.map(() => ["0"]),
    Wv: null,
    hiddenWv: null,
    hiddenValueDims: null,
    extra: {},
  });
}

/** Remove head `index`. */
function removeHead(draft, index) {
  draft.heads.splice(index, 1);
}

/**
 * Set the mask mode. Switching to "custom" starts from the mask now in effect (`currentMask`, the
 * result's boolean matrix), so causal → custom keeps the triangle for the learner to edit.
 */
function setMaskMode(draft, mode, currentMask) {
  if (mode !== "custom") {
    draft.mask = mode;
    return;
  }
  if (Array.isArray(draft.mask)) return;
  const n = draft.tokens.length;
  const fits = Array.isArray(currentMask) && currentMask.length === n && currentMask.every((row) => row.length === n);
  draft.mask = fits
    ? currentMask.map((row) => row.map(Boolean))
    : Array.from({ length: n }, (_, i) => Array.from({ length: n }, (__, j) => draft.mask === "causal" && j > i));
}

/** Toggle "token `row` may not read token `column`" in a custom mask. */
function toggleMaskCell(draft, row, column) {
  if (Array.isArray(draft.mask)) draft.mask[row][column] = !draft.mask[row][column];
}

/**
 * Split a typed sentence into tokens: lower-case words (letters, digits, apostrophes, hyphens);
 * punctuation and spaces separate them.
 * @param {string} text
 * @returns {string[]}
 */
export function wordsOf(text) {
  return text.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? [];
}

/**
 * What each known word's feature row is: word → row of cell strings (first occurrence wins).
 * @returns {Map<string, string[]>}
 */
export function lexiconOf(draft) {
  const lexicon = new Map();
  draft.tokens.forEach((token, i) => {
    if (!lexicon.has(token)) lexicon.set(token, [...draft.X[i]]);
  });
  return lexicon;
}

/**
 * Replace the tokens with `words`. A word in `lexicon` keeps its feature row; a new word starts at
 * zeros. A custom mask is reset to "nothing masked" at the new size, since its cells named positions
 * that have moved.
 */
function replaceTokens(draft, words, lexicon) {
  draft.tokens = [...words];
  const width = draft.features.length;
  draft.X = words.map((word) => {
    const known = lexicon.get(word);
    return known && known.length === width ? [...known] : zeros(width);
  });
  if (Array.isArray(draft.mask)) draft.mask = words.map(() => words.map(() => false));
}

/** The title a scene gets once the learner has typed their own sentence into it. */
export const OWN_SENTENCE_TITLE = "your own sentence";

/**
 * Replace the tokens with `words` (replaceTokens); when the words changed, the scene is the learner's own now:
 * the example's title and description spoke of its words ("“it” looks for an animal noun", "92%"), so the title
 * becomes OWN_SENTENCE_TITLE and the description goes.
 */
function typeSentence(draft, words, lexicon) {
  const same = words.length === draft.tokens.length && words.every((word, i) => word === draft.tokens[i]);
  replaceTokens(draft, words, lexicon);
  if (same) return;
  draft.title = OWN_SENTENCE_TITLE;
  const { description, ...extra } = draft.extra ?? {};
  draft.extra = extra;
}

/**
 * @typedef {object} EditContext what an edit may need besides the draft
 * @property {number} activeHead       the head being edited (for an edit that names none)
 * @property {object|null} result      the last good result (its mask and value-dim names)
 */

/** A copy of `rows` (a grid of cells or booleans): the rows are new arrays; their cells are plain values. */
const copyRows = (rows) => rows.map((row) => [...row]);

/** A copy of a draft head that the structural helpers above may change: every list of it is new. */
function copyHead(head) {
  return {
    ...head,
    dims: [...head.dims],
    valueDims: head.valueDims ? [...head.valueDims] : null,
    Wq: copyRows(head.Wq),
    Wk: copyRows(head.Wk),
    Wv: head.Wv ? copyRows(head.Wv) : null,
    hiddenWv: head.hiddenWv ? copyRows(head.hiddenWv) : null,
    hiddenValueDims: head.hiddenValueDims ? [...head.hiddenValueDims] : null,
  };
}

/** A copy of the whole draft whose every list may be changed: for the edits that change the scene's shape. */
function copyWholeDraft(draft) {
  return {
    ...draft,
    tokens: [...draft.tokens],
    features: [...draft.features],
    X: copyRows(draft.X),
    heads: draft.heads.map(copyHead),
    mask: Array.isArray(draft.mask) ? copyRows(draft.mask) : draft.mask,
  };
}

/** A copy of the draft in which head `index`'s lists of names may be changed (the matrices stay shared). */
function copyHeadNames(draft, _edit, index) {
  const heads = [...draft.heads];
  const head = heads[index];
  if (head) heads[index] = { ...head, dims: [...head.dims], valueDims: head.valueDims ? [...head.valueDims] : null };
  return { ...draft, heads };
}

/** A copy of the draft in which cell `row`, `column` of `matrix` may be changed, and nothing else. */
function copyCellPath(draft, { matrix, row }, index) {
  const copyRow = (grid) => grid.map((cells, i) => (i === row ? [...cells] : cells));
  if (matrix === "X") return { ...draft, X: copyRow(draft.X) };
  const heads = [...draft.heads];
  heads[index] = { ...heads[index], [matrix]: copyRow(heads[index][matrix]) };
  return { ...draft, heads };
}

/** How each kind copies the draft before changing it: as little as the edit touches (see the file's header). */
const COPIES = {
  cell: copyCellPath,
  names: copyHeadNames,
  list: (draft) => ({ ...draft, tokens: [...draft.tokens], features: [...draft.features] }),
  mode: (draft) => ({ ...draft, mask: Array.isArray(draft.mask) ? copyRows(draft.mask) : draft.mask }),
  whole: copyWholeDraft,
};

/**
 * Every kind of edit: `fields` (the scene fields it changes: an array, or a function of the edit), `parts`
 * (the changes of the state it makes, state/state.js), `copy` (how much of the draft it copies, COPIES) and
 * `apply(draft, edit, head, context)` (what it does to that copy; `head` is the copy's head the edit names, or
 * the one being edited).
 */
export const EDIT_KINDS = Object.freeze({
  cell: {
    fields: (edit) => [edit.matrix],
    parts: ["values"],
    copy: "cell",
    apply(draft, edit, head) {
      const grid = edit.matrix === "X" ? draft.X : head[edit.matrix];
      grid[edit.row][edit.column] = edit.text;
    },
  },
  "token-name": { fields: ["tokens"], parts: ["labels"], copy: "list", apply: (draft, edit) => { draft.tokens[edit.row] = edit.text; } },
  "feature-name": { fields: ["features"], parts: ["labels"], copy: "list", apply: (draft, edit) => { draft.features[edit.column] = edit.text; } },
  // A dim names a column of Wq and of Wk: locking either keeps its name too.
  "dim-name": { fields: ["heads", "Wq", "Wk"], parts: ["labels"], copy: "names", apply: (draft, edit, head) => { head.dims[edit.column] = edit.text; } },
  "value-dim-name": {
    fields: ["Wv"],
    parts: ["labels"],
    copy: "names",
    apply: (draft, edit, head, context) => renameValueDim(head, edit.column, edit.text, shownNames(head, edit, context)),
  },
  sentence: { fields: ["tokens", "X"], parts: ["labels", "scene"], copy: "whole", apply: (draft, edit) => typeSentence(draft, edit.words, edit.lexicon) },
  "add-token": { fields: ["tokens", "X"], parts: ["labels"], copy: "whole", apply: (draft) => addToken(draft, freshName(draft.tokens, "word")) },
  "remove-token": { fields: ["tokens", "X"], parts: ["labels"], copy: "whole", apply: (draft, edit) => removeToken(draft, edit.row) },
  "add-feature": { fields: ["features", "X", "Wq", "Wk", "Wv"], parts: ["labels"], copy: "whole", apply: (draft) => addFeature(draft, freshName(draft.features, "feature")) },
  "remove-feature": { fields: ["features", "X", "Wq", "Wk", "Wv"], parts: ["labels"], copy: "whole", apply: (draft, edit) => removeFeature(draft, edit.column) },
  "add-dim": { fields: ["Wq", "Wk"], parts: ["labels"], copy: "whole", apply: (draft, edit, head) => addDim(head) },
  "remove-dim": { fields: ["Wq", "Wk"], parts: ["labels"], copy: "whole", apply: (draft, edit, head) => removeDim(head, edit.column) },
  "add-value-dim": { fields: ["Wv"], parts: ["labels"], copy: "whole", apply: (draft, edit, head, context) => addValueDim(head, shownNames(head, edit, context)) },
  "remove-value-dim": {
    fields: ["Wv"],
    parts: ["labels"],
    copy: "whole",
    apply: (draft, edit, head, context) => removeValueDim(head, edit.column, shownNames(head, edit, context)),
  },
  "one-hot": { fields: ["Wv"], parts: ["labels"], copy: "whole", apply: (draft, edit, head) => setOneHotValues(draft, head, edit.oneHot) },
  "add-head": { fields: ["heads", "Wq", "Wk", "Wv"], parts: ["labels"], copy: "whole", apply: (draft) => addHead(draft) },
  "remove-head": {
    fields: ["heads", "Wq", "Wk", "Wv"],
    parts: ["labels"],
    copy: "whole",
    apply: (draft, edit, head, context) => {
      if (draft.heads.length > 1) removeHead(draft, edit.head ?? context.activeHead);
    },
  },
  "mask-mode": { fields: ["mask"], parts: ["mode"], copy: "mode", apply: (draft, edit, head, context) => setMaskMode(draft, edit.mode, context.result?.mask) },
  "toggle-mask": { fields: ["mask"], parts: ["mode"], copy: "mode", apply: (draft, edit) => toggleMaskCell(draft, edit.row, edit.column) },
  scale: { fields: ["scale"], parts: ["mode"], copy: "mode", apply: (draft, edit) => { draft.scale = edit.on; } },
  shift: { fields: ["shift"], parts: ["mode"], copy: "mode", apply: (draft, edit) => { draft.shift = edit.on; } },
  // Not edited elsewhere on the page, so it travels with the scene's other extra keys.
  positions: { fields: ["positions"], parts: ["mode"], copy: "mode", apply: (draft, edit) => { draft.extra = { ...draft.extra, positions: edit.mode }; } },
});

/** Every scene field some edit changes: what a course page can lock (in this order). */
export const LOCKABLE_FIELDS = Object.freeze(["tokens", "features", "X", "Wq", "Wk", "Wv", "heads", "mask", "scale", "shift", "positions"]);

/** The value-dim names an edit of `head` starts from: those on screen (see draft.js shownValueDims). */
function shownNames(head, edit, context) {
  const index = edit.head ?? context.activeHead;
  return shownValueDims(head, context.result?.heads?.[index]);
}

/** The scene fields `edit` changes (for locks). */
export function fieldsEditedBy(edit) {
  const kind = EDIT_KINDS[edit.kind];
  if (!kind) return [];
  return typeof kind.fields === "function" ? kind.fields(edit) : kind.fields;
}

/**
 * The draft `edit` makes of `draft` (a new one: `draft` is left as it was), and the changes of the state it makes.
 * @param {object} draft
 * @param {{kind: string, head?: number}} edit
 * @param {EditContext} context
 * @returns {{draft: object, changes: Set<string>}}
 */
export function applyEdit(draft, edit, context) {
  const kind = EDIT_KINDS[edit.kind];
  if (!kind) throw new Error(`unknown edit ${edit.kind}`);
  const index = edit.head ?? context.activeHead;
  const next = COPIES[kind.copy](draft, edit, index);
  kind.apply(next, edit, next.heads[index], context);
  return { draft: next, changes: new Set(kind.parts) };
}
