/**
 * A Python code editor: CodeMirror 6 (vendored by build.py into vendor/codemirror/), loaded the first time
 * an editor is made, so the page's first paint never waits for it.
 *
 * The editor lives in a shadow root. CodeMirror writes its own styles at run time; in a document it does so
 * with a <style> element, which the page's Content-Security-Policy (style-src 'self') refuses, while in a
 * shadow root it uses a constructed style sheet, which the policy allows. So its look is set here, with
 * EditorView.theme, not in static/style.css (page styles do not reach into a shadow root). Its colours are the
 * page's own CSS variables (custom properties do inherit into a shadow root), so the editor follows the light or
 * dark theme with the rest of the page, syntax colours included.
 *
 * Keys: the usual editing keys, Ctrl+Z / Ctrl+Shift+Z, Tab indents; Ctrl+Enter (Cmd+Enter) runs the code.
 * Tab stays in the editor (it indents), so press Escape and then Tab to move on with the keyboard.
 */

// Resolved against the page (at the site's root), not this module, which dist/ bundles elsewhere.
const CODEMIRROR_URL = new URL("vendor/codemirror/codemirror.js", document.baseURI);

let loading = null;

/** Load CodeMirror once; resolves to its modules {state, view, language, commands, python, highlight}. */
export function loadCodeMirror() {
  loading ??= import(CODEMIRROR_URL.href);
  return loading;
}

/**
 * Make an editor in `host`.
 * @param {HTMLElement} host
 * @param {object} options
 * @param {string} options.text the code to start with
 * @param {string} options.label its accessible name
 * @param {(text: string) => void} options.onChange called after every change, with the whole text
 * @param {() => void} options.onRun Ctrl+Enter
 * @returns {Promise<{getText: () => string, setText: (text: string) => void, markLine: (line: number|null) => void,
 *   focus: () => void}>}
 */
export async function createCodeEditor(host, { text, label, onChange, onRun }) {
  const { state, view, language, commands, python, highlight } = await loadCodeMirror();

  // The line an error points at, drawn with a tint until the code changes or runs again.
  const setErrorLine = state.StateEffect.define();
  const errorLine = state.StateField.define({
    create: () => view.Decoration.none,
    update(decorations, transaction) {
      let next = transaction.docChanged ? view.Decoration.none : decorations;
      for (const effect of transaction.effects) {
        if (!effect.is(setErrorLine)) continue;
        const line = effect.value;
        if (line === null || line < 1 || line > transaction.state.doc.lines) {
          next = view.Decoration.none;
        } else {
          const start = transaction.state.doc.line(line).from;
          next = view.Decoration.set([view.Decoration.line({ class: "cm-learner-error-line" }).range(start)]);
        }
      }
      return next;
    },
    provide: (field) => view.EditorView.decorations.from(field),
  });

  const theme = view.EditorView.theme({
    "&": { minHeight: "12em", maxHeight: "28em", fontSize: "0.9rem", backgroundColor: "var(--field)", color: "var(--ink)" },
    "&.cm-focused": { outline: "2px solid var(--focus)", outlineOffset: "-2px" },
    ".cm-scroller": { fontFamily: 'ui-monospace, "SFMono-Regular", "Cascadia Mono", "Roboto Mono", Menlo, Consolas, monospace' },
    ".cm-content": { caretColor: "var(--ink)" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--ink)" },
    ".cm-gutters": { backgroundColor: "var(--code)", color: "var(--ink-faint)", borderRight: "1px solid var(--line)" },
    ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--tint) 55%, transparent)" },
    ".cm-activeLineGutter": { backgroundColor: "var(--tint)", color: "var(--ink)" },
    "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection": {
      backgroundColor: "var(--code-selection)",
    },
    ".cm-matchingBracket": { backgroundColor: "var(--pressed)", outline: "1px solid var(--tint-line)" },
    ".cm-learner-error-line": { backgroundColor: "var(--bad-soft)" },
  });
  // Syntax colours from the page's palette, so each one keeps its contrast in both themes.
  const { tags } = highlight;
  const syntaxColours = language.HighlightStyle.define([
    { tag: tags.keyword, color: "var(--code-keyword)" },
    { tag: [tags.definition(tags.variableName), tags.function(tags.variableName), tags.className], color: "var(--code-name)" },
    { tag: [tags.string, tags.special(tags.string)], color: "var(--code-string)" },
    { tag: [tags.number, tags.bool, tags.null], color: "var(--code-number)" },
    { tag: tags.comment, color: "var(--code-comment)", fontStyle: "italic" },
    { tag: tags.invalid, color: "var(--bad)" },
  ]);

  const editor = new view.EditorView({
    parent: host.shadowRoot ?? host.attachShadow({ mode: "open" }),
    state: state.EditorState.create({
      doc: text,
      extensions: [
        view.lineNumbers(),
        view.highlightActiveLineGutter(),
        view.highlightActiveLine(),
        view.drawSelection(),
        commands.history(),
        language.indentOnInput(),
        language.bracketMatching(),
        language.syntaxHighlighting(syntaxColours),
        python.python(),
        state.EditorState.tabSize.of(4),
        language.indentUnit.of("    "), // Python's usual four spaces
        errorLine,
        theme,
        view.keymap.of([
          { key: "Mod-Enter", run: () => (onRun(), true) },
          ...commands.defaultKeymap,
          ...commands.historyKeymap,
          commands.indentWithTab,
        ]),
        view.EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
        view.EditorView.contentAttributes.of({ "aria-label": label, "data-testid": "code-input" }),
      ],
    }),
  });

  return {
    getText: () => editor.state.doc.toString(),
    setText(next) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: next } });
    },
    markLine(line) {
      editor.dispatch({ effects: setErrorLine.of(line) });
    },
    focus: () => editor.focus(),
  };
}
