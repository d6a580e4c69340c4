import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Result, SkillDockEvent } from '../contract/index.js';
import { getCatalog } from '../catalog/index.js';
import { SkillDockService } from '../service.js';
import { startServer, type EngineLike } from './server.js';

// The browser server keeps the catalog watched while it runs (lookups and launches then skip the
// re-check of every skill folder); a watch that cannot start is reported and the server runs on.

const repoResources = path.resolve(__dirname, '../../resources');
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function tmp(): string {
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-server-start-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('server startup', () => {
  it('starts watching the catalog roots', async () => {
    const dir = tmp();
    const home = path.join(dir, 'home');
    fs.mkdirSync(path.join(home, 'library'), { recursive: true });
    const service = new SkillDockService({ paths: { home, userHome: path.join(dir, 'user'), resourcesDir: repoResources } });
    cleanups.push(() => service.close());
    const server = await startServer({ service, rendererDir: null, stagingDir: path.join(home, 'uploads') });
    cleanups.push(() => server.close());
    await server.catalogWatch;
    expect(getCatalog(service.ctx).watching()).toContain(path.join(home, 'library'));
  });

  it('reports a watch that fails and keeps serving', async () => {
    const dir = tmp();
    const calls: string[] = [];
    const service: EngineLike = {
      call: async (method: string): Promise<Result<unknown>> => {
        calls.push(method);
        return method === 'watchCatalog' ? { ok: false, error: { code: 'io', message: 'no watches left' } } : { ok: true, value: 'pong' };
      },
      on: (_listener: (event: SkillDockEvent) => void) => () => undefined,
    };
    const warnings: string[] = [];
    const server = await startServer({ service, rendererDir: null, stagingDir: path.join(dir, 'uploads'), warn: (m) => warnings.push(m) });
    cleanups.push(() => server.close());
    await server.catalogWatch;
    expect(calls).toEqual(['watchCatalog']);
    expect(warnings.join('\n')).toContain('no watches left');
    const r = await fetch(`${server.origin}/api/listRoots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-skilldock-token': server.token },
      body: '{}',
    });
    expect(await r.json()).toEqual({ ok: true, value: 'pong' });
  });

  it('goes live through the engine when it can, and reports a failure to', async () => {
    const dir = tmp();
    const calls: string[] = [];
    const service: EngineLike = {
      call: async (method: string) => {
        calls.push(method);
        return { ok: true, value: null };
      },
      on: () => () => undefined,
      live: async () => {
        calls.push('live');
        throw new Error('ENOSPC: System limit for number of file watchers reached');
      },
    };
    const warnings: string[] = [];
    const server = await startServer({ service, rendererDir: null, stagingDir: path.join(dir, 'uploads'), warn: (m) => warnings.push(m) });
    cleanups.push(() => server.close());
    await server.catalogWatch;
    expect(calls).toEqual(['live']);
    expect(warnings.join('\n')).toContain('ENOSPC');
  });

  it('does not watch when told not to', async () => {
    const dir = tmp();
    const calls: string[] = [];
    const service: EngineLike = {
      call: async (method: string) => {
        calls.push(method);
        return { ok: true, value: null };
      },
      on: () => () => undefined,
    };
    const server = await startServer({ service, rendererDir: null, stagingDir: path.join(dir, 'uploads'), watchCatalog: false });
    cleanups.push(() => server.close());
    await server.catalogWatch;
    expect(calls).toEqual([]);
  });
});
