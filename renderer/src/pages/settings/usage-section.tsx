import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Popconfirm, Switch } from '@arco-design/web-react';
import { useSettings } from '../../stores/settings-store';
import { useUsage } from '../../stores/usage-store';
import { TID } from '../../testids';

// Settings, "Skill usage": whether the agents' own session logs are read (opt-in), a scan now, what
// the last scan found per agent, and clearing the ledger. Everything stays on this machine.

export function UsageSection() {
  const { t } = useTranslation();
  const settings = useSettings((s) => s.settings);
  const update = useSettings((s) => s.update);
  const { summary, error, busy, load, scan, clear } = useUsage();
  useEffect(() => {
    void load();
  }, [load]);
  const readLogs = settings?.usageReadLogs ?? false;
  return (
    <div className="card" data-testid={TID.settingsUsage}>
      <h3>{t('settings.usage.title')}</h3>
      <p className="muted small">{t('settings.usage.hint')}</p>
      <label className="inline">
        <Switch
          size="small"
          checked={readLogs}
          data-testid={TID.settingsUsageLogs}
          onChange={(usageReadLogs: boolean) => void update({ usageReadLogs }).then(() => load())}
        />
        <span>{t('settings.usage.readLogs')}</span>
      </label>
      {error && <Alert type="error" content={error} />}
      {readLogs &&
        Object.entries(summary?.logs ?? {}).map(([agent, st]) => (
          <div key={agent} className="small" data-testid={`${TID.settingsUsageLog}-${agent}`}>
            <b>{t(`agentNames.${agent}`, { defaultValue: agent })}</b>:{' '}
            {!st
              ? t('settings.usage.notScanned')
              : st.format === 'unknown'
                ? t('settings.usage.unknown')
                : t('settings.usage.scanned', { files: st.files, lines: st.lines, bad: st.bad + st.tooLong })}
          </div>
        ))}
      <div className="inline">
        <Button size="small" disabled={!readLogs || busy} data-testid={TID.settingsUsageScan} onClick={() => void scan()}>
          {t('settings.usage.scan')}
        </Button>
        <Popconfirm title={t('settings.usage.clearConfirm')} onOk={() => void clear()}>
          <Button size="small" status="danger" disabled={busy} data-testid={TID.settingsUsageClear}>
            {t('settings.usage.clear')}
          </Button>
        </Popconfirm>
      </div>
    </div>
  );
}
