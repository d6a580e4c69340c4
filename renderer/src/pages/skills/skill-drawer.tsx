import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { findingText, fixText } from '../../i18n/engine-text';
import { Alert, Drawer, Empty, Spin, Tabs, Tag, Typography } from '@arco-design/web-react';
import type { Activation, CatalogEntry, Diagnostic } from '../../../../src/contract/index';
import { useCatalog } from '../../stores/catalog-store';
import { useSkill } from '../../stores/skill-store';
import { TID, rowId } from '../../testids';
import { FilesTab } from './file-viewer';
import { SkillBadges } from './skill-list';
import { SkillOverview } from './skill-overview';
import { SecurityPanel } from './security-panel';
import { OpenInEditor } from '../editor/open-in-editor';

// The Markdown renderer (remark, micromark) is loaded when a skill's body is first shown, not
// with the first screen.
const Markdown = lazy(() => import('../../components/markdown').then((m) => ({ default: m.Markdown })));

export function SkillDrawer() {
  const { t } = useTranslation();
  const openId = useCatalog((s) => s.openId);
  const entry = useCatalog((s) => (s.openId ? s.byId.get(s.openId) : undefined));
  const close = useCatalog((s) => s.open);
  const openTab = useCatalog((s) => s.openTab);
  // Over a dialog (picker, import summary) the drawer stacks above it; the dialog keeps its state.
  const over = useCatalog((s) => s.openOver);
  const [tab, setTab] = useState(openTab);
  useEffect(() => setTab(openTab), [openId, openTab]);
  // Arco closes a drawer on Escape only while focus is inside it. When the focused control goes
  // away (the approve button, replaced once the skill is approved), focus falls to <body>; Escape
  // must still close the top layer, this drawer, and leave a dialog under it open.
  useEffect(() => {
    if (!openId) return;
    const onKey = (ev: KeyboardEvent) => {
      if (ev.key === 'Escape' && !ev.defaultPrevented && (ev.target === document.body || ev.target === document.documentElement))
        close(null);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [openId, close]);
  // Re-read when the entry's content changes (digest), not on every catalog refresh.
  const key = entry ? `${entry.id}\n${entry.digest}` : '';
  const view = useSkill((s) => (entry && s.activation?.key === key ? s.activation : null));
  const activation = view?.data ?? null;
  const error = view?.error ?? null;
  const name = entry?.name;
  useEffect(() => {
    if (name !== undefined) void useSkill.getState().loadActivation(key, name);
  }, [key, name]);

  return (
    <Drawer
      width={720}
      visible={Boolean(openId)}
      onCancel={() => close(null)}
      footer={null}
      unmountOnExit
      zIndex={over ? 1100 : undefined}
      closeIcon={<span data-testid={TID.skillDrawerClose}>×</span>}
      title={
        entry ? (
          <span className="drawer-title">
            <span className="skill-name">{entry.name}</span> <SkillBadges entry={entry} /> <OpenInEditor entry={entry} />
          </span>
        ) : null
      }
    >
      <div data-testid={TID.skillDrawer}>
        {!entry ? (
          <Empty description={t('skills.drawer.gone')} />
        ) : (
          <Tabs activeTab={tab} onChange={setTab} data-testid={TID.skillTabs} lazyload={false}>
            <Tabs.TabPane key="overview" title={<span data-testid={rowId(TID.skillTab, 'overview')}>{t('skills.drawer.overview')}</span>}>
              <SkillOverview entry={entry} />
            </Tabs.TabPane>
            <Tabs.TabPane key="body" title={<span data-testid={rowId(TID.skillTab, 'body')}>SKILL.md</span>}>
              <BodyTab entry={entry} activation={activation} error={error} />
            </Tabs.TabPane>
            <Tabs.TabPane
              key="files"
              title={<span data-testid={rowId(TID.skillTab, 'files')}>{t('skills.drawer.files', { count: entry.fileCount })}</span>}
            >
              {activation ? <FilesTab entry={entry} files={activation.files} /> : error ? <Alert type="error" content={error} /> : <Spin />}
            </Tabs.TabPane>
            <Tabs.TabPane
              key="diagnostics"
              title={
                <span data-testid={rowId(TID.skillTab, 'diagnostics')}>
                  {t('skills.drawer.diagnostics', { count: entry.diagnostics.length })}
                </span>
              }
            >
              <DiagnosticList diagnostics={entry.diagnostics} />
            </Tabs.TabPane>
            <Tabs.TabPane key="security" title={<span data-testid={rowId(TID.skillTab, 'security')}>{t('skills.drawer.security')}</span>}>
              <SecurityPanel entry={entry} />
            </Tabs.TabPane>
          </Tabs>
        )}
      </div>
    </Drawer>
  );
}

function BodyTab({ entry, activation, error }: { entry: CatalogEntry; activation: Activation | null; error: string | null }) {
  const { t } = useTranslation();
  if (error) return <Alert type="error" content={t('skills.drawer.bodyFailed', { error })} />;
  if (!activation) return <Spin />;
  return (
    <>
      {activation.entry.id !== entry.id && (
        <Alert type="info" className="page-alert" content={t('skills.drawer.bodyOfWinner', { id: activation.entry.id })} />
      )}
      <Suspense fallback={<Spin />}>
        <Markdown text={activation.body} testId={TID.skillBody} />
      </Suspense>
    </>
  );
}

export function DiagnosticList({ diagnostics }: { diagnostics: readonly Diagnostic[] }) {
  const { t } = useTranslation();
  if (diagnostics.length === 0) return <Empty description={t('skills.drawer.noDiagnostics')} data-testid={TID.skillDiagnostics} />;
  return (
    <div data-testid={TID.skillDiagnostics} className="diag-list">
      {diagnostics.map((d, i) => (
        <div
          key={`${d.code}-${i}`}
          className={`diag diag-${d.severity}`}
          data-testid={rowId(TID.skillDiagnostic, String(i))}
          data-code={d.code}
        >
          <div className="diag-head">
            <Tag size="small" color={d.severity === 'error' ? 'red' : d.severity === 'warning' ? 'orange' : 'gray'}>
              {t(`severity.${d.severity}`)}
            </Tag>
            <code>{d.code}</code>
            <span className="muted mono">
              {d.file}
              {d.line !== undefined ? `:${d.line}` : ''}
              {d.column !== undefined ? `:${d.column}` : ''}
            </span>
          </div>
          <div>{findingText(t, d)}</div>
          {d.fix && (
            <div className="diag-fix">
              <Typography.Text bold>{t('skills.drawer.fix')}</Typography.Text> {fixText(t, d)}
            </div>
          )}
          {d.agents && d.agents.length > 0 && <div className="muted">{t('skills.drawer.affects', { agents: d.agents.join(', ') })}</div>}
        </div>
      ))}
    </div>
  );
}
