// A real SkillDock engine for component tests: `skilldock serve` in a child process on temporary
// homes, reached through the real HTTP client. The renderer may not import the engine (layer rule),
// so it talks to it the way the browser UI does. Requires `npm run build:engine` (npm test builds).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createHttpClient } from '../client/http';
import type { ClientPort } from '../client-port';

const repo = path.resolve(__dirname, '../../..');

export interface TestEngine {
  client: ClientPort;
  /** The server's address and token, for a second client of one's own (an event stream). */
  origin: string;
  token: string;
  home: string;
  userHome: string;
  /** Calls sent to the engine and not yet answered: 0 once a page has what it asked for. */
  inFlight(): number;
  close(): Promise<void>;
}

function writeSkill(dir: string, frontmatter: string, body: string, files: Record<string, string> = {}) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\n${frontmatter}---\n\n${body}\n`);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}

/** Library and user-root skills covering the drawer's cases: scripts, legacy paths, a Codex drop, shadowing. */
export function writeFixtureSkills(home: string, userHome: string): void {
  const lib = path.join(home, 'library');
  writeSkill(
    path.join(lib, 'pdf'),
    'name: pdf\ndescription: Extract text and tables from PDF files.\nlicense: MIT\nallowed-tools: Bash Read\n',
    '# PDF\n\nRun `scripts/extract.sh`.\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    {
      'scripts/extract.sh': 'echo extract\n',
      'references/forms.md': '# forms\n',
    },
  );
  writeSkill(path.join(lib, 'docx'), 'name: docx\ndescription: Create and edit Word documents.\nmetadata:\n  version: 1.2.0\n', '# DOCX');
  writeSkill(
    path.join(lib, 'code'),
    'name: code\ndescription: Keeps coding notes between sessions.\nmetadata:\n  version: 1.0.4\n',
    '# Code\n\nRead and write ~/code/memory.md.',
  );
  writeSkill(path.join(lib, 'bad-meta'), 'name: bad-meta\ndescription: Metadata is a string.\nmetadata: just a string\n', '# Bad');
  writeSkill(path.join(userHome, '.claude', 'skills', 'pdf'), 'name: pdf\ndescription: A user copy of pdf.\n', '# user pdf');
  writeSkill(path.join(userHome, '.claude', 'skills', 'review'), 'name: review\ndescription: Review pull requests.\n', '# Review');
}

let inFlight = 0;

/** node:http under the client, so happy-dom's same-origin fetch rules stay out of the way. */
async function nodeFetch(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown }): Promise<Response> {
  inFlight++;
  try {
    return await sendRequest(url, init);
  } finally {
    inFlight--;
  }
}

function sendRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown }): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          ok: (res.statusCode ?? 0) < 400,
          json: async () => JSON.parse(text),
          text: async () => text,
        } as unknown as Response);
      });
    });
    req.on('error', reject);
    if (typeof init.body === 'string') req.write(init.body);
    req.end();
  });
}

export async function startEngine(): Promise<TestEngine> {
  const tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-renderer-'));
  const home = path.join(tmp, 'home');
  const userHome = path.join(tmp, 'user');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(userHome, { recursive: true });
  writeFixtureSkills(home, userHome);
  const cli = path.join(repo, 'dist', 'cli.mjs');
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build:engine\` first`);
  const child: ChildProcess = spawn(process.execPath, [cli, 'serve', '--port', '0', '--json'], {
    cwd: tmp,
    env: { ...process.env, SKILLDOCK_HOME: home, HOME: userHome, USERPROFILE: userHome },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A crashed or timed-out test file must not leave a server behind.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  const info = await new Promise<{ origin: string; token: string }>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.trim().startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  const h = createHttpClient({ origin: info.origin, token: info.token, fetch: nodeFetch as unknown as typeof fetch });
  // Events need EventSource, which happy-dom lacks; tests reload the stores they assert on instead.
  const client: ClientPort = { api: h.api, onEvent: () => () => {}, isDesktop: false };
  return {
    client,
    origin: info.origin,
    token: info.token,
    home,
    userHome,
    inFlight: () => inFlight,
    async close() {
      process.off('exit', reap);
      // Remove the home only once the server is gone: one still writing (its cache) made rmSync
      // fail with ENOTEMPTY. Bounded: SIGKILL after 5 s.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const late = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(late);
      }
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
