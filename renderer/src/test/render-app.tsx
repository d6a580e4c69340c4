import { expect } from 'vitest';
import { act, render, waitFor, type RenderResult } from '@testing-library/react';
import type { Language } from '../../../src/contract/index';
import { App } from '../app';
import { setClient } from '../client-port';
import { createI18n } from '../i18n';
import { useAgents } from '../stores/agents-store';
import { useAssistants } from '../stores/assistants-store';
import { useCatalog } from '../stores/catalog-store';
import { useDoctor } from '../stores/doctor-store';
import { useImport } from '../stores/import-store';
import { useLaunch } from '../stores/launch-store';
import { useLibrary } from '../stores/library-store';
import { useNav } from '../stores/nav-store';
import { useSettings } from '../stores/settings-store';
import { useSkill } from '../stores/skill-store';
import { pageId, type PageName } from '../testids';
import type { TestEngine } from './engine';

const initial = {
  agents: useAgents.getState(),
  assistants: useAssistants.getState(),
  catalog: useCatalog.getState(),
  doctor: useDoctor.getState(),
  imp: useImport.getState(),
  launch: useLaunch.getState(),
  library: useLibrary.getState(),
  nav: useNav.getState(),
  settings: useSettings.getState(),
  skill: useSkill.getState(),
};

/** Stores are module singletons: give each render a clean cache, as a fresh window would have. */
export function resetStores(): void {
  useAgents.setState(initial.agents, true);
  useAssistants.setState(initial.assistants, true);
  useCatalog.setState(initial.catalog, true);
  useDoctor.setState(initial.doctor, true);
  useImport.setState(initial.imp, true);
  useLaunch.setState(initial.launch, true);
  useLibrary.setState(initial.library, true);
  useNav.setState(initial.nav, true);
  useSettings.setState(initial.settings, true);
  useSkill.setState(initial.skill, true);
}

/** The whole app on a real engine, in `lang`, on `page`, once settings and the catalog are in. */
export async function renderApp(engine: TestEngine, lang: Language, page: PageName): Promise<RenderResult> {
  setClient(engine.client);
  await engine.client.api.updateSettings({ language: lang });
  resetStores();
  useNav.setState({ page });
  const i18n = await createI18n(lang);
  let result!: RenderResult;
  await act(async () => {
    result = render(<App i18n={i18n} />);
  });
  await waitFor(
    () => {
      expect(useSettings.getState().settings?.language).toBe(lang);
      expect(useCatalog.getState().catalog).not.toBeNull();
      expect(useAgents.getState().agents.length).toBeGreaterThan(0);
      expect(useAssistants.getState().loaded).toBe(true);
      // Pages other than Skills are loaded on first use (React.lazy): wait for this one to show.
      expect(result.container.querySelector(`[data-testid="${pageId(page)}"]`)).not.toBeNull();
      // The engine's first catalog scan (cold, with lint) can take seconds on a busy machine.
    },
    { timeout: 20_000 },
  );
  return result;
}
