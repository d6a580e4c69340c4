import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Alert, Button, Message, Radio, Select } from '@arco-design/web-react';
import type { McpServerInfo, McpUnapproved } from '../../../../src/contract/index';
import { useMcp } from '../../stores/mcp-store';
import { useSettings } from '../../stores/settings-store';
import { TID, rowId } from '../../testids';
import { mcpHosts, type McpHostId } from './mcp-snippets';

// "Skills for MCP hosts": the line that adds `skilldock mcp` to each popular host and the snippet
// for its configuration file, each copied with one click; which servers run now and what they
// serve; and what a server does with skills whose scripts are not approved.

function CopyBlock({ text, testId }: { text: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="inline">
      <pre className="grow mcp-snippet">
        <code>{text}</code>
      </pre>
      <Button
        size="mini"
        data-testid={testId}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            Message.success(t('settings.mcp.copied'));
          } catch {
            Message.error(t('settings.mcp.copyFailed'));
          }
        }}
      >
        {t('settings.mcp.copy')}
      </Button>
    </div>
  );
}

function scopeText(t: TFunction, s: McpServerInfo['scope']): string {
  if (s.assistant) return t('settings.mcp.scopeAssistant', { name: s.assistant });
  if (s.skills) return t('settings.mcp.scopeSkills', { names: s.skills.join(', ') });
  return t('settings.mcp.scopeLibrary');
}

export function McpHostsSection() {
  const { t } = useTranslation();
  const [host, setHost] = useState<McpHostId>('claude-desktop');
  const { servers, error, load } = useMcp();
  const settings = useSettings((s) => s.settings);
  const update = useSettings((s) => s.update);
  useEffect(() => {
    void load();
  }, [load]);
  const setup = mcpHosts().find((h) => h.id === host)!;
  return (
    <div className="card" data-testid={TID.settingsMcp}>
      <h3>{t('settings.mcp.title')}</h3>
      <p className="muted small">{t('settings.mcp.intro')}</p>
      <Radio.Group type="button" value={host} onChange={(v: McpHostId) => setHost(v)}>
        {mcpHosts().map((h) => (
          <Radio key={h.id} value={h.id} data-testid={rowId(TID.settingsMcpHost, h.id)}>
            {h.name}
          </Radio>
        ))}
      </Radio.Group>
      {setup.command && (
        <>
          <label>{t('settings.mcp.commandLine')}</label>
          <CopyBlock text={setup.command} testId={rowId(TID.settingsMcpCopy, 'command')} />
        </>
      )}
      <label>{t('settings.mcp.configFile', { file: setup.file })}</label>
      <CopyBlock text={setup.snippet} testId={rowId(TID.settingsMcpCopy, 'snippet')} />
      <p className="muted small">{t('settings.mcp.scopeHint')}</p>

      <label>{t('settings.mcp.unapproved')}</label>
      {settings && (
        <Select
          value={settings.mcpUnapproved}
          data-testid={TID.settingsMcpUnapproved}
          onChange={(mcpUnapproved: McpUnapproved) => void update({ mcpUnapproved })}
        >
          <Select.Option value="withhold-scripts">{t('settings.mcp.withholdScripts')}</Select.Option>
          <Select.Option value="hide">{t('settings.mcp.hide')}</Select.Option>
        </Select>
      )}

      <label>{t('settings.mcp.running')}</label>
      {error && <Alert type="error" content={error} />}
      {servers && servers.length === 0 && <div className="muted">{t('settings.mcp.noneRunning')}</div>}
      {servers?.map((s) => (
        <div key={s.id} className="inline root-row" data-testid={rowId(TID.settingsMcpServer, s.id)}>
          <code>{s.transport === 'http' ? s.url : 'stdio'}</code>
          <span className="grow">{scopeText(t, s.scope)}</span>
          <span className="muted small">{t('settings.mcp.pid', { pid: s.pid })}</span>
        </div>
      ))}
      <Button size="mini" onClick={() => void load()}>
        {t('settings.mcp.refresh')}
      </Button>
    </div>
  );
}
