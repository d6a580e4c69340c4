import { useTranslation } from 'react-i18next';
import { Alert, Button, Space } from '@arco-design/web-react';
import { useLaunch, type LaunchRefusal } from '../../stores/launch-store';
import { TID } from '../../testids';

/**
 * The engine refused a launch: attached skills can run scripts the user has not approved (or that
 * changed since approval). Name them, and let the user choose: approve first (elsewhere), launch
 * without them, or launch with their scripts blocked.
 */
export function LaunchRefusalView({ refusal }: { refusal: LaunchRefusal }) {
  const { t } = useTranslation();
  const { launch, launching, clearError } = useLaunch();
  const skills = refusal.skills
    .map((s) => `${s.name} (${s.status === 'changed' ? t('launch.refusedChanged') : t('launch.refusedUnapproved')})`)
    .join(', ');
  return (
    <Alert
      type="warning"
      closable
      onClose={clearError}
      className="page-alert"
      data-testid={TID.launchRefused}
      content={
        <div>
          <div>{t('launch.refused', { skills })}</div>
          <div className="muted hint">{t('launch.refusedHint')}</div>
          <Space style={{ marginTop: 8 }}>
            <Button
              loading={launching}
              data-testid={TID.launchOmit}
              onClick={() => void launch(refusal.assistant, refusal.workspace, 'omit')}
            >
              {t('launch.launchWithout')}
            </Button>
            <Button
              loading={launching}
              data-testid={TID.launchSkip}
              onClick={() => void launch(refusal.assistant, refusal.workspace, 'skip')}
            >
              {t('launch.launchNoScripts')}
            </Button>
          </Space>
        </div>
      }
    />
  );
}
