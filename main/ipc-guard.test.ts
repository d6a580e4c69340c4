// The IPC checks, without Electron: sender and schema are judged before anything reaches the
// real engine (here on a temp home), and refusals come back as { code, message }.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SkillDockService } from '../src/service.js';
import { handleExtraCall, handleMethodCall, isTrustedSender, type SenderInfo, type SenderPolicy } from './ipc-guard.js';

let tmp: string;
let service: SkillDockService;
const calls: string[] = [];
const engine = { call: (m: string, i: unknown) => (calls.push(m), service.call(m, i)) };
const policy: SenderPolicy = { trustedWebContents: new Set([7]), trustedOrigins: ['app://skilldock'] };
const good: SenderInfo = { webContentsId: 7, frameUrl: 'app://skilldock/index.html', isMainFrame: true };

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-ipc-'));
  service = new SkillDockService({
    paths: { home: path.join(tmp, 'home'), userHome: path.join(tmp, 'user'), resourcesDir: path.resolve(__dirname, '../resources') },
  });
});
afterAll(async () => {
  await service.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('IPC sender check', () => {
  it('trusts only the top frame of an app window on the app origin', () => {
    expect(isTrustedSender(good, policy)).toBe(true);
    expect(isTrustedSender({ ...good, webContentsId: 8 }, policy)).toBe(false);
    expect(isTrustedSender({ ...good, isMainFrame: false }, policy)).toBe(false);
    expect(isTrustedSender({ ...good, frameUrl: 'https://evil.example/' }, policy)).toBe(false);
    expect(isTrustedSender({ ...good, frameUrl: 'file:///tmp/evil.html' }, policy)).toBe(false);
    expect(isTrustedSender({ ...good, frameUrl: 'app://skilldock.evil/index.html' }, policy)).toBe(false);
    expect(isTrustedSender({ ...good, frameUrl: undefined }, policy)).toBe(false);
    expect(isTrustedSender({ ...good, frameUrl: 'not a url' }, policy)).toBe(false);
  });
});

describe('IPC contract calls', () => {
  it('passes a valid payload from the app window to the engine and returns its Result', async () => {
    calls.length = 0;
    const r = await handleMethodCall(engine, policy, good, 'updateSettings', { theme: 'dark' });
    expect(r).toMatchObject({ ok: true, value: { theme: 'dark' } });
    expect(calls).toEqual(['updateSettings']);
  });

  it('refuses a payload that fails its schema with bad-request, and never calls the engine', async () => {
    calls.length = 0;
    for (const payload of [{ theme: 'purple' }, { workspaceCleanupDays: -1 }, 'a string', 42, [1, 2]]) {
      const r = await handleMethodCall(engine, policy, good, 'updateSettings', payload);
      expect(r.ok, JSON.stringify(payload)).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('bad-request');
        // Keyed for the window's language (issue 12); the method travels in details, not in the sentence.
        expect(r.error.msg?.key).toBe('input.invalid');
        expect(r.error.details).toEqual({ method: 'updateSettings' });
        expect(r.error.message).not.toMatch(/\n\s+at /); // no stack trace crosses
      }
    }
    expect(calls).toEqual([]);
    expect(
      (await service.call('getSettings', {})).ok && ((await service.call('getSettings', {})) as { value: { theme: string } }).value.theme,
    ).toBe('dark');
  });

  it('refuses a foreign sender before looking at the payload, and unknown methods', async () => {
    calls.length = 0;
    const foreign = await handleMethodCall(engine, policy, { ...good, frameUrl: 'https://evil.example/' }, 'getSettings', {});
    expect(foreign).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    const sub = await handleMethodCall(engine, policy, { ...good, isMainFrame: false }, 'getSettings', {});
    expect(sub).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    const unknown = await handleMethodCall(engine, policy, good, '__proto__', {});
    expect(unknown).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(calls).toEqual([]);
  });

  it('checks the desktop-only channels the same way', async () => {
    let ran = 0;
    const run = async (v: unknown) => (ran++, v);
    expect(await handleExtraCall(policy, good, 'revealPath', '/tmp/x', run)).toEqual({ ok: true, value: '/tmp/x' });
    expect(await handleExtraCall(policy, good, 'revealPath', { path: '/tmp' }, run)).toMatchObject({
      ok: false,
      error: { code: 'bad-request' },
    });
    expect(await handleExtraCall(policy, good, 'pickImportPaths', 'everything', run)).toMatchObject({
      ok: false,
      error: { code: 'bad-request' },
    });
    expect(await handleExtraCall(policy, { ...good, webContentsId: 99 }, 'pickFolder', undefined, run)).toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
    });
    expect(ran).toBe(1);
  });
});
