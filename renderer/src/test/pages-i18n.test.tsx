// @vitest-environment happy-dom
import './setup';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { LANGUAGES } from '../i18n';
import en from '../i18n/locales/en.json';
import { useAgents } from '../stores/agents-store';
import { useAssistants } from '../stores/assistants-store';
import { useCatalog } from '../stores/catalog-store';
import { useImport } from '../stores/import-store';
import { useLaunch } from '../stores/launch-store';
import { useNav } from '../stores/nav-store';
import { PAGES, TID, pageId, rowId } from '../testids';
import { startEngine, type TestEngine } from './engine';
import { renderApp } from './render-app';

let engine: TestEngine;
let assistantId: string;
beforeAll(async () => {
  engine = await startEngine();
  await engine.client.api.approveSkill({ name: 'pdf' });
  const a = await engine.client.api.createAssistant({
    name: 'Writer',
    agent: 'codex',
    rules: '# Rules\n\n- be brief',
    skills: ['pdf', 'code', 'bad-meta'],
  });
  assistantId = a.id;
}, 60_000);
afterEach(() => cleanup());
afterAll(async () => {
  await engine?.close();
});

type Tree = { [k: string]: string | Tree };
const keys = (t: Tree, p = ''): string[] =>
  Object.entries(t).flatMap(([k, v]) => (typeof v === 'string' ? [`${p}${k}`.replace(/_(one|other)$/, '')] : keys(v, `${p}${k}.`)));
const ALL_KEYS = [...new Set(keys(en as Tree))].filter((k) => k.includes('.'));

/** No `{{` left by a missed interpolation, and no raw key shown for a missing translation. */
function expectResolved(where: string): void {
  const text = document.body.textContent ?? '';
  expect(text.length, where).toBeGreaterThan(0);
  expect(text.includes('{{'), `${where}: ${text.slice(Math.max(0, text.indexOf('{{') - 80), text.indexOf('{{') + 80)}`).toBe(false);
  const raw = ALL_KEYS.filter((k) => text.includes(k));
  expect(raw, where).toEqual([]);
}

/** The page has what it asked the engine for: no call unanswered, no spinner shown. */
async function pageLoaded(): Promise<void> {
  await waitFor(() => {
    expect(engine.inFlight()).toBe(0);
    expect(document.querySelector('.arco-spin')).toBeNull();
  });
}

describe('every page in every language', () => {
  for (const lang of LANGUAGES) {
    it(`renders ${lang} with every string resolved`, async () => {
      await renderApp(engine, lang, 'skills');
      // the html lang follows the language
      await waitFor(() => expect(document.documentElement.lang).toBe(lang));

      for (const page of PAGES) {
        act(() => useNav.getState().go(page));
        await screen.findByTestId(pageId(page));
        await pageLoaded();
        expectResolved(`${lang} ${page}`);
      }

      // Skills: the drawer with every tab rendered (tabs are not lazy).
      act(() => useNav.getState().go('skills'));
      const entry = useCatalog.getState().catalog!.entries.find((e) => e.name === 'pdf' && !e.shadowedBy)!;
      fireEvent.click(await screen.findByTestId(rowId(TID.skillRow, entry.id)));
      await screen.findByTestId(TID.skillBody);
      await waitFor(() => expect(Object.keys(useAgents.getState().views).length).toBeGreaterThan(0));
      await pageLoaded();
      expect(screen.getByTestId(TID.skillFileTree).textContent).toContain('extract.sh');
      expectResolved(`${lang} skill drawer`);
      act(() => useCatalog.getState().open(null));

      // Assistants: the editor of an assistant with skills.
      act(() => useNav.getState().go('assistants'));
      await act(async () => {
        await useAssistants.getState().select(assistantId);
      });
      await screen.findByTestId(rowId(TID.assistantSkillRow, 'bad-meta'));
      expectResolved(`${lang} assistant editor`);

      // Launch: a result and the conversation history.
      act(() => useNav.getState().go('launch'));
      await act(async () => {
        await useLaunch.getState().launch(assistantId);
      });
      await screen.findByTestId(TID.launchResult);
      await waitFor(() => expect(useLaunch.getState().workspaces.length).toBeGreaterThan(0));
      await pageLoaded();
      expectResolved(`${lang} launch result`);

      // Agents: every agent's view.
      act(() => useNav.getState().go('agents'));
      for (const agent of useAgents.getState().agents) {
        fireEvent.click(await screen.findByTestId(rowId(TID.agentCard, agent.id)));
        await waitFor(() => expect(screen.getByTestId(TID.agentBudget)).toBeTruthy());
        expectResolved(`${lang} agent ${agent.id}`);
      }

      // Import: a conflict dialog, then the summary.
      const src = path.join(engine.home, '..', `incoming-${lang}`, 'docx');
      fs.mkdirSync(src, { recursive: true });
      fs.writeFileSync(path.join(src, 'SKILL.md'), `---\nname: docx\ndescription: A different docx (${lang}).\n---\n\n# other\n`);
      await act(async () => {
        await useImport.getState().importPaths([src]);
      });
      await screen.findByTestId(TID.conflictDialog);
      expect(screen.getByTestId(TID.conflictDialog).textContent).toContain('docx');
      expectResolved(`${lang} conflict dialog`);
      await act(async () => {
        fireEvent.click(screen.getByTestId(TID.conflictSkip));
      });
      await screen.findByTestId(TID.importSummary);
      expectResolved(`${lang} import summary`);
      act(() => useImport.getState().dismiss());
      cleanup();
    }, 60_000);
  }
});
