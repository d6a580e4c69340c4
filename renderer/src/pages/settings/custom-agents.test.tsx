// @vitest-environment happy-dom
import '../../test/setup';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CustomAgent } from '../../../../src/contract/index';
import { createI18n } from '../../i18n';
import { useAgents } from '../../stores/agents-store';
import { startEngine, type TestEngine } from '../../test/engine';
import { renderApp } from '../../test/render-app';
import { TID, rowId } from '../../testids';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startEngine();
}, 60_000);
beforeEach(async () => {
  await engine.client.api.updateSettings({ customAgents: [] });
});
afterEach(() => cleanup());
afterAll(async () => {
  await engine?.close();
});

const mine: CustomAgent = {
  id: 'myagent',
  name: 'My Agent',
  command: 'myagent --chat',
  skillsDir: '.myagent/skills',
  contextFile: 'MYAGENT.md',
};

const FIELD_IDS = {
  id: TID.settingsCustomAgentId,
  name: TID.settingsCustomAgentName,
  command: TID.settingsCustomAgentCommand,
  skillsDir: TID.settingsCustomAgentSkillsDir,
  contextFile: TID.settingsCustomAgentContextFile,
} as const;

/** Type into a field and leave it, as a user does (the rules run on blur). */
function fill(field: keyof CustomAgent, value: string): void {
  const input = screen.getByTestId(FIELD_IDS[field]);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

async function submit(): Promise<void> {
  await act(async () => {
    fireEvent.click(screen.getByTestId(TID.settingsCustomAgentSubmit));
  });
}

const saved = async () => (await engine.client.api.getSettings({})).customAgents;

it('adds a custom agent, after showing inline what the engine would refuse', async () => {
  const i18n = await createI18n('en');
  await renderApp(engine, 'en', 'settings');
  expect(screen.getByTestId(TID.settingsCustomAgentsEmpty).textContent).toBe('No custom agents yet.');
  // An unsaved extra root, which adding an agent must not throw away.
  fireEvent.change(screen.getByTestId(TID.settingsExtraRootInput), { target: { value: engine.userHome } });
  fireEvent.click(screen.getByTestId(TID.settingsExtraRootAdd));
  fireEvent.click(screen.getByTestId(TID.settingsCustomAgentAdd));
  const form = await screen.findByTestId(TID.settingsCustomAgentForm);

  // A shipped id (taken from the registry the engine reported), a path out of the workspace, an absolute one.
  const shipped = useAgents.getState().agents.find((a) => a.evidence !== 'custom')!.id;
  fill('id', shipped);
  fill('skillsDir', '../outside');
  fill('contextFile', '/etc/AGENT.md');
  fill('command', '   ');
  expect(await within(form).findByText(`“${shipped}” is a built-in agent; choose another ID`)).toBeTruthy();
  expect(await within(form).findByText(i18n.t('settings.customAgents.errors.pathParent'))).toBeTruthy();
  expect(await within(form).findByText(i18n.t('settings.customAgents.errors.pathAbsolute'))).toBeTruthy();
  expect(form.textContent).not.toContain('{{');
  await submit();
  expect(await saved()).toEqual([]);

  fill('id', mine.id);
  fill('name', mine.name);
  fill('command', ` ${mine.command} `);
  fill('skillsDir', mine.skillsDir);
  fill('contextFile', mine.contextFile);
  await submit();
  await waitFor(async () => expect(await saved()).toEqual([mine]));

  const row = await screen.findByTestId(rowId(TID.settingsCustomAgentRow, mine.id));
  for (const text of [mine.name, mine.id, mine.command, mine.skillsDir, mine.contextFile, 'Skills folder', 'Context file']) {
    expect(row.textContent).toContain(text);
  }
  expect(screen.queryByTestId(TID.settingsCustomAgentForm)).toBeNull();
  expect(screen.getByTestId(TID.settingsExtraRoots).textContent).toContain(engine.userHome);
  expect(screen.getByTestId(TID.settingsSave).hasAttribute('disabled')).toBe(false);
  // The registry cache (assistant and launch pickers) sees the new agent.
  await waitFor(() => expect(useAgents.getState().agents.some((a) => a.id === mine.id && a.evidence === 'custom')).toBe(true));
});

it('shows the engine refusal when the engine knows better than the form (added meanwhile from the CLI)', async () => {
  await renderApp(engine, 'en', 'settings');
  fireEvent.click(screen.getByTestId(TID.settingsCustomAgentAdd));
  await screen.findByTestId(TID.settingsCustomAgentForm);
  // Added behind the page's back: the form's cached list does not have it yet.
  await engine.client.api.updateSettings({ customAgents: [mine] });

  fill('id', mine.id);
  fill('name', 'Another');
  fill('command', 'another');
  fill('skillsDir', '.another/skills');
  fill('contextFile', 'ANOTHER.md');
  await submit();
  const alert = await screen.findByTestId(TID.settingsCustomAgentRefused);
  expect(alert.textContent).toContain('SkillDock did not save this agent');
  expect(alert.textContent).toContain('Custom agent "myagent": id "myagent" is already used by another custom agent');
  expect(screen.getByTestId(TID.settingsCustomAgentForm).textContent).toContain('See the error above');
  // The agent added elsewhere is intact, not overwritten by the page's stale copy.
  expect(await saved()).toEqual([mine]);
});

it('removes a custom agent after a confirmation that names it (Japanese)', async () => {
  await engine.client.api.updateSettings({ customAgents: [mine, { ...mine, id: 'other', name: 'Other', skillsDir: '.other/skills' }] });
  await renderApp(engine, 'ja', 'settings');
  const section = screen.getByTestId(TID.settingsCustomAgents);
  expect(section.textContent).toContain('カスタムエージェント');
  expect(section.textContent).toContain('スキルフォルダー');

  fireEvent.click(within(section).getByTestId(rowId(TID.settingsCustomAgentRemove, mine.id)));
  const ok = await screen.findByTestId(TID.settingsCustomAgentRemoveOk);
  expect(document.body.textContent).toContain('カスタムエージェント「My Agent」を削除しますか？');
  expect(document.body.textContent).not.toContain('{{');
  await act(async () => {
    fireEvent.click(ok);
  });
  await waitFor(async () => expect((await saved()).map((a) => a.id)).toEqual(['other']));
  await waitFor(() => expect(screen.queryByTestId(rowId(TID.settingsCustomAgentRow, mine.id))).toBeNull());
  expect(screen.getByTestId(rowId(TID.settingsCustomAgentRow, 'other'))).toBeTruthy();
});
