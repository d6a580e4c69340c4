import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SkillDockEvent } from '../contract/index.js';
import { createService, type SkillDockService } from '../service.js';
import { watchHomeFiles } from './home-sync.js';
import { sleep, waitFor } from '../../test/support/wait.js';

// Another process (the CLI) changing settings.json or assistants.json while the app runs: the
// app's engine must tell its UI, once, and must not echo its own writes back as outside changes.
// Real files, the OS file watcher, and two engines on one home (as the app and the CLI are).

const resources = fileURLToPath(new URL('../../resources', import.meta.url));
let dir: string;
let home: string;
let app: SkillDockService;
let cli: SkillDockService;
let seen: SkillDockEvent[];

function paths() {
  return { home, userHome: path.join(dir, 'user'), resourcesDir: resources };
}

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-sync-')));
  home = path.join(dir, 'skilldock');
  fs.mkdirSync(path.join(dir, 'user'), { recursive: true });
  app = createService({ paths: paths() });
  cli = createService({ paths: paths() });
  seen = [];
  app.on((e) => seen.push(e));
});
afterEach(async () => {
  await app.close();
  await cli.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An event from another process's write; the error lists the events that did arrive. */
const EVENT = { what: () => `an event (seen: ${JSON.stringify(seen.map((e) => e.type))})` };
/** Long enough for a change that should NOT be announced to have been (wrongly) announced. */
const quiet = (ms = 400) => sleep(ms);

describe('live sync of files other processes change', () => {
  it('pushes an assistant created by another engine, and not the app’s own changes twice', async () => {
    await app.live();
    await cli.api.createAssistant({ name: 'From the CLI', agent: 'claude', rules: 'Be brief.' });
    await waitFor(() => seen.some((e) => e.type === 'assistants-changed' && e.action === 'reloaded'), EVENT);
    expect((await app.api.listAssistants({})).some((a) => a.name === 'From the CLI')).toBe(true);

    seen = [];
    await app.api.createAssistant({ name: 'From the app', agent: 'gemini', rules: '' });
    await quiet();
    const kinds = seen.filter((e) => e.type === 'assistants-changed').map((e) => (e as { action: string }).action);
    expect(kinds).toEqual(['created']); // no `reloaded` echo of our own write
  });

  it('pushes settings another engine saved, with the new values', async () => {
    await app.live();
    await cli.api.updateSettings({ workspaceCleanupDays: 30 });
    await waitFor(() => seen.some((e) => e.type === 'settings-changed'), EVENT);
    const ev = seen.find((e) => e.type === 'settings-changed') as Extract<SkillDockEvent, { type: 'settings-changed' }>;
    expect(ev.settings.workspaceCleanupDays).toBe(30);
  });

  it('says nothing when a file is rewritten with the same content, and stops when closed', async () => {
    const calls: string[] = [];
    fs.mkdirSync(home, { recursive: true });
    const file = path.join(home, 'settings.json');
    fs.writeFileSync(file, '{"version":1,"data":{}}\n');
    const sync = watchHomeFiles(home, ['settings.json'], (n) => calls.push(n), { debounceMs: 30 });
    fs.writeFileSync(file, '{"version":1,"data":{}}\n');
    fs.writeFileSync(path.join(home, 'unrelated.json'), '{}');
    await quiet(200);
    expect(calls).toEqual([]);
    fs.writeFileSync(file, '{"version":1,"data":{"theme":"dark"}}\n');
    await waitFor(() => calls.length === 1, EVENT);
    sync.close();
    fs.writeFileSync(file, '{"version":1,"data":{"theme":"light"}}\n');
    await quiet(200);
    expect(calls).toEqual(['settings.json']);
  });

  it('notices an append to a large file (the journal) without reading it whole, and is quiet for its own', async () => {
    const calls: string[] = [];
    fs.mkdirSync(home, { recursive: true });
    const file = path.join(home, 'journal.jsonl');
    fs.writeFileSync(file, `${'{"op":"import"}\n'.repeat(20_000)}`); // ~300 KB: compared by stat
    const sync = watchHomeFiles(home, ['journal.jsonl'], (n) => calls.push(n), { debounceMs: 30 });
    fs.appendFileSync(file, '{"op":"delete"}\n');
    sync.markSeen('journal.jsonl'); // as if this process wrote it
    await quiet(200);
    expect(calls).toEqual([]);
    fs.appendFileSync(file, '{"op":"undo"}\n'); // another process
    await waitFor(() => calls.length === 1, EVENT);
    sync.close();
  });
});
