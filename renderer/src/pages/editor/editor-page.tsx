import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Empty, Modal, Spin, Tabs, Tag } from '@arco-design/web-react';
import type { Diagnostic } from '../../../../src/contract/index';
import { engineText, findingText, fixText } from '../../i18n/engine-text';
import { useNav } from '../../stores/nav-store';
import { errorText } from '../../stores/errors';
import { TID, rowId } from '../../testids';
import { Markdown } from '../../components/markdown';
import { DiagnosticList } from '../skills/skill-drawer';
import { relativeToSkill } from '../skills/skill-relative';
import { CodeEditor, type InlineFinding } from './code-editor';
import { ConflictDialog } from './conflict-dialog';
import { AgentListingPanel } from './agent-listing';
import { FrontmatterForm } from './frontmatter-form';
import { FileList } from './file-list';
import { useEditor } from '../../stores/editor-store';
import './editor.css';
import { PageHeader } from '../../components/page-header';

const NO_DIAGNOSTICS: Diagnostic[] = [];

/** The body of a Markdown file without its frontmatter block, for the preview. */
function previewText(text: string): string {
  const m = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

export function EditorPage({ skill }: { skill: string }) {
  const { t } = useTranslation();
  const s = useEditor();
  const edit = useNav((n) => n.edit);
  const go = useNav((n) => n.go);
  const setLeaveGuard = useNav((n) => n.setLeaveGuard);
  const [leave, setLeave] = useState<(() => void) | null>(null);
  const [panel, setPanel] = useState('problems');
  const [copying, setCopying] = useState(false);
  const [undoMsg, setUndoMsg] = useState<string | null>(null);

  useEffect(() => {
    void useEditor.getState().load(skill);
    return () => useEditor.getState().reset();
  }, [skill]);

  const file = s.open[s.current];
  const dirty = s.dirtyPaths();
  const isDirty = dirty.length > 0;

  // Leaving with unsaved changes asks first (in-app navigation and closing the window).
  useEffect(() => {
    if (!isDirty) {
      setLeaveGuard(null);
      return;
    }
    setLeaveGuard((proceed) => setLeave(() => proceed));
    const onUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => {
      window.removeEventListener('beforeunload', onUnload);
      setLeaveGuard(null);
    };
  }, [isDirty, setLeaveGuard]);

  const save = useCallback(() => void useEditor.getState().save(), []);
  const onChange = useCallback((text: string) => useEditor.getState().edit(text), []);

  const absCurrent = s.files ? `${s.files.dir}/${s.current}` : '';
  const lintDiags = s.lint?.diagnostics ?? NO_DIAGNOSTICS;
  const scanFindings = s.scan?.path === s.current ? s.scan.findings : NO_DIAGNOSTICS;
  // Lint of the SKILL.md buffer and the security scan of the open file's buffer, one list.
  const diagnostics: Diagnostic[] = useMemo(
    () =>
      scanFindings.length
        ? [...lintDiags, ...scanFindings.filter((f) => !lintDiags.some((d) => d.code === f.code && d.line === f.line && d.file === f.file))]
        : lintDiags,
    [lintDiags, scanFindings],
  );
  const findings: InlineFinding[] = useMemo(
    () =>
      diagnostics
        .filter((d) => d.file === absCurrent && d.line !== undefined)
        .map((d) => {
          const fix = fixText(t, d);
          const detail = [
            fix ? `${t('skills.drawer.fix')} ${fix}` : '',
            d.agents?.length ? t('skills.drawer.affects', { agents: d.agents.join(', ') }) : '',
          ]
            .filter(Boolean)
            .join('\n');
          return {
            line: d.line!,
            column: d.column,
            severity: d.severity,
            code: d.code,
            text: findingText(t, d),
            ...(detail ? { detail } : {}),
          };
        }),
    [diagnostics, absCurrent, t],
  );

  // The list names files inside the skill, not their absolute paths.
  const relative = useMemo(() => relativeToSkill(diagnostics, [s.files?.dir]), [diagnostics, s.files]);

  const undo = async () => {
    setUndoMsg(null);
    try {
      await useEditor.getState().undoLast();
      setUndoMsg(t('editor.undone'));
    } catch (err) {
      setUndoMsg(errorText(err));
    }
  };

  const copyToLibrary = async () => {
    if (!s.files) return;
    setCopying(true);
    try {
      const r = await useEditor.getState().copyToLibrary();
      if (r?.libraryName) edit(r.libraryName);
      else useEditor.setState({ saveError: r ? engineText(t, r.msg, r.message ?? r.status) : null });
    } catch (err) {
      useEditor.setState({ saveError: errorText(err) });
    } finally {
      setCopying(false);
    }
  };

  if (s.loadError) {
    return (
      <div className="page" data-testid={TID.editorPage}>
        <Alert type="error" content={s.loadError} />
        <Button className="page-alert" onClick={() => go('library')} data-testid={TID.editorBack}>
          {t('editor.back')}
        </Button>
      </div>
    );
  }

  const readOnly = s.files ? !s.files.editable : true;
  const isMarkdown = s.current.toLowerCase().endsWith('.md');
  return (
    <div className="page page-fill editor-page" data-testid={TID.editorPage} data-skill={skill}>
      <PageHeader
        title={s.files?.name ?? skill}
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
                <Button size="small" onClick={undo} data-testid={TID.editorUndo}>
                  {t('editor.undoLast')}
                </Button>
                <Button
                  size="small"
                  type="primary"
                  loading={s.saving}
                  disabled={!file || file.readOnly || file.buffer === file.disk}
                  onClick={save}
                  data-testid={TID.editorSave}
                >
                  {t('editor.save')}
                </Button>
              </>
            )}
          </>
        }
      >
        {readOnly && s.files && (
          <Tag color="gray" data-testid={TID.editorReadOnly}>
            {t('editor.readOnly')}
          </Tag>
        )}
        {isDirty && (
          <Tag color="orange" data-testid={TID.editorDirty}>
            {t('editor.unsaved', { count: dirty.length })}
          </Tag>
        )}
        <span className="muted small" data-testid={TID.editorLintStatus} data-seq={s.lintSeq}>
          {s.lint ? t('editor.lintCounts', countsOf(diagnostics)) : ''}
        </span>
      </PageHeader>
      {readOnly && s.files?.readOnlyReason && (
        <Alert
          className="page-alert"
          type="info"
          content={engineText(t, s.files.readOnlyReason, '')}
          action={
            s.files.rootKind !== 'library' ? (
              <Button size="small" type="primary" loading={copying} onClick={copyToLibrary} data-testid={TID.editorCopyToLibrary}>
                {t('editor.copyToLibrary')}
              </Button>
            ) : undefined
          }
        />
      )}
      {file?.readOnly && file.readOnlyReason && !readOnly && (
        <Alert className="page-alert" type="warning" content={engineText(t, file.readOnlyReason, '')} />
      )}
      {s.needsApproval && (
        <Alert className="page-alert" type="warning" content={t('editor.needsApproval')} data-testid={TID.editorApprovalNote} />
      )}
      {s.saveError && (
        <Alert className="page-alert" type="error" content={s.saveError} closable onClose={() => useEditor.setState({ saveError: null })} />
      )}
      {undoMsg && <Alert className="page-alert" type="info" content={undoMsg} closable onClose={() => setUndoMsg(null)} />}
      <div className="editor-grid">
        <aside className="editor-files" data-testid={TID.editorFiles}>
          <FileList dirty={dirty} readOnly={readOnly} />
        </aside>
        <main className="editor-main">
          {!file ? (
            s.files ? (
              <Empty />
            ) : (
              <Spin />
            )
          ) : file.disk === null ? (
            <Empty description={engineText(t, file.readOnlyReason, '')} />
          ) : (
            <CodeEditor
              docKey={`${s.current}#${file.rev}`}
              doc={file.buffer}
              path={s.current}
              readOnly={file.readOnly}
              findings={findings}
              onChange={onChange}
              onSave={save}
              jump={s.jump}
              label={t('editor.codeLabel', { file: s.current })}
            />
          )}
        </main>
        <section className="editor-side">
          <Tabs activeTab={panel} onChange={setPanel} size="small">
            <Tabs.TabPane
              key="problems"
              title={<span data-testid={rowId(TID.editorPanelTab, 'problems')}>{t('editor.problems', { count: diagnostics.length })}</span>}
            >
              {/* A click on a finding shows its line in the editor. */}
              <div
                data-testid={TID.editorProblems}
                className="editor-problems"
                onClick={(e) => {
                  const row = (e.target as HTMLElement).closest('[data-testid^="skill-diagnostic-"]');
                  const d = row ? relative[Number(row.getAttribute('data-testid')!.slice('skill-diagnostic-'.length))] : undefined;
                  if (d?.line !== undefined && s.files?.files.some((f) => f.path === d.file && f.kind === 'file'))
                    void useEditor.getState().jumpTo(d.file, d.line);
                }}
              >
                <DiagnosticList diagnostics={relative} />
              </div>
            </Tabs.TabPane>
            {s.current === 'SKILL.md' && file && file.disk !== null && (
              <Tabs.TabPane key="form" title={<span data-testid={rowId(TID.editorPanelTab, 'form')}>{t('editor.form')}</span>}>
                <FrontmatterForm text={file.buffer} readOnly={file.readOnly} onChange={onChange} />
              </Tabs.TabPane>
            )}
            <Tabs.TabPane key="agents" title={<span data-testid={rowId(TID.editorPanelTab, 'agents')}>{t('editor.agents')}</span>}>
              <AgentListingPanel lint={s.lint} />
            </Tabs.TabPane>
            <Tabs.TabPane key="preview" title={<span data-testid={rowId(TID.editorPanelTab, 'preview')}>{t('editor.preview')}</span>}>
              {file && isMarkdown ? (
                <Markdown text={previewText(file.buffer)} testId={TID.editorPreview} />
              ) : (
                <Empty description={t('editor.noPreview')} />
              )}
            </Tabs.TabPane>
          </Tabs>
        </section>
      </div>
      <ConflictDialog />
      <Modal
        visible={leave !== null}
        autoFocus={false}
        title={t('editor.leaveTitle')}
        onCancel={() => setLeave(null)}
        footer={
          <>
            <Button autoFocus onClick={() => setLeave(null)} data-testid={TID.leaveStay}>
              {t('editor.leaveStay')}
            </Button>
            <Button
              status="danger"
              type="primary"
              onClick={() => {
                const proceed = leave;
                setLeave(null);
                setLeaveGuard(null);
                proceed?.();
              }}
              data-testid={TID.leaveDiscard}
            >
              {t('editor.leaveDiscard')}
            </Button>
          </>
        }
      >
        <div data-testid={TID.leaveDialog}>{t('editor.leaveBody', { files: dirty.join(', ') })}</div>
      </Modal>
    </div>
  );
}

function countsOf(ds: readonly Diagnostic[]) {
  return {
    errors: ds.filter((d) => d.severity === 'error').length,
    warnings: ds.filter((d) => d.severity === 'warning').length,
  };
}
