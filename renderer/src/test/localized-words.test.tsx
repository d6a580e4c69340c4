// @vitest-environment happy-dom
import './setup';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { Catalog, Language } from '../../../src/contract/index';
import { setClient } from '../client-port';
import { createI18n } from '../i18n';
import { templateWords } from '../pages/library/new-skill-dialog';
import { opName } from '../pages/library/undo-toast';
import { FilterBar } from '../pages/skills/filter-bar';
import { setAgentLanguage, useAgents } from '../stores/agents-store';
import { TID } from '../testids';
import { startEngine, type TestEngine } from './engine';

// Issue 23 item 14: words a Chinese or Japanese user read in English, checked through the real
// locale files with real i18next (and a real engine for the catalog and the agent registry).

let engine: TestEngine;
let catalog: Catalog;
beforeAll(async () => {
  engine = await startEngine();
  setClient(engine.client);
  catalog = await engine.client.api.listCatalog({});
}, 60_000);
afterEach(() => cleanup());
afterAll(async () => {
  await engine?.close();
});

const CJK: Language[] = ['zh-CN', 'zh-TW', 'ja'];

describe('words that stayed English', () => {
  for (const lang of CJK) {
    it(`History, Security and the drawer are worded in ${lang}`, async () => {
      const i18n = await createI18n(lang);
      // History's tag for a source update
      expect(opName(i18n.t, 'update')).not.toBe('update');
      // Security's surface reason
      expect(i18n.t('security.reason.shebang')).not.toMatch(/shebang/i);
      // The drawer's heading (ja had it; the Chinese files kept the English word)
      expect(i18n.t('skills.drawer.frontmatter')).not.toMatch(/frontmatter/i);
      expect(i18n.t('skills.drawer.noFrontmatter')).not.toMatch(/frontmatter/i);
    });
  }

  for (const lang of ['en', ...CJK] as Language[]) {
    it(`the Skills page filters show root and agent names, not ids (${lang})`, async () => {
      const i18n = await createI18n(lang);
      setAgentLanguage(i18n);
      await useAgents.getState().loadRegistry();
      const root = catalog.roots.find((r) => r.id.startsWith('user:') && r.agents.includes('claude'))!;
      expect(root, 'a user root read by Claude Code').toBeTruthy();
      await act(async () => {
        render(
          <I18nextProvider i18n={i18n}>
            <FilterBar
              catalog={catalog}
              facets={{ rootId: root.id, agent: 'generic', problems: 'all', shadowedOnly: false }}
              patch={() => {}}
            />
          </I18nextProvider>,
        );
      });
      const rootShown = (await screen.findByTestId(TID.skillsFilterRoot)).textContent ?? '';
      expect(rootShown).toContain(i18n.t('roots.user'));
      expect(rootShown).not.toContain(root.id);
      const agentShown = screen.getByTestId(TID.skillsFilterAgent).textContent ?? '';
      expect(agentShown).toBe(i18n.t('agentNames.generic'));
    });
  }
});

describe('a new skill from the window', () => {
  for (const lang of CJK) {
    it(`is written with headings in ${lang}`, async () => {
      const i18n = await createI18n(lang);
      const name = `worded-${lang.toLowerCase()}`;
      await engine.client.api.createSkill({ name, template: 'references', description: 'Keeps notes.', words: templateWords(i18n.t) });
      const skill = fs.readFileSync(path.join(engine.home, 'library', name, 'SKILL.md'), 'utf8');
      expect(skill).toContain(`## ${i18n.t('library.templateWords.whenToUse')}`);
      expect(skill).toContain(`## ${i18n.t('library.templateWords.steps')}`);
      expect(skill).not.toMatch(/When to use|Steps|reference\]/);
      const reference = fs.readFileSync(path.join(engine.home, 'library', name, 'references', 'REFERENCE.md'), 'utf8');
      expect(reference.split('\n')[0]).toMatch(/^# Worded /);
      expect(reference.split('\n')[0]).toContain(i18n.t('library.templateWords.referenceTitle', { title: '' }).trim());
    });
  }
});
