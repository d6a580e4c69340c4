import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Modal } from '@arco-design/web-react';
import { EditorView } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { MergeView } from '@codemirror/merge';
import { TID } from '../../testids';
import { useEditor } from './editor-store';

/** The file changed on disk since it was opened: reload it, overwrite it, or see what differs. */
export function ConflictDialog() {
  const { t } = useTranslation();
  const conflict = useEditor((s) => s.conflict);
  const saving = useEditor((s) => s.saving);
  return (
    <Modal
      visible={conflict !== null}
      title={t('editor.conflictTitle')}
      onCancel={() => useEditor.getState().dismissConflict()}
      style={{ width: conflict?.showDiff ? 960 : 520 }}
      footer={
        <>
          <Button onClick={() => useEditor.getState().showDiff(!conflict?.showDiff)} data-testid={TID.conflictDiff}>
            {conflict?.showDiff ? t('editor.conflictHideDiff') : t('editor.conflictShowDiff')}
          </Button>
          <Button onClick={() => useEditor.getState().reloadFromDisk()} data-testid={TID.conflictReload}>
            {t('editor.conflictReload')}
          </Button>
          <Button
            type="primary"
            status="warning"
            loading={saving}
            onClick={() => void useEditor.getState().save(conflict?.currentHash ?? null)}
            data-testid={TID.conflictOverwrite}
          >
            {t('editor.conflictOverwrite')}
          </Button>
        </>
      }
    >
      <div data-testid={TID.conflictEditDialog}>
        <p>{t('editor.conflictBody', { file: conflict?.path ?? '' })}</p>
        {conflict?.showDiff && <Diff disk={conflict.currentContent ?? ''} mine={conflict.mine} />}
      </div>
    </Modal>
  );
}

function Diff({ disk, mine }: { disk: string; mine: string }) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The merge view's own words ("$ unchanged lines") in the UI's language.
    const phrases = EditorState.phrases.of({ '$ unchanged lines': t('editor.cmUnchangedLines') });
    const ro = [EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.lineWrapping, phrases];
    const view = new MergeView({
      a: { doc: disk, extensions: ro },
      b: { doc: mine, extensions: ro },
      parent: host.current!,
      collapseUnchanged: { margin: 2 },
    });
    return () => view.destroy();
  }, [disk, mine, t]);
  return (
    <div>
      <div className="conflict-diff-legend">
        <span>{t('editor.conflictDisk')}</span>
        <span>{t('editor.conflictMine')}</span>
      </div>
      <div ref={host} className="conflict-diff" data-testid={TID.conflictDiffView} />
    </div>
  );
}
