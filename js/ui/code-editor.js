/**
 * A Python code editor: CodeMirror 6 (vendored by build.py into vendor/codemirror/), loaded the first time
 * an editor is made, so the page's first paint never waits for it.
 *
 * The editor lives in a shadow root. CodeMirror writes its own styles at run time; in a document it does so
 * with a <style> element, which the page's Content-Security-Policy (style-src 'self') refuses, while in a
 * shadow root it uses a constructed style sheet, which the policy allows. So its look is set here, with
 * EditorView.theme, not in static/style.css (page styles do not reach into a shadow root).
 *
 * Keys: the usual editing keys, Ctrl+Z / Ctrl+Shift+Z, Tab indents; Ctrl+Enter (Cmd+Enter) runs the code.
 * Tab stays in the editor (it indents), so press Escape and then Tab to move on with the keyboard.
 */

const CODEMIRROR_URL = new URL("../../vendor/codemirror/codemirror.js", import.meta.url);

let loading = null;

/** Load CodeMirror once; resolves to its modules {state, view, language, commands, python}. */
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
  const { state, view, language, commands, python } = await loadCodeMirror();

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
    "&": { minHeight: "12em", maxHeight: "28em", fontSize: "0.9rem", backgroundColor: "#fff" },
    "&.cm-focused": { outline: "2px solid #e8590c", outlineOffset: "-2px" },
    ".cm-scroller": { fontFamily: 'ui-monospace, "SFMono-Regular", "Cascadia Mono", "Roboto Mono", Menlo, Consolas, monospace' },
    ".cm-learner-error-line": { backgroundColor: "#fdeceb" },
  });

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
        language.syntaxHighlighting(language.defaultHighlightStyle, { fallback: true }),
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
