// A JSON editor on CodeMirror 6: highlighting, bracket matching, undo, and the parse error
// marked in place. CodeMirror builds its DOM and styles itself (inline <style>, allowed by the
// CSP's style-src); it evaluates no code, so it runs under the app's CSP.
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { json, jsonParseLinter } from "@codemirror/lang-json";
import { bracketMatching, defaultHighlightStyle, foldGutter, syntaxHighlighting } from "@codemirror/language";
import { linter, lintGutter } from "@codemirror/lint";
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, placeholder as placeholderExt } from "@codemirror/view";
import { useEffect, useRef } from "react";

const parseLint = jsonParseLinter();

interface Props {
  value: string;
  onChange: (text: string) => void;
  ariaLabel: string;
  placeholder?: string;
  /** Ctrl/Cmd+Enter. */
  onSubmit?: () => void;
}

export function JsonEditor({ value, onChange, ariaLabel, placeholder, onSubmit }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The latest callbacks, read by the editor's listeners (created once).
  const callbacks = useRef({ onChange, onSubmit });
  useEffect(() => {
    callbacks.current = { onChange, onSubmit };
  });

  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          foldGutter(),
          history(),
          bracketMatching(),
          json(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          // With a placeholder, an empty editor means "none" (it says so), not broken JSON.
          linter(
            (view) => (placeholder && view.state.doc.toString().trim() === "" ? [] : parseLint(view)),
            { delay: 300 },
          ),
          lintGutter(),
          keymap.of([
            {
              key: "Mod-Enter",
              run: () => {
                callbacks.current.onSubmit?.();
                return callbacks.current.onSubmit !== undefined;
              },
            },
            indentWithTab,
            ...defaultKeymap,
            ...historyKeymap,
          ]),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ "aria-label": ariaLabel, "data-testid": "json-editor" }),
          placeholderExt(placeholder ?? ""),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is created once; `value` changes are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Text set from outside (the form changed, a remembered value loaded).
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current !== value) editor.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  return <div ref={host} className="cm-host" />;
}
