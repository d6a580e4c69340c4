import { useTranslation } from 'react-i18next';
import { Button, Empty, Message, Popconfirm, Tag } from '@arco-design/web-react';
import { useLaunch } from '../../stores/launch-store';
import { useSettings } from '../../stores/settings-store';
import { useAgents } from '../../stores/agents-store';
import { TID, rowId } from '../../testids';
import { PageHeader } from '../../components/page-header';
import { formatWhen } from '../../i18n/format-date';

export function ConversationList() {
  const { t, i18n } = useTranslation();
  const { workspaces, clean } = useLaunch();
  const days = useSettings((s) => s.settings?.workspaceCleanupDays ?? 7);
  const names = useAgents((s) => s.names);
  const live = workspaces.filter((w) => !w.removedAt);
  return (
    <div className="card">
      <PageHeader
        title={t('launch.history')}
        heading={6}
        actions={
          <>
            <Popconfirm
              title={t('launch.cleanConfirm', { days })}
              okText={t('launch.clean')}
              cancelText={t('common.cancel')}
              onOk={async () => {
                const res = await clean();
                if (res) Message.info(t('launch.cleaned', { removed: res.removed.length, kept: res.kept.length }));
              }}
            >
              <Button data-testid={TID.conversationsClean}>{t('launch.clean')}</Button>
            </Popconfirm>
          </>
        }
      />
      <div data-testid={TID.conversationsList} className="rows">
        {live.length === 0 && <Empty description={t('launch.noHistory')} />}
        {live.map((w) => (
          <div key={w.conversationId} className="row" data-testid={rowId(TID.conversationRow, w.conversationId)}>
            <div className="row-main">
              <div className="row-title">
                {w.assistantName} <Tag size="small">{names[w.agent] ?? w.agent}</Tag> <Tag size="small">{t(`launch.mode.${w.mode}`)}</Tag>
                {!w.temporary && <Tag size="small">{t('launch.userProject')}</Tag>}
                {w.inUse && (
                  <Tag size="small" color="green" title={w.inUseReason}>
                    {t('launch.inUse')}
                  </Tag>
                )}
                {!w.exists && (
                  <Tag size="small" color="gray">
                    {t('launch.gone')}
                  </Tag>
                )}
              </div>
              <div className="muted mono small ellipsis">{w.workspace}</div>
            </div>
            <div className="muted small">{formatWhen(w.createdAt, i18n.language)}</div>
          </div>
        ))}
      </div>
    </div>
  );
}
