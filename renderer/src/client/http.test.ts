import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from './http';
import { ApiError } from './errors';
import { createI18n } from '../i18n';
import { errorMessage } from '../i18n/engine-text';

// The browser client's own failures (no token, server gone, an answer that is no result) carry a
// key like the engine's errors, so a Chinese or Japanese window words them (issue 12). Real
// servers on 127.0.0.1 answer, or are closed, as the case needs.

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
});

async function serve(status: number, body: string, type: string): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('the HTTP client’s own failures are keyed', () => {
  it('no token, and an empty drop', async () => {
    const c = createHttpClient({ origin: 'http://127.0.0.1:9', token: null });
    expect((await failure(c.api.getSettings({}))).msg).toEqual({ key: 'http.no-token' });
    const t = createHttpClient({ origin: 'http://127.0.0.1:9', token: 'x' });
    const empty = await failure(t.upload([]));
    expect(empty.msg).toEqual({ key: 'upload.nothing' });
    const ja = await createI18n('ja');
    expect(errorMessage(ja.t, empty)).toBe('アップロードするものがありません');
  });

  it('a server that is gone: http.unreachable, worded in Chinese with the reason', async () => {
    const origin = await serve(200, '{}', 'application/json');
    const gone = servers.pop()!;
    await new Promise((resolve) => gone.close(resolve));
    const err = await failure(createHttpClient({ origin, token: 't' }).api.getSettings({}));
    expect(err.code).toBe('io');
    expect(err.msg?.key).toBe('http.unreachable');
    const zh = await createI18n('zh-CN');
    const text = errorMessage(zh.t, err);
    expect(text).toMatch(/^无法连接到 SkillDock（.+）。`skilldock serve` 还在运行吗？$/);
    expect(text).not.toContain('Cannot reach');
  });

  it('an answer that is not JSON, and JSON that is not a result', async () => {
    const proxy = await serve(502, '<html>Bad gateway</html>', 'text/html');
    const noResult = await failure(createHttpClient({ origin: proxy, token: 't' }).api.getSettings({}));
    expect(noResult.msg).toEqual({ key: 'http.no-result', params: { status: 502 } });
    expect(noResult.message).toBe('SkillDock answered 502 without a result');
    const odd = await serve(200, '{"hello":1}', 'application/json');
    const malformed = await failure(createHttpClient({ origin: odd, token: 't' }).api.getSettings({}));
    expect(malformed.msg).toEqual({ key: 'http.malformed' });
    const tw = await createI18n('zh-TW');
    expect(errorMessage(tw.t, noResult)).toBe('SkillDock 回應了 502，但沒有給出結果');
  });
});
