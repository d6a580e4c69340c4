// `skilldock mcp` as hosts run it: a real child process on a bundle built from the sources, driven
// by the official SDK's client over stdio and over Streamable HTTP. Lists, gets, reads every file
// against its digest, the index, a list change after `skilldock import` from another process, and
// hostile HTTP (no token, foreign Host, malformed and huge bodies) with the server still answering.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { cliHarness, type CliHarness } from './cli-harness.js';
import { listSkills, readBytes, sha256, writeMcpLibrary, errorCode } from './support/mcp.js';
import { writeSkill } from './support/security.js';
import { waitFor } from './support/wait.js';

let h: CliHarness;
let lib: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  h = await cliHarness('sd-mcp-cli-');
  lib = path.join(h.base, 'sdhome', 'library');
  fs.mkdirSync(lib, { recursive: true });
  writeMcpLibrary(lib, path.join(h.base, 'secret.md'));
  // Bytes a terminal must not see (CR of a Windows file, ESC, a bidi override) are content here:
  // the host gets them as they are, matching their digest.
  writeSkill(lib, 'crlf', '# CRLF\r\n\u001b[1mbold\u001b[0m \u202e mark\r\n', { 'notes.md': 'a\r\nb\r\n' });
}, 120_000);

afterAll(async () => {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await gone;
    }
  }
  h.done();
});

async function checkEverything(client: Client): Promise<void> {
  const skills = await listSkills(client);
  const uris = skills.map((s) => s.uri);
  expect(uris).toEqual(
    expect.arrayContaining(['skill://hello/SKILL.md', 'skill://tool/SKILL.md', 'skill://leaky/SKILL.md', 'skill://crlf/SKILL.md']),
  );
  for (const s of skills) {
    for (const r of s.resources) expect(sha256(await readBytes(client, r.uri)), r.uri).toBe(r.digest);
  }
  expect((await readBytes(client, 'skill://crlf/notes.md')).toString()).toBe('a\r\nb\r\n');
  const tool = skills.find((s) => s.uri === 'skill://tool/SKILL.md')!;
  expect(tool.resources.map((r) => r.uri)).not.toContain('skill://tool/scripts/run.py');
  expect(await errorCode(client.readResource({ uri: 'skill://leaky/refs/secret.md' }))).toBe(-32602);
  const index = JSON.parse((await readBytes(client, 'skill://index.json')).toString()) as { skills: Array<{ url: string }> };
  expect(index.skills.map((s) => s.url)).toEqual(expect.arrayContaining(['skill://hello/SKILL.md']));
}

async function importAndSeeChange(client: Client, name: string): Promise<void> {
  let changed = 0;
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void changed++);
  const src = path.join(h.base, 'incoming');
  writeSkill(src, name, `# ${name}\n`);
  const r = h.run(['import', path.join(src, name)]);
  expect(r.code, r.stderr).toBe(0);
  await waitFor(() => changed > 0, { timeoutMs: 20_000, what: 'notifications/resources/list_changed' });
  expect((await listSkills(client)).map((s) => s.uri)).toContain(`skill://${name}/SKILL.md`);
}

describe('skilldock mcp (stdio child process)', () => {
  it('serves the library to the SDK client and follows an import by another process', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [h.cli, 'mcp'],
      env: h.env() as Record<string, string>,
      stderr: 'pipe',
      cwd: h.base,
    });
    const client = new Client({ name: 'stdio-test', version: '1' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('skilldock');
      await checkEverything(client);
      await importAndSeeChange(client, 'from-stdio');
    } finally {
      await client.close();
    }
  }, 60_000);
});

/** Start `skilldock mcp --http --json` and read its one line of JSON. */
async function startHttp(): Promise<{ child: ChildProcess; url: string; tokenUrl: string; token: string; port: number }> {
  const child = spawn(process.execPath, [h.cli, 'mcp', '--http', '--json'], {
    env: h.env(),
    cwd: h.base,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  await waitFor(() => out.includes('\n') || child.exitCode !== null, { timeoutMs: 30_000, what: 'the server line' });
  return { child, ...(JSON.parse(out.split('\n')[0]) as { url: string; tokenUrl: string; token: string; port: number }) };
}

function raw(
  port: number,
  opts: { path: string; method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: opts.path, method: opts.method ?? 'POST', headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (b: Buffer) => (body += b.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('skilldock mcp --http (child process)', () => {
  it('serves over Streamable HTTP with a token, refuses hostile requests and stays up', async () => {
    const srv = await startHttp();
    const records = fs.readdirSync(path.join(h.base, 'sdhome', 'mcp-servers'));
    expect(records.length).toBeGreaterThan(0);
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    expect((await raw(srv.port, { path: '/mcp', headers: json, body: init })).status).toBe(401);
    expect((await raw(srv.port, { path: '/mcp/wrong-token', headers: json, body: init })).status).toBe(401);
    expect(
      (
        await raw(srv.port, {
          path: '/mcp',
          headers: { ...json, host: 'evil.example:80', authorization: `Bearer ${srv.token}` },
          body: init,
        })
      ).status,
    ).toBe(403);
    const auth = { ...json, authorization: `Bearer ${srv.token}` };
    expect((await raw(srv.port, { path: '/mcp', headers: auth, body: '{"jsonrpc": "2.0", "id": 1, "meth' })).status).toBe(400);
    expect((await raw(srv.port, { path: '/mcp', headers: auth, body: Buffer.alloc(2 << 20, 0x20) })).status).toBe(413);
    expect((await raw(srv.port, { path: '/mcp', headers: { ...auth, 'mcp-session-id': 'nope' }, body: init })).status).toBe(404);

    const client = new Client({ name: 'http-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(srv.url), { requestInit: { headers: { authorization: `Bearer ${srv.token}` } } }),
    );
    // The token in the path works as well, for hosts whose configuration holds only a URL.
    const second = new Client({ name: 'http-test-2', version: '1' });
    await second.connect(new StreamableHTTPClientTransport(new URL(srv.tokenUrl)));
    try {
      await checkEverything(client);
      expect((await listSkills(second)).length).toBeGreaterThan(0);
      await importAndSeeChange(client, 'from-http');
    } finally {
      await client.close();
      await second.close();
    }
    const exited = new Promise<number | null>((r) => srv.child.once('exit', (code) => r(code)));
    srv.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(fs.readdirSync(path.join(h.base, 'sdhome', 'mcp-servers')).filter((n) => n.endsWith('.json'))).toEqual([]);
  }, 90_000);
});
