import { useEffect, useRef } from 'react';
import { EditorState, StateEffect, StateField, RangeSetBuilder, type Extension } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  WidgetType,
  keymap,
  lineNumbers,
  highlightActiveLine,
  drawSelection,
  type DecorationSet,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { syntaxHighlighting, indentOnInput, bracketMatching } from '@codemirror/language';
import { markdown } from '@codemirror/lang-markdown';
import { yaml, yamlFrontmatter } from '@codemirror/lang-yaml';
import { lintGutter, setDiagnostics, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import { classHighlighter } from '@lezer/highlight';
import { TID } from '../../testids';

// CodeMirror 6 for one file of a skill. The engine's diagnostics arrive already worded in the UI's
// language; they show three ways: the lint gutter and underline (with a tooltip), and a short note
// at the end of their line, so a finding is visible where it is without hovering.

export interface InlineFinding {
  line: number;
  column?: number;
  severity: 'error' | 'warning' | 'info';
  code: string;
  text: string;
  /** Already worded "Fix: ..." and "Affects: ..." lines for the tooltip. */
  detail?: string;
}

export interface CodeEditorProps {
  /** Changing the key replaces the document (another file, a reload). */
  docKey: string;
  doc: string;
  path: string;
  readOnly: boolean;
  findings: readonly InlineFinding[];
  onChange(text: string): void;
  onSave(): void;
  label: string;
  /** Move the cursor to this line and show it (a new `seq` each time). */
  jump?: { line: number; seq: number } | null;
}

function languageFor(path: string): Extension {
  const lower = path.toLowerCase();
  if (lower.endsWith('.md') || lower.endsWith('.markdown')) return yamlFrontmatter({ content: markdown() });
  if (lower.endsWith('.yml') || lower.endsWith('.yaml')) return yaml();
  return [];
}

class NoteWidget extends WidgetType {
  constructor(readonly f: InlineFinding) {
    super();
  }
  override eq(other: NoteWidget): boolean {
    return other.f.text === this.f.text && other.f.severity === this.f.severity && other.f.line === this.f.line;
  }
  override toDOM(): HTMLElement {
    const el = document.createElement('span');
    el.className = `cm-inline-note cm-inline-note-${this.f.severity}`;
    el.setAttribute('data-testid', 'editor-inline-note');
    el.setAttribute('data-line', String(this.f.line));
    el.setAttribute('data-code', this.f.code);
    el.textContent = `${this.f.code}: ${this.f.text}`;
    return el;
  }
  override ignoreEvent(): boolean {
    return false;
  }
}

const setNotes = StateEffect.define<readonly InlineFinding[]>();

/** End-of-line notes (one per line, the most severe first) rebuilt when findings arrive. */
const notesField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) if (e.is(setNotes)) deco = buildNotes(tr.state, e.value);
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const RANK = { error: 0, warning: 1, info: 2 } as const;

function buildNotes(state: EditorState, findings: readonly InlineFinding[]): DecorationSet {
  const byLine = new Map<number, InlineFinding>();
  for (const f of findings) {
    if (f.line < 1 || f.line > state.doc.lines) continue;
    const cur = byLine.get(f.line);
    if (!cur || RANK[f.severity] < RANK[cur.severity]) byLine.set(f.line, f);
  }
  const b = new RangeSetBuilder<Decoration>();
  for (const line of [...byLine.keys()].sort((a, c) => a - c)) {
    const f = byLine.get(line)!;
    const at = state.doc.line(line);
    b.add(
      at.from,
      at.from,
      Decoration.line({ class: `cm-diag-line cm-diag-line-${f.severity}`, attributes: { 'data-diag-line': String(line) } }),
    );
    b.add(at.to, at.to, Decoration.widget({ widget: new NoteWidget(f), side: 1 }));
  }
  return b.finish();
}

function toCm(state: EditorState, findings: readonly InlineFinding[]): CmDiagnostic[] {
  const out: CmDiagnostic[] = [];
  for (const f of findings) {
    if (f.line < 1 || f.line > state.doc.lines) continue;
    const line = state.doc.line(f.line);
    const from = f.column ? Math.min(line.to, line.from + f.column - 1) : line.from;
    out.push({
      from,
      to: line.to > from ? line.to : from,
      severity: f.severity,
      source: f.code,
      message: f.detail ? `${f.text}\n${f.detail}` : f.text,
    });
  }
  return out;
}

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13px', backgroundColor: 'var(--color-bg-2)', color: 'var(--color-text-1)' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', lineHeight: '1.55' },
  '.cm-gutters': { backgroundColor: 'var(--color-fill-1)', color: 'var(--color-text-3)', borderRight: '1px solid var(--color-border-2)' },
  '.cm-activeLine': { backgroundColor: 'var(--color-fill-1)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--color-fill-2)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-cursor': { borderLeftColor: 'var(--color-text-1)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'rgba(var(--arcoblue-4), 0.35)' },
  '.cm-tooltip': { backgroundColor: 'var(--color-bg-popup)', color: 'var(--color-text-1)', border: '1px solid var(--color-border-2)' },
  '.cm-diagnostic': { whiteSpace: 'pre-wrap', maxWidth: '520px' },
});

export function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The latest callbacks, read by listeners made once per document.
  const cb = useRef(props);
  cb.current = props;

  useEffect(() => {
    const state = EditorState.create({
      doc: props.doc,
      extensions: [
        lineNumbers(),
        highlightActiveLine(),
        drawSelection(),
        history(),
        indentOnInput(),
        bracketMatching(),
        EditorView.lineWrapping,
        keymap.of([
          {
            key: 'Mod-s',
            preventDefault: true,
            run: () => {
              cb.current.onSave();
              return true;
            },
          },
          indentWithTab,
          ...defaultKeymap,
          ...historyKeymap,
        ]),
        languageFor(props.path),
        syntaxHighlighting(classHighlighter),
        lintGutter(),
        notesField,
        theme,
        EditorState.readOnly.of(props.readOnly),
        EditorView.editable.of(!props.readOnly),
        EditorView.contentAttributes.of({ 'aria-label': props.label }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) cb.current.onChange(u.state.doc.toString());
        }),
      ],
    });
    const v = new EditorView({ state, parent: host.current! });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // A new document (file switch, reload) makes a new state; typing never does.
  }, [props.docKey, props.readOnly]); // eslint-disable-line react-hooks/exhaustive-deps

  // The buffer changed from outside the editor (the frontmatter form): apply just the difference,
  // so the cursor, the selection and undo history survive.
  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const cur = v.state.doc.toString();
    if (cur === props.doc) return;
    let from = 0;
    while (from < cur.length && from < props.doc.length && cur[from] === props.doc[from]) from++;
    let endA = cur.length;
    let endB = props.doc.length;
    while (endA > from && endB > from && cur[endA - 1] === props.doc[endB - 1]) {
      endA--;
      endB--;
    }
    v.dispatch({ changes: { from, to: endA, insert: props.doc.slice(from, endB) } });
  }, [props.doc]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const spec = setDiagnostics(v.state, toCm(v.state, props.findings));
    const lint: readonly StateEffect<unknown>[] = spec.effects ? (Array.isArray(spec.effects) ? spec.effects : [spec.effects]) : [];
    v.dispatch({ effects: [...lint, setNotes.of(props.findings)] });
  }, [props.findings, props.docKey, props.readOnly]);

  useEffect(() => {
    const v = view.current;
    const j = props.jump;
    if (!v || !j || j.line < 1 || j.line > v.state.doc.lines) return;
    const at = v.state.doc.line(j.line).from;
    v.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: 'center' }) });
    v.focus();
  }, [props.jump?.seq]); // eslint-disable-line react-hooks/exhaustive-deps

  return <div ref={host} className="code-editor" data-testid={TID.editorCode} data-path={props.path} />;
}
