import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Radio, Spin, Tag } from '@arco-design/web-react';
import type { DeployMode } from '../../../../src/contract/index';
import { useDeploy } from '../../stores/deploy-store';
import { useAgents } from '../../stores/agents-store';
import { useCatalog } from '../../stores/catalog-store';
import { engineText } from '../../i18n/engine-text';
import { withAgentNames } from '../../stores/deploy-store';
import { PageHeader } from '../../components/page-header';
import { TID, pageId } from '../../testids';
import { DeployMatrix } from './deploy-matrix';
import { ConflictList } from './conflict-list';
import { useApply } from './use-apply';
import './deploy.css';

/**
 * Deployments: which library skills each agent has in its own user folders. One switch per skill
 * and agent, a row switch for every agent and a column switch for every skill; drift seen live
 * (the engine watches the folders) and put right with Repair.
 */
export function DeployPage() {
  const { t } = useTranslation();
  const status = useDeploy((s) => s.status);
  const error = useDeploy((s) => s.error);
  const mode = useDeploy((s) => s.mode);
  const names = useAgents((s) => s.names);
  const { busy, repair } = useApply();

  useEffect(() => useDeploy.getState().watch(), []);
  useEffect(() => {
    // the security badges come from the catalog's scan
    if (!useCatalog.getState().catalog) void useCatalog.getState().load();
  }, []);

  const drift = status ? status.entries.filter((e) => e.managed && e.state !== 'in-sync').length : 0;
  const foreign = status ? status.entries.filter((e) => !e.managed && (e.state === 'foreign' || e.state === 'broken')).length : 0;
  return (
    <div className="page" data-testid={pageId('deploy')}>
      <PageHeader
        title={t('deploy.title')}
        actions={
          <>
            <Radio.Group
              type="button"
              size="small"
              value={mode}
              onChange={(v: DeployMode) => useDeploy.getState().setMode(v)}
              data-testid={TID.deployMode}
              aria-label={t('deploy.modeLabel')}
            >
              <Radio value="link">{t('deploy.mode.link')}</Radio>
              <Radio value="copy">{t('deploy.mode.copy')}</Radio>
            </Radio.Group>
            <Button type="primary" disabled={!status || busy} loading={busy} onClick={() => void repair()} data-testid={TID.deployRepair}>
              {t('deploy.repair')}
            </Button>
          </>
        }
      >
        {status && (
          <span className="deploy-summary" data-testid={TID.deploySummary} data-drift={drift}>
            <Tag color={drift ? 'orange' : 'green'}>{drift ? t('deploy.drift', { count: drift }) : t('deploy.allInSync')}</Tag>
            {foreign > 0 && <Tag color="gray">{t('deploy.foreignCount', { count: foreign })}</Tag>}
          </span>
        )}
      </PageHeader>
      <p className="deploy-intro">{t('deploy.intro')}</p>
      {error && <Alert type="error" className="page-alert" content={error} />}
      {status?.folders
        .filter((f) => f.problem)
        .map((f) => (
          <Alert
            key={f.path}
            type="warning"
            className="page-alert"
            data-testid={TID.deployFolderProblem}
            content={engineText(t, withAgentNames(f.problem!, names), f.path)}
          />
        ))}
      {status?.folders
        .filter((f) => f.notice)
        .map((f) => (
          <Alert
            key={`notice-${f.path}`}
            type="info"
            className="page-alert"
            data-testid={TID.deployFolderNotice}
            content={engineText(t, withAgentNames(f.notice!, names), f.path)}
          />
        ))}
      {!status && !error && <Spin />}
      {status && <DeployMatrix status={status} />}
      {status && <ConflictList status={status} />}
    </div>
  );
}
