import { useTranslation } from 'react-i18next';
import { Button, Space } from '@arco-design/web-react';
import { useAgents } from '../../stores/agents-store';
import { useDeploy } from '../../stores/deploy-store';
import { useApply } from '../deploy/use-apply';
import { TID, rowId } from '../../testids';

/**
 * After an install from a catalog: one click more puts the skill in an agent's own skills folder
 * (issue 29 item 4), through the same apply as the Deployments page, so the same trust questions
 * (unapproved scripts stop it, high risk to every agent asks), notices and one Undo.
 */
export function DeployAfterInstall({ name, agents }: { name: string; agents: string[] }) {
  const { t } = useTranslation();
  const names = useAgents((s) => s.names);
  const mode = useDeploy((s) => s.mode);
  const { busy, apply } = useApply();
  return (
    <div className="discover-section">
      <h4>{t('discover.preview.useWith')}</h4>
      <Space wrap>
        {agents.map((a) => (
          <Button
            key={a}
            size="small"
            disabled={busy}
            onClick={() => void apply({ skills: [name], agents: [a], mode })}
            data-testid={rowId(TID.discoverDeployTo, a)}
          >
            {t('discover.preview.deployTo', { agent: names[a] ?? a })}
          </Button>
        ))}
        <Button
          size="small"
          type="outline"
          disabled={busy}
          onClick={() => void apply({ skills: [name], allAgents: true, mode })}
          data-testid={TID.discoverDeployAll}
        >
          {t('discover.preview.deployAll')}
        </Button>
      </Space>
    </div>
  );
}
