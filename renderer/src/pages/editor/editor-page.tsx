import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Empty, Spin, Tag } from '@arco-design/web-react';
import { useShallow } from 'zustand/react/shallow';
import type { Diagnostic } from '../../../../src/contract/index';
import { engineText } from '../../i18n/engine-text';
import { useNav } from '../../stores/nav-store';
import { errorText } from '../../stores/errors';
import { TID } from '../../testids';
import { CodeEditor, type InlineFinding } from './code-editor';
import { ConflictDialog } from './conflict-dialog';
import { FileList } from './file-list';
import { useEditor } from '../../stores/editor-store';
import { EditorAlerts } from './editor-alerts';
import { countsOf, useEditorDiagnostics } from './editor-diagnostics';
import { EditorSide } from './editor-side';
import { LeaveDialog, useLeaveGuard } from './leave-guard';
import './editor.css';
import { PageHeader } from '../../components/page-header';

// The skill editor: the files, the code of the open one, and beside it its problems, form, agent
// listing and preview. Its parts: editor-alerts, editor-side, editor-diagnostics, leave-guard; its
// state: stores/editor-store.

export function EditorPage({ skill }: { skill: string }) {
  const { t } = useTranslation();
  const files = useEditor((s) => s.files);
  const loadError = useEditor((s) => s.loadError);
  const go = useNav((n) => n.go);
  const [undoMsg, setUndoMsg] = useState<string | null>(null);

  useEffect(() => {
    void useEditor.getState().load(skill);
    return () => useEditor.getState().reset();
  }, [skill]);

  // A new array each call: compared by its items, or every store change would render again.
  const dirty = useEditor(useShallow((s) => s.dirtyPaths()));
  const guard = useLeaveGuard(dirty.length > 0);
  const save = useCallback(() => void useEditor.getState().save(), []);
  const onChange = useCallback((text: string) => useEditor.getState().edit(text), []);
  const { diagnostics, findings, relative } = useEditorDiagnostics();

  const undo = async () => {
    setUndoMsg(null);
    const path = useEditor.getState().current;
    try {
      await useEditor.getState().undoLastSave();
      setUndoMsg(t('editor.undoneSave', { path }));
    } catch (err) {
      setUndoMsg(errorText(err));
    }
  };

  if (loadError) {
    return (
      <div className="page" data-testid={TID.editorPage}>
        <Alert type="error" content={loadError} />
        <Button className="page-alert" onClick={() => go('library')} data-testid={TID.editorBack}>
          {t('editor.back')}
        </Button>
      </div>
    );
  }

  const readOnly = files ? !files.editable : true;
  return (
    <div className="page page-fill editor-page" data-testid={TID.editorPage} data-skill={skill}>
      <EditorHeader skill={skill} readOnly={readOnly} dirty={dirty} diagnostics={diagnostics} onUndo={undo} onSave={save} />
      <EditorAlerts undoMsg={undoMsg} onCloseUndo={() => setUndoMsg(null)} />
      <div className="editor-grid">
        <aside className="editor-files" data-testid={TID.editorFiles}>
          <FileList dirty={dirty} readOnly={readOnly} />
        </aside>
        <main className="editor-main">
          <EditorCode findings={findings} onChange={onChange} onSave={save} />
        </main>
        <EditorSide count={diagnostics.length} relative={relative} onChange={onChange} />
      </div>
      <ConflictDialog />
      <LeaveDialog guard={guard} dirty={dirty} />
    </div>
  );
}

interface HeaderProps {
  skill: string;
  readOnly: boolean;
  dirty: string[];
  diagnostics: Diagnostic[];
  onUndo: () => void;
  onSave: () => void;
}

/** The skill's name, back, undo and save, and what state the buffers are in. */
function EditorHeader({ skill, readOnly, dirty, diagnostics, onUndo, onSave }: HeaderProps) {
  const { t } = useTranslation();
  const go = useNav((n) => n.go);
  const files = useEditor((s) => s.files);
  const file = useEditor((s) => s.open[s.current]);
  const saving = useEditor((s) => s.saving);
  const lint = useEditor((s) => s.lint);
  const lintSeq = useEditor((s) => s.lintSeq);
  const current = useEditor((s) => s.current);
  // Undo reverts only this file's last save made here, never the library's newest operation.
  const canUndo = useEditor((s) => (s.saves[s.current]?.length ?? 0) > 0);
  return (
    <PageHeader
      title={files?.name ?? skill}
      heading={5}
      before={
        <>
          <Button size="small" onClick={() => go('library')} data-testid={TID.editorBack}>
            {t('editor.back')}
          </Button>
        </>
      }
      actions={
        <>
          {!readOnly && (
            <>
              <Button size="small" onClick={onUndo} disabled={!canUndo} data-testid={TID.editorUndo}>
                {canUndo ? t('editor.undoSave', { path: current }) : t('editor.noSaveToUndo')}
              </Button>
              <Button
                size="small"
                type="primary"
                loading={saving}
                disabled={!file || file.readOnly || file.buffer === file.disk}
                onClick={onSave}
                data-testid={TID.editorSave}
              >
                {t('editor.save')}
              </Button>
            </>
          )}
        </>
      }
    >
      {readOnly && files && (
        <Tag color="gray" data-testid={TID.editorReadOnly}>
          {t('editor.readOnly')}
        </Tag>
      )}
      {dirty.length > 0 && (
        <Tag color="orange" data-testid={TID.editorDirty}>
          {t('editor.unsaved', { count: dirty.length })}
        </Tag>
      )}
      <span className="muted small" data-testid={TID.editorLintStatus} data-seq={lintSeq}>
        {lint ? t('editor.lintCounts', countsOf(diagnostics)) : ''}
      </span>
    </PageHeader>
  );
}

/** The open file's code, or why there is none to show. */
function EditorCode({ findings, onChange, onSave }: { findings: InlineFinding[]; onChange: (text: string) => void; onSave: () => void }) {
  const { t } = useTranslation();
  const current = useEditor((s) => s.current);
  const file = useEditor((s) => s.open[s.current]);
  const files = useEditor((s) => s.files);
  const jump = useEditor((s) => s.jump);
  if (!file) return files ? <Empty /> : <Spin />;
  if (file.disk === null) return <Empty description={engineText(t, file.readOnlyReason, '')} />;
  return (
    <CodeEditor
      docKey={`${current}#${file.rev}`}
      doc={file.buffer}
      path={current}
      readOnly={file.readOnly}
      findings={findings}
      onChange={onChange}
      onSave={onSave}
      jump={jump}
      label={t('editor.codeLabel', { file: current })}
    />
  );
}
