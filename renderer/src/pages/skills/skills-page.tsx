import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { findingText } from '../../i18n/engine-text';
import { Alert, Button, Input } from '@arco-design/web-react';
import type { Catalog } from '../../../../src/contract/index';
import { useCatalog } from '../../stores/catalog-store';
import { useRisks } from '../../stores/risk-store';
import { useUsage } from '../../stores/usage-store';
import { TID, pageId } from '../../testids';
import { EMPTY_FILTER, buildIndex, filterCatalog, type FilterResult } from './skill-filter';
import { FilterBarStandIn, type Facets } from './filter-stand-in';
import { SkillList } from './skill-list';
import { AdoptBanner } from '../library/adopt-banner';
import { FirstRun } from './first-run';
import { PageHeader } from '../../components/page-header';

const EMPTY_FACETS: Facets = {
  rootId: EMPTY_FILTER.rootId,
  agent: EMPTY_FILTER.agent,
  problems: EMPTY_FILTER.problems,
  shadowedOnly: EMPTY_FILTER.shadowedOnly,
};

export function SkillsPage() {
  const { t } = useTranslation();
  const catalog = useCatalog((s) => s.catalog);
  const error = useCatalog((s) => s.error);
  const loading = useCatalog((s) => s.loading);
  const open = useCatalog((s) => s.open);
  const risks = useRisks((s) => s.byId);
  // The query is kept apart from the other filters so a keystroke re-renders only the input, the
  // count and the list: the toolbar, alerts and drawer below are memoized and keep their props.
  const [query, setQuery] = useState('');
  const [facets, setFacets] = useState<Facets>(EMPTY_FACETS);
  // Multi-select (entry ids): the bar above the list acts on the ticked skills in one operation.
  const [ticked, setTicked] = useState<Set<string>>(() => new Set());
  const onTick = useCallback(
    (id: string, on: boolean) =>
      setTicked((cur) => {
        const next = new Set(cur);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );
  // Skills no agent loaded in 90 days (the usage ledger), a filter over the others.
  const [unusedOnly, setUnusedOnly] = useState(false);
  // Not while an agent's usage is unknown (its log format changed): "unused" would be a guess.
  const usage = useUsage((s) => (s.summary && !s.summary.unknown.length ? s.bySkill : null));
  const loadUsage = useUsage((s) => s.load);
  useEffect(() => {
    void loadUsage();
  }, [loadUsage]);

  // Lower-cased haystacks are built once per catalog, never per keystroke.
  const index = useMemo(() => (catalog ? buildIndex(catalog.entries) : []), [catalog]);
  // Typing narrows the last result instead of rescanning the catalog (same catalog only). The
  // filter runs in the keystroke's own render, not deferred: over a prebuilt index it costs about a
  // millisecond at 10,000 skills, and the list the user sees is always the answer to what they typed.
  const last = useRef<{ index: readonly string[]; result: FilterResult } | null>(null);
  const visible = useMemo(() => {
    if (!catalog) return [];
    const prev = last.current?.index === index ? last.current.result : null;
    const result = filterCatalog(catalog, index, { ...facets, query }, prev, risks);
    last.current = { index, result };
    return unusedOnly && usage ? result.entries.filter((e) => !usage.get(e.name)?.d90) : result.entries;
  }, [catalog, index, facets, query, risks, unusedOnly, usage]);
  // First run: nothing of the user's in the library yet (built-in and agent-folder skills do not count).
  const libraryEmpty = useMemo(() => Boolean(catalog && !catalog.entries.some((e) => e.provenance.rootKind === 'library')), [catalog]);
  const patch = useCallback((p: Partial<Facets>) => setFacets((f) => ({ ...f, ...p })), []);
  const onOpen = useCallback((id: string) => open(id), [open]);

  return (
    <div className="page page-fill" data-testid={pageId('skills')}>
      <PageHeader
        title={t('skills.title')}
        actions={
          <>
            <StableImportButton />
          </>
        }
      >
        <span className="muted" data-testid={TID.skillsCount}>
          {catalog ? t('skills.count', { shown: visible.length, total: catalog.entries.length }) : loading ? t('common.loading') : ''}
        </span>
      </PageHeader>
      <div className="toolbar">
        <SearchBox value={query} onChange={setQuery} />
        <Suspense fallback={<FilterBarStandIn facets={facets} />}>
          <FilterBar catalog={catalog} facets={facets} patch={patch} />
        </Suspense>
        <Button
          type={unusedOnly ? 'primary' : 'secondary'}
          aria-pressed={unusedOnly}
          disabled={!usage}
          data-testid={TID.skillsFilterUnused}
          onClick={() => setUnusedOnly((v) => !v)}
        >
          {t('skills.unusedOnly')}
        </Button>
      </div>
      <CatalogAlerts catalog={catalog} error={error} />
      {libraryEmpty ? <FirstRun /> : <AdoptBanner />}
      <Suspense fallback={null}>
        <SkillsBulk entries={visible} ticked={ticked} setTicked={setTicked} />
      </Suspense>
      <SkillList entries={visible} onOpen={onOpen} ticked={ticked} onTick={onTick} />
    </div>
  );
}

// The Import button's menu (Arco Dropdown + Menu) is fetched right after the first paint; until then
// the same button stands in its place (issue 16: a light first paint).
// The filters (Arco Select and Switch: Trigger, InputTag, Checkbox, a virtual list) likewise.
const FilterBar = lazy(() => import('./filter-bar').then((m) => ({ default: m.FilterBar })));
// The multi-select bar (its dialogs, the undo toast and the contract's operation kinds) likewise.
const SkillsBulk = lazy(() => import('./skills-bulk').then((m) => ({ default: m.SkillsBulk })));
const ImportButton = lazy(() => import('../import/import-button').then((m) => ({ default: m.ImportButton })));
const StableImportButton = memo(function StableImportButton() {
  const { t } = useTranslation();
  return (
    <Suspense
      fallback={
        <Button type="primary" className="import-button-placeholder">
          {t('import.button')}
        </Button>
      }
    >
      <ImportButton />
    </Suspense>
  );
});
const SearchBox = memo(function SearchBox({ value, onChange }: { value: string; onChange(q: string): void }) {
  const { t } = useTranslation();
  return (
    <Input
      allowClear
      className="toolbar-search"
      placeholder={t('skills.searchPlaceholder')}
      value={value}
      onChange={onChange}
      data-testid={TID.skillsSearch}
    />
  );
});

const CatalogAlerts = memo(function CatalogAlerts({ catalog, error }: { catalog: Catalog | null; error: string | null }) {
  const { t } = useTranslation();
  return (
    <>
      {error && <Alert type="error" content={t('common.loadFailed', { error })} className="page-alert" />}
      {catalog && catalog.rootDiagnostics.length > 0 && (
        <Alert
          type="warning"
          className="page-alert"
          data-testid={TID.rootProblems}
          content={
            <div>
              <div>{t('skills.rootProblems', { count: catalog.rootDiagnostics.length })}</div>
              {catalog.rootDiagnostics.slice(0, 5).map((d, i) => (
                <div key={i} className="small mono">
                  {d.file}
                  {d.line !== undefined ? `:${d.line}` : ''} {findingText(t, d)}
                </div>
              ))}
            </div>
          }
        />
      )}
    </>
  );
});
