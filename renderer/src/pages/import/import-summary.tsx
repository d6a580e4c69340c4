import { useTranslation } from 'react-i18next';
import { Alert, Button, Modal, Tag } from '@arco-design/web-react';
import type { ImportResult } from '../../../../src/contract/index';
import { formatMessage } from '../../../../src/contract/messages-text';
import { engineText, findingText } from '../../i18n/engine-text';
import { findEntry, useCatalog } from '../../stores/catalog-store';
import { countByStatus, useImport } from '../../stores/import-store';
import { TID, rowId } from '../../testids';
import { sourceLabel } from './source-label';

const STATUS_COLOR: Record<ImportResult['status'], string> = {
  imported: 'green',
  'already-present': 'gray',
  replaced: 'arcoblue',
  'kept-both': 'cyan',
  skipped: 'gray',
  conflict: 'orange',
  refused: 'red',
};

/** What an import did, skill by skill, once it is over and no conflict waits for an answer. */
export function ImportSummary() {
  const { t } = useTranslation();
  const { importId, summary, error, pending, dismiss } = useImport();
  const conflict = pending[0];
  const counts = summary ? countByStatus(summary) : null;
  return (
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
        {summary?.results.map((r, i) => (
          <ImportResultRow key={`${r.source}-${i}`} result={r} index={i} />
        ))}
      </div>
    </Modal>
  );
}

/** One skill's result; one with findings opens on its Diagnostics tab, over the summary. */
function ImportResultRow({ result: r, index: i }: { result: ImportResult; index: number }) {
  const { t } = useTranslation();
  const catalog = useCatalog((st) => st.catalog);
  const openSkill = useCatalog((st) => st.open);
  const name = r.libraryName ?? r.name;
  const open =
    r.status !== 'refused' && r.diagnostics.length > 0 && name && r.dir
      ? () => openSkill(findEntry(catalog, { name, dir: r.dir })?.id ?? `library/${name}`, 'diagnostics', true)
      : undefined;
  return (
    <div
      className={`import-row${open ? ' clickable' : ''}`}
      data-testid={rowId(TID.importResultRow, r.name ?? String(i))}
      data-status={r.status}
      {...(open ? { role: 'button', tabIndex: 0, onClick: open, onKeyDown: (e: React.KeyboardEvent) => e.key === 'Enter' && open() } : {})}
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
}
