import { useTranslation } from 'react-i18next';
import { Alert, Button, Drawer, Spin, Tag } from '@arco-design/web-react';
import { Markdown } from '../../components/markdown';
import { useDiscover } from '../../stores/discover-store';
import { useAgents } from '../../stores/agents-store';
import { findingText } from '../../i18n/engine-text';
import { TID } from '../../testids';
import { DeployAfterInstall } from './deploy-after-install';

const LEVEL_COLOR: Record<string, string> = { high: 'red', medium: 'orange', low: 'cyan' };
const short = (c?: string) => (c && /^[0-9a-f]{40}$/.test(c) ? c.slice(0, 7) : (c ?? ''));

/** The body as the agent reads it; the frontmatter is shown by the fields above it. */
const withoutFrontmatter = (text: string) => text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, '');

/** What a catalog skill is and would do here, before anything is installed; then one click installs it. */
export function PreviewDrawer() {
  const { t } = useTranslation();
  const { preview: p, previewing, busy, open, install } = useDiscover();
  const agents = useAgents((s) => s.agents);
  const name = (id: string) => agents.find((a) => a.id === id)?.name ?? id;
  return (
    <Drawer
      width={640}
      visible={previewing !== null}
      onCancel={() => void open(null)}
      footer={null}
      title={p ? p.skill.name : t('discover.preview.title')}
      data-testid={TID.discoverPreview}
    >
      {!p && <Spin />}
      {p && (
        <>
          <div className="discover-catalog">
            {p.installed ? (
              <Tag color="green" data-testid={TID.discoverPreviewInstalled}>
                {p.updateAvailable
                  ? t('discover.installedUpdate', { name: p.installed })
                  : t('discover.installedAs', { name: p.installed })}
              </Tag>
            ) : (
              <Button type="primary" loading={Boolean(busy.install)} onClick={() => void install()} data-testid={TID.discoverInstall}>
                {t('discover.preview.install')}
              </Button>
            )}
            <span className="muted">{t('discover.preview.nothingRuns')}</span>
          </div>
          {p.installed && <DeployAfterInstall name={p.installed} agents={p.agents.filter((a) => a.listed).map((a) => a.agent)} />}
          {p.skill.description && <p className="discover-section">{p.skill.description}</p>}
          <div className="discover-section muted" data-testid={TID.discoverPreviewSource}>
            {t('discover.preview.source', { url: p.source.url, path: p.source.path || '/', commit: short(p.source.commit) || '—' })}
          </div>
          <h4 className="discover-section">{t('discover.preview.agents')}</h4>
          <div className="discover-preview-agents" data-testid={TID.discoverPreviewAgents}>
            {p.agents.map((a) => (
              <Tag key={a.agent} color={a.listed ? 'green' : 'red'} data-listed={a.listed ? 'yes' : 'no'}>
                {a.listed ? t('discover.preview.lists', { agent: name(a.agent) }) : t('discover.preview.drops', { agent: name(a.agent) })}
              </Tag>
            ))}
          </div>
          <h4 className="discover-section">{t('discover.preview.findings', { count: p.findings.length + p.diagnostics.length })}</h4>
          <div data-testid={TID.discoverPreviewFindings}>
            {p.findings.map((f, i) => (
              <Alert
                key={`s${i}`}
                type={f.level === 'high' ? 'error' : 'warning'}
                content={
                  <>
                    <Tag size="small" color={LEVEL_COLOR[f.level]}>
                      {t(`discover.risk.${f.level}`)}
                    </Tag>{' '}
                    {findingText(t, f)} <span className="muted">{f.file}</span>
                  </>
                }
              />
            ))}
            {p.diagnostics.map((d, i) => (
              <Alert key={`d${i}`} type={d.severity === 'error' ? 'error' : 'info'} content={`${d.code}: ${findingText(t, d)}`} />
            ))}
          </div>
          <h4 className="discover-section">{t('discover.preview.files', { count: p.skill.files.length })}</h4>
          <ul data-testid={TID.discoverPreviewFiles}>
            {p.skill.files.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
          <h4 className="discover-section">SKILL.md</h4>
          <Markdown text={withoutFrontmatter(p.skill.body)} testId={TID.discoverPreviewBody} />
        </>
      )}
    </Drawer>
  );
}
