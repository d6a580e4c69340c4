import { useTranslation } from 'react-i18next';
import { Alert, Button, Space } from '@arco-design/web-react';
import { useLaunch, type LaunchRefusal } from '../../stores/launch-store';
import { findEntry, useCatalog } from '../../stores/catalog-store';
import { TID, rowId } from '../../testids';

/**
 * The engine refused a launch: attached skills can run scripts the user has not approved (or that
 * changed since approval). Name them, and let the user choose: approve first (elsewhere), launch
 * without them, or launch with their scripts blocked. Each skill opens in the drawer on its
 * Security tab, where its findings and the approve button are.
 */
export function LaunchRefusalView({ refusal }: { refusal: LaunchRefusal }) {
  const { t } = useTranslation();
  const { launch, launching, clearError } = useLaunch();
  const catalog = useCatalog((s) => s.catalog);
  const openSkill = useCatalog((s) => s.open);
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
          <Space wrap style={{ marginTop: 8 }}>
            {refusal.skills.map((s) => {
              const entry = findEntry(catalog, s);
              return (
                <Button
                  key={s.name}
                  type="primary"
                  status="warning"
                  disabled={!entry}
                  data-testid={rowId(TID.launchReviewSkill, s.name)}
                  onClick={() => entry && openSkill(entry.id, 'security')}
                >
                  {t('launch.reviewSkill', { skill: s.name })}
                </Button>
              );
            })}
          </Space>
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
