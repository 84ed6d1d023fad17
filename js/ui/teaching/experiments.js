/**
 * The experiments, live: each of the tutorial's "try changing one thing" moments as one click, with
 * what changed said in words and measured on the result.
 *
 *   one thing    the Part 6 variations of "it" looking for "cat", as buttons that rewrite Wq
 *   scaling      Part 7, run in Python in the browser: average top weight against d, with and without ÷√d
 *   word order   shuffle the words; with and without positions added to X
 *   knock out    block one word and measure how much each output really moved, next to its weight
 *
 * One panel with tabs; every section reads the shared state and changes it only through `actions`. The shuffle and
 * the knock-out are run by the controller (panels/experiments.js) and measured in Python; this view draws their
 * outcome from `state.experiments`.
 */

import { formatPercent, formatScore, formatWeight } from "../shared/format.js";
import { make, makeButton, setPropertyIfChanged, withTestId } from "../shared/dom.js";
import { namedToken, wordAt } from "../shared/positions.js";
import { markEdit } from "../grids/grid-input.js";
import { readsLittle } from "../shared/verdicts.js";
import { mountClaimLink } from "../shared/claim-link.js";
import { createLinePlot } from "./line-plot.js";
import { createWordOrderTable } from "./word-order-table.js";
import { VARIATIONS } from "./variations.js";

const DEFAULT_DS = "4, 64, 512";
const DEFAULT_KEYS = 10;

/** Where the "it" example keeps its question, or null if the scene is not that example. */
function itScene(draft) {
  if (!draft) return null;
  const it = draft.tokens.indexOf("it");
  const cat = draft.tokens.indexOf("cat");
  const pronoun = draft.features.indexOf("pronoun");
  const head = draft.heads[0];
  const animal = head?.dims.indexOf("animal") ?? -1;
  const noun = head?.dims.indexOf("noun") ?? -1;
  if ([it, cat, pronoun, animal, noun].some((index) => index < 0)) return null;
  return { it, cat, pronoun, animal, noun };
}

/**
 * What builds one experiment's section into its panel; the section redraws on the store's changes (`when` is the
 * panel's timing, for the claim link the section opens with).
 * @typedef {(panel: HTMLElement, context: {store: import("../../state/session.js").StoreView, actions: object,
 *   when?: import("../../state/redraw-schedule.js").RedrawTiming}) =>
 *   {update: (state: import("../../state/session.js").PlaygroundState, changes: Set<string>) => void}} SectionBuilder
 */

/**
 * Mount the panel in `host`.
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, when?: import("../../state/redraw-schedule.js").RedrawTiming, actions: object}} context
 *   actions used: edit, setView, pickPreset, shuffleWords(), compareWordOrder(), knockOutWord(column),
 *   knockOutInExample(presetId, column),
 *   scalingExperiment({ds, nKeys}) -> Promise<result>
 */
export function mountExperiments(host, { store, actions, when }) {
  host.append(make("h2", "", "Experiments: change one thing"));
  const tabs = make("div", "experiment-tabs");
  tabs.setAttribute("role", "tablist");
  /** @type {Array<[string, string, SectionBuilder]>} the tabs in order: id, title, what builds the section */
  const tabsInOrder = [
    ["one-thing", "Try changing one thing", oneThingSection],
    ["scaling", "Why ÷√d", scalingSection],
    ["order", "Word order", orderSection],
    ["knockout", "Weights are not explanations", knockoutSection],
  ];
  const sections = tabsInOrder.map(([id, title, build]) => {
    const tab = make("button", "experiment-tab", title);
    tab.type = "button";
    tab.setAttribute("role", "tab");
    tab.dataset.testid = `experiment-tab-${id}`;
    const panel = make("div", "experiment-section");
    panel.setAttribute("role", "tabpanel");
    panel.dataset.testid = `experiment-${id}`;
    const section = build(panel, { store, actions, when });
    tab.addEventListener("click", () => actions.setView({ experiment: id }));
    tabs.append(tab);
    return { id, tab, panel, section };
  });
  host.append(tabs, ...sections.map(({ panel }) => panel));

  let selected = null;
  function select(id) {
    if (id === selected) return;
    selected = id;
    for (const { id: other, tab, panel, section } of sections) {
      const chosen = other === id;
      tab.setAttribute("aria-selected", String(chosen));
      panel.hidden = !chosen;
      // A hidden section did not follow the page: shown again, it redraws everything it shows.
      if (chosen) section.update(store.state, new Set(["result", "scene", "experiments"]));
    }
  }
  // The tab chosen is the view's `experiment` (layout/panels.js): a link or saved work opens the same one.
  const tabOf = (view) => (sections.some((section) => section.id === view.experiment) ? view.experiment : sections[0].id);
  select(tabOf(store.state.view));

  store.subscribe((state, changes) => {
    if (changes.has("view")) select(tabOf(state.view));
    for (const { panel, section } of sections) if (!panel.hidden) section.update(state, changes);
  }, when);
}

/**
 * What each section says first, by the claim it bears on (its id in model/claims.py): a note on what it shows,
 * and the claim, which a link offers to test by training.
 */
const SECTION_INTROS = Object.freeze({
  "separate-qk": {
    note: "Each button rewrites one row of Wq: what a pronoun asks for, in the dims [animal, noun]. Everything else stays as it is.",
    claimText: "“it” looks for an animal noun, but it is a pronoun: what a word looks for (its query) is not what it is (its key). ",
  },
  scale: {
    note: "One random query against random keys, 500 times per length d. Without the division the winning key takes more and more of the weight as d grows, though the vectors are pure noise; dividing by √d keeps it level.",
    claimText: "Does a saturated softmax really weaken learning? ",
  },
  positions: {
    note: "Attention compares features, not places. Shuffle the words (each keeps its row of X) and compare every word's output before and after.",
    claimText: "So positions must be added. Does a model that has none fail to learn? ",
  },
});

/** A section's opening: what it shows, then the claim it bears on, with the link to the test of that claim. */
function openSection(panel, { store, actions, when }, claim) {
  const { note, claimText } = SECTION_INTROS[claim];
  panel.append(make("p", "panel-note", note));
  const claimLine = make("p", "panel-note experiment-claim", claimText);
  mountClaimLink(claimLine, { store, actions, when, claim });
  panel.append(claimLine);
}

/* ---- Part 6: one-click variations ------------------------------------------------------------ */

function oneThingSection(panel, { store, actions, when }) {
  openSection(panel, { store, actions, when }, "separate-qk");
  const buttons = make("div", "variation-buttons");
  const said = withTestId(make("p", "variation-said"), "variation-said");
  const weightLine = withTestId(make("p", "variation-weight"), "variation-cat-weight");
  const needsIt = make("div", "needs-it");
  const loadIt = makeButton("small-button", "load the “it” example", "variation-load-it");
  loadIt.addEventListener("click", () => actions.pickPreset("it-animal-noun"));
  needsIt.append(make("span", "panel-note", "These buttons need the sentence with “it”, “cat” and a pronoun feature. "), loadIt);
  let lastVariation = null;

  const variationButtons = VARIATIONS.map((variation) => {
    const button = make("button", "small-button", variation.label);
    button.type = "button";
    button.dataset.testid = `variation-${variation.id}`;
    button.dataset.variation = variation.id;
    markEdit(button, "cell", "Wq"); // it rewrites a row of Wq: a course page that locks Wq locks it too
    button.addEventListener("click", () => {
      const where = itScene(store.state.draft);
      if (!where) return;
      lastVariation = variation;
      const [toAnimal, toNoun] = variation.row;
      actions.edit({ kind: "cell", matrix: "Wq", head: 0, row: where.pronoun, column: where.animal, text: String(toAnimal) });
      actions.edit({ kind: "cell", matrix: "Wq", head: 0, row: where.pronoun, column: where.noun, text: String(toNoun) });
      said.textContent = `Changed: Wq, row “pronoun” = [${toAnimal}, ${toNoun}]. ${variation.says}`;
    });
    buttons.append(button);
    return button;
  });
  panel.append(needsIt, buttons, said, weightLine);

  function update(state) {
    const where = itScene(state.draft);
    needsIt.hidden = Boolean(where);
    // (A course page that locks Wq keeps them disabled: embed/locks.js.)
    for (const button of variationButtons) button.disabled = !where || button.dataset.locked === "true";
    const { result } = state;
    if (!where || !result || result.tokens[where.it] !== "it") {
      weightLine.textContent = "";
      return;
    }
    const weight = result.heads[0].weights[where.it][where.cat];
    const row = state.draft.heads[0].Wq[where.pronoun];
    const current = VARIATIONS.find((variation) => variation.row[0] === Number(row[where.animal]) && variation.row[1] === Number(row[where.noun]));
    for (const button of variationButtons) button.setAttribute("aria-pressed", String(button.dataset.variation === current?.id));
    weightLine.replaceChildren(
      make("span", "", "Weight of “it” on “cat”: "),
      make("strong", "", formatPercent(weight)),
      make("span", "panel-note", current ? ` (${current.label})` : " (your own Wq)"),
    );
    if (lastVariation && current !== lastVariation) said.textContent = "";
  }
  return { update };
}

/* ---- Part 7: why divide by √d ------------------------------------------------------------------ */

function scalingSection(panel, { store, actions, when }) {
  openSection(panel, { store, actions, when }, "scale");
  const form = make("div", "scaling-form");
  const dsLabel = make("label", "field", "lengths d ");
  const ds = withTestId(make("input"), "scaling-ds");
  ds.value = DEFAULT_DS;
  ds.setAttribute("aria-label", "query/key lengths d, separated by commas");
  dsLabel.append(ds);
  const keysLabel = make("label", "field", "keys ");
  const keys = withTestId(make("input"), "scaling-keys");
  keys.type = "number";
  keys.min = "1";
  keys.max = "1000";
  keys.value = String(DEFAULT_KEYS);
  keys.setAttribute("aria-label", "number of keys");
  keysLabel.append(keys);
  const run = makeButton("small-button", "run in the browser", "scaling-run");
  form.append(dsLabel, keysLabel, run);
  const status = withTestId(make("p", "scaling-status"), "scaling-time");
  status.setAttribute("role", "status");
  const plot = createLinePlot({ testId: "scaling-plot", xLabel: "query/key length d (log scale)", yLabel: "average top weight" });
  const table = withTestId(make("table", "scaling-table"), "scaling-table");
  const plotRow = make("div", "scaling-result");
  plotRow.append(plot.element, table);
  plotRow.hidden = true;
  panel.append(form, status, plotRow);

  run.addEventListener("click", () => runExperiment());
  for (const input of [ds, keys]) input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") runExperiment();
  });

  async function runExperiment() {
    const lengths = ds.value.split(/[\s,;]+/).filter(Boolean).map(Number);
    if (!lengths.length || lengths.some((d) => !Number.isInteger(d) || d < 1)) {
      status.textContent = "Type whole numbers for d, separated by commas (such as 4, 64, 512).";
      return;
    }
    run.disabled = true;
    status.textContent = "running…";
    const started = performance.now();
    try {
      const result = await actions.scalingExperiment({ ds: lengths, nKeys: Number(keys.value) });
      const elapsed = performance.now() - started;
      status.dataset.ms = elapsed.toFixed(1);
      status.textContent = `${result.trials} trials per length, ${result.n_keys} keys: ${Math.round(elapsed)} ms in your browser, there and back to Python.`;
      draw(result);
    } catch (error) {
      status.textContent = `Could not run it: ${error.message}`;
    } finally {
      run.disabled = false;
    }
  }

  function draw(result) {
    plotRow.hidden = false;
    plot.update({
      xs: result.ds,
      series: [
        { name: "without ÷√d", className: "unscaled", ys: result.rows.map((row) => row.unscaled) },
        { name: "with ÷√d", className: "scaled", ys: result.rows.map((row) => row.scaled) },
      ],
    });
    const head = make("tr");
    for (const text of ["d", "without ÷√d", "with ÷√d"]) head.append(make("th", "", text));
    const rows = result.rows.map((row) => {
      const tr = make("tr");
      tr.dataset.d = String(row.d);
      tr.append(make("td", "", String(row.d)), make("td", "unscaled", row.unscaled.toFixed(3)), make("td", "scaled", row.scaled.toFixed(3)));
      return tr;
    });
    table.replaceChildren(head, ...rows);
  }

  return { update() {} };
}

/* ---- Part 8: word order, with and without positions ------------------------------------------ */

function orderSection(panel, { store, actions, when }) {
  openSection(panel, { store, actions, when }, "positions");
  const controls = make("div", "order-controls");
  const compare = makeButton("small-button", "“dog bites man” against “man bites dog”", "order-compare");
  const shuffle = makeButton("small-button", "shuffle the words", "shuffle-button");
  const positionsLabel = make("label", "choice");
  const positions = withTestId(make("input"), "positions-toggle");
  positions.type = "checkbox";
  markEdit(positions, "positions");
  positionsLabel.append(positions, make("span", "", "add sinusoidal positions to X"));
  controls.append(compare, shuffle, positionsLabel);
  const positionsNote = withTestId(make("p", "panel-note positions-note"), "positions-note");
  const check = withTestId(make("p", "shuffle-check"), "shuffle-check");
  check.setAttribute("role", "status");
  const table = createWordOrderTable();
  panel.append(controls, positionsNote, check, table.element);

  positions.addEventListener("change", () => {
    actions.edit({ kind: "positions", mode: positions.checked ? "sinusoidal" : "none" });
  });
  shuffle.addEventListener("click", () => actions.shuffleWords());
  compare.addEventListener("click", () => actions.compareWordOrder());

  /** Why the outputs changed, as experiments.py names it. */
  const WHY = {
    positions: "the positions added to X changed with the places, so queries, keys and values changed",
    mask: "the mask depends on the places (a causal mask lets each word read only the words before it)",
    other: "something else in the scene depends on the places",
  };

  /** The shuffle's outcome (panels/experiments.js), in words. */
  function shuffleText(outcome, withPositions) {
    if (!outcome) return "";
    if (outcome.busy) return "shuffling…";
    if (outcome.problem) return outcome.problem;
    const moved = `Now: “${outcome.tokens.join(" ")}”.`;
    if (outcome.difference === null) return `${moved} Some outputs are not numbers (nan), so they cannot be compared.`;
    const largest = "Largest |difference| between each word's output before and after:";
    if (outcome.reason === "none") {
      // Adding the same numbers in another order can change the last binary digit; that is not a real change.
      const shown = outcome.difference === 0 ? "0" : `0 (${outcome.difference.toExponential(1)}, rounding in the last digit)`;
      return `${moved} ${largest} ${shown}. Every output row just moved with its word${withPositions ? "" : ": without positions, order is invisible to attention"}.`;
    }
    return `${moved} ${largest} ${formatScore(outcome.difference)}. The outputs changed: ${WHY[outcome.reason]}.`;
  }

  function update(state, changes) {
    if (!state.draft) return;
    if (changes.has("scene") || changes.has("mode")) setPropertyIfChanged(positions, "checked", (state.draft.extra?.positions ?? "none") === "sinusoidal");
    const on = state.result?.positions === "sinusoidal";
    positionsNote.textContent = on
      ? "Positions are on: place p adds sin(p / 10000^(2i/d)) and cos(p / 10000^(2i/d)) to feature pair i, so the same word at another place has other numbers. Shuffle now."
      : "Positions are off: a word has the same numbers wherever it stands.";
    if (changes.has("experiments")) {
      const outcome = state.experiments?.shuffle;
      shuffle.disabled = Boolean(outcome?.busy);
      compare.disabled = Boolean(outcome?.busy);
      check.textContent = shuffleText(outcome, on);
      table.update(outcome);
      if (Number.isFinite(outcome?.difference)) check.dataset.difference = String(outcome.difference);
      else delete check.dataset.difference;
    }
  }
  return { update };
}

/* ---- Weights are not explanations: knock a word out ------------------------------------------- */

/**
 * The knock-out's outcome in words: which row gave the word the most weight and which output moved most. Where
 * they are different rows, it says the weight and the effect disagree; where the row that moved most gave the
 * word only a little weight, it says that too.
 */
function knockoutSummary({ tokens, column, changes, weights, mostChanged, mostWeighted }) {
  if (mostChanged === null) return "No output could be compared.";
  const named = (i) => namedToken(tokens, i);
  const word = named(column);
  const change = (i) => formatScore(Number(changes[i].toFixed(4)));
  const why = "A big weight need not mean a big effect: it depends on how different the knocked-out value is from what the word reads instead.";
  if (mostWeighted !== null && mostWeighted !== mostChanged) {
    return `With ${word} knocked out, the weight and the effect disagree: ${named(mostWeighted)} gave ${word} the most weight ` +
      `(${formatWeight(weights[mostWeighted])}), yet its output moved by only ${change(mostWeighted)}; ${named(mostChanged)} gave it ` +
      `${formatWeight(weights[mostChanged])} and moved the most (by ${change(mostChanged)}). ${why}`;
  }
  const read = mostWeighted === null ? `no row could read ${word}` : `the row that gave ${word} the most weight is the row of ${named(mostWeighted)} (${formatWeight(weights[mostWeighted])})`;
  const little = readsLittle(weights[mostChanged])
    ? ` ${named(mostChanged)} gave ${word} a weight of only ${formatWeight(weights[mostChanged])}, yet its output moved by ${change(mostChanged)}: a tiny weight on a value far from the rest moves an output a lot.`
    : "";
  return `With ${word} knocked out: ${read}; the output that moved most is that of ${named(mostChanged)} (by ${change(mostChanged)}).${little} ${why}`;
}

/** The examples where a weight and its effect part ways, each one click: [test id, label, preset, word knocked out]. */
const KNOCKOUT_EXAMPLES = [
  ["knockout-demo", "causal exercise, knock out t1: a tiny weight, a large change", "causal-exercise", 1],
  ["knockout-demo-animals", "“it” between two animals, knock out “cat”: a large weight, a tiny change", "two-animals", 1],
];

function knockoutSection(panel, { store, actions, when }) {
  panel.append(make("p", "panel-note",
    "A weight says where a word reads from, not whether that reading mattered. Block one word (nobody may read it), compute again, and measure how far each word's output moved (the length of the change, ‖Δ output‖). In the “it” example the change follows the weight; these two do not:"));
  const examples = make("div", "variation-buttons");
  for (const [testId, text, preset, column] of KNOCKOUT_EXAMPLES) {
    const button = makeButton("small-button", text, testId);
    button.addEventListener("click", () => actions.knockOutInExample(preset, column));
    examples.append(button);
  }
  panel.append(examples);
  const controls = make("div", "order-controls");
  const label = make("label", "field", "knock out ");
  const choice = withTestId(make("select"), "knockout-token");
  label.append(choice);
  const run = makeButton("small-button", "knock it out", "knockout-run");
  controls.append(label, run);
  const summary = withTestId(make("p", "knockout-summary"), "knockout-summary");
  summary.setAttribute("role", "status");
  const table = withTestId(make("table", "knockout-table"), "knockout-table");
  panel.append(controls, summary, table);
  let tokensShown = "";

  run.addEventListener("click", () => actions.knockOutWord(Number(choice.value)));

  /** The knock-out's outcome (panels/experiments.js) as a table and a summary. */
  function drawOutcome(outcome) {
    run.disabled = Boolean(outcome?.busy);
    if (!outcome || outcome.busy || outcome.problem) {
      table.replaceChildren();
      summary.textContent = outcome?.busy ? "computing without it…" : outcome?.problem ?? "";
      return;
    }
    const { tokens, column, changes, weights, masked } = outcome;
    // Every token is named in quotes, and the knocked-out one always by its name: in a sentence with "it" in
    // it, "the weight on it" would not say which word is meant. A word the sentence has twice also gets its
    // position ("fox" (word 2)): its text alone would not say which of the two.
    const named = (i) => namedToken(tokens, i);
    const header = make("tr");
    for (const text of ["word", `weight on ${named(column)} (${outcome.headName})`, "‖Δ output‖ when it is knocked out"]) header.append(make("th", "", text));
    const largest = Math.max(...changes.filter(Number.isFinite), 1e-12);
    const rows = tokens.map((_, i) => {
      const tr = make("tr");
      tr.dataset.testid = "knockout-row";
      tr.dataset.row = String(i);
      const change = changes[i];
      const known = Number.isFinite(change);
      const bar = make("span", "knockout-bar");
      bar.style.setProperty("--share", known ? (change / largest).toFixed(4) : "0"); // its length: teaching.css
      const changeCell = make("td", "knockout-change");
      changeCell.dataset.testid = "knockout-change";
      changeCell.append(bar, make("span", "", known ? formatScore(Number(change.toFixed(4))) : "nan"));
      const weightCell = make("td", "knockout-weight", masked[i] ? "masked" : formatWeight(weights[i]));
      weightCell.dataset.testid = "knockout-weight";
      tr.append(make("th", "", named(i)), weightCell, changeCell);
      return tr;
    });
    table.replaceChildren(header, ...rows);
    setPropertyIfChanged(choice, "value", String(column));
    summary.textContent = knockoutSummary(outcome);
  }

  function update(state, changes) {
    const { result } = state;
    if (!result) return;
    const key = result.tokens.join("\u0000");
    if (key !== tokensShown) {
      const previous = choice.value;
      choice.replaceChildren(...result.tokens.map((token, i) => {
        const option = make("option", "", wordAt(result.tokens, i));
        option.value = String(i);
        return option;
      }));
      const cat = result.tokens.indexOf("cat");
      choice.value = previous && Number(previous) < result.tokens.length ? previous : String(cat >= 0 ? cat : 0);
      tokensShown = key;
    }
    if (changes.has("experiments")) drawOutcome(state.experiments?.knockOut);
  }
  return { update };
}
