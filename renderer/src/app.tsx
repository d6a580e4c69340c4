import { lazy, Suspense, useEffect } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { ConfigProvider, Spin } from '@arco-design/web-react';
import type { Language } from '../../src/contract/index';
import { arcoLocale } from './i18n/arco-locale';
import { setErrorLanguage } from './stores/errors';
import { setAgentLanguage } from './stores/agents-store';
import { useNav } from './stores/nav-store';
import { useSettings } from './stores/settings-store';
import { useEngineSync, useLanguage, useTheme } from './sync';
import { NAV_TID, PAGES, TID } from './testids';
import { SkillsPage } from './pages/skills/skills-page';

// The Skills page is the first screen and ships in the initial script; every other page is
// loaded the first time it is opened (issue 16: a light first paint).
const AssistantsPage = lazy(() => import('./pages/assistants/assistants-page').then((m) => ({ default: m.AssistantsPage })));
const LaunchPage = lazy(() => import('./pages/launch/launch-page').then((m) => ({ default: m.LaunchPage })));
const AgentsPage = lazy(() => import('./pages/agents/agents-page').then((m) => ({ default: m.AgentsPage })));
const SettingsPage = lazy(() => import('./pages/settings/settings-page').then((m) => ({ default: m.SettingsPage })));
const LibraryPage = lazy(() => import('./pages/library/library-page').then((m) => ({ default: m.LibraryPage })));
const UpdatesPage = lazy(() => import('./pages/sources/updates-page').then((m) => ({ default: m.UpdatesPage })));
const ProjectPage = lazy(() => import('./pages/project/project-page').then((m) => ({ default: m.ProjectPage })));
const DiscoverPage = lazy(() => import('./pages/discover/discover-page').then((m) => ({ default: m.DiscoverPage })));
const DeployPage = lazy(() => import('./pages/deploy/deploy-page').then((m) => ({ default: m.DeployPage })));
const EditorPage = lazy(() => import('./pages/editor/editor-page').then((m) => ({ default: m.EditorPage })));
import { DropOverlay } from './pages/import/drop-overlay';
import { ImportPanelHost } from './pages/import/import-host';
import { DoctorBanner } from './components/doctor-banner';
import { NavMenu } from './components/nav-menu';
import { UpdatesBadge } from './pages/sources/updates-badge';
import { SkillDrawerHost } from './pages/skills/drawer-host';

export function App({ i18n }: { i18n: I18n }) {
  setErrorLanguage(i18n);
  setAgentLanguage(i18n);
  return (
    <I18nextProvider i18n={i18n}>
      <Shell i18n={i18n} />
    </I18nextProvider>
  );
}

function Shell({ i18n }: { i18n: I18n }) {
  const { t } = useTranslation();
  const settings = useSettings((s) => s.settings);
  const { page, go, syncFromHash, editing } = useNav();
  useEngineSync(i18n);
  useLanguage(i18n, settings);
  useTheme(settings?.theme);
  useEffect(() => {
    window.addEventListener('hashchange', syncFromHash);
    return () => window.removeEventListener('hashchange', syncFromHash);
  }, [syncFromHash]);

  // Arco speaks the language i18next speaks: both switch together once its words are loaded.
  return (
    <ConfigProvider locale={arcoLocale(i18n.language as Language)}>
      {/* Arco's layout classes without Arco's Layout and Menu code (issue 16: a light first paint). */}
      <section className="arco-layout arco-layout-has-sider shell" data-testid={TID.appShell}>
        <aside className="arco-layout-sider arco-layout-sider-light shell-sider" style={{ width: 200 }}>
          <div className="arco-layout-sider-children">
            <div className="brand">SkillDock</div>
            <NavMenu
              testId={TID.nav}
              selected={page === 'editor' ? 'library' : page}
              onSelect={go}
              items={PAGES.map((p) => ({
                key: p,
                testId: NAV_TID[p],
                label: (
                  <>
                    {t(`nav.${p}`)}
                    {p === 'updates' && <UpdatesBadge />}
                  </>
                ),
              }))}
            />
          </div>
        </aside>
        <main className="arco-layout-content shell-content">
          <DoctorBanner />
          {page === 'skills' && <SkillsPage />}
          <Suspense fallback={<Spin className="page-loading" />}>
            {page === 'library' && <LibraryPage />}
            {page === 'discover' && <DiscoverPage />}
            {page === 'updates' && <UpdatesPage />}
            {page === 'project' && <ProjectPage />}
            {page === 'deploy' && <DeployPage />}
            {page === 'editor' && editing && <EditorPage key={editing} skill={editing} />}
            {page === 'assistants' && <AssistantsPage />}
            {page === 'launch' && <LaunchPage />}
            {page === 'agents' && <AgentsPage />}
            {page === 'settings' && <SettingsPage />}
          </Suspense>
        </main>
        <ImportPanelHost />
        <SkillDrawerHost />
        <DropOverlay />
      </section>
    </ConfigProvider>
  );
}
