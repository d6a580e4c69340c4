// @vitest-environment happy-dom
import '../../test/setup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createI18n } from '../../i18n';
import { startEngine, type TestEngine } from '../../test/engine';
import { renderApp } from '../../test/render-app';
import { TID } from '../../testids';

// Importing an assistant file whose every skill fails: the engine does not create it, the dialog
// says so in the user's language and asks; "Create it without skills" creates it.

let engine: TestEngine;
beforeAll(async () => {
  engine = await startEngine();
}, 60_000);
afterAll(async () => {
  cleanup();
  await engine?.close();
});

const doc = (name: string) => ({
  skilldock: 'assistant',
  version: 1,
  name,
  agent: 'claude',
  rules: '',
  // Nothing listens on port 1 of loopback: each add fails at once.
  skills: [{ name: 'gone', source: { url: 'git://127.0.0.1:1/none.git', path: 'skills/gone', commit: 'a'.repeat(40) } }],
});

describe('importing an assistant whose every skill fails', () => {
  for (const lang of ['en', 'ja'] as const) {
    it(`asks before creating it, in ${lang}`, async () => {
      const name = `Hollow ${lang}`;
      await renderApp(engine, lang, 'assistants');
      const input = (await screen.findByTestId(TID.assistantImportInput)) as HTMLInputElement;
      const file = new File([JSON.stringify(doc(name))], 'hollow.json', { type: 'application/json' });
      await act(async () => {
        fireEvent.change(input, { target: { files: [file] } });
      });
      const alert = await screen.findByTestId(TID.assistantImportEmpty, {}, { timeout: 30_000 });
      const i18n = await createI18n(lang);
      const word = i18n.t as unknown as (key: string, options: Record<string, unknown>) => string;
      const want = word('engine.sources.share.no-skills', { name, count: 1 });
      expect(want).not.toBe('engine.sources.share.no-skills');
      expect(alert.textContent).toContain(want);
      if (lang === 'ja') expect(alert.textContent).toContain('作成されませんでした');
      expect(alert.textContent).not.toContain('{{');
      expect((await engine.client.api.listAssistants({})).some((a) => a.name === name)).toBe(false);
      await act(async () => {
        fireEvent.click(screen.getByTestId(TID.assistantImportAllowEmpty));
      });
      await waitFor(async () => expect((await engine.client.api.listAssistants({})).some((a) => a.name === name)).toBe(true), {
        timeout: 30_000,
      });
      cleanup();
    }, 90_000);
  }
});
