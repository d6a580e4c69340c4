import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Empty, Input, Select, Tag } from '@arco-design/web-react';
import { PageHeader } from '../../components/page-header';
import type { Risk, SearchResult } from '../../../../src/contract/index';
import { useDiscover, resultKey, type DiscoverFilters } from '../../stores/discover-store';
import { useAgents } from '../../stores/agents-store';
import { errorMessage } from '../../i18n/engine-text';
import { TID, pageId, rowId } from '../../testids';
import { CatalogsPanel } from './catalogs-panel';
import { PreviewDrawer } from './preview-drawer';
import './discover.css';

const RISK_COLOR: Record<Risk, string> = { none: 'green', low: 'cyan', medium: 'orange', high: 'red' };
const tri = (v: boolean | null) => (v === null ? 'any' : v ? 'yes' : 'no');
const fromTri = (v: string) => (v === 'any' ? null : v === 'yes');

/** Find skills in the subscribed catalogs: search as you type, filter, preview, install. */
export function DiscoverPage() {
  const { t } = useTranslation();
  const { catalogs, query, filters, results, total, problems, error, search, loadCatalogs, open } = useDiscover();
  const agents = useAgents((s) => s.agents);
  const [manage, setManage] = useState(false);

  useEffect(() => {
    void loadCatalogs();
    void search();
    if (!useAgents.getState().agents.length) void useAgents.getState().loadRegistry();
  }, [loadCatalogs, search]);

  const setFilter = (patch: Partial<DiscoverFilters>) => void search(undefined, patch);
  const indexed = (catalogs ?? []).some((c) => c.enabled && c.skills > 0);

  return (
    <div className="page discover-page" data-testid={pageId('discover')}>
      <PageHeader
        title={t('discover.title')}
        actions={
          <Button onClick={() => setManage(!manage)} data-testid={TID.discoverCatalogsButton}>
            {t('discover.catalogs.manage', { count: (catalogs ?? []).filter((c) => c.enabled).length })}
          </Button>
        }
      />
      {manage && <CatalogsPanel />}
      <Input.Search
        allowClear
        value={query}
        placeholder={t('discover.placeholder')}
        onChange={(v) => void search(v)}
        data-testid={TID.discoverSearch}
        aria-label={t('discover.placeholder')}
      />
      <div className="discover-filters">
        <Select
          aria-label={t('discover.filter.catalog')}
          data-testid={TID.discoverFilterCatalog}
          value={filters.catalog ?? '*'}
          onChange={(v: string) => setFilter({ catalog: v === '*' ? null : v })}
          options={[
            { label: t('discover.filter.allCatalogs'), value: '*' },
            ...(catalogs ?? []).map((c) => ({ label: c.id, value: c.id })),
          ]}
        />
        <Select
          aria-label={t('discover.filter.agent')}
          data-testid={TID.discoverFilterAgent}
          value={filters.agent ?? '*'}
          onChange={(v: string) => setFilter({ agent: v === '*' ? null : v })}
          options={[{ label: t('discover.filter.anyAgent'), value: '*' }, ...agents.map((a) => ({ label: a.name, value: a.id }))]}
        />
        <Select
          aria-label={t('discover.filter.scripts')}
          data-testid={TID.discoverFilterScripts}
          value={tri(filters.scripts)}
          onChange={(v: string) => setFilter({ scripts: fromTri(v) })}
          options={(['any', 'yes', 'no'] as const).map((v) => ({ label: t(`discover.filter.scripts_${v}`), value: v }))}
        />
        <Select
          aria-label={t('discover.filter.risk')}
          data-testid={TID.discoverFilterRisk}
          value={filters.maxRisk ?? '*'}
          onChange={(v: string) => setFilter({ maxRisk: v === '*' ? null : (v as Risk) })}
          options={[
            { label: t('discover.filter.anyRisk'), value: '*' },
            ...(['none', 'low', 'medium'] as const).map((r) => ({ label: t(`discover.filter.upTo_${r}`), value: r })),
          ]}
        />
        <Select
          aria-label={t('discover.filter.installed')}
          data-testid={TID.discoverFilterInstalled}
          value={tri(filters.installed)}
          onChange={(v: string) => setFilter({ installed: fromTri(v) })}
          options={(['any', 'yes', 'no'] as const).map((v) => ({ label: t(`discover.filter.installed_${v}`), value: v }))}
        />
      </div>
      {error !== null && error !== undefined && <Alert type="error" content={errorMessage(t, error)} data-testid={TID.discoverError} />}
      {problems.map((p) => (
        <Alert key={p.catalog} type="warning" content={p.message} />
      ))}
      {results && results.length === 0 && (
        <Empty data-testid={TID.discoverEmpty} description={indexed ? t('discover.noResults') : t('discover.notIndexed')} />
      )}
      {results && results.length > 0 && <div className="muted discover-count">{t('discover.count', { count: results.length, total })}</div>}
      <div className="discover-results" data-testid={TID.discoverResults}>
        {(results ?? []).map((r) => (
          <ResultRow key={resultKey(r)} r={r} onOpen={() => void open(r)} />
        ))}
      </div>
      <PreviewDrawer />
    </div>
  );
}

function ResultRow({ r, onOpen }: { r: SearchResult; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="discover-row"
      onClick={onOpen}
      data-testid={rowId(TID.discoverRow, resultKey(r))}
      data-installed={r.installed ? 'yes' : 'no'}
      data-update={r.updateAvailable ? 'yes' : 'no'}
    >
      <div className="discover-row-head">
        <strong>{r.name}</strong>
        <Tag size="small">{r.catalog}</Tag>
        {!r.remote && (
          <Tag size="small" color={RISK_COLOR[r.risk]}>
            {t(`discover.risk.${r.risk}`)}
          </Tag>
        )}
        {r.scripts && <Tag size="small">{t('discover.scripts')}</Tag>}
        {r.installed && (
          <Tag size="small" color="green" data-testid={TID.discoverInstalled}>
            {t('discover.installed')}
          </Tag>
        )}
        {r.updateAvailable && (
          <Tag size="small" color="arcoblue" data-testid={TID.discoverUpdate}>
            {t('discover.updateAvailable')}
          </Tag>
        )}
      </div>
      {r.description && <div className="discover-row-desc">{r.description}</div>}
      <div className="muted discover-row-path">{r.repo ? `${r.repo} · ${r.path}` : r.path}</div>
    </button>
  );
}
