import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Spin } from '@arco-design/web-react';
import type { CatalogEntry } from '../../../../src/contract/index';
import { useSkill } from '../../stores/skill-store';
import { TID } from '../../testids';
import { formatWhen } from '../../i18n/format-date';

type Row = { label: string; value: React.ReactNode };

/**
 * Where a library skill came from (issue 12, full provenance): the folder or archive the user gave
 * (as they named it, never SkillDock's staging copy), when, and the published source with its commit.
 * Rows for the drawer's provenance list; none for skills outside the library.
 */
export function useOriginRows(entry: CatalogEntry): Row[] {
  const { t, i18n } = useTranslation();
  const library = entry.provenance.rootKind === 'library';
  const key = `${entry.dirName}\n${entry.digest}`;
  const view = useSkill((s) => (s.origin?.key === key ? s.origin : null));
  const origins = view?.data ?? null;
  const error = view?.error ?? null;

  useEffect(() => {
    if (library) void useSkill.getState().loadOrigin(key, entry.dirName);
  }, [library, key, entry.dirName]);

  if (!library) return [];
  if (error) return [{ label: t('skills.origin.from'), value: <span className="muted">{error}</span> }];
  if (!origins) return [{ label: t('skills.origin.from'), value: <Spin size={14} /> }];
  const { imported, source } = origins;
  const rows: Row[] = [];
  if (imported) {
    const how =
      imported.kind === 'adopted'
        ? t(imported.mode === 'link' ? 'skills.origin.adoptedLink' : 'skills.origin.adoptedCopy')
        : t(`skills.origin.${imported.kind}${imported.dropped ? 'Dropped' : ''}`);
    rows.push({
      label: t('skills.origin.from'),
      value: (
        <span data-testid={TID.skillOriginFrom} data-kind={imported.kind}>
          <code>{imported.from}</code>
          {imported.member && (
            <>
              {' › '}
              <code>{imported.member}</code>
            </>
          )}{' '}
          <span className="muted">({how})</span>
        </span>
      ),
    });
    rows.push({ label: t('skills.origin.added'), value: formatWhen(imported.time, i18n.language) });
  }
  if (source) {
    rows.push({
      label: t('skills.origin.source'),
      value: (
        <span data-testid={TID.skillOriginSource}>
          <code>{source.source.url}</code>
          {source.path && (
            <>
              {' › '}
              <code>{source.path}</code>
            </>
          )}
        </span>
      ),
    });
    rows.push({
      label: t('skills.origin.ref'),
      value: source.source.ref ? <code>{source.source.ref}</code> : t('skills.origin.defaultBranch'),
    });
    rows.push({ label: t('skills.origin.commit'), value: <code title={source.commit}>{source.commit.slice(0, 12)}</code> });
    if (source.pinned) rows.push({ label: t('skills.origin.pinned'), value: <code>{source.pinned}</code> });
    rows.push({ label: t('skills.origin.installed'), value: formatWhen(source.time, i18n.language) });
    if (source.via) rows.push({ label: t('skills.origin.via'), value: <code>{source.via}</code> });
  }
  if (!imported && !source)
    rows.push({
      label: t('skills.origin.from'),
      value: (
        <span className="muted" data-testid={TID.skillOriginFrom} data-kind="unknown">
          {t('skills.origin.unknown')}
        </span>
      ),
    });
  return rows;
}
