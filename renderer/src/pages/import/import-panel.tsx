import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { engineText, findingText } from '../../i18n/engine-text';
import { sourceLabel } from './source-label';
import { Alert, Button, Modal, Notification, Progress, Tag } from '@arco-design/web-react';
import type { ImportResult } from '../../../../src/contract/index';
import { formatMessage } from '../../../../src/contract/messages-text';
import { useLibrary } from '../../stores/library-store';
import { useImport, countByStatus } from '../../stores/import-store';
import { errorText } from '../../stores/errors';
import { findEntry, useCatalog } from '../../stores/catalog-store';
import { TID, rowId } from '../../testids';
import { opName } from '../library/undo-toast';

const STATUS_COLOR: Record<ImportResult['status'], string> = {
  imported: 'green',
  'already-present': 'gray',
  replaced: 'arcoblue',
  'kept-both': 'cyan',
  skipped: 'gray',
  conflict: 'orange',
  refused: 'red',
};

/** Progress bar, result summary, one dialog per conflict, and the undo toast. */
export function ImportPanel() {
  const { t } = useTranslation();
  const { importId, progress, summary, error, pending, lastJournalId, choose, dismiss } = useImport();
  const catalog = useCatalog((st) => st.catalog);
  const openSkill = useCatalog((st) => st.open);
  const shownJournal = useRef<string | null>(null);

  useEffect(() => {
    if (!lastJournalId) {
      // Forgotten (an assistant was deleted, which undo cannot bring back): the toast goes too.
      if (shownJournal.current) Notification.remove(`undo-${shownJournal.current}`);
      shownJournal.current = null;
      return;
    }
    if (shownJournal.current === lastJournalId) return;
    // Undo reverts only the newest operation: an older toast would lie, so it goes.
    if (shownJournal.current) Notification.remove(`undo-${shownJournal.current}`);
    shownJournal.current = lastJournalId;
    const id = `undo-${lastJournalId}`;
    Notification.info({
      id,
      title: t('import.doneTitle'),
      content: t('import.undoHint'),
      duration: 10_000,
      position: 'bottomRight',
      btn: (
        <Button
          size="small"
          type="primary"
          data-testid={TID.undoButton}
          onClick={async () => {
            Notification.remove(id);
            try {
              const res = await useLibrary.getState().undo();
              // Worded here from the op (the engine's `message` is English, for the CLI).
              Notification.success({
                title: t('import.undone'),
                content: t('library.undone', { op: opName(t, res.undone.op) }),
                duration: 4000,
                position: 'bottomRight',
              });
            } catch (err) {
              Notification.error({ title: t('import.undoFailed'), content: errorText(err), duration: 6000, position: 'bottomRight' });
            }
          }}
        >
          {t('common.undo')}
        </Button>
      ),
    });
  }, [lastJournalId, t]);

  const conflict = pending[0];
  const counts = summary ? countByStatus(summary) : null;
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
      <Modal
        visible={Boolean((summary || error) && !conflict && !importId)}
        // An import that stopped before any result (a refused upload) did not finish.
        title={error && !summary ? t('import.failedTitle') : t('import.summaryTitle')}
        onCancel={dismiss}
        footer={
          <Button type="primary" onClick={dismiss} data-testid={TID.importSummaryClose}>
            {t('common.close')}
          </Button>
        }
      >
        <div data-testid={TID.importSummary}>
          {error && <Alert type="error" content={error} />}
          {counts && (
            <div className="import-counts">
              {t('import.counts', {
                imported: counts.imported + counts.replaced + counts['kept-both'],
                present: counts['already-present'],
                refused: counts.refused,
                skipped: counts.skipped + counts.conflict,
              })}
            </div>
          )}
          {summary?.results.map((r, i) => {
            // A skill in the library with findings opens on its Diagnostics tab, over this summary.
            const name = r.libraryName ?? r.name;
            const open =
              r.status !== 'refused' && r.diagnostics.length > 0 && name && r.dir
                ? () => openSkill(findEntry(catalog, { name, dir: r.dir })?.id ?? `library/${name}`, 'diagnostics', true)
                : undefined;
            return (
              <div
                key={`${r.source}-${i}`}
                className={`import-row${open ? ' clickable' : ''}`}
                data-testid={rowId(TID.importResultRow, r.name ?? String(i))}
                data-status={r.status}
                {...(open
                  ? { role: 'button', tabIndex: 0, onClick: open, onKeyDown: (e: React.KeyboardEvent) => e.key === 'Enter' && open() }
                  : {})}
              >
                <Tag size="small" color={STATUS_COLOR[r.status]}>
                  {t(`import.status.${r.status}`)}
                </Tag>
                <b title={r.source}>{r.libraryName ?? r.name ?? sourceLabel(r.source)}</b>
                {r.libraryName && r.name && r.libraryName !== r.name && <span className="muted"> ({r.name})</span>}
                {r.message && <div className="muted">{engineText(t, r.msg, r.message)}</div>}
                {r.notices?.map((n, j) => (
                  <div key={`n${j}`} className="muted" data-testid={TID.importNotice}>
                    {engineText(t, n, formatMessage(n))}
                  </div>
                ))}
                {r.status === 'refused' &&
                  r.diagnostics
                    .filter((d) => d.severity === 'error')
                    .map((d, j) => (
                      <div key={j} className="muted">
                        {d.code}: {findingText(t, d)}
                      </div>
                    ))}
                {open && (
                  <div className="link-text" data-testid={rowId(TID.importResultFindings, r.name ?? String(i))}>
                    {t('import.findings', { count: r.diagnostics.length })} ›
                  </div>
                )}
              </div>
            );
          })}
        </div>
      </Modal>
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
