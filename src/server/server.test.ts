import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { SkillDockService } from '../service.js';
import { startServer, type RunningServer } from './server.js';
import { hostHeaders, rawRequest } from '../../test/support/server.js';

const repoResources = path.resolve(__dirname, '../../resources');
let tmp: string;
let service: SkillDockService;
let server: RunningServer;
let rendererDir: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-server-'));
  rendererDir = path.join(tmp, 'renderer');
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(rendererDir, 'index.html'),
    '<!doctype html><title>SkillDock</title><script type="module" src="./assets/app.js"></script>',
  );
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.css'), 'body{}');
  fs.writeFileSync(path.join(tmp, 'secret.txt'), 'TOP-SECRET');
  fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(rendererDir, 'assets', 'escape.txt'));
  service = new SkillDockService({
    paths: { home: path.join(tmp, 'home'), userHome: path.join(tmp, 'user'), resourcesDir: repoResources },
  });
  server = await startServer({
    service,
    rendererDir,
    stagingDir: path.join(tmp, 'home', 'staging'),
    uploadLimits: { maxFileBytes: 1024, maxBatchBytes: 4096, maxFiles: 50 },
    heartbeatMs: 50,
  });
});

afterAll(async () => {
  await server?.close();
  await service?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function post(route: string, body: unknown, headers: Record<string, string> = {}) {
  return rawRequest(server.port, {
    method: 'POST',
    path: route,
    headers: hostHeaders(server.port, server.token, { 'content-type': 'application/json', ...headers }),
    body: JSON.stringify(body),
  });
}

describe('browser UI server: binding and token', () => {
  it('listens on 127.0.0.1 only and prints a URL with the token in the fragment', () => {
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.url).toBe(`${server.origin}/#token=${server.token}`);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses connections on any address but loopback', async () => {
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (!external) return; // no non-loopback interface on this machine: nothing else to reach
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      const req = http.request({ host: external.address, port: server.port, path: '/', timeout: 2000 }, () => resolve(null));
      req.on('error', (e) => resolve(e as NodeJS.ErrnoException));
      req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
      req.end();
    });
    expect(err?.code).toMatch(/ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH/);
  });

  it('answers a contract call with the right token', async () => {
    const res = await post('/api/getSettings', {});
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body);
    expect(body.ok).toBe(true);
    expect(body.value.theme).toBe('system');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a missing token, a wrong token, and a token in the query of a POST', async () => {
    const missing = await rawRequest(server.port, {
      method: 'POST',
      path: '/api/getSettings',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body).error.code).toBe('unauthorized');
    const wrong = await post(
      '/api/getSettings',
      {},
      { 'x-skilldock-token': server.token.slice(0, -1) + (server.token.endsWith('A') ? 'B' : 'A') },
    );
    expect(wrong.status).toBe(401);
    const query = await rawRequest(server.port, {
      method: 'POST',
      path: `/api/getSettings?token=${server.token}`,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(query.status).toBe(401);
    const events = await rawRequest(server.port, { path: '/api/events?token=nope' });
    expect(events.status).toBe(401);
  });

  it('refuses a foreign Host header (DNS rebinding), even with the token', async () => {
    for (const host of ['evil.example', `evil.example:${server.port}`, `127.0.0.1:${server.port + 1}`, '127.0.0.1']) {
      const res = await post('/api/getSettings', {}, { host });
      expect(res.status, host).toBe(403);
    }
    const page = await rawRequest(server.port, { path: '/', headers: { host: 'attacker.test' } });
    expect(page.status).toBe(403);
    expect(page.body).not.toContain('SkillDock</title>');
    const ok = await post('/api/getSettings', {}, { host: `localhost:${server.port}` });
    expect(ok.status).toBe(200);
  });

  it('refuses a cross-origin request, even with the token', async () => {
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: `http://localhost:${server.port + 1}` },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ] as Record<string, string>[]) {
      const res = await post('/api/getSettings', {}, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    const same = await post('/api/getSettings', {}, { origin: server.origin, 'sec-fetch-site': 'same-origin' });
    expect(same.status).toBe(200);
    // A preflight is never approved: no CORS headers, ever.
    const preflight = await rawRequest(server.port, {
      method: 'OPTIONS',
      path: '/api/getSettings',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('browser UI server: API', () => {
  it('turns a payload that fails its schema into bad-request, and unknown routes into errors', async () => {
    const bad = await post('/api/updateSettings', { theme: 'purple' });
    // The engine's answers are 200 with ok: false (a 4xx is a console error in the browser); the
    // HTTP layer's own refusals keep their status.
    expect(bad.status).toBe(200);
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    const unknown = await post('/api/noSuchMethod', {});
    expect(JSON.parse(unknown.body).error.code).toBe('bad-request');
    const nested = await post('/api/getSettings/x', {});
    expect(nested.status).toBe(404);
    const notJson = await rawRequest(server.port, {
      method: 'POST',
      path: '/api/getSettings',
      headers: hostHeaders(server.port, server.token, { 'content-type': 'text/plain' }),
      body: '{}',
    });
    expect(notJson.status).toBe(400);
    const broken = await rawRequest(server.port, {
      method: 'POST',
      path: '/api/getSettings',
      headers: hostHeaders(server.port, server.token, { 'content-type': 'application/json' }),
      body: '{"a":',
    });
    expect(JSON.parse(broken.body).error.code).toBe('bad-request');
    const get = await rawRequest(server.port, { path: '/api/getSettings', headers: hostHeaders(server.port, server.token) });
    expect(get.status).toBe(405);
  });

  it('streams engine events as Server-Sent Events, authorised by the query token', async () => {
    const received = new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port: server.port, path: `/api/events?token=${encodeURIComponent(server.token)}` },
        (res) => {
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toContain('text/event-stream');
          let buf = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buf += chunk;
            if (buf.includes(': connected')) void post('/api/updateSettings', { theme: 'dark' });
            const m = buf.match(/^data: (.+)$/m);
            if (m) {
              resolve(JSON.parse(m[1]));
              req.destroy();
            }
          });
        },
      );
      req.on('error', reject);
    });
    const event = await received;
    expect(event).toMatchObject({ type: 'settings-changed', settings: { theme: 'dark' } });
  });
});

describe('browser UI server: static files', () => {
  it('serves the renderer with content types and a strict CSP', async () => {
    const index = await rawRequest(server.port, { path: '/' });
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(index.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    const js = await rawRequest(server.port, { path: '/assets/app.js' });
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const css = await rawRequest(server.port, { path: '/assets/app.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const route = await rawRequest(server.port, { path: '/skills' });
    expect(route.body).toContain('SkillDock</title>');
    const missing = await rawRequest(server.port, { path: '/assets/nope.js' });
    expect(missing.status).toBe(404);
  });

  it('never serves a file outside the renderer dir', async () => {
    for (const p of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e%5c%2e%2e%5csecret.txt',
      '/%00index.html',
      '/assets/escape.txt',
      '/%E0%A4%A',
    ]) {
      const res = await rawRequest(server.port, { path: p });
      expect(res.body, p).not.toContain('TOP-SECRET');
      expect([400, 403, 404], p).toContain(res.status);
    }
  });
});

describe('browser UI server: uploads', () => {
  async function begin(): Promise<string> {
    const res = await post('/api/upload/begin', {});
    return JSON.parse(res.body).value.batch;
  }
  function put(batch: string, rel: string, content: string | Buffer) {
    return rawRequest(server.port, {
      method: 'POST',
      path: `/api/upload/file?batch=${encodeURIComponent(batch)}&path=${encodeURIComponent(rel)}`,
      headers: hostHeaders(server.port, server.token, { 'content-type': 'application/octet-stream' }),
      body: content,
    });
  }

  it('stages a folder with relative paths and an archive, and lists the top-level entries', async () => {
    const batch = await begin();
    expect((await put(batch, 'my-skill/SKILL.md', '---\nname: my-skill\n---\nhi')).status).toBe(200);
    expect((await put(batch, 'my-skill/scripts/run.sh', 'echo hi')).status).toBe(200);
    expect((await put(batch, 'pack.zip', Buffer.from([0x50, 0x4b, 3, 4]))).status).toBe(200);
    const fin = JSON.parse((await post(`/api/upload/finish?batch=${batch}`, {})).body).value;
    const dir = path.join(tmp, 'home', 'staging', batch);
    expect(fin.paths).toEqual([path.join(dir, 'my-skill'), path.join(dir, 'pack.zip')]);
    expect(fin.files).toBe(3);
    expect(fs.readFileSync(path.join(dir, 'my-skill', 'scripts', 'run.sh'), 'utf8')).toBe('echo hi');
  });

  it('refuses paths that leave the batch, overwrites, oversize files and unknown batches', async () => {
    const batch = await begin();
    for (const rel of ['../evil.txt', 'a/../../evil.txt', '/etc/evil', 'a\\..\\evil', 'a//b', './a', 'C:/x', '']) {
      const res = await put(batch, rel, 'x');
      expect(res.status, rel).toBe(200);
      expect(JSON.parse(res.body).error.code, rel).toBe('refused');
    }
    expect(fs.existsSync(path.join(tmp, 'home', 'evil.txt'))).toBe(false);
    expect(fs.existsSync(path.join(tmp, 'home', 'staging', 'evil.txt'))).toBe(false);
    expect(JSON.parse((await put(batch, 'x/a.txt', 'one')).body).ok).toBe(true);
    const again = await put(batch, 'x/a.txt', 'two');
    expect(JSON.parse(again.body).error.code).toBe('conflict');
    expect(fs.readFileSync(path.join(tmp, 'home', 'staging', batch, 'x', 'a.txt'), 'utf8')).toBe('one');
    const big = await put(batch, 'x/big.bin', Buffer.alloc(2048, 1));
    expect(JSON.parse(big.body).error.code).toBe('refused');
    expect(fs.existsSync(path.join(tmp, 'home', 'staging', batch, 'x', 'big.bin'))).toBe(false);
    const unknown = await put('b-0000000000000-0123456789abcdef', 'a.txt', 'x');
    expect(JSON.parse(unknown.body).error.code).toBe('not-found');
    const traversalBatch = await put('../../x', 'a.txt', 'x');
    expect(JSON.parse(traversalBatch.body).error.code).toBe('not-found');
  });

  it('enforces the batch size cap across files', async () => {
    const batch = await begin();
    for (let i = 0; i < 4; i++) expect(JSON.parse((await put(batch, `f${i}.bin`, Buffer.alloc(1000))).body).ok).toBe(true);
    const over = await put(batch, 'f4.bin', Buffer.alloc(1000));
    expect(JSON.parse(over.body).error.code).toBe('refused');
    expect(JSON.parse(over.body).error.message).toMatch(/too large/);
  });
});
