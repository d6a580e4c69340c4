import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EditorView } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { MergeView } from '@codemirror/merge';
import './side-by-side.css';

/** Two texts side by side, read only, the differences marked and unchanged stretches folded. */
export function SideBySide({
  left,
  right,
  labels,
  testId,
}: {
  left: string;
  right: string;
  labels: [ReactNode, ReactNode];
  testId?: string;
}) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The merge view's own words ("$ unchanged lines") in the UI's language.
    const phrases = EditorState.phrases.of({ '$ unchanged lines': t('editor.cmUnchangedLines') });
    const ro = [EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.lineWrapping, phrases];
    const view = new MergeView({
      a: { doc: left, extensions: ro },
      b: { doc: right, extensions: ro },
      parent: host.current!,
      collapseUnchanged: { margin: 2 },
    });
    return () => view.destroy();
  }, [left, right, t]);
  return (
    <div>
      <div className="side-by-side-legend">
        <span>{labels[0]}</span>
        <span>{labels[1]}</span>
      </div>
      <div ref={host} className="side-by-side" data-testid={testId} />
    </div>
  );
}
