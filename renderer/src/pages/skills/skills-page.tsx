import { useDeferredValue, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Input, Select, Switch, Typography } from '@arco-design/web-react';
import { useCatalog } from '../../stores/catalog-store';
import { TID, pageId } from '../../testids';
import { EMPTY_FILTER, buildIndex, catalogAgents, filterCatalog, type FilterResult, type ProblemFilter, type SkillFilter } from './skill-filter';
import { SkillList } from './skill-list';
import { SkillDrawer } from './skill-drawer';
import { ImportButton } from '../import/import-button';

export function SkillsPage() {
  const { t } = useTranslation();
  const catalog = useCatalog((s) => s.catalog);
  const error = useCatalog((s) => s.error);
  const loading = useCatalog((s) => s.loading);
  const open = useCatalog((s) => s.open);
  const [filter, setFilter] = useState<SkillFilter>(EMPTY_FILTER);
  // The input stays responsive while a 10,000-row filter runs at lower priority.
  const deferred = useDeferredValue(filter);

  const index = useMemo(() => (catalog ? buildIndex(catalog.entries) : []), [catalog]);
  // Typing narrows the last result instead of rescanning the catalog (same catalog only).
  const last = useRef<{ index: readonly string[]; result: FilterResult } | null>(null);
  const visible = useMemo(() => {
    if (!catalog) return [];
    const prev = last.current?.index === index ? last.current.result : null;
    const result = filterCatalog(catalog, index, deferred, prev);
    last.current = { index, result };
    return result.entries;
  }, [catalog, index, deferred]);
  const agents = useMemo(() => (catalog ? catalogAgents(catalog) : []), [catalog]);
  const patch = (p: Partial<SkillFilter>) => setFilter((f) => ({ ...f, ...p }));

  return (
    <div className="page page-fill" data-testid={pageId('skills')}>
      <div className="page-header">
        <Typography.Title heading={4} className="page-title">
          {t('skills.title')}
        </Typography.Title>
        <span className="muted" data-testid={TID.skillsCount}>
          {catalog ? t('skills.count', { shown: visible.length, total: catalog.entries.length }) : loading ? t('common.loading') : ''}
        </span>
        <div className="grow" />
        <ImportButton />
      </div>
      <div className="toolbar">
        <Input
          allowClear
          className="toolbar-search"
          placeholder={t('skills.searchPlaceholder')}
          value={filter.query}
          onChange={(query) => patch({ query })}
          data-testid={TID.skillsSearch}
        />
        <Select
          allowClear
          className="toolbar-select"
          placeholder={t('skills.filterRoot')}
          value={filter.rootId ?? undefined}
          onChange={(v) => patch({ rootId: v ?? null })}
          data-testid={TID.skillsFilterRoot}
          options={(catalog?.roots ?? []).map((r) => ({ label: r.id, value: r.id }))}
        />
        <Select
          allowClear
          className="toolbar-select"
          placeholder={t('skills.filterAgent')}
          value={filter.agent ?? undefined}
          onChange={(v) => patch({ agent: v ?? null })}
          data-testid={TID.skillsFilterAgent}
          options={agents.map((a) => ({ label: a, value: a }))}
        />
        <Select
          className="toolbar-select"
          value={filter.problems}
          onChange={(v: ProblemFilter) => patch({ problems: v })}
          data-testid={TID.skillsFilterProblems}
          options={(['all', 'errors', 'warnings', 'clean'] as const).map((p) => ({ label: t(`skills.problems.${p}`), value: p }))}
        />
        <label className="toolbar-switch">
          <Switch size="small" checked={filter.shadowedOnly} onChange={(v) => patch({ shadowedOnly: v })} data-testid={TID.skillsFilterShadowed} />
          <span>{t('skills.shadowedOnly')}</span>
        </label>
      </div>
      {error && <Alert type="error" content={t('common.loadFailed', { error })} className="page-alert" />}
      {catalog && catalog.rootDiagnostics.length > 0 && (
        <Alert
          type="warning"
          className="page-alert"
          content={
            <div>
              <div>{t('skills.rootProblems', { count: catalog.rootDiagnostics.length })}</div>
              {catalog.rootDiagnostics.slice(0, 5).map((d, i) => (
                <div key={i} className="small mono">
                  {d.file}
                  {d.line !== undefined ? `:${d.line}` : ''} {d.message}
                </div>
              ))}
            </div>
          }
        />
      )}
      <SkillList entries={visible} onOpen={(id) => open(id)} />
      <SkillDrawer />
    </div>
  );
}
