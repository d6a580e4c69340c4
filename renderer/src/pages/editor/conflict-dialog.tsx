import { useTranslation } from 'react-i18next';
import { Button, Modal } from '@arco-design/web-react';
import { SideBySide } from '../../components/side-by-side';
import { TID } from '../../testids';
import { useEditor } from '../../stores/editor-store';

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
  return (
    <SideBySide left={disk} right={mine} labels={[t('editor.conflictDisk'), t('editor.conflictMine')]} testId={TID.conflictDiffView} />
  );
}
