import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { makeWorld, runWorldCli, snapshot, worldEnv, type World } from '../../test/support/library.js';
import { waitFor } from '../../test/support/wait.js';
import {
  makeRepo,
  processesMentioning,
  skillMd,
  startHangingFront,
  startGitDaemon,
  startHttpGit,
  type HangingFront,
  type Served,
} from '../../test/support/git-servers.js';
import type { MessageRef } from '../contract/index.js';

// A server that accepts and never answers: every git call SkillDock makes against it ends at its
// time-out with a message that says what timed out and after how long, leaves no git process
// behind (git's `remote-http` helper included), and several sources time out together, not one
// after another, within one deadline for the whole request. Real git over real loopback sockets.

const TIMEOUT_MS = 1500;
const UPDATE_TIMEOUT_MS = 5000;
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/skilldock.js');
let w: World;
let web: Served;
let front: HangingFront;
const saved = { timeout: process.env.SKILLDOCK_GIT_TIMEOUT_MS, deadline: process.env.SKILLDOCK_SOURCES_DEADLINE_MS };

beforeAll(async () => {
  w = makeWorld();
  const root = path.join(w.root, 'git');
  makeRepo(root, 'multi', { 'skills/alpha/SKILL.md': skillMd('alpha'), 'skills/beta/SKILL.md': skillMd('beta') });
  web = await startHttpGit(path.join(root, 'served'));
  front = await startHangingFront(web);
  process.env.SKILLDOCK_GIT_TIMEOUT_MS = String(TIMEOUT_MS);
}, 30_000);

afterAll(async () => {
  for (const [k, v] of [
    ['SKILLDOCK_GIT_TIMEOUT_MS', saved.timeout],
    ['SKILLDOCK_SOURCES_DEADLINE_MS', saved.deadline],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await front?.stop();
  await web?.stop();
  await w?.done();
});

beforeEach(() => {
  front.mode = 'pass';
  process.env.SKILLDOCK_GIT_TIMEOUT_MS = String(TIMEOUT_MS);
  delete process.env.SKILLDOCK_SOURCES_DEADLINE_MS;
});

/** No git process of this test (its unique port in the command line) is alive, soon after the call. */
async function noGitLeft(port: number): Promise<void> {
  const needle = `127.0.0.1:${port}`;
  await waitFor(() => processesMentioning(needle).length === 0, {
    timeoutMs: 3000,
    intervalMs: 50,
    what: () => `no process mentioning ${needle}; alive: ${JSON.stringify(processesMentioning(needle))}`,
  });
}

const staging = () => {
  const st = path.join(w.home, 'staging', 'sources');
  return fs.existsSync(st) ? fs.readdirSync(st) : [];
};

describe('a source that accepts and never answers', () => {
  it('check: ls-remote times out with its reason, leaves no git process, and the CLI exits 1', async () => {
    await w.service.api.addFromSource({ source: `${front.base}/multi.git` });
    front.mode = 'hang';
    const t0 = Date.now();
    const r = await w.service.api.checkSources({});
    const took = Date.now() - t0;
    expect(r.results.map((x) => x.status)).toEqual(['unreachable', 'unreachable']);
    const detail = r.results[0]!.msg!.params!.detail as MessageRef;
    expect(detail).toEqual({
      key: 'sources.timeout',
      params: { source: `${front.base}/multi.git`, command: 'git ls-remote', seconds: TIMEOUT_MS / 1000 },
    });
    expect(r.results[0]!.message).toContain(`git ls-remote for ${front.base}/multi.git timed out: it had not finished after 1.5 seconds`);
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS);
    await noGitLeft(front.port);

    const cli = await runWorldCli(w, 'check');
    expect(cli.code).toBe(1);
    expect(cli.out).toContain('UNREACHABLE');
    expect(cli.out).toContain('1 of 1 source could not be reached');
    await noGitLeft(front.port);
  });

  it('check: one deadline for all its sources stops them together, and says so', async () => {
    process.env.SKILLDOCK_GIT_TIMEOUT_MS = '60000';
    process.env.SKILLDOCK_SOURCES_DEADLINE_MS = '1000';
    try {
      front.mode = 'hang';
      const t0 = Date.now();
      const r = await w.service.api.checkSources({});
      // the git timeout is 60 s: far under it means the deadline stopped them, loaded machine or not
      expect(Date.now() - t0).toBeLessThan(20_000);
      expect(r.results.map((x) => [x.status, (x.msg!.params!.detail as MessageRef).key])).toEqual([
        ['unreachable', 'sources.deadline'],
        ['unreachable', 'sources.deadline'],
      ]);
      await noGitLeft(front.port);
    } finally {
      process.env.SKILLDOCK_GIT_TIMEOUT_MS = String(TIMEOUT_MS);
    }
  });

  it('add: the fetch times out, names git fetch and the time, and leaves no process, file or folder behind', async () => {
    for (const n of fs.readdirSync(path.join(w.home, 'library'))) await w.service.api.deleteSkill({ name: n });
    const before = snapshot(path.join(w.home, 'library'));
    front.mode = 'hang';
    const err = await w.service.api.addFromSource({ source: `${front.base}/multi.git` }).then(
      () => undefined,
      (e: unknown) => e as { msg?: MessageRef; message: string },
    );
    expect(err?.msg).toEqual({
      key: 'sources.timeout',
      params: { source: `${front.base}/multi.git`, command: 'git fetch', seconds: TIMEOUT_MS / 1000 },
    });
    await noGitLeft(front.port);
    expect(snapshot(path.join(w.home, 'library'))).toEqual(before);
    expect(staging()).toEqual([]);
  });
});

describe('update --all with sources that answer check and then go silent', () => {
  it('fetches the new versions together, not one after another', async () => {
    const root = path.join(w.root, 'git-up');
    const repos = [0, 1].map((i) => makeRepo(root, `u${i}`, { [`skills/u${i}/SKILL.md`]: skillMd(`u${i}`) }));
    const daemon = await startGitDaemon(path.join(root, 'served'));
    // each front answers three connections (the add's fetch; check's ls-remote and fetch), then never again
    const fronts = await Promise.all(repos.map(() => startHangingFront(daemon, { passFirst: 3 })));
    try {
      for (const [i, f] of fronts.entries()) await w.service.api.addFromSource({ source: `${f.base}/u${i}.git` });
      for (const [i, r] of repos.entries()) r.commit({ [`skills/u${i}/notes.md`]: 'new' });
      // A longer time-out here: the margin between together (one time-out) and one after another
      // (two) must hold the spawning of git on a loaded machine.
      process.env.SKILLDOCK_GIT_TIMEOUT_MS = String(UPDATE_TIMEOUT_MS);
      const t0 = Date.now();
      const err = await w.service.api.updateSkills({ names: ['u0', 'u1'] }).then(
        () => undefined,
        (e: unknown) => e as { msg?: MessageRef },
      );
      const took = Date.now() - t0;
      expect(err?.msg).toMatchObject({ key: 'sources.timeout', params: { command: 'git fetch' } });
      // one after another would take two time-outs
      expect(took).toBeLessThan(2 * UPDATE_TIMEOUT_MS);
      process.env.SKILLDOCK_GIT_TIMEOUT_MS = String(TIMEOUT_MS);
      for (const f of fronts) await noGitLeft(f.port);
      expect(staging()).toEqual([]);
    } finally {
      for (const f of fronts) await f.stop();
      await daemon.stop();
    }
  });
});

describe('SkillDock interrupted while git waits on a silent server', () => {
  it('Ctrl-C on `skilldock add` ends git with it (git has a session of its own, so the terminal cannot reach it)', async () => {
    const hung = await startHangingFront();
    const needle = `127.0.0.1:${hung.port}`;
    // The CLI in a process group of its own, as a shell runs a foreground job; Ctrl-C signals that group.
    const cli = spawn(process.execPath, [bin, 'add', `${hung.base}/stuck.git`], {
      cwd: w.src,
      env: { ...worldEnv(w), SKILLDOCK_GIT_TIMEOUT_MS: '60000' },
      stdio: 'ignore',
      detached: true,
    });
    const ended = new Promise<NodeJS.Signals | number | null>((resolve) => cli.on('exit', (code, sig) => resolve(sig ?? code)));
    try {
      await waitFor(() => processesMentioning(needle).some((p) => p.cmd.includes('remote-http')), {
        timeoutMs: 20_000,
        what: 'git remote-http to be waiting on the silent server',
      });
      process.kill(-cli.pid!, 'SIGINT');
      expect(await ended).toBe('SIGINT');
      await noGitLeft(hung.port);
      // its scratch folder stayed behind; the next add (another process) removes it
      expect(staging()).toHaveLength(1);
      await w.service.api.addFromSource({ source: `${front.base}/multi.git`, preview: true });
      expect(staging()).toEqual([]);
    } finally {
      if (cli.exitCode === null && cli.signalCode === null) process.kill(-cli.pid!, 'SIGKILL');
      for (const p of processesMentioning(needle)) process.kill(p.pid, 'SIGKILL'); // what a failed run left
      await hung.stop();
    }
  }, 30_000);
});

/** An assistant file whose skills come from `n` repositories on `base`. */
function assistantFile(base: string, n: number): unknown {
  return {
    skilldock: 'assistant',
    version: 1,
    name: `Hung ${n}`,
    agent: 'claude',
    rules: '',
    skills: Array.from({ length: n }, (_, i) => ({
      name: `s${i}`,
      source: { url: `${base}/r${i}.git`, path: `skills/s${i}`, commit: 'a'.repeat(40) },
    })),
  };
}

describe('an assistant file with several sources on a hanging server', () => {
  it('times its sources out together, not one after another', async () => {
    const hung = await startHangingFront();
    try {
      const t0 = Date.now();
      const r = await w.service.api.importAssistant({ data: assistantFile(hung.base, 3) });
      const took = Date.now() - t0;
      expect(r.skills.map((s) => [s.name, s.status, s.msg?.key])).toEqual([
        ['s0', 'failed', 'sources.timeout'],
        ['s1', 'failed', 'sources.timeout'],
        ['s2', 'failed', 'sources.timeout'],
      ]);
      expect(r.skills[0]!.msg!.params).toMatchObject({ command: 'git fetch', seconds: TIMEOUT_MS / 1000 });
      // one after another would take 3 time-outs; together, one (and some start-up)
      expect(took).toBeLessThan(2 * TIMEOUT_MS);
      await noGitLeft(hung.port);
    } finally {
      await hung.stop();
    }
  });

  it('stops every source at one deadline for the whole import, and says so', async () => {
    process.env.SKILLDOCK_GIT_TIMEOUT_MS = '60000';
    process.env.SKILLDOCK_SOURCES_DEADLINE_MS = '1000';
    const hung = await startHangingFront();
    try {
      const t0 = Date.now();
      // more sources than run at once: those still waiting their turn stop at the deadline too,
      // and so does an archive download
      const data = assistantFile(hung.base, 6) as { skills: unknown[] };
      data.skills.unshift({ name: 'packed', source: { url: `${hung.base}/packed.zip`, path: '', commit: 'b'.repeat(40) } });
      const r = await w.service.api.importAssistant({ data });
      const took = Date.now() - t0;
      expect(new Set(r.skills.map((s) => `${s.status} ${s.msg?.key}`))).toEqual(new Set(['failed sources.deadline']));
      expect(r.skills.map((s) => s.name)).toEqual(['packed', 's0', 's1', 's2', 's3', 's4', 's5']);
      expect(r.skills[1]!.msg!.params).toEqual({ source: `${hung.base}/r0.git`, seconds: 1 });
      expect(r.skills[1]!.message).toContain('may take 1 seconds, and that time ran out');
      expect(took).toBeLessThan(20_000);
      await noGitLeft(hung.port);
      expect(staging()).toEqual([]);
    } finally {
      process.env.SKILLDOCK_GIT_TIMEOUT_MS = String(TIMEOUT_MS);
      await hung.stop();
    }
  });
});
