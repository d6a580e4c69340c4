// What the preload exposes, checked on the real bundle: it is loaded the way Electron's sandbox
// loads it (a CommonJS function with only `require('electron')`), with a capture shim for
// contextBridge and ipcRenderer since no Electron binary runs here.
import { beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { build } from 'esbuild';
import { methodNames } from '../src/contract/index.js';
import { bridgeExtras, IPC } from '../src/contract/bridge.js';

interface Captured {
  exposed: Record<string, Record<string, unknown>>;
  invoked: Array<{ channel: string; args: unknown[] }>;
  listeners: Map<string, Set<(...a: unknown[]) => void>>;
  required: string[];
}

let bundle: string;

beforeAll(async () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-preload-')), 'preload.cjs');
  // Same options as scripts/build-engine.mjs uses for the preload.
  await build({
    entryPoints: [path.resolve(__dirname, 'preload.ts')],
    outfile: out,
    bundle: true,
    format: 'cjs',
    platform: 'browser',
    external: ['electron'],
    logLevel: 'silent',
  });
  bundle = fs.readFileSync(out, 'utf8');
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
});

function loadPreload(): Captured {
  const cap: Captured = { exposed: {}, invoked: [], listeners: new Map(), required: [] };
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => void (cap.exposed[key] = api) },
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]) => {
        cap.invoked.push({ channel, args });
        return { ok: true, value: { echoed: args[0] } };
      },
      on: (channel: string, fn: (...a: unknown[]) => void) => {
        if (!cap.listeners.has(channel)) cap.listeners.set(channel, new Set());
        cap.listeners.get(channel)!.add(fn);
      },
      removeListener: (channel: string, fn: (...a: unknown[]) => void) => cap.listeners.get(channel)?.delete(fn),
    },
    webUtils: { getPathForFile: (f: { fakePath?: string }) => f.fakePath ?? '' },
  };
  const sandboxRequire = (id: string) => {
    cap.required.push(id);
    if (id === 'electron') return electron;
    throw new Error(`sandboxed preload cannot require ${id}`);
  };
  const module = { exports: {} };
  const fn = vm.runInNewContext(`(function (require, module, exports, process) {${bundle}\n})`, {});
  fn(sandboxRequire, module, module.exports, { platform: 'linux', env: { SECRET: 'x' } });
  return cap;
}

describe('preload bridge', () => {
  it('exposes exactly one object, window.skilldock, and requires nothing but electron', () => {
    const cap = loadPreload();
    expect(Object.keys(cap.exposed)).toEqual(['skilldock']);
    expect([...new Set(cap.required)]).toEqual(['electron']);
  });

  it('holds one function per contract method plus the declared desktop helpers, nothing else', () => {
    const api = loadPreload().exposed.skilldock;
    const expected = [...methodNames, ...bridgeExtras].sort();
    expect(Object.keys(api).sort()).toEqual(expected);
    expect(methodNames.filter((m) => (bridgeExtras as readonly string[]).includes(m))).toEqual([]);
    for (const key of Object.keys(api)) {
      if (key !== 'platform') expect(typeof api[key], key).toBe('function');
    }
    for (const forbidden of ['invoke', 'ipcRenderer', 'send', 'on', 'process', 'env', 'require']) {
      expect(api).not.toHaveProperty(forbidden);
    }
    expect(api.platform).toBe('linux');
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('sends each method on its own skilldock:<method> channel with only the payload', async () => {
    const cap = loadPreload();
    const api = cap.exposed.skilldock as Record<string, (i?: unknown) => Promise<unknown>>;
    const r = await api.updateSettings({ theme: 'dark' });
    expect(r).toEqual({ ok: true, value: { echoed: { theme: 'dark' } } });
    expect(cap.invoked).toEqual([{ channel: 'skilldock:updateSettings', args: [{ theme: 'dark' }] }]);
    await api.getSettings();
    expect(cap.invoked[1]).toEqual({ channel: IPC.method('getSettings'), args: [{}] });
  });

  it('hands listeners the event payload only (never the IPC event with its sender) and unsubscribes', () => {
    const cap = loadPreload();
    const api = cap.exposed.skilldock as { onEvent(fn: (...a: unknown[]) => void): () => void };
    const got: unknown[][] = [];
    const off = api.onEvent((...args) => got.push(args));
    const ipcListeners = cap.listeners.get(IPC.event)!;
    expect(ipcListeners.size).toBe(1);
    const fakeIpcEvent = { sender: { send() {} }, ports: [] };
    for (const l of ipcListeners) l(fakeIpcEvent, { type: 'settings-changed' });
    expect(got).toEqual([[{ type: 'settings-changed' }]]);
    off();
    expect(ipcListeners.size).toBe(0);
  });

  it('turns a failed invoke into an error Result without a stack', async () => {
    // An invoke that rejects the way Electron does when no handler is registered.
    const failing = { exposed: {} as Record<string, Record<string, unknown>> };
    const fn = vm.runInNewContext(`(function (require, module, exports, process) {${bundle}\n})`, {});
    fn(
      (id: string) => ({
        contextBridge: { exposeInMainWorld: (k: string, v: Record<string, unknown>) => void (failing.exposed[k] = v) },
        ipcRenderer: {
          invoke: async () => {
            throw new Error("Error invoking remote method 'skilldock:getSettings': Error: No handler registered");
          },
          on() {},
          removeListener() {},
        },
        webUtils: {
          getPathForFile: () => {
            throw new Error('not a File');
          },
        },
        requested: id,
      }),
      { exports: {} },
      {},
      { platform: 'linux' },
    );
    const api = failing.exposed.skilldock as Record<string, (i?: unknown) => unknown>;
    const r = (await api.getSettings()) as { ok: boolean; error: { code: string; message: string } };
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe('internal');
    expect(r.error.message).toBe('Error: No handler registered');
    expect(api.getPathForFile({})).toBe('');
  });
});
