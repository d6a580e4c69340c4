// @vitest-environment happy-dom
import '../../test/setup';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../app';
import { createI18n } from '../../i18n';
import { startEngine, type TestEngine } from '../../test/engine';
import { renderApp, resetStores } from '../../test/render-app';
import { useSettings } from '../../stores/settings-store';
import { TID, rowId } from '../../testids';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startEngine();
}, 60_000);
afterEach(() => cleanup());
afterAll(async () => {
  await engine?.close();
});

it('switches language and theme, and a change to one keeps the other', async () => {
  await renderApp(engine, 'en', 'settings');
  expect(screen.getByTestId(TID.navSkills).textContent).toBe('Skills');

  fireEvent.click(screen.getByTestId(TID.settingsThemeDark).querySelector('input')!);
  await waitFor(() => expect(document.body.getAttribute('arco-theme')).toBe('dark'));

  // Pick Japanese through the select's option.
  fireEvent.click(screen.getByTestId(TID.settingsLanguage));
  fireEvent.click(await screen.findByTestId(rowId(TID.settingsLanguage, 'ja')));
  await waitFor(() => expect(screen.getByTestId(TID.navSkills).textContent).toBe('スキル'));
  expect(document.documentElement.lang).toBe('ja');

  // The engine kept both: the language change did not reset the theme.
  const saved = await engine.client.api.getSettings({});
  expect(saved.language).toBe('ja');
  expect(saved.theme).toBe('dark');
  expect(document.body.getAttribute('arco-theme')).toBe('dark');

  fireEvent.click(screen.getByTestId(TID.settingsThemeLight).querySelector('input')!);
  await waitFor(() => expect(document.body.getAttribute('arco-theme')).toBeNull());
  expect((await engine.client.api.getSettings({})).language).toBe('ja');
});

it('a theme change does not overwrite what another process saved meanwhile', async () => {
  await renderApp(engine, 'en', 'settings');
  // The CLI saves a setting while this window holds an older copy (no event delivered yet).
  const before = useSettings.getState().settings!;
  await engine.client.api.updateSettings({ workspaceCleanupDays: before.workspaceCleanupDays + 5 });
  useSettings.setState({ settings: before });
  fireEvent.click(screen.getByTestId(TID.settingsThemeDark).querySelector('input')!);
  await waitFor(async () => expect((await engine.client.api.getSettings({})).theme).toBe('dark'));
  expect((await engine.client.api.getSettings({})).workspaceCleanupDays).toBe(before.workspaceCleanupDays + 5);
  fireEvent.click(screen.getByTestId(TID.settingsThemeLight).querySelector('input')!);
  await waitFor(async () => expect((await engine.client.api.getSettings({})).theme).toBe('light'));
});

it('saves extra roots and the terminal command together', async () => {
  await renderApp(engine, 'en', 'settings');
  const root = engine.userHome;
  fireEvent.change(screen.getByTestId(TID.settingsExtraRootInput), { target: { value: root } });
  fireEvent.click(screen.getByTestId(TID.settingsExtraRootAdd));
  fireEvent.change(screen.getByTestId(TID.settingsTerminal), { target: { value: 'xterm -e {command}' } });
  await act(async () => {
    fireEvent.click(screen.getByTestId(TID.settingsSave));
  });
  await waitFor(async () => {
    const s = await engine.client.api.getSettings({});
    expect(s.extraRoots).toEqual([root]);
    expect(s.terminalCommand).toBe('xterm -e {command}');
  });
  expect(useSettings.getState().settings?.extraRoots).toEqual([root]);
});

it('picks the OS language on first run (settings.language is null)', async () => {
  await engine.client.api.updateSettings({
    language: null,
    theme: 'system',
    extraRoots: [],
    terminalCommand: null,
    workspaceCleanupDays: 7,
    customAgents: [],
    scriptPolicy: 'ask',
  });
  Object.defineProperty(navigator, 'languages', { value: ['zh-TW', 'en'], configurable: true });
  resetStores();
  const i18n = await createI18n('en');
  await act(async () => {
    render(<App i18n={i18n} />);
  });
  await waitFor(async () => expect((await engine.client.api.getSettings({})).language).toBe('zh-TW'));
  await waitFor(() => expect(screen.getByTestId(TID.navSettings).textContent).toBe('設定'));
});

it('a changed approvals.json is shown as trusted in nothing, and confirming it in the app trusts it again', async () => {
  await engine.client.api.updateSettings({ scriptPolicy: 'ask' });
  // something other than SkillDock writes the file (an agent's shell)
  fs.writeFileSync(path.join(engine.home, 'approvals.json'), '{"version":1,"data":{"approvals":[]}}\n');
  await renderApp(engine, 'ja', 'settings');
  const row = await screen.findByTestId(rowId(TID.settingsTrustFile, 'approvals.json'));
  await waitFor(() => expect(row.getAttribute('data-status')).toBe('changed'));
  expect(row.textContent).toContain('SkillDock 以外によって変更されました');
  expect(screen.getByTestId(rowId(TID.settingsTrustFile, 'settings.json')).getAttribute('data-status')).toBe('sealed');
  await act(async () => {
    fireEvent.click(screen.getByTestId(rowId(TID.settingsTrustConfirm, 'approvals.json')));
  });
  await waitFor(() =>
    expect(screen.getByTestId(rowId(TID.settingsTrustFile, 'approvals.json')).getAttribute('data-status')).toBe('sealed'),
  );
  expect(await engine.client.api.listTrustFiles({})).toContainEqual({ file: 'approvals.json', status: 'sealed' });
});
