import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Input, InputNumber, Message, Radio, Select, Spin } from '@arco-design/web-react';
import type { Language, ScriptPolicy, Settings } from '../../../../src/contract/index';
import { useSettings } from '../../stores/settings-store';
import { LANGUAGES, LANGUAGE_NAMES } from '../../i18n';
import { TID, pageId, rowId } from '../../testids';
import { CustomAgentsSection } from './custom-agents';
import { TrustFilesSection } from './trust-files';
import { McpHostsSection } from './mcp-hosts';
import { UsageSection } from './usage-section';
import { PageHeader } from '../../components/page-header';
import { BrowseButton } from '../../components/browse-button';

type Theme = Settings['theme'];

export function SettingsPage() {
  const { t } = useTranslation();
  const { settings, update, error } = useSettings();
  const [roots, setRoots] = useState<string[]>([]);
  const [newRoot, setNewRoot] = useState('');
  const [terminal, setTerminal] = useState('');
  const [days, setDays] = useState(7);

  // Reset the drafts only when their own fields change: adding a custom agent or switching the
  // theme must not throw away an unsaved extra root.
  const storedDrafts = settings && JSON.stringify([settings.extraRoots, settings.terminalCommand, settings.workspaceCleanupDays]);
  useEffect(() => {
    if (!settings) return;
    setRoots(settings.extraRoots);
    setTerminal(settings.terminalCommand ?? '');
    setDays(settings.workspaceCleanupDays);
  }, [storedDrafts]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!settings) return error ? <Alert type="error" content={error} /> : <Spin />;
  const dirty =
    JSON.stringify(roots) !== JSON.stringify(settings.extraRoots) ||
    (terminal.trim() || null) !== settings.terminalCommand ||
    days !== settings.workspaceCleanupDays;
  const addRoot = (dir: string) => {
    const d = dir.trim();
    if (d && !roots.includes(d)) setRoots([...roots, d]);
    setNewRoot('');
  };

  return (
    <div className="page" data-testid={pageId('settings')}>
      <PageHeader title={t('settings.title')} />
      {error && <Alert type="error" content={error} className="page-alert" />}
      <div className="card form-grid">
        <label>{t('settings.language')}</label>
        <Select
          value={settings.language ?? undefined}
          onChange={(language: Language) => void update({ language })}
          data-testid={TID.settingsLanguage}
        >
          {LANGUAGES.map((l) => (
            <Select.Option key={l} value={l} data-testid={rowId(TID.settingsLanguage, l)}>
              {LANGUAGE_NAMES[l]}
            </Select.Option>
          ))}
        </Select>
        <label>{t('settings.theme')}</label>
        <Radio.Group
          type="button"
          value={settings.theme}
          onChange={(theme: Theme) => void update({ theme })}
          data-testid={TID.settingsTheme}
        >
          <Radio value="light" data-testid={TID.settingsThemeLight}>
            {t('settings.themes.light')}
          </Radio>
          <Radio value="dark" data-testid={TID.settingsThemeDark}>
            {t('settings.themes.dark')}
          </Radio>
          <Radio value="system" data-testid={TID.settingsThemeSystem}>
            {t('settings.themes.system')}
          </Radio>
        </Radio.Group>
        <label>{t('settings.scriptPolicy')}</label>
        <div>
          <Select
            value={settings.scriptPolicy}
            onChange={(scriptPolicy: ScriptPolicy) => void update({ scriptPolicy })}
            data-testid={TID.settingsScriptPolicy}
            options={(['allowed', 'ask', 'never'] as const).map((p) => ({ label: t(`settings.policy.${p}`), value: p }))}
          />
          <div className="muted small hint">{t('settings.scriptPolicyHint')}</div>
        </div>
      </div>

      <div className="card form-grid">
        <label>{t('settings.extraRoots')}</label>
        <div data-testid={TID.settingsExtraRoots}>
          {roots.length === 0 && <div className="muted small">{t('settings.noExtraRoots')}</div>}
          {roots.map((r, i) => (
            <div key={r} className="inline root-row">
              <code className="grow">{r}</code>
              <Button
                size="mini"
                status="danger"
                data-testid={rowId(TID.settingsExtraRootRemove, String(i))}
                onClick={() => setRoots(roots.filter((x) => x !== r))}
              >
                {t('common.remove')}
              </Button>
            </div>
          ))}
          <div className="inline">
            <Input
              value={newRoot}
              onChange={setNewRoot}
              onPressEnter={() => addRoot(newRoot)}
              placeholder="/path/to/skills"
              data-testid={TID.settingsExtraRootInput}
            />
            <Button data-testid={TID.settingsExtraRootAdd} disabled={!newRoot.trim()} onClick={() => addRoot(newRoot)}>
              {t('common.add')}
            </Button>
            <BrowseButton testId={TID.settingsExtraRootPick} onPick={addRoot} />
          </div>
        </div>
        <label>{t('settings.terminal')}</label>
        <div>
          <Input value={terminal} onChange={setTerminal} placeholder={t('settings.terminalDefault')} data-testid={TID.settingsTerminal} />
          <div className="muted small hint">{t('settings.terminalHint')}</div>
        </div>
        <label>{t('settings.cleanupDays')}</label>
        <InputNumber
          min={1}
          max={3650}
          value={days}
          onChange={(v) => setDays(Number(v) || 1)}
          data-testid={TID.settingsCleanupDays}
          suffix={t('settings.days')}
        />
        <span />
        <div className="actions-row">
          <Button
            type="primary"
            disabled={!dirty}
            data-testid={TID.settingsSave}
            onClick={async () => {
              const saved = await update({ extraRoots: roots, terminalCommand: terminal.trim() || null, workspaceCleanupDays: days });
              if (saved) Message.success(t('settings.saved'));
            }}
          >
            {t('common.save')}
          </Button>
        </div>
      </div>

      <TrustFilesSection />
      <McpHostsSection />
      <UsageSection />
      <CustomAgentsSection />
    </div>
  );
}
