// `skilldock serve` and `npm start`'s fallback, as real processes on the built bundle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

const root = path.resolve(__dirname, '..');
let tmp: string;
let env: NodeJS.ProcessEnv;
const children: ChildProcess[] = [];

beforeAll(() => {
  if (!fs.existsSync(path.join(root, 'dist/cli.mjs'))) throw new Error('dist/cli.mjs is missing: run `npm run build:engine` first');
  tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-serve-'));
  env = {
    ...process.env,
    HOME: path.join(tmp, 'user'),
    SKILLDOCK_HOME: path.join(tmp, 'home'),
    SKILLDOCK_USER_HOME: path.join(tmp, 'user'),
    NO_COLOR: '1',
  };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  fs.mkdirSync(path.join(tmp, 'user'), { recursive: true });
});

afterAll(() => {
  // Each child leads its own process group, so `npm start`'s server child goes down with it.
  for (const c of children) {
    if (c.exitCode === null && c.pid) {
      try {
        process.kill(-c.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Start a process and collect stdout lines until `until` matches one. */
function startUntil(
  args: string[],
  until: RegExp,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; lines: string[]; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  const lines: string[] = [];
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timeout; stdout: ${lines.join('\n')} stderr: ${err}`)), 20_000);
    let buf = '';
    let done = false;
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      if (done) return;
      buf += d;
      const parts = buf.split('\n');
      buf = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const match = line.match(until);
        if (match) {
          done = true;
          clearTimeout(timer);
          resolve({ child, lines, match });
          return;
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} early; stdout: ${lines.join('\n')} stderr: ${err}`)));
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', (code) => resolve(code))));
}

describe('skilldock serve', () => {
  it('prints a tokenized loopback URL, serves the UI and the API, and stops cleanly on SIGTERM', async () => {
    const { child, match } = await startUntil(['bin/skilldock.js', 'serve', '--port', '0', '--json'], /^\{.*\}$/);
    const info = JSON.parse(match[0]);
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
    const page = await fetch(info.origin + '/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const refused = await fetch(`${info.origin}/api/getSettings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    const ok = await fetch(`${info.origin}/api/getSettings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-skilldock-token': info.token },
      body: '{}',
    });
    expect(((await ok.json()) as { ok: boolean }).ok).toBe(true);
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
  });

  it('exits 2 on a bad port', () => {
    const r = spawnSync(process.execPath, ['bin/skilldock.js', 'serve', '--port', 'eighty'], { cwd: root, env, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--port');
  });
});

describe('npm start without an Electron binary', () => {
  it('says so in one line and serves the browser UI, printing its URL', async () => {
    const { child, lines } = await startUntil(['scripts/start.mjs'], /http:\/\/127\.0\.0\.1:\d+\/#token=/);
    const before = lines.slice(0, -1);
    expect(before, lines.join('\n')).toHaveLength(1);
    expect(before[0]).toMatch(/^SkillDock: desktop app unavailable: .+; starting the browser UI instead\.$/);
    expect(lines.at(-1)).toMatch(/^SkillDock browser UI: http:\/\/127\.0\.0\.1:\d+\/#token=/);
    child.kill('SIGTERM');
    await exitOf(child);
  });
});
