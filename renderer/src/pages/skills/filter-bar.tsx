import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Select, Switch } from '@arco-design/web-react';
import type { Catalog } from '../../../../src/contract/index';
import { TID } from '../../testids';
import { useAgents } from '../../stores/agents-store';
import { rootName } from './root-name';
import { PROBLEM_FILTERS, catalogAgents, type ProblemFilter } from './skill-filter';
import type { Facets } from './filter-stand-in';

// The Skills page's filters, fetched right after the first paint (issue 16); FilterBarStandIn
// holds their place until then.
export const FilterBar = memo(function FilterBar({
  catalog,
  facets,
  patch,
}: {
  catalog: Catalog | null;
  facets: Facets;
  patch(p: Partial<Facets>): void;
}) {
  const { t } = useTranslation();
  const agents = useMemo(() => (catalog ? catalogAgents(catalog) : []), [catalog]);
  const roots = catalog?.roots;
  // Options show the names users know (as the drawer does); the values stay the ids.
  const names = useAgents((s) => s.names);
  const rootOptions = useMemo(() => (roots ?? []).map((r) => ({ label: rootName(t, r.id), value: r.id })), [roots, t]);
  const agentOptions = useMemo(() => agents.map((a) => ({ label: names[a] ?? a, value: a })), [agents, names]);
  return (
    <>
      <Select
        allowClear
        className="toolbar-select"
        placeholder={t('skills.filterRoot')}
        value={facets.rootId ?? undefined}
        onChange={(v: string | undefined) => patch({ rootId: v ?? null })}
        data-testid={TID.skillsFilterRoot}
        options={rootOptions}
      />
      <Select
        allowClear
        className="toolbar-select"
        placeholder={t('skills.filterAgent')}
        value={facets.agent ?? undefined}
        onChange={(v: string | undefined) => patch({ agent: v ?? null })}
        data-testid={TID.skillsFilterAgent}
        options={agentOptions}
      />
      <Select
        className="toolbar-select"
        value={facets.problems}
        onChange={(v: ProblemFilter) => patch({ problems: v })}
        data-testid={TID.skillsFilterProblems}
        options={PROBLEM_FILTERS.map((p) => ({ label: t(`skills.problems.${p}`), value: p }))}
      />
      <label className="toolbar-switch">
        <Switch
          size="small"
          checked={facets.shadowedOnly}
          onChange={(v) => patch({ shadowedOnly: v })}
          data-testid={TID.skillsFilterShadowed}
        />
        <span>{t('skills.shadowedOnly')}</span>
      </label>
    </>
  );
});
