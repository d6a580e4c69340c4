import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { engineText } from '../../i18n/engine-text';
import type { MessageKey } from '../../../../src/contract/index';
import { Alert, Button, Empty, Input, Progress, Spin, Tabs, Tag } from '@arco-design/web-react';
import type { AgentView, AgentViewSkill } from '../../../../src/contract/index';
import { useAgents } from '../../stores/agents-store';
import { useCatalog } from '../../stores/catalog-store';
import { TID, pageId, rowId } from '../../testids';
import { PageHeader } from '../../components/page-header';
import { BrowseButton } from '../../components/browse-button';
import { rootName } from '../skills/root-name';
import { VerifyPanel } from './verify-panel';
import { TurnOffUnused, UsageTag } from './agent-usage';

const SHOWN = 300;

export function AgentsPage() {
  const { t } = useTranslation();
  const agents = useAgents((s) => s.agents);
  const registryError = useAgents((s) => s.registryError);
  const [active, setActive] = useState<string | undefined>();
  const current = active ?? agents[0]?.id;

  return (
    <div className="page" data-testid={pageId('agents')}>
      <PageHeader title={t('agents.title')} />
      <ProjectPicker />
      {registryError && <Alert type="error" content={registryError} className="page-alert" />}
      {agents.length === 0 && !registryError && <Spin />}
      <Tabs activeTab={current} onChange={setActive} data-testid={TID.agentsList} type="rounded">
        {agents.map((a) => (
          <Tabs.TabPane key={a.id} title={<span data-testid={rowId(TID.agentCard, a.id)}>{a.name}</span>}>
            {current === a.id && <AgentPanel agent={a.id} />}
          </Tabs.TabPane>
        ))}
      </Tabs>
    </div>
  );
}

function AgentPanel({ agent }: { agent: string }) {
  const { t } = useTranslation();
  const view = useAgents((s) => s.views[agent]);
  const error = useAgents((s) => s.errors[agent]);
  const loadView = useAgents((s) => s.loadView);
  const info = useAgents((s) => s.agents.find((a) => a.id === agent));
  const generation = useCatalog((s) => s.catalog?.generation);
  const project = useAgents((s) => s.project);

  useEffect(() => {
    void loadView(agent);
  }, [agent, generation, project, loadView]);

  if (error) return <Alert type="error" content={error} />;
  if (!view) return <Spin />;
  const by = (status: AgentViewSkill['status']) => view.skills.filter((s) => s.status === status);
  const loaded = inListingOrder([...by('loaded'), ...by('mangled')]);

  return (
    <div className="agent-panel">
      <div className="stat-row">
        {(['loaded', 'mangled', 'dropped', 'shadowed', 'ambiguous'] as const).map((k) => (
          <div key={k} className={`stat stat-${k}`}>
            <div className="stat-num">{view.counts[k]}</div>
            <div className="muted">{t(`agents.status.${k}`)}</div>
          </div>
        ))}
      </div>
      {info && (
        <div className="muted small">
          {t('agents.nativeDir')}: <code>{info.nativeSkillsDir}</code> · {t('agents.contextFile')}: <code>{info.contextFile}</code>
          {info.installed !== null && <> · {info.installed ? t('agents.installed') : t('agents.notInstalled')}</>}
          {view.sameName && (
            <>
              {' '}
              · {t('agents.sameName')}: {engineText(t, { key: `agent.same-name-rule.${view.sameName}` as MessageKey }, view.sameName)}
            </>
          )}
          <div data-testid={TID.agentGuard} data-guard={view.guard}>
            {t(`agents.guard.${view.guard}`)}
          </div>
          <div data-testid={TID.agentScriptGuard} data-guard={view.scriptGuard}>
            {t(`agents.scriptGuard.${view.scriptGuard}`)}
          </div>
          <div data-testid={TID.agentHomeGuard} data-guard={view.homeGuard}>
            {t(`agents.homeGuard.${view.homeGuard}`)}
          </div>
        </div>
      )}

      <VerifyPanel agent={agent} supported={Boolean(info?.verifyCheckedOn)} />

      <Budget view={view} />

      <Section title={t('agents.roots')}>
        {view.roots.map((r) => (
          <div key={r.id} className="mono small">
            <Tag size="small" color={r.exists ? 'green' : 'gray'}>
              {t(`roots.${r.kind}`)}
            </Tag>{' '}
            {r.path} {!r.exists && <span className="muted">({t('agents.rootMissing')})</span>}
          </div>
        ))}
      </Section>

      <Section title={t('agents.dropped', { count: by('dropped').length })}>
        {by('dropped').length === 0 ? (
          <span className="muted">{t('agents.noneDropped')}</span>
        ) : (
          by('dropped').map((s) => (
            <div key={s.entryId} className="row" data-testid={rowId(TID.agentDroppedRow, s.entryId)}>
              <div className="row-main">
                <div className="row-title">
                  {s.identifier} <span className="muted small">{rootName(t, s.rootId)}</span>
                </div>
                {s.reasons.map((r, i) => (
                  <div key={i} className="small">
                    <code>{r.code}</code> {engineText(t, r.msg, r.message)}
                  </div>
                ))}
              </div>
            </div>
          ))
        )}
      </Section>

      <Section title={t('agents.shadowing', { count: by('shadowed').length + by('ambiguous').length })}>
        {[...by('shadowed'), ...by('ambiguous')].map((s) => (
          <div key={s.entryId} className="small" data-testid={rowId(TID.agentShadowRow, s.entryId)}>
            <b>{s.identifier}</b> <span className="muted">{s.entryId}</span>{' '}
            {s.status === 'shadowed' ? (
              <>
                {t('agents.hiddenBy')} <code>{s.shadowedBy}</code>
              </>
            ) : (
              <Tag size="small" color="orange">
                {t('agents.status.ambiguous')}
              </Tag>
            )}
          </div>
        ))}
        {by('shadowed').length + by('ambiguous').length === 0 && <span className="muted">{t('agents.noneShadowed')}</span>}
      </Section>

      <Section title={t('agents.duplicates', { count: view.duplicates.length })}>
        {view.duplicates.map((d) => (
          <div key={d.identifier} className="small" data-testid={rowId(TID.agentDuplicateRow, d.identifier)}>
            <b>{d.identifier}</b>: {d.entryIds.join(', ')}
          </div>
        ))}
        {view.duplicates.length === 0 && <span className="muted">{t('agents.noDuplicates')}</span>}
      </Section>

      {view.nested.length > 0 && (
        <Section title={t('agents.nested', { count: view.nested.length })}>
          {view.nested.map((n) => (
            <div key={n.dir} className="mono small">
              <Tag size="small" color={n.found ? 'green' : 'gray'}>
                {n.found ? t('agents.found') : t('agents.notFound')}
              </Tag>{' '}
              {n.dir}
            </div>
          ))}
        </Section>
      )}

      <Section title={t('agents.loads', { count: loaded.length })}>
        <ListingOrder view={view} />
        <TurnOffUnused agent={agent} skills={loaded} />
        {loaded.slice(0, SHOWN).map((s) => (
          <div key={s.entryId} className="small" data-testid={rowId(TID.agentSkillRow, s.entryId)}>
            <b>{s.listing.label}</b> <span className="muted">{rootName(t, s.rootId)}</span> <ShownTag skill={s} />{' '}
            <UsageTag agent={agent} skill={s} />
            {s.status === 'mangled' && (
              <Tag size="small" color="orange" title={s.reasons.map((r) => engineText(t, r.msg, r.message)).join('\n')}>
                {t('agents.status.mangled')}: {s.reasons.map((r) => engineText(t, r.msg, r.message)).join(t('common.semicolon'))}
              </Tag>
            )}
          </div>
        ))}
        {loaded.length > SHOWN && <div className="muted">{t('agents.more', { count: loaded.length - SHOWN })}</div>}
        {loaded.length === 0 && <Empty description={t('agents.noneLoaded')} />}
      </Section>
    </div>
  );
}

/**
 * The skills in the order the agent lists them, where its order holds from run to run; else by
 * label (the note above them says the agent's own order changes between runs).
 */
function inListingOrder(skills: AgentViewSkill[]): AgentViewSkill[] {
  const at = (s: AgentViewSkill) => s.listing.position ?? Number.MAX_SAFE_INTEGER;
  const placed = skills.some((s) => typeof s.listing.position === 'number');
  return [...skills].sort((a, b) => (placed ? at(a) - at(b) : 0) || a.listing.label.localeCompare(b.listing.label));
}

/** How the agent orders its listing (measured), or nothing for an agent not measured yet. */
function ListingOrder({ view }: { view: AgentView }) {
  const { t } = useTranslation();
  if (!view.listingOrder) return null;
  return (
    <div className="muted small" data-testid={TID.agentListingOrder} data-stable={view.listingOrder.stable}>
      {t('agents.listingOrder')}: {engineText(t, view.listingOrder.msg, '')}
    </div>
  );
}

/** What the agent's model is shown of a skill it loads; `measured`: from a capture of the real CLI's request. */
function ShownTag({ skill }: { skill: AgentViewSkill }) {
  const { t } = useTranslation();
  const listing = skill.listing;
  if (listing.shown === 'hidden') {
    // Loaded, but left out of its model's listing (`disable-model-invocation`): only the user starts it.
    const why = skill.reasons.filter((r) => r.code === 'model-invocation-disabled');
    if (!why.length) return null;
    return (
      <Tag size="small" color="gray" data-testid="agent-shown" title={why.map((r) => engineText(t, r.msg, r.message)).join('\n')}>
        {t('agents.shown.notListed')}
      </Tag>
    );
  }
  const color = listing.shown === 'full' ? 'green' : listing.shown === 'shortened' ? 'orange' : 'red';
  const text =
    listing.shown === 'full'
      ? t('agents.shown.full')
      : listing.shown === 'shortened'
        ? t('agents.shown.shortened', { count: listing.chars })
        : t('agents.shown.nameOnly');
  return (
    <Tag
      size="small"
      color={color}
      data-testid="agent-shown"
      title={listing.measured ? t('agents.shown.measured') : t('agents.shown.predicted')}
    >
      {text}
    </Tag>
  );
}

/** Project roots (`.claude/skills` and the rest inside a project) join the view only for a project. */
function ProjectPicker() {
  const { t } = useTranslation();
  const project = useAgents((s) => s.project);
  const setProject = useAgents((s) => s.setProject);
  const [draft, setDraft] = useState(project);
  return (
    <div className="inline toolbar">
      <span className="muted">{t('agents.project')}</span>
      <Input
        className="toolbar-path"
        allowClear
        value={draft}
        onChange={(v) => {
          setDraft(v);
          if (!v) setProject('');
        }}
        onPressEnter={() => setProject(draft)}
        placeholder={t('agents.noProject')}
        data-testid={TID.agentsProject}
      />
      <Button data-testid={TID.agentsProjectApply} disabled={draft === project} onClick={() => setProject(draft)}>
        {t('agents.showProject')}
      </Button>
      <BrowseButton
        onPick={(dir) => {
          setDraft(dir);
          setProject(dir);
        }}
      />
    </div>
  );
}

function Budget({ view }: { view: AgentView }) {
  const { t } = useTranslation();
  const { budget } = view;
  const percent = budget.limit ? Math.min(100, Math.round((budget.used / budget.limit) * 100)) : 0;
  return (
    <div className="card" data-testid={TID.agentBudget} data-over={budget.over}>
      <div className="subheading">{t('agents.budget')}</div>
      {budget.limit ? (
        <>
          <Progress
            percent={percent}
            status={budget.over ? 'error' : percent > 80 ? 'warning' : 'normal'}
            formatText={() => t('agents.budgetUsed', { used: budget.used, limit: budget.limit })}
          />
          {budget.over && (
            <Alert
              type="warning"
              className="page-alert"
              content={t('agents.overBudget', { overflow: engineText(t, budget.overflowMsg ?? undefined, budget.overflow ?? '') })}
            />
          )}
        </>
      ) : (
        <div className="muted">{t('agents.noBudget', { used: budget.used })}</div>
      )}
      {budget.costliest.length > 0 && (
        <div className="costliest">
          <div className="muted small">{t('agents.costliest')}</div>
          {budget.costliest.map((c) => (
            <div key={c.entryId} className="cost-row small" data-testid={rowId(TID.agentCostRow, c.entryId)}>
              <span className="cost-name">{c.identifier}</span>
              <span className="cost-bar" style={{ width: `${Math.max(2, (c.chars / (budget.costliest[0]?.chars || 1)) * 100)}%` }} />
              <span className="muted">{c.chars}</span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="section">
      <div className="subheading">{title}</div>
      {children}
    </section>
  );
}
