import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { engineText } from '../../i18n/engine-text';
import { formatBytes, rootLabel } from './provenance-format';
import { Descriptions, Tag, Typography } from '@arco-design/web-react';
import type { CatalogEntry } from '../../../../src/contract/index';
import { useCatalog } from '../../stores/catalog-store';
import { useAgents } from '../../stores/agents-store';
import { TID, rowId } from '../../testids';
import { catalogAgents, verdictFor } from './skill-filter';
import { useOriginRows } from './skill-origin';

const KNOWN_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];

function show(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2);
}

export function SkillOverview({ entry }: { entry: CatalogEntry }) {
  const { t, i18n } = useTranslation();
  const catalog = useCatalog((s) => s.catalog);
  const byId = useCatalog((s) => s.byId);
  const open = useCatalog((s) => s.open);
  const agentNames = useAgents((s) => s.names);
  const views = useAgents((s) => s.views);
  const fm = entry.frontmatter ?? {};
  const extra = Object.keys(fm).filter((k) => !KNOWN_FIELDS.includes(k));
  const root = catalog?.roots.find((r) => r.id === entry.provenance.rootId);
  const registry = useAgents((s) => s.agents);
  const agents = registry.length ? registry.map((a) => a.id) : catalog ? catalogAgents(catalog) : [];
  const loadView = useAgents((s) => s.loadView);
  const originRows = useOriginRows(entry);
  useEffect(() => {
    // The engine's per-agent view is the authority; the catalog-only guess shows until it arrives.
    for (const a of agents) if (!views[a]) void loadView(a);
  }, [agents.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps

  // Walk shadowedBy upwards: the chain from this copy to the one agents actually see.
  const chain: CatalogEntry[] = [];
  for (
    let cur = entry.shadowedBy ? byId.get(entry.shadowedBy) : undefined;
    cur && chain.length < 20;
    cur = cur.shadowedBy ? byId.get(cur.shadowedBy) : undefined
  ) {
    chain.push(cur);
  }

  return (
    <div className="overview">
      <Section title={t('skills.drawer.frontmatter')}>
        <div data-testid={TID.skillFrontmatter}>
          {entry.frontmatter === null ? (
            <Typography.Text type="error">{t('skills.drawer.noFrontmatter')}</Typography.Text>
          ) : (
            <Descriptions
              column={1}
              size="small"
              border
              data={[...KNOWN_FIELDS, ...extra].map((k) => ({
                label: k,
                value: k in fm ? <pre className="fm-value">{show(fm[k])}</pre> : <span className="muted">{t('common.notSet')}</span>,
              }))}
            />
          )}
        </div>
      </Section>

      <Section title={t('skills.drawer.provenance')}>
        <div data-testid={TID.skillProvenance}>
          <Descriptions
            column={1}
            size="small"
            data={[
              {
                label: t('skills.drawer.root'),
                value: rootLabel(t(`roots.${entry.provenance.rootKind}`), entry.provenance.rootId, entry.provenance.rootKind),
              },
              { label: t('skills.drawer.dir'), value: <code>{entry.provenance.dir}</code> },
              ...(entry.provenance.linked
                ? [
                    { label: t('skills.drawer.linkTarget'), value: <code>{entry.provenance.linkTarget ?? ''}</code> },
                    { label: t('skills.drawer.realPath'), value: <code>{entry.provenance.realPath}</code> },
                  ]
                : []),
              { label: t('skills.drawer.digest'), value: <code>{entry.digest.slice(0, 16)}</code> },
              {
                label: t('skills.drawer.size'),
                value: t('skills.drawer.sizeValue', { count: entry.fileCount, size: formatBytes(entry.size, i18n) }),
              },
              ...originRows,
            ]}
          />
        </div>
        <div data-testid={TID.skillShadowChain} className="shadow-chain">
          {chain.length > 0 && (
            <div>
              {t('skills.drawer.shadowedBy')}{' '}
              {chain.map((c) => (
                <Tag key={c.id} className="clickable" onClick={() => open(c.id)}>
                  {c.id}
                </Tag>
              ))}
            </div>
          )}
          {entry.shadows.length > 0 && (
            <div>
              {t('skills.drawer.shadows')}{' '}
              {entry.shadows.map((id) => (
                <Tag key={id} className="clickable" onClick={() => open(id)}>
                  {id}
                </Tag>
              ))}
            </div>
          )}
          {chain.length === 0 && entry.shadows.length === 0 && <span className="muted">{t('skills.drawer.noShadowing')}</span>}
        </div>
      </Section>

      <Section title={t('skills.drawer.state')}>
        <div data-testid={TID.skillStateDir}>
          {entry.stateId ? (
            <code>~/.skilldock/skills-state/{entry.stateId}/</code>
          ) : (
            <span className="muted">{t('skills.drawer.noStateId')}</span>
          )}
        </div>
        {entry.legacyPaths.length > 0 && (
          <div className="legacy">
            <div className="muted">{t('skills.drawer.legacyPaths')}</div>
            {entry.legacyPaths.map((lp, i) => (
              <div key={i} data-testid={rowId(TID.skillLegacyPath, String(i))}>
                <code>{lp.path}</code> <span className="muted">(SKILL.md:{lp.line})</span> → <code>{lp.redirect}</code>
              </div>
            ))}
          </div>
        )}
      </Section>

      <Section title={t('skills.drawer.agents')}>
        {agents.map((agent) => {
          const v = verdictFor(entry, root, agent, views[agent]);
          const name = agentNames[agent] ?? agent;
          const detail =
            v.kind === 'dropped' || v.kind === 'mangled' || v.kind === 'ambiguous'
              ? v.reasons.map((r) => engineText(t, r.msg, r.message)).join(t('common.semicolon'))
              : '';
          return (
            <div
              key={agent}
              className={`agent-verdict verdict-${v.kind}`}
              data-testid={rowId(TID.skillAgentRow, agent)}
              data-verdict={v.kind}
            >
              <b>{name}</b>
              {t('common.colon')}
              {t(`skills.verdict.${v.kind}`, { by: v.kind === 'shadowed' ? v.by : '' })}
              {detail && (
                <span>
                  {t('common.comma')}
                  {detail}
                </span>
              )}
            </div>
          );
        })}
      </Section>
    </div>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="section">
      <Typography.Title heading={6} className="section-title">
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}
