/**
 * "A model that learned its own attention": a tiny transformer trained on repeated runs and sentences, in
 * front of the learner. Type a sentence; see every head's weights with the role the analysis measured;
 * choose one to see it large; knock heads out and watch the predictions; weigh where a head reads against
 * what removing it changes; open a head in the playground and edit it; train a model of your own.
 *
 * The panel costs nothing until it is opened: the model's description and runs are asked of Python then.
 * Everything shown is the module's numbers (model/requests.py), drawn as they come.
 */

import { formatWeight, quoted } from "../shared/format.js";
import { make, withTestId } from "../shared/dom.js";
import { START_TOKEN } from "../shared/positions.js";
import { createChosenHead } from "./chosen-head.js";
import { createDesignedVsLearned, focusSentence } from "./designed-vs-learned.js";
import { alsoText, createHeadCards } from "./head-cards.js";
import { createModelChoice, everyHeadWithoutStart } from "./model-choice.js";
import { createModelLegend } from "./model-legend.js";
import { createPredictions } from "./predictions.js";
import { createRepeatNote } from "./repeat-reading.js";
import { createTrainingView } from "./training-view.js";
import { createWeightEffect, guidedFocus } from "./weight-effect.js";

/** The metrics line: repeated-part accuracy and the losses, and how far each moved from the intact model. */
function metricsText(metrics, baseline) {
  const change = (key) => {
    const delta = metrics[key] - baseline[key];
    return Math.abs(delta) < 5e-4 ? "" : ` (${delta > 0 ? "+" : "−"}${formatWeight(Math.abs(delta), 3)})`;
  };
  return `On the evaluation set: copying accuracy ${formatWeight(metrics.repeat_accuracy, 3)}${change("repeat_accuracy")} · ` +
    `copying loss ${formatWeight(metrics.repeat_loss, 3)}${change("repeat_loss")} · ` +
    `sentence loss ${formatWeight(metrics.sentence_loss, 3)}${change("sentence_loss")}`;
}

/** A word as the model reads it (model/errors.py: WORD_PATTERN): the start token, a word, or one mark. */
const WORD_PATTERN = new RegExp(`${START_TOKEN.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}|[\\p{L}\\p{N}]+(?:'[\\p{L}\\p{N}]+)*|[^\\p{L}\\p{N}\\s_]`, "gu");

/**
 * The words of a sentence as the model reads them: capitals lowered, punctuation split off ("The Cat sat." is
 * "the cat sat ."). The same reading as `split_words` in py/attention_playground/model/errors.py, which decides;
 * this copy only draws the word strip before Python answers (a browser test types such a sentence).
 * @param {string} text
 * @returns {string[]}
 */
function readWords(text) {
  return text.toLowerCase().match(WORD_PATTERN) ?? [];
}

/** The words the model knows, as buttons that add the word to the sentence. */
function createKnownWords({ onAdd }) {
  const element = make("details", "model-known-words");
  element.dataset.testid = "model-known-words";
  const summary = make("summary", "", "Words the model knows");
  const list = make("div", "model-examples");
  element.append(summary, list);
  let shown = "";

  function update(vocabulary) {
    const words = vocabulary.slice(1);
    if (words.join() === shown) return;
    shown = words.join();
    summary.textContent = `Words the model knows (${words.length}): click one to add it`;
    list.replaceChildren(...words.map((word) => {
      const button = make("button", "small-button model-known-word", word);
      button.type = "button";
      button.dataset.testid = "model-known-word";
      button.dataset.word = word;
      button.addEventListener("click", () => onAdd(word));
      return button;
    }));
  }

  return { element, update };
}

/** The sentence's words, each marked if the model does not know it (the message, from Python, says what it may have meant). */
function wordChips(text, vocabulary) {
  const known = new Set(vocabulary.slice(1));
  return readWords(text).map((word, i) => {
    const chip = make("span", known.has(word) ? "model-word" : "model-word unknown", word);
    chip.dataset.testid = known.has(word) ? "model-word" : "model-unknown-word";
    chip.title = known.has(word) ? `word ${i + 1}` : `word ${i + 1}: the model does not know ${quoted(word)}`;
    return chip;
  });
}

/** The English model's tokens as it read the text (model_run's, <bos> first): any text is read, in pieces. */
function tokenChips(tokens) {
  return tokens.slice(1).map((token, i) => {
    const piece = token.startsWith("·");
    const chip = withTestId(make("span", piece ? "model-word model-piece" : "model-word", token), "model-token");
    chip.title = `token ${i + 1}${piece ? ": a piece inside a word" : ""}`;
    return chip;
  });
}

/** The sentence box: the words, the examples, and each word marked if the model does not know it. */
function createSentenceBox({ onWords, onExample }) {
  const element = make("div", "model-sentence");
  const label = make("label", "model-sentence-label");
  label.append(make("span", "", "Sentence"));
  const input = document.createElement("input");
  input.type = "text";
  input.className = "sentence-input model-words";
  input.dataset.testid = "model-words";
  input.spellcheck = false;
  input.autocomplete = "off";
  input.addEventListener("input", () => onWords(input.value));
  label.append(input);
  const examples = make("div", "model-examples");
  const words = make("p", "model-word-strip");
  words.dataset.testid = "model-word-strip";
  const error = make("p", "grid-error model-error");
  error.dataset.testid = "model-error";
  error.setAttribute("role", "alert");
  const lastShown = make("p", "panel-note model-last-shown");
  lastShown.dataset.testid = "model-last-shown";
  const known = createKnownWords({
    onAdd: (word) => {
      input.value = `${input.value.trimEnd()}${input.value.trim() ? " " : ""}${word}`;
      onWords(input.value);
    },
  });
  element.append(label, examples, known.element, words, error, lastShown);
  let shownExamples = "";

  /**
   * `tokens`: the English model's tokens of the text as it read them (model_run's), drawn in place of the word strip's
   * words: any text is read, in pieces ("·" marks a piece inside a word).
   */
  function update({ text, info, error: problem, shownTokens, tokens = null }) {
    if (input.value !== text && document.activeElement !== input) input.value = text;
    const key = info.examples.map((example) => example.id).join();
    if (key !== shownExamples) {
      examples.replaceChildren(make("span", "hint", "Examples:"), ...info.examples.map((example) => {
        const button = make("button", "small-button", example.label);
        button.type = "button";
        button.dataset.testid = `model-example-${example.id}`;
        button.addEventListener("click", () => onExample(example.id));
        return button;
      }));
      shownExamples = key;
    }
    known.element.hidden = Boolean(tokens);
    words.replaceChildren(...(tokens ? tokenChips(tokens) : wordChips(text, info.vocabulary)));
    if (!tokens) known.update(info.vocabulary);
    error.textContent = problem?.message ?? "";
    error.hidden = !problem;
    // While the text cannot be read, the maps below are still the last one that could.
    lastShown.hidden = !problem || !shownTokens;
    lastShown.textContent = problem && shownTokens
      ? `The maps below still show the last ${tokens ? "text" : "sentence"} the model could read: ${quoted(shownTokens.slice(1).join(" "))}.`
      : "";
    input.setAttribute("aria-invalid", String(Boolean(problem)));
  }

  return { element, update };
}

/** What the panel says of the English model, beside its summary: what it read, how it reads, what it cannot do. */
const ENGLISH_NOTE = "This model read about a million words of American prose printed in 1961 (the Brown corpus), cut " +
  "into 4,096 pieces of words: it reads any text, a piece at a time, and “·” marks a piece inside a word. Its heads " +
  "formed by training, as the story world's did: one reads the token just before, one finds where the current token " +
  `came before and reads what followed it, and most park what they do not need on ${START_TOKEN}. At this size no ` +
  "head links a pronoun to its noun.";

/** The line under the sentence: which model, its shape, and what it knows (or, for the English one, how well it reads). */
function summaryText(name, info) {
  if (name === "english") {
    return `The English model: ${info.config.n_layers} layers × ${info.config.n_heads} heads, ${info.vocabulary_size.toLocaleString("en")} tokens, ` +
      `trained for ${info.steps.toLocaleString("en")} steps. On text it never saw, its loss is ${formatWeight(info.held_out_loss, 2)} ` +
      `nats a token, against ${formatWeight(info.bigram_loss, 2)} for a model that reads only the token before.`;
  }
  return `${name === "trained" ? "Your model" : "The model that comes with the page"}: ${info.config.n_layers} layers × ` +
    `${info.config.n_heads} heads, trained for ${info.steps} steps; it knows ${info.vocabulary.length - 1} words.`;
}

/** The panel opened or not, its model chosen, and loading (or why it could not load) until the model's description is in. */
function showOpening({ open, loading, body, choice }, model) {
  const english = model.name === "english";
  open.hidden = model.open;
  open.setAttribute("aria-expanded", String(model.open));
  body.hidden = !model.open || !model.info;
  choice.element.hidden = !model.open;
  choice.update(model);
  const failed = model.open && !model.info && model.error;
  loading.hidden = !failed && (!model.open || Boolean(model.info) || Boolean(model.error));
  loading.textContent = failed ? `The ${english ? "English" : "trained"} model could not be loaded: ${model.error.message}`
    : english ? "Loading the English model…" : "Loading the trained model…";
}

/** Each head's label by [layer][head], as model_info names them. */
function labels(info) {
  return Array.from({ length: info.config.n_layers }, (_, layer) =>
    Array.from({ length: info.config.n_heads }, (__, head) => info.heads.find((h) => h.layer === layer && h.head === head)?.label ?? `L${layer}H${head}`));
}

/**
 * Mount the panel in `host`.
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, when?: import("../../state/redraw-schedule.js").RedrawTiming, actions: object}} context
 */
export function mountModelPanel(host, { store, actions, when }) {
  const title = make("h2", "", "A model that learned its own attention");
  title.id = "model-panel-title";
  const intro = make("p", "panel-note", "Everything above is numbers set by hand. This is a real transformer, two layers of attention heads, trained on repeated runs of random words and the sentences of a small story world. Nobody set its weights: it learned where to look. Its heads are run by the same attention code as the playground's.");
  const open = make("button", "small-button model-open", "Open the trained model");
  open.type = "button";
  open.dataset.testid = "model-open";
  open.setAttribute("aria-expanded", "false");
  open.addEventListener("click", () => actions.openModel());
  const body = make("div", "model-body");
  body.id = "model-panel-body";
  open.setAttribute("aria-controls", body.id);
  body.hidden = true;
  const loading = make("p", "panel-note", "Loading the trained model…");
  loading.dataset.testid = "model-loading";
  host.append(title, intro, open, loading, body);
  loading.hidden = true;
  const choice = createModelChoice({ onModel: actions.chooseModel, onHideStart: actions.setHideStart });
  loading.before(choice.element);
  const englishNote = withTestId(make("p", "panel-note model-english-note", ENGLISH_NOTE), "model-english-note");

  let guiding = false; // the guided example was asked for: choose its position once its run arrives
  const sentence = createSentenceBox({ onWords: actions.setModelWords, onExample: actions.showModelExample });
  const summary = make("p", "model-summary");
  summary.dataset.testid = "model-summary";
  const metrics = make("p", "model-metrics");
  metrics.dataset.testid = "model-metrics";
  const cards = createHeadCards({ onChoose: actions.chooseModelHead, onToggle: actions.toggleKnockOut });
  const legend = createModelLegend();
  const repeatNote = createRepeatNote();
  const chosen = createChosenHead({
    onFocus: actions.focusModelPosition,
    onOpen: () => actions.openHeadInPlayground().catch((error) => actions.notify(`The head could not be opened: ${error.message}`, { tone: "error" })),
    onTrainedWeights: () => actions.useTrainedWeights(),
  });
  const predictions = createPredictions();
  const focusNote = make("p", "panel-note model-focus-sentence");
  focusNote.dataset.testid = "model-focus-sentence";
  focusNote.setAttribute("aria-live", "polite");
  const designed = createDesignedVsLearned({
    onShow: (layer, head) => {
      const words = store.state.model.info.designed.words;
      actions.showModelExample("tutorial-it");
      actions.chooseModelHead(layer, head);
      actions.focusModelPosition(words.split(" ").indexOf("it") + 1);
    },
  });
  const weightEffect = createWeightEffect({
    onGuided: () => {
      guiding = true;
      for (const [layer, head] of store.state.model.knockedOut) actions.toggleKnockOut(layer, head);
      actions.showModelExample("repeated-run");
    },
  });
  const training = createTrainingView({
    onTrain: (config) => actions.trainModel(config).catch(() => {}),
    onStop: actions.stopTraining,
    onShipped: () => actions.useShippedModel(),
  });
  const side = make("div", "model-side");
  const stale = make("p", "panel-note model-stale", "While a model trains, the predictions and effects here are still those of the model before it; they change when training ends.");
  stale.dataset.testid = "model-stale-note";
  side.append(stale, focusNote, repeatNote.element, predictions.element, weightEffect.element);
  const main = make("div", "model-main");
  main.append(chosen.element, side);
  body.append(sentence.element, summary, englishNote, metrics, cards.element, legend.element, main, designed.element, training.element);

  function render(state) {
    const { model, training: run } = state;
    showOpening({ open, loading, body, choice }, model);
    const english = model.name === "english";
    if (!model.info) return;
    const { info, result } = model;
    sentence.update({ text: model.words, info, error: model.error, shownTokens: result?.tokens, tokens: english ? result?.tokens ?? [] : null });
    const trainingNow = !english && (run.status === "starting" || run.status === "training");
    summary.textContent = summaryText(model.name, info);
    englishNote.hidden = !english;
    training.element.hidden = english;
    if (!english) training.update({ training: run, trainable: info.trainable, quickRun: info.quick_run, name: model.name,
      model: { losses: info.loss_curve ?? [], drop: info.loss_drop ?? null, steps: info.steps } });
    designed.update(info);
    legend.update(info);
    if (!result) return;
    const tokens = result.tokens;
    const focus = Math.min(model.focus ?? tokens.length - 1, tokens.length - 1);
    if (guiding && result.tokens.join(" ") === `${START_TOKEN} ${info.examples.find((e) => e.id === "repeated-run")?.words}` && !model.busy) {
      guiding = false;
      const best = guidedFocus({ ...result, labels: labels(info), knockedOut: result.knocked_out });
      if (best !== null && best !== focus) actions.focusModelPosition(best);
    }
    metrics.textContent = result.metrics ? metricsText(result.metrics, info.metrics) : "";
    stale.hidden = !trainingNow;
    // A run in progress reports its heads on the sentence it started with: drawn while that is still the one shown.
    const fits = run.weights && run.weights[0]?.[0]?.length === tokens.length;
    const computed = trainingNow && fits ? run.weights : result.weights;
    const weights = model.hideStart ? everyHeadWithoutStart(computed) : computed;
    cards.update({ info, weights, tokens, knockedOut: model.knockedOut, chosen: model.head, training: trainingNow && fits });
    const { layer, head } = model.head;
    const described = info.heads.find((h) => h.layer === layer && h.head === head);
    chosen.update({ label: described?.label ?? `L${layer}H${head}`, role: trainingNow ? "" : described?.role,
      also: trainingNow ? "" : alsoText(described, info.role_thresholds), weights: weights[layer][head],
      tokens, focus, opened: model.opened, edited: model.edited, training: trainingNow, canOpen: !english });
    predictions.update({ tokens, predictions: result.predictions, nextWord: result.next_word, focus });
    focusNote.textContent = focusSentence({ tokens, row: weights[layer][head][focus], label: described?.label ?? `L${layer}H${head}`,
      focus, prediction: result.predictions[focus]?.[0] });
    repeatNote.update({ info, result, labels: labels(info), focus });
    weightEffect.update({ tokens, weights: result.weights, effects: result.effects, labels: labels(info), knockedOut: result.knocked_out, focus,
      guided: !english });
  }

  store.subscribe((state, changes) => {
    if (changes.has("model") || changes.has("training")) render(state);
  }, when);
  render(store.state);
}
