import { useTranslation } from 'react-i18next';
import { Button, Modal, Progress } from '@arco-design/web-react';
import { useImport } from '../../stores/import-store';
import { TID } from '../../testids';
import { ImportSummary } from './import-summary';
import { useImportUndoToast } from './import-undo-toast';
import { sourceLabel } from './source-label';

/** Progress bar, result summary, one dialog per conflict, and the undo toast. */
export function ImportPanel() {
  const { t } = useTranslation();
  const { importId, progress, pending, lastOp, choose } = useImport();

  useImportUndoToast(lastOp);

  const conflict = pending[0];
  const percent =
    progress && progress.bytesTotal > 0
      ? Math.round((progress.bytesDone / progress.bytesTotal) * 100)
      : progress && progress.skillsTotal > 0
        ? Math.round((progress.skillsDone / progress.skillsTotal) * 100)
        : 0;

  return (
    <>
      {importId && (
        <div className="import-progress" data-testid={TID.importProgress}>
          <span>
            {progress
              ? t(progress.phase === 'upload' ? 'import.uploading' : 'import.progress', {
                  done: progress.skillsDone,
                  total: progress.skillsTotal,
                })
              : t('import.starting')}
            {progress?.current ? ` · ${progress.current}` : ''}
          </span>
          <Progress percent={percent} size="small" />
        </div>
      )}
      <ImportSummary />
      <Modal
        visible={Boolean(conflict)}
        title={conflict ? t('import.conflictTitle', { name: conflict.name ?? sourceLabel(conflict.source) }) : ''}
        closable={false}
        maskClosable={false}
        footer={
          <div className="modal-actions">
            <Button data-testid={TID.conflictSkip} onClick={() => void choose('skip')}>
              {t('import.skip')}
            </Button>
            <Button data-testid={TID.conflictKeepBoth} onClick={() => void choose('keep-both')}>
              {t('import.keepBoth')}
            </Button>
            <Button type="primary" status="warning" data-testid={TID.conflictReplace} onClick={() => void choose('replace')}>
              {t('import.replace')}
            </Button>
          </div>
        }
      >
        {conflict && (
          <div data-testid={TID.conflictDialog}>
            <p>{t('import.conflictBody', { name: conflict.name ?? sourceLabel(conflict.source) })}</p>
            <p className="muted mono">{sourceLabel(conflict.source)}</p>
            {pending.length > 1 && <p className="muted">{t('import.moreConflicts', { count: pending.length - 1 })}</p>}
          </div>
        )}
      </Modal>
    </>
  );
}
