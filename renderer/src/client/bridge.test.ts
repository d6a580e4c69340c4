import { describe, expect, it } from 'vitest';
import { methodNames } from '../../../src/contract/index';
import type { SkillDockBridge } from '../../../src/contract/bridge';
import { createBridgeClient } from './bridge';
import { ApiError } from './errors';

// A stand-in for window.skilldock: Electron cannot run in unit tests (the real preload is
// checked in main/preload.test.ts); this checks the renderer side of the same contract.
function fakeBridge(result: (method: string, input: unknown) => unknown): { bridge: SkillDockBridge; calls: Array<[string, unknown]> } {
  const calls: Array<[string, unknown]> = [];
  const b: Record<string, unknown> = {};
  for (const m of methodNames) b[m] = async (input: unknown) => (calls.push([m, input]), result(m, input));
  b.onEvent = () => () => {};
  b.getPathForFile = (f: { p?: string }) => f.p ?? '';
  b.pickImportPaths = async (kind: string) => (calls.push(['pickImportPaths', kind]), { ok: true, value: ['/a'] });
  b.pickFolder = async () => ({ ok: true, value: null });
  b.revealPath = async () => ({ ok: false, error: { code: 'io', message: 'no file manager' } });
  b.platform = 'linux';
  return { bridge: b as unknown as SkillDockBridge, calls };
}

describe('desktop client over the preload bridge', () => {
  it('has one api function per contract method and unwraps values', async () => {
    const { bridge, calls } = fakeBridge((m) => ({ ok: true, value: { method: m } }));
    const c = createBridgeClient(bridge);
    expect(Object.keys(c.api).sort()).toEqual([...methodNames].sort());
    expect(await c.api.getSettings({})).toEqual({ method: 'getSettings' });
    await (c.api.getSettings as (i?: unknown) => Promise<unknown>)();
    expect(calls).toEqual([
      ['getSettings', {}],
      ['getSettings', {}],
    ]);
  });

  it('turns error Results into ApiError with the code, and malformed answers into internal', async () => {
    const { bridge } = fakeBridge((m) => (m === 'getSettings' ? { ok: false, error: { code: 'not-found', message: 'gone' } } : 'garbage'));
    const c = createBridgeClient(bridge);
    const e1 = await c.api.getSettings({}).catch((e) => e);
    expect(e1).toBeInstanceOf(ApiError);
    expect([e1.code, e1.message]).toEqual(['not-found', 'gone']);
    const e2 = await c.api.updateSettings({}).catch((e) => e);
    expect(e2.code).toBe('internal');
    const e3 = await c.revealPath('/x').catch((e) => e);
    expect(e3.code).toBe('io');
  });

  it('maps desktop helpers: paths of dropped files, pickers', async () => {
    const { bridge, calls } = fakeBridge(() => ({ ok: true, value: null }));
    const c = createBridgeClient(bridge);
    expect(c.pathForFile({ p: '/home/me/skill' } as unknown as File)).toBe('/home/me/skill');
    expect(c.pathForFile({} as unknown as File)).toBeNull();
    expect(await c.pickImportPaths()).toEqual(['/a']);
    expect(calls.at(-1)).toEqual(['pickImportPaths', 'folders']);
    expect(await c.pickFolder()).toBeNull();
    expect(c.platform).toBe('linux');
  });
});
