// `skilldock mcp` on stdio as hosts start it: bin/skilldock.js picks its door (dist/mcp.cjs, built
// by the test run's global setup), which answers the handshake before it loads the engine, then
// serves the library through it. Its input is cut into messages of at most 1 MB: a 100 MB line
// gets a JSON-RPC error and the server goes on, holding none of it. What the door does not answer
// goes to the full CLI.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sha256, writeMcpLibrary } from './support/mcp.js';
import { writeSkill } from './support/security.js';
import { waitFor } from './support/wait.js';

const root = path.resolve(__dirname, '..');
const bin = path.join(root, 'bin', 'skilldock.js');
let base: string;
let env: NodeJS.ProcessEnv;
const CRLF = '---\r\nname: crlf\r\ndescription: A skill written on Windows.\r\n---\r\n# CRLF\r\n\u001b[1mbold\u001b[0m\r\n';

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-mcp-door-')));
  const lib = path.join(base, 'sdhome', 'library');
  fs.mkdirSync(lib, { recursive: true });
  fs.mkdirSync(path.join(base, 'home'));
  writeMcpLibrary(lib, path.join(base, 'secret.md'));
  writeSkill(lib, 'crlf', '');
  fs.writeFileSync(path.join(lib, 'crlf', 'SKILL.md'), CRLF);
  env = {
    PATH: process.env.PATH ?? '',
    HOME: path.join(base, 'home'),
    SKILLDOCK_HOME: path.join(base, 'sdhome'),
    NO_COLOR: '1',
    SKILLDOCK_TRACE_LEAN: '1',
  };
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

interface Server {
  child: ChildProcessWithoutNullStreams;
  got: Array<Record<string, unknown>>;
  stderr: () => string;
  send(message: Record<string, unknown>): void;
  answer(id: number): Promise<Record<string, unknown>>;
}
const running: Server[] = [];

afterEach(async () => {
  for (const s of running.splice(0)) {
    if (s.child.exitCode !== null || s.child.signalCode !== null) continue;
    const gone = new Promise((r) => s.child.once('exit', r));
    s.child.kill('SIGKILL');
    await gone;
  }
});

/** `skilldock mcp` as a child; its stdout read as newline-delimited JSON-RPC. */
function start(): Server {
  const child = spawn(process.execPath, [bin, 'mcp'], { env, cwd: base, stdio: ['pipe', 'pipe', 'pipe'] });
  const got: Array<Record<string, unknown>> = [];
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString();
    for (let nl = out.indexOf('\n'); nl !== -1; nl = out.indexOf('\n')) {
      got.push(JSON.parse(out.slice(0, nl)) as Record<string, unknown>);
      out = out.slice(nl + 1);
    }
  });
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  child.stdin.on('error', () => undefined); // a server that stopped reading: the test says what it expected
  const s: Server = {
    child,
    got,
    stderr: () => err,
    send: (m) => void child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`),
    async answer(id) {
      await waitFor(() => got.some((m) => m.id === id) || child.exitCode !== null, {
        timeoutMs: 60_000,
        what: () => `the answer to request ${id} (stderr: ${err})`,
      });
      const m = got.find((x) => x.id === id);
      if (!m) throw new Error(`the server exited (${child.exitCode}) before answering ${id}: ${err}`);
      return m;
    },
  };
  running.push(s);
  return s;
}

const INITIALIZE = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'door-test', version: '1' } };

async function exited(s: Server): Promise<number | null> {
  s.child.stdin.end();
  await waitFor(() => s.child.exitCode !== null, { timeoutMs: 60_000, what: () => `the server to exit (stderr: ${s.stderr()})` });
  return s.child.exitCode;
}

describe('skilldock mcp through its door', () => {
  it('answers the handshake and tools/list before it loads the engine, then serves the library exactly', async () => {
    const s = start();
    s.send({ id: 1, method: 'initialize', params: INITIALIZE });
    const init = (await s.answer(1)).result as { serverInfo: { name: string }; capabilities: { extensions?: object } };
    expect(init.serverInfo.name).toBe('skilldock');
    expect(init.capabilities.extensions).toHaveProperty(['io.modelcontextprotocol/skills']);
    s.send({ id: 2, method: 'tools/list' });
    const tools = (await s.answer(2)).result as { tools: Array<{ name: string }> };
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search_skills', 'load_skill']));
    expect(s.stderr()).toContain('skilldock: mcp door');
    expect(s.stderr()).not.toContain('engine loaded');

    s.send({ method: 'notifications/initialized' });
    s.send({ id: 3, method: 'skills/list', params: {} });
    const list = (await s.answer(3)).result as { skills: Array<{ uri: string; resources: Array<{ uri: string; digest: string }> }> };
    expect(s.stderr()).toContain('skilldock: engine loaded (mcp door)');
    expect(list.skills.map((x) => x.uri)).toEqual(expect.arrayContaining(['skill://hello/SKILL.md', 'skill://crlf/SKILL.md']));
    // A Windows file's CRs and an escape byte reach the host as they are, matching their digest.
    s.send({ id: 4, method: 'resources/read', params: { uri: 'skill://crlf/SKILL.md' } });
    const read = (await s.answer(4)).result as { contents: Array<{ text: string }> };
    expect(read.contents[0]!.text).toBe(CRLF);
    const listed = list.skills.find((x) => x.uri === 'skill://crlf/SKILL.md')!.resources.find((r) => r.uri === 'skill://crlf/SKILL.md');
    expect(listed?.digest).toBe(sha256(CRLF));
    // An engine refusal is the SDK's error from the engine's own bundle: still Invalid params.
    s.send({ id: 5, method: 'resources/read', params: { uri: 'skill://leaky/refs/secret.md' } });
    expect(((await s.answer(5)).error as { code: number }).code).toBe(-32602);
    expect(await exited(s)).toBe(0);
  }, 120_000);

  it('refuses a 100 MB line with a JSON-RPC error, holds none of it, and answers the next request', async () => {
    const s = start();
    s.send({ id: 1, method: 'initialize', params: INITIALIZE });
    await s.answer(1);
    s.send({ method: 'notifications/initialized' });
    s.send({ id: 2, method: 'skills/list', params: {} });
    await s.answer(2);
    const peak = () => {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${s.child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : NaN;
    };
    const linux = fs.existsSync(`/proc/${s.child.pid}/status`);
    const before = linux ? peak() : 0;

    const MB = Buffer.alloc(1 << 20, 'a');
    s.child.stdin.write('{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"');
    // Waits for the pipe to take more, or for a server that stopped reading to be gone.
    const drained = () =>
      new Promise<void>((resolve) => {
        const done = () => {
          s.child.stdin.off('drain', done).off('close', done);
          s.child.off('exit', done);
          resolve();
        };
        s.child.stdin.once('drain', done).once('close', done);
        s.child.once('exit', done);
      });
    for (let i = 0; i < 100 && s.child.exitCode === null && !s.child.stdin.destroyed; i++) {
      if (!s.child.stdin.write(MB)) await drained();
    }
    s.child.stdin.write('"}}\n');
    s.child.stdin.write('{"not": "json-rpc"}\n');
    s.send({ id: 4, method: 'ping' });
    expect((await s.answer(4)).result).toEqual({});
    const refusal = s.got.find((m) => (m.error as { code?: number } | undefined)?.code === -32600);
    expect(refusal, JSON.stringify(s.got.slice(-3))).toBeDefined();
    expect((refusal!.error as { message: string }).message).toMatch(/a message of 1048\d{5} bytes, over the limit of 1048576/);
    expect(s.got.some((m) => m.id === 3)).toBe(false);
    // The JSON line after it, no JSON-RPC message, is answered too (the door's zod tells it).
    expect(s.got.filter((m) => !('id' in m)).map((m) => (m.error as { code: number }).code)).toEqual([-32600, -32600]);
    expect(s.stderr()).toMatch(/refused a message of \d+ bytes on standard input/);
    // The line streamed through: the process grew by far less than the 100 MB it was sent.
    if (linux) expect(peak() - before).toBeLessThan(80 * 1024 * 1024);
    expect(await exited(s)).toBe(0);
  }, 120_000);

  it('hands --help and arguments it does not take to the full CLI', () => {
    const help = spawnSync(process.execPath, [bin, 'mcp', '--help'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: skilldock mcp');
    const bad = spawnSync(process.execPath, [bin, 'mcp', '--assistant'], { env, encoding: 'utf8', timeout: 60_000, input: '' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('Usage: skilldock mcp');
    expect(bad.stderr).not.toContain('mcp door');
  }, 120_000);
});
