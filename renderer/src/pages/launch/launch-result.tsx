import { useTranslation } from 'react-i18next';
import { engineText } from '../../i18n/engine-text';
import { Alert, Button, Descriptions, Message, Tag } from '@arco-design/web-react';
import type { LaunchResult } from '../../../../src/contract/index';
import { desktop } from '../../stores/desktop';
import { errorText } from '../../stores/errors';
import { shellJoin, useLaunch } from '../../stores/launch-store';
import { useAgents } from '../../stores/agents-store';
import { TID, rowId } from '../../testids';
import { PageHeader } from '../../components/page-header';

async function copy(text: string, done: string) {
  try {
    await navigator.clipboard.writeText(text);
    Message.success(done);
  } catch (err) {
    Message.error(errorText(err));
  }
}

export function LaunchResultView({ result }: { result: LaunchResult }) {
  const { t } = useTranslation();
  const agentName = useAgents((s) => s.names[result.agent] ?? result.agent);
  const command = [...Object.entries(result.env).map(([k, v]) => `${k}=${shellJoin([v])}`), shellJoin(result.command)].join(' ');

  return (
    <div className="card" data-testid={TID.launchResult} data-conversation={result.conversationId}>
      <PageHeader
        title={t('launch.resultTitle')}
        heading={6}
        actions={
          <>
            <Button
              type="primary"
              data-testid={TID.launchOpenTerminal}
              onClick={async () => {
                try {
                  await useLaunch.getState().openInTerminal(result.conversationId);
                  Message.success(t('launch.terminalOpened'));
                } catch (err) {
                  Message.error(errorText(err));
                }
              }}
            >
              {t('launch.openTerminal')}
            </Button>
            {desktop.canReveal() && (
              <Button data-testid={TID.launchReveal} onClick={() => void desktop.reveal(result.workspace)}>
                {t('launch.reveal')}
              </Button>
            )}
            <Button
              data-testid={TID.launchCopyCommand}
              onClick={() => void copy(`cd ${shellJoin([result.workspace])} && ${command}`, t('launch.copied'))}
            >
              {t('launch.copyCommand')}
            </Button>
            {result.firstMessage && (
              <Button data-testid={TID.launchCopyFirstMessage} onClick={() => void copy(result.firstMessage!, t('launch.copied'))}>
                {t('launch.copyFirstMessage')}
              </Button>
            )}
          </>
        }
      >
        <Tag color={result.mode === 'native' ? 'green' : 'orange'} data-testid={TID.launchMode}>
          {t(`launch.mode.${result.mode}`)}
        </Tag>
      </PageHeader>
      {result.problems.map((p, i) => (
        <Alert key={i} type="error" className="page-alert" content={engineText(t, p.msg, p.message)} />
      ))}
      <Descriptions
        column={1}
        size="small"
        data={[
          { label: t('launch.workspace'), value: <code data-testid={TID.launchWorkspace}>{result.workspace}</code> },
          { label: t('launch.kind'), value: result.temporary ? t('launch.temporary') : t('launch.userProject') },
          { label: t('launch.agentLabel'), value: agentName },
          {
            label: t('launch.contextFile'),
            value: result.contextFile ? <code>{result.contextFile}</code> : <span className="muted">{t('launch.noContextFile')}</span>,
          },
          { label: t('launch.command'), value: <code data-testid={TID.launchCommand}>{command}</code> },
        ]}
      />
      <div className="subheading">{t('launch.links', { count: result.links.length })}</div>
      {result.links.length === 0 && (
        <div className="muted small">{t(result.mode === 'native' ? 'launch.noLinks' : 'launch.noLinksIndex')}</div>
      )}
      {result.links.map((l) => (
        <div key={l.path} className="mono small" data-testid={rowId(TID.launchLink, l.skill)} data-ok={l.ok}>
          <Tag size="small" color={l.ok ? 'green' : 'red'}>
            {l.ok ? t('launch.linkOk') : t('launch.linkBroken')}
          </Tag>{' '}
          {l.path} → {l.target}
          {l.error && <span className="error-text"> {l.error}</span>}
        </div>
      ))}
      <div className="subheading">{t('launch.stateDirs', { count: result.stateDirs.length })}</div>
      {result.stateDirs.map((s) => (
        <div key={s.id} className="mono small" data-testid={rowId(TID.launchStateDir, s.skill)}>
          <b>{s.skill}</b>: {s.dir} <span className="muted">({s.uri})</span>
        </div>
      ))}
      {result.legacy.length > 0 && (
        <>
          <div className="subheading">{t('launch.legacy')}</div>
          {result.legacy.map((m, i) => (
            <div key={i} className="mono small">
              {m.skill}: {m.from} → {m.to}
            </div>
          ))}
        </>
      )}
      {result.firstMessage && (
        <>
          <div className="subheading">{t('launch.firstMessage')}</div>
          <pre className="pre-box" data-testid={TID.launchFirstMessage}>
            {result.firstMessage}
          </pre>
        </>
      )}
    </div>
  );
}
