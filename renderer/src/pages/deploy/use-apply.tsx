import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal, Notification } from '@arco-design/web-react';
import type { DeployResult } from '../../../../src/contract/index';
import { useDeploy, withAgentNames, type SetRequest } from '../../stores/deploy-store';
import { useAgents } from '../../stores/agents-store';
import { errorText } from '../../stores/errors';
import { engineText } from '../../i18n/engine-text';
import { showUndoToast } from '../library/undo-toast';
import { operationWhat } from '../../../../src/contract/operation-what';
import { TID } from '../../testids';

/**
 * Applying a change from the page and saying what it did: the trust questions (an unapproved
 * script stops it; high risk to every agent asks), the agents that get a skill because they read
 * the same folder, entries left as they are, and one Undo for the whole apply.
 */
export function useApply() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const names = useAgents((s) => s.names);
  const word = (m: Parameters<typeof withAgentNames>[0]) => engineText(t, withAgentNames(m, names), m.key);

  const report = (r: DeployResult) => {
    for (const [skill, agents] of Object.entries(r.alsoOn)) {
      Notification.info({
        id: `deploy-also-${skill}`,
        title: t('deploy.alsoOnTitle'),
        content: (
          <span data-testid={TID.deployAlsoOn}>
            {t('deploy.alsoOn', { skill, agents: agents.map((a) => names[a] ?? a).join(t('common.comma')) })}
          </span>
        ),
        duration: 8000,
        position: 'bottomRight',
      });
    }
    for (const n of r.notices)
      Notification.info({
        id: `deploy-notice-${JSON.stringify(n.params ?? {})}`,
        title: t('deploy.noticeTitle'),
        content: <span data-testid={TID.deployNotice}>{word(n)}</span>,
        duration: 8000,
        position: 'bottomRight',
      });
    const left = r.steps.filter((s) => (s.action === 'blocked' || s.action === 'conflict') && s.why);
    if (left.length)
      Notification.warning({
        id: 'deploy-left',
        title: t('deploy.leftTitle', { count: left.length }),
        content: (
          <div data-testid={TID.deployLeft}>
            {left.slice(0, 5).map((s, i) => (
              <p key={i}>{word(s.why!)}</p>
            ))}
          </div>
        ),
        duration: 0,
        position: 'bottomRight',
      });
    if (r.journalId) {
      const skills = [...new Set(r.steps.filter((s) => s.action !== 'blocked' && s.action !== 'conflict').map((s) => s.skill))];
      showUndoToast(t, t('deploy.applied'), [{ id: r.journalId, what: operationWhat({ op: 'deploy', skills }) }]);
    }
  };

  const run = async (fn: () => Promise<DeployResult | null>) => {
    setBusy(true);
    try {
      const r = await fn();
      if (r) report(r);
    } catch (err) {
      Notification.error({ title: t('deploy.failed'), content: errorText(err), duration: 6000, position: 'bottomRight' });
    } finally {
      setBusy(false);
    }
  };

  const apply = (req: SetRequest) =>
    run(async () => {
      const r = await useDeploy.getState().set(req);
      if (!r.ask.length) return r;
      const blocking = r.ask.filter((q) => q.key !== 'deploy.high-risk-all');
      if (blocking.length) {
        Modal.warning({
          title: t('deploy.approveFirst'),
          content: (
            <div data-testid={TID.deployAsk}>
              {blocking.map((q, i) => (
                <p key={i}>{word(q)}</p>
              ))}
            </div>
          ),
        });
        return null;
      }
      const yes = await new Promise<boolean>((resolve) =>
        Modal.confirm({
          title: t('deploy.highRiskTitle'),
          content: (
            <div data-testid={TID.deployAsk}>
              {r.ask.map((q, i) => (
                <p key={i}>{word(q)}</p>
              ))}
            </div>
          ),
          okText: t('deploy.deployAnyway'),
          onOk: () => resolve(true),
          onCancel: () => resolve(false),
        }),
      );
      return yes ? useDeploy.getState().set({ ...req, confirmed: true }) : null;
    });

  const repair = (choices?: { restore?: string[] }) => run(() => useDeploy.getState().repair(choices));
  return { busy, apply, repair, run };
}
