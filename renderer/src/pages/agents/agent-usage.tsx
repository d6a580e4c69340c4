import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Message, Popconfirm, Tag } from '@arco-design/web-react';
import type { AgentViewSkill } from '../../../../src/contract/index';
import { useUsage } from '../../stores/usage-store';
import { useDeploy } from '../../stores/deploy-store';
import { TID, rowId } from '../../testids';

// The usage ledger on the Agents page: per loaded skill, "never used in 90 days" next to the
// characters it costs in this agent's listing; "usage unknown" when the agent's log format changed
// (never zeros then); and one action that turns the unused skills SkillDock placed in this agent's
// folders off for it (src/deploy).

/** Loaded skills of `agent` that it did not load once in 90 days, or null while the ledger is not read or the usage is unknown. */
function useUnused(agent: string, skills: AgentViewSkill[]): AgentViewSkill[] | null {
  const summary = useUsage((s) => s.summary);
  const bySkill = useUsage((s) => s.bySkill);
  const load = useUsage((s) => s.load);
  useEffect(() => {
    void load();
  }, [load]);
  return useMemo(() => {
    if (!summary || summary.unknown.includes(agent)) return null;
    return skills.filter((s) => !bySkill.get(s.identifier)?.byAgent[agent]);
  }, [summary, bySkill, agent, skills]);
}

export function UsageTag({ agent, skill }: { agent: string; skill: AgentViewSkill }) {
  const { t } = useTranslation();
  const summary = useUsage((s) => s.summary);
  const n = useUsage((s) => s.bySkill.get(skill.identifier)?.byAgent[agent] ?? 0);
  if (!summary) return null;
  if (summary.unknown.includes(agent))
    return (
      <Tag size="small" color="orange" data-testid={TID.agentUsageUnknown}>
        {t('agents.usage.unknown')}
      </Tag>
    );
  return n > 0 ? (
    <Tag size="small" color="green" data-testid={TID.agentSkillUsage} data-used={n}>
      {t('skills.usage.used', { count: n })}
    </Tag>
  ) : (
    <Tag size="small" color="gray" data-testid={TID.agentSkillUsage} data-used={0}>
      {t('skills.usage.never', { chars: skill.catalogChars })}
    </Tag>
  );
}

/** Turn off, for this agent, the unused skills SkillDock deployed to it. */
export function TurnOffUnused({ agent, skills }: { agent: string; skills: AgentViewSkill[] }) {
  const { t } = useTranslation();
  const unused = useUnused(agent, skills);
  const status = useDeploy((s) => s.status);
  const load = useDeploy((s) => s.load);
  const setDeploy = useDeploy((s) => s.set);
  useEffect(() => {
    void load();
  }, [load]);
  const names = useMemo(() => {
    if (!unused || !status) return [];
    const deployed = new Set(status.cells.filter((c) => c.agent === agent && c.wanted !== null).map((c) => c.skill));
    return unused.map((s) => s.identifier).filter((n) => deployed.has(n));
  }, [unused, status, agent]);
  if (!names.length) return null;
  return (
    <Popconfirm
      title={t('agents.usage.turnOffConfirm', { count: names.length, names: names.join(', ') })}
      onOk={async () => {
        try {
          await setDeploy({ skills: names, agents: [agent], mode: null });
          Message.success(t('agents.usage.turnedOff', { count: names.length }));
        } catch (err) {
          Message.error(String((err as Error).message));
        }
      }}
    >
      <Button size="small" data-testid={rowId(TID.agentTurnOffUnused, agent)}>
        {t('agents.usage.turnOff', { count: names.length })}
      </Button>
    </Popconfirm>
  );
}
