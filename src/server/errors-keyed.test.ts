import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SkillDockService } from '../service.js';
import { formatMessage, type MessageRef } from '../contract/index.js';
import { startServer, type RunningServer } from './server.js';
import { hostHeaders, rawRequest, type RawResponse } from '../../test/support/server.js';

// Every refusal of the browser UI's uploads and HTTP layer reaches the page as a key and its
// parameters (issue 12: no English engine text in a Chinese or Japanese window), next to the
// English message the key words. A real server on 127.0.0.1, real files in a real staging dir.

const repoResources = path.resolve(__dirname, '../../resources');
let tmp: string;
let staging: string;
let service: SkillDockService;
let server: RunningServer;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-keyed-'));
  staging = path.join(tmp, 'home', 'uploads');
  service = new SkillDockService({
    paths: { home: path.join(tmp, 'home'), userHome: path.join(tmp, 'user'), resourcesDir: repoResources },
  });
  server = await startServer({
    service,
    stagingDir: staging,
    uploadLimits: { maxFileBytes: 2048, maxBatchBytes: 5000, maxFiles: 6 },
    watchCatalog: false,
  });
});

afterAll(async () => {
  await server?.close();
  await service?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface WireError {
  code: string;
  message: string;
  msg?: MessageRef;
}

/**
 * The error of a failed answer, checked to carry its key with the English `message` worded from it.
 * The engine's own refusals answer 200 (a 4xx is a console error in the browser, issue 23 item 19);
 * the HTTP layer's refusals keep their status.
 */
function errorOf(res: RawResponse, status: number): WireError {
  expect(res.status, res.body).toBe(status);
  const body = JSON.parse(res.body) as { ok: boolean; error: WireError };
  expect(body.ok).toBe(false);
  expect(body.error.msg, res.body).toBeDefined();
  expect(body.error.message).toBe(formatMessage(body.error.msg!));
  return body.error;
}

function post(route: string, body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  return rawRequest(server.port, { method: 'POST', path: route, headers: hostHeaders(server.port, server.token, headers), body });
}

async function begin(): Promise<string> {
  return JSON.parse((await post('/api/upload/begin', '{}')).body).value.batch as string;
}

function put(batch: string, rel: string, content: string | Buffer, headers: Record<string, string> = {}) {
  const q = new URLSearchParams({ batch, path: rel });
  return post(`/api/upload/file?${q.toString()}`, content, { 'content-type': 'application/octet-stream', ...headers });
}

describe('upload refusals carry a key and parameters', () => {
  it('bad paths: missing, refused (shown without control characters), too deep', async () => {
    const batch = await begin();
    expect(errorOf(await put(batch, '', 'x'), 200).msg).toEqual({ key: 'upload.path-missing' });
    expect(errorOf(await put(batch, '../evil.txt', 'x'), 200).msg).toEqual({ key: 'upload.path-refused', params: { path: '../evil.txt' } });
    expect(errorOf(await put(batch, 'a/\u202egnp.exe', 'x'), 200).msg).toEqual({
      key: 'upload.path-refused',
      params: { path: 'a/?gnp.exe' },
    });
    expect(errorOf(await put(batch, 'a/\u0001b', 'x'), 200).msg).toEqual({ key: 'upload.path-refused', params: { path: 'a/?b' } });
    const deep = 'd/'.repeat(40) + 'x';
    expect(errorOf(await put(batch, deep, 'x'), 200).msg).toEqual({ key: 'upload.path-too-deep', params: { max: 32, path: deep } });
    expect(fs.readdirSync(path.join(staging, batch))).toEqual([]);
  });

  it('twins in case, a second upload of one file, an unknown batch', async () => {
    const batch = await begin();
    expect((await put(batch, 'tool/SKILL.md', 'one')).status).toBe(200);
    expect(errorOf(await put(batch, 'tool/skill.md', 'two'), 200).msg).toEqual({
      key: 'upload.case-twin',
      params: { path: 'tool/skill.md', other: 'tool/SKILL.md' },
    });
    expect(errorOf(await put(batch, 'tool/SKILL.md', 'again'), 200).msg).toEqual({
      key: 'upload.already',
      params: { path: 'tool/SKILL.md' },
    });
    expect(fs.readFileSync(path.join(staging, batch, 'tool', 'SKILL.md'), 'utf8')).toBe('one');
    expect(errorOf(await put('b-0000000000000-0123456789abcdef', 'a.txt', 'x'), 200).msg).toEqual({ key: 'upload.unknown-batch' });
    expect(errorOf(await post('/api/upload/finish?batch=nope', '{}'), 200).msg).toEqual({ key: 'upload.unknown-batch' });
  });

  it('sizes: a file too large (declared and streamed), the batch too large, too many files', async () => {
    const batch = await begin();
    const declared = await put(batch, 'big.bin', Buffer.alloc(4096, 1), { 'content-length': '4096' });
    expect(errorOf(declared, 200).msg).toEqual({ key: 'upload.file-too-large', params: { path: 'big.bin', limit: '2 KB' } });
    // rawRequest sends a chunked body without a length: the cap is met while streaming.
    expect(errorOf(await put(batch, 'big2.bin', Buffer.alloc(3000, 1)), 200).msg).toEqual({
      key: 'upload.file-too-large',
      params: { path: 'big2.bin', limit: '2 KB' },
    });
    expect(fs.existsSync(path.join(staging, batch, 'big2.bin'))).toBe(false);
    for (let i = 0; i < 2; i++) expect((await put(batch, `f${i}.bin`, Buffer.alloc(2000))).status).toBe(200);
    expect(errorOf(await put(batch, 'f2.bin', Buffer.alloc(2000)), 200).msg).toEqual({
      key: 'upload.batch-too-large',
      params: { limit: '5000 B' },
    });
    const many = await begin();
    for (let i = 0; i < 6; i++) expect((await put(many, `n${i}.txt`, 'x')).status).toBe(200);
    expect(errorOf(await put(many, 'n6.txt', 'x'), 200).msg).toEqual({ key: 'upload.too-many-files', params: { max: 6 } });
  });

  it('a link planted in the batch, and a batch removed from disk midway', async () => {
    const batch = await begin();
    const outside = path.join(tmp, 'outside');
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(staging, batch, 'evil'));
    expect(errorOf(await put(batch, 'evil/x.txt', 'x'), 200).msg).toEqual({ key: 'upload.escapes', params: { path: 'evil' } });
    expect(fs.readdirSync(outside)).toEqual([]);
    const gone = await begin();
    fs.rmSync(path.join(staging, gone), { recursive: true });
    const failed = errorOf(await put(gone, 'sub/x.txt', 'x'), 200);
    expect(failed.msg).toEqual({ key: 'upload.failed', params: { path: 'sub/x.txt', errno: 'ENOENT' } });
    // Said without SkillDock's own staging path.
    expect(failed.message).not.toContain(staging);
  });
});

describe('HTTP refusals the page can meet carry a key', () => {
  it('wrong content type, invalid JSON, a body too large', async () => {
    expect(errorOf(await post('/api/getSettings', '{}', { 'content-type': 'text/plain' }), 400).msg).toEqual({ key: 'http.json-only' });
    expect(errorOf(await post('/api/getSettings', '{nope'), 400).msg).toEqual({ key: 'http.bad-json' });
    const huge = Buffer.alloc(16 * 1024 * 1024 + 10, 0x20);
    expect(errorOf(await post('/api/getSettings', huge), 422).msg).toEqual({ key: 'http.body-too-large', params: { limit: '16 MB' } });
  });

  it('a wrong token, GET on the API, an unknown route', async () => {
    const wrong = await rawRequest(server.port, {
      method: 'POST',
      path: '/api/getSettings',
      headers: hostHeaders(server.port, 'not-the-token', { 'content-type': 'application/json' }),
      body: '{}',
    });
    expect(errorOf(wrong, 401).msg).toEqual({ key: 'http.bad-token' });
    const get = await rawRequest(server.port, { method: 'GET', path: '/api/getSettings', headers: hostHeaders(server.port, server.token) });
    expect(errorOf(get, 405).msg).toEqual({ key: 'http.use-post' });
    expect(get.headers.allow).toBe('POST');
    expect(errorOf(await post('/api/no-such-thing', '{}'), 404).msg).toEqual({ key: 'http.no-route' });
    const foreign = await rawRequest(server.port, { method: 'GET', path: '/', headers: { host: 'evil.example:80' } });
    expect(errorOf(foreign, 403).msg).toEqual({ key: 'http.refused-origin', params: { reason: 'foreign host' } });
  });
});
