// The renderer's HTTP client against the real loopback server and engine: typed calls, ApiError
// codes, the token, and uploads that land in staging ready for importPaths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SkillDockService } from '../src/service.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { createHttpClient } from '../renderer/src/client/http';
import { ApiError } from '../renderer/src/client/errors';

let tmp: string;
let service: SkillDockService;
let server: RunningServer;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-client-'));
  service = new SkillDockService({
    paths: { home: path.join(tmp, 'home'), userHome: path.join(tmp, 'user'), resourcesDir: path.resolve(__dirname, '../resources') },
  });
  server = await startServer({ service, rendererDir: null, stagingDir: path.join(tmp, 'home', 'staging') });
});

afterAll(async () => {
  await server?.close();
  await service?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

// Node's fetch sends no Origin for these requests, like a same-origin page GET would not; the
// server's Host check still applies (fetch sets Host to 127.0.0.1:<port>).
describe('HTTP client', () => {
  it('calls contract methods with the token and returns their values', async () => {
    const c = createHttpClient({ origin: server.origin, token: server.token });
    const s = await c.api.getSettings({});
    expect(s.theme).toBe('system');
    const updated = await c.api.updateSettings({ language: 'ja' });
    expect(updated.language).toBe('ja');
    expect((await c.api.getSettings({})).language).toBe('ja');
  });

  it('raises ApiError with the contract code for a bad payload and for a wrong or missing token', async () => {
    const c = createHttpClient({ origin: server.origin, token: server.token });
    const bad = await c.api.updateSettings({ theme: 'purple' as never }).catch((e) => e);
    expect(bad).toBeInstanceOf(ApiError);
    expect(bad.code).toBe('bad-request');
    const wrong = await createHttpClient({ origin: server.origin, token: 'x'.repeat(43) })
      .api.getSettings({})
      .catch((e) => e);
    expect(wrong).toBeInstanceOf(ApiError);
    expect(wrong.code).toBe('unauthorized');
    const none = await createHttpClient({ origin: server.origin, token: null })
      .api.getSettings({})
      .catch((e) => e);
    expect(none.code).toBe('unauthorized');
  });

  it('reports an unreachable server as an io ApiError', async () => {
    const c = createHttpClient({ origin: 'http://127.0.0.1:9', token: 't' });
    const err = await c.api.getSettings({}).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('io');
  });

  it('uploads a dropped folder and archive into one staging batch, keeping relative paths', async () => {
    const c = createHttpClient({ origin: server.origin, token: server.token, uploadConcurrency: 2 });
    const seen: number[] = [];
    const result = await c.upload(
      [
        { file: new Blob(['---\nname: demo\ndescription: d\n---\nbody']), relativePath: 'demo/SKILL.md' },
        { file: new Blob(['#!/bin/sh\necho hi\n']), relativePath: 'demo/scripts/hi.sh' },
        { file: new Blob([new Uint8Array([0x50, 0x4b, 5, 6])]), relativePath: 'bundle.zip' },
      ],
      (p) => seen.push(p.filesDone),
    );
    expect(result.files).toBe(3);
    expect(result.paths.map((p) => path.basename(p))).toEqual(['bundle.zip', 'demo']);
    for (const p of result.paths) expect(p.startsWith(path.join(tmp, 'home', 'staging') + path.sep)).toBe(true);
    const demo = result.paths.find((p) => p.endsWith('demo'))!;
    expect(fs.readFileSync(path.join(demo, 'scripts', 'hi.sh'), 'utf8')).toContain('echo hi');
    expect(seen.at(-1)).toBe(3);
  });

  it('fails an upload whose path tries to leave staging, with a refused ApiError', async () => {
    const c = createHttpClient({ origin: server.origin, token: server.token });
    const err = await c.upload([{ file: new Blob(['x']), relativePath: '../../escape.txt' }]).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('refused');
    expect(fs.existsSync(path.join(tmp, 'home', 'escape.txt'))).toBe(false);
  });
});
