import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from './commands/index.js';
import { makeRepo, startGitDaemon } from '../../test/support/git-servers.js';

// Every command of the CLI's command table (a new one is covered the day it is added), run as the
// built CLI against a home full of hostile names: a skill, its folder, its files, a custom agent,
// an assistant, a git repository's folder, the user's own arguments. Whatever the command prints,
// on stdout or stderr, in text or JSON, no raw control character reaches the terminal and no name
// starts a line of its own; JSON output stays valid.

const repoRoot = path.resolve(__dirname, '..', '..');
const cli = path.join(repoRoot, 'bin', 'skilldock.js');

/** ESC sequences (CSI clear, OSC retitle ended by BEL), a line feed and carriage return that would forge a line, C1 CSI, DEL, a bidi override. */
const HOSTILE = 'h\u001b[2J\u001b]0;pwn\u0007\n\rFORGED imported\u009b31m\u007f\u202eZ';
/** The same where a file system or YAML takes it (no `/`). */
const NAME = HOSTILE;
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

let base: string;
let userHome: string;
let sdHome: string;
let hostileFolder: string;
let claudeSkill: string;
let daemon: Awaited<ReturnType<typeof startGitDaemon>> | undefined;
let repoUrl: string;

function runCli(args: string[], timeoutMs = 60_000): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [cli, ...args], {
      env: {
        ...process.env,
        HOME: userHome,
        SKILLDOCK_USER_HOME: userHome,
        SKILLDOCK_HOME: sdHome,
        DISPLAY: '',
        WAYLAND_DISPLAY: '',
        GIT_TERMINAL_PROMPT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    p.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    // `serve` runs until stopped: it is stopped once it has spoken (or at the time-out).
    const timer = setTimeout(() => p.kill('SIGTERM'), timeoutMs);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

function writeFile(p: string, text: string): void {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
}

const skillText = (name: string) =>
  `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(`Use when ${HOSTILE}`)}\n---\n\n# ${HOSTILE}\n\nSee [${HOSTILE}](b\nc.md).\n`;

beforeAll(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-hostile-')));
  userHome = path.join(base, 'user');
  sdHome = path.join(base, 'sd');
  // A skill in an agent's own folder: hostile folder, name, description, body and file names.
  claudeSkill = path.join(userHome, '.claude', 'skills', NAME);
  writeFile(path.join(claudeSkill, 'SKILL.md'), skillText(NAME));
  writeFile(path.join(claudeSkill, 'b\nc.md'), 'x');
  writeFile(path.join(claudeSkill, `x${HOSTILE}.md`), 'x');
  // A folder to import and lint.
  hostileFolder = path.join(base, 'in', NAME);
  writeFile(path.join(hostileFolder, 'SKILL.md'), skillText('evil'));
  writeFile(path.join(hostileFolder, 'b\nc.md'), 'x');
  // A repository whose folders are hostile, served by git daemon on loopback.
  const repo = makeRepo(path.join(base, 'git'), 'good', {
    [`skills/${NAME}/SKILL.md`]: skillText('from-repo'),
    [`skills/${NAME}/b\nc.md`]: 'x',
  });
  daemon = await startGitDaemon(path.dirname(repo.bare));
  repoUrl = `${daemon.base}/good.git`;
  // State that names hostile things: an import (journal, history), a custom agent, an assistant.
  for (const args of [
    ['import', hostileFolder],
    ['add', repoUrl],
    ['agents', 'add', 'ag', '--name', `Ag${HOSTILE}`, '--command', 'ag', '--skills-dir', '.ag/skills', '--context-file', 'AG.md'],
    ['assistant', 'create', '--name', NAME, '--agent', 'claude', '--rules', HOSTILE, '--skill', 'evil'],
  ]) {
    const r = await runCli(args);
    expect(r.code, `${args[0]}: ${r.err}`).not.toBeNull();
  }
}, 180_000);

afterAll(async () => {
  await daemon?.stop();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** Invocations tried for every command; the richer ones below reach each command's real output. */
const GENERIC: string[][] = [[HOSTILE]];
const SPECIFIC = (): Record<string, string[][]> => ({
  add: [[repoUrl, '--list'], [repoUrl, '--on-conflict', 'keep-both'], [`${repoUrl}${HOSTILE}`]],
  import: [[hostileFolder, '--on-conflict', 'keep-both'], [path.join(base, HOSTILE)]],
  adopt: [[], [claudeSkill, '--mode', 'link'], [claudeSkill, '--mode', 'copy', '--on-conflict', 'keep-both']],
  lint: [[hostileFolder], [path.dirname(claudeSkill)]],
  show: [[NAME], ['evil']],
  list: [[]],
  agents: [['list'], ['show', 'ag']],
  'agents-view': [['claude'], ['ag']],
  assistant: [['list'], ['show', NAME], ['export', NAME]],
  launch: [[NAME, '--workspace', hostileFolder]],
  history: [[]],
  check: [[]],
  update: [['--all']],
  roots: [[]],
  scan: [[claudeSkill], [hostileFolder]],
  state: [['list'], ['resolve', `skill://state/${HOSTILE}/x`]],
  policy: [['check-write', path.join(hostileFolder, HOSTILE)]],
  workspaces: [['list']],
  trash: [['list']],
  delete: [['evil']],
  restore: [[HOSTILE]],
  undo: [[]],
  doctor: [[]],
  new: [[path.join(base, 'new', HOSTILE)]],
  export: [['evil', '--out', path.join(base, 'out', HOSTILE)]],
  approve: [[claudeSkill]],
  pin: [['evil', HOSTILE]],
  serve: [['--port', '0']],
});

// Commands that change the library run last, so the others see the hostile state.
const LAST = ['delete', 'restore', 'undo', 'update', 'doctor', 'pin'];

describe('every command with hostile names', () => {
  it('prints no raw control character and no line a name started, and JSON stays valid', async () => {
    const specific = SPECIFIC();
    const failures: string[] = [];
    let runs = 0;
    const argvs = (names: string[]) =>
      names.flatMap((name) =>
        [...(specific[name] ?? []), ...GENERIC].flatMap((args) =>
          [false, true].map((json) => [name, ...args, ...(json ? ['--json'] : [])]),
        ),
      );
    const names = commands.map((c) => c.name);
    // Three at a time, then the commands that change the library one by one, in order.
    const first = argvs(names.filter((n) => !LAST.includes(n)));
    const pool = async () => {
      for (let argv = first.shift(); argv; argv = first.shift()) await check(argv);
    };
    const check = async (argv: string[]) => {
      const json = argv.includes('--json');
      const r = await runCli(argv, argv[0] === 'serve' ? 4000 : 60_000);
      runs++;
      const shown = JSON.stringify(argv);
      for (const [stream, text] of [
        ['stdout', r.out],
        ['stderr', r.err],
      ] as const) {
        const raw = RAW.exec(text);
        if (raw) failures.push(`${shown} ${stream}: raw U+${raw[0].charCodeAt(0).toString(16)} in ${JSON.stringify(text.slice(0, 300))}`);
        if (/^\s*FORGED/m.test(text)) failures.push(`${shown} ${stream}: a name started a line`);
      }
      const trimmed = r.out.trim();
      if (json && (trimmed.startsWith('{') || trimmed.startsWith('['))) {
        try {
          JSON.parse(trimmed);
        } catch (e) {
          failures.push(`${shown}: invalid JSON (${(e as Error).message})`);
        }
      }
    };
    await Promise.all([pool(), pool(), pool()]);
    for (const argv of argvs(LAST.filter((n) => names.includes(n)))) await check(argv);
    expect(failures).toEqual([]);
    expect(runs).toBeGreaterThanOrEqual(commands.length * GENERIC.length * 2);
  }, 900_000);

  it('the names really were hostile: JSON carries them exactly', async () => {
    const r = await runCli(['list', '--json']);
    const names = (JSON.parse(r.out) as { entries: Array<{ name: string }> }).entries.map((e) => e.name);
    expect(names).toContain(NAME);
    const agents = await runCli(['agents', 'list', '--json']);
    expect(JSON.parse(agents.out)).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'ag', name: `Ag${HOSTILE}` })]));
  }, 60_000);
});
