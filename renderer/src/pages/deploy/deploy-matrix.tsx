import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Switch, Tag, Tooltip } from '@arco-design/web-react';
import type { DeployCell, DeployState, DeployStatus } from '../../../../src/contract/index';
import { useDeploy } from '../../stores/deploy-store';
import { useAgents } from '../../stores/agents-store';
import { useRisks } from '../../stores/risk-store';
import { TID, rowId } from '../../testids';
import { useApply } from './use-apply';

const STATE_COLOR: Record<DeployState, string> = {
  'in-sync': 'green',
  drifted: 'orange',
  missing: 'orange',
  broken: 'red',
  foreign: 'gray',
  shadowed: 'gray',
  duplicate: 'red',
};

/** A cell's test id: `deploy-cell-<skill>--<agent>`. */
export const cellId = (skill: string, agent: string) => rowId(TID.deployCell, `${skill}--${agent}`);

/** Skills as rows, agents as columns; a switch per cell, per row (every agent) and per column (every skill). */
export function DeployMatrix({ status }: { status: DeployStatus }) {
  const { t } = useTranslation();
  const names = useAgents((s) => s.names);
  const mode = useDeploy((s) => s.mode);
  const risks = useRisks((s) => s.byId);
  const { busy, apply } = useApply();
  const { skills, cell } = useMemo(() => {
    const byKey = new Map(status.cells.map((c) => [`${c.skill}\0${c.agent}`, c]));
    return { skills: [...new Set(status.cells.map((c) => c.skill))], cell: (s: string, a: string) => byKey.get(`${s}\0${a}`) };
  }, [status]);
  const agents = status.agents;
  const name = (id: string) => names[id] ?? agents.find((a) => a.id === id)?.name ?? id;

  if (!skills.length) return <p data-testid={TID.deployEmpty}>{t('deploy.empty')}</p>;
  return (
    <div className="deploy-matrix-wrap">
      <table className="deploy-matrix" data-testid={TID.deployMatrix}>
        <thead>
          <tr>
            <th scope="col">{t('deploy.skill')}</th>
            <th scope="col">{t('deploy.allAgents')}</th>
            {agents.map((a) => {
              const all = skills.every((s) => cell(s, a.id)?.wanted);
              return (
                <th scope="col" key={a.id}>
                  <div className="deploy-agent">{name(a.id)}</div>
                  <Tooltip content={t('deploy.allSkillsFor', { agent: name(a.id) })}>
                    <Switch
                      size="small"
                      checked={all}
                      disabled={busy}
                      aria-label={t('deploy.allSkillsFor', { agent: name(a.id) })}
                      data-testid={rowId(TID.deployColumnAll, a.id)}
                      onChange={(on) => void apply({ skills, agents: [a.id], mode: on ? mode : null })}
                    />
                  </Tooltip>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {skills.map((s) => {
            const all = agents.every((a) => cell(s, a.id)?.wanted);
            const risk = risks.get(`library/${s}`);
            const level = risk && risk.high > 0 ? 'high' : risk && risk.medium > 0 ? 'medium' : null;
            return (
              <tr key={s} data-testid={rowId(TID.deployRow, s)}>
                <th scope="row">
                  <span className="deploy-skill">{s}</span>
                  {level && (
                    <Tag size="small" color={level === 'high' ? 'red' : 'orange'} data-testid={TID.deployRisk} data-level={level}>
                      {t(`skills.badge.risk.${level}`, { count: level === 'high' ? risk!.high : risk!.medium })}
                    </Tag>
                  )}
                </th>
                <td>
                  <Switch
                    size="small"
                    checked={all}
                    disabled={busy}
                    aria-label={t('deploy.allAgentsFor', { skill: s })}
                    data-testid={rowId(TID.deployRowAll, s)}
                    onChange={(on) => void apply({ skills: [s], allAgents: true, mode: on ? mode : null })}
                  />
                </td>
                {agents.map((a) => (
                  <Cell
                    key={a.id}
                    c={cell(s, a.id)}
                    label={t('deploy.cellFor', { skill: s, agent: name(a.id) })}
                    busy={busy}
                    onChange={(on) => void apply({ skills: [s], agents: [a.id], mode: on ? mode : null })}
                    viaName={name}
                  />
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Cell({
  c,
  label,
  busy,
  onChange,
  viaName,
}: {
  c: DeployCell | undefined;
  label: string;
  busy: boolean;
  onChange(on: boolean): void;
  viaName(id: string): string;
}) {
  const { t } = useTranslation();
  if (!c) return <td />;
  const via = c.on && !c.wanted && c.via.length > 0;
  return (
    <td data-testid={cellId(c.skill, c.agent)} data-on={c.on} data-wanted={c.wanted ?? ''} data-state={c.state ?? ''}>
      <Switch size="small" checked={!!c.wanted} disabled={busy} aria-label={label} onChange={onChange} data-testid={TID.deployCellSwitch} />
      {c.wanted === 'copy' && <span className="deploy-mode-mark">{t('deploy.mode.copy')}</span>}
      {via && (
        <Tooltip content={t('deploy.viaHint', { agents: c.via.map(viaName).join(t('common.comma')) })}>
          <span className="deploy-via" data-testid={TID.deployVia}>
            {t('deploy.via', { agents: c.via.map(viaName).join(t('common.comma')) })}
          </span>
        </Tooltip>
      )}
      {c.state && c.state !== 'in-sync' && (
        <Tag size="small" color={STATE_COLOR[c.state]} data-testid={TID.deployState} data-state={c.state}>
          {t(`deploy.state.${c.state}`)}
        </Tag>
      )}
    </td>
  );
}
