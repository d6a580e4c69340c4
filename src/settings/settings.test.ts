import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkillDockService } from '../service.js';
import type { SkillDockEvent } from '../contract/index.js';
import { resourcesDir } from '../../test/support/library.js';
import { SettingsSchema } from '../contract/settings.js';
import { defaultSettings } from '../contract/settings-defaults.js';

let root: string;
let home: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-settings-'));
  home = path.join(root, 'home');
  fs.mkdirSync(home);
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function service() {
  const s = new SkillDockService({ paths: { home, userHome: root, resourcesDir } });
  const events: SkillDockEvent[] = [];
  s.on((e) => events.push(e));
  return { s, events };
}

describe('settings on the store', () => {
  it('the zod-free defaults (lean CLI start) are what the schema fills in', () => {
    expect(defaultSettings()).toEqual(SettingsSchema.parse({}));
    expect(defaultSettings()).not.toBe(defaultSettings());
  });

  it('reads the interim plain-JSON file and saves it versioned', async () => {
    fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ theme: 'dark', language: 'ja' }));
    const { s } = service();
    expect(await s.api.getSettings({})).toMatchObject({ theme: 'dark', language: 'ja', workspaceCleanupDays: 7 });
    await s.api.updateSettings({ workspaceCleanupDays: 3 });
    const disk = JSON.parse(fs.readFileSync(path.join(home, 'settings.json'), 'utf8'));
    expect(disk).toMatchObject({ version: 1, data: { theme: 'dark', language: 'ja', workspaceCleanupDays: 3 } });
    expect(JSON.parse(fs.readFileSync(path.join(home, 'settings.json.bak'), 'utf8'))).toEqual({ theme: 'dark', language: 'ja' });
    await s.close();
  });

  it('a corrupt settings file is moved aside, the backup used, and the user told', async () => {
    const { s, events } = service();
    await s.api.updateSettings({ theme: 'light' });
    await s.api.updateSettings({ theme: 'dark' });
    fs.writeFileSync(path.join(home, 'settings.json'), '{"version":1,"data":{"theme":"plaid"}}');
    expect((await s.api.getSettings({})).theme).toBe('light');
    const told = events.find((e) => e.type === 'store-corrupt');
    expect(told).toMatchObject({ type: 'store-corrupt', recoveredFrom: 'backup', file: path.join(home, 'settings.json') });
    expect(fs.readdirSync(home).some((n) => n.startsWith('settings.json.corrupt-'))).toBe(true);
    await s.close();
  });
});

describe('settings patches through the contract', () => {
  it('a patch changes only the fields it names (no defaults filled in)', async () => {
    const { s } = service();
    await s.call('updateSettings', { language: 'zh-CN', workspaceCleanupDays: 3, extraRoots: ['/x'] });
    const r = await s.call('updateSettings', { theme: 'dark' });
    expect(r.ok).toBe(true);
    expect(await s.api.getSettings({})).toMatchObject({
      theme: 'dark',
      language: 'zh-CN',
      workspaceCleanupDays: 3,
      extraRoots: ['/x'],
    });
    const bad = await s.call('updateSettings', { theme: 'neon' });
    expect(bad.ok).toBe(false);
    await s.close();
  });
});
