// @vitest-environment happy-dom
import '../../test/setup';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { startEngine, type TestEngine } from '../../test/engine';
import { renderApp } from '../../test/render-app';
import { TID, rowId } from '../../testids';

// Settings, "Skills for MCP hosts": each host's command line and snippet, copied with one click,
// the running servers, and the choice for unapproved scripts, in the user's language.

let engine: TestEngine;
beforeAll(async () => {
  engine = await startEngine();
}, 60_000);
afterEach(() => cleanup());
afterAll(async () => {
  await engine?.close();
});

it('shows each host’s setup, copies it, and lists a running server', async () => {
  const record = await engine.client.api.mcpAnnounce({
    pid: process.pid,
    transport: 'http',
    url: 'http://127.0.0.1:4321/mcp',
    scope: { assistant: 'Writer' },
    skills: 2,
  });
  await renderApp(engine, 'en', 'settings');
  const section = await screen.findByTestId(TID.settingsMcp);
  expect(section.textContent).toContain('claude_desktop_config.json');
  await waitFor(() => expect(screen.getByTestId(rowId(TID.settingsMcpServer, record.id)).textContent).toContain('assistant Writer'));

  fireEvent.click(screen.getByTestId(rowId(TID.settingsMcpHost, 'codex')).querySelector('input')!);
  await waitFor(() => expect(section.textContent).toContain('codex mcp add skilldock -- skilldock mcp'));
  expect(section.textContent).toContain('[mcp_servers.skilldock]');
  fireEvent.click(screen.getByTestId(rowId(TID.settingsMcpCopy, 'command')));
  await waitFor(async () => expect(await navigator.clipboard.readText()).toBe('codex mcp add skilldock -- skilldock mcp'));
  await engine.client.api.mcpRetire({ id: record.id });
});

it('is worded in Japanese', async () => {
  await renderApp(engine, 'ja', 'settings');
  const section = await screen.findByTestId(TID.settingsMcp);
  expect(section.textContent).toContain('MCP ホスト向けのスキル');
  expect(section.textContent).toContain('スクリプトが承認されていないスキル');
});
