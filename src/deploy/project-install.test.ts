import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryNames, makeWorld, snapshot, type World } from '../../test/support/library.js';
import { makeRepo, skillMd, startGitDaemon, type Served } from '../../test/support/git-servers.js';
import { SkillDockError } from '../errors.js';
import type { MessageRef } from '../contract/index.js';
import { ALPHA, BETA, referenceLock } from '../../test/support/reference-lock.js';

// `install` restores a project from its skills-lock.json, the reference CLI's bytes or SkillDock's:
// from the library when a skill of that name has the locked hash, else from its source (git daemon
// on 127.0.0.1), checked against the hash; everything refused before the project is touched.

let w: World;
let daemon: Served;
let url: string;
let n = 0;

beforeAll(async () => {
  w = makeWorld();
  makeRepo(path.join(w.root, 'git'), 'repo', {
    'skills/alpha/SKILL.md': ALPHA,
    'skills/alpha/scripts/run.sh': 'echo hi\n',
    'skills/beta/SKILL.md': BETA,
    'skills/gamma/SKILL.md': skillMd('gamma'),
  });
  daemon = await startGitDaemon(path.join(w.root, 'git', 'served'));
  url = `${daemon.base}/repo.git`;
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await w?.done();
});

function project(lock?: string): string {
  const p = path.join(w.root, 'projects', `p${++n}`);
  fs.mkdirSync(p, { recursive: true });
  if (lock !== undefined) fs.writeFileSync(path.join(p, 'skills-lock.json'), lock);
  return p;
}

async function refused(p: Promise<unknown>): Promise<SkillDockError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SkillDockError);
  return err as SkillDockError;
}
const problems = (e: SkillDockError) => (e.msg?.params?.problems ?? []) as MessageRef[];

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const api = () => w.service.api;

describe('install from a lock', () => {
  it("the reference CLI's lock: fetched at the locked hashes, scripts approved first, into .agents/skills; the lock stays byte for byte", async () => {
    const lock = referenceLock(url);
    const p = project(lock);
    const preview = await api().installProject({ project: p, preview: true });
    expect(preview.applied).toBe(false);
    expect(preview.skills.map((s) => `${s.name} ${s.status}`)).toEqual(['alpha fetched', 'beta fetched']);
    expect(preview.writes.map((x) => x.path)).toEqual([
      '.agents',
      '.agents/skills',
      '.agents/skills/alpha/SKILL.md',
      '.agents/skills/alpha/scripts/run.sh',
      '.agents/skills/beta/SKILL.md',
    ]);
    expect(fs.readdirSync(p)).toEqual(['skills-lock.json']);
    expect(libraryNames(w)).toEqual([]); // a preview adds nothing to the library either

    // alpha has a script: install adds both to the library, then waits for the approval, writing nothing in the project.
    const e = await refused(api().installProject({ project: p }));
    expect(problems(e)).toEqual([{ key: 'project.install-approve', params: { skill: 'alpha', library: 'alpha' } }]);
    expect(fs.readdirSync(p)).toEqual(['skills-lock.json']);
    expect(libraryNames(w)).toEqual(['alpha', 'beta']);
    await api().approveSkill({ name: 'alpha' });

    const out = await api().installProject({ project: p });
    expect(out.applied).toBe(true);
    expect(out.skills.map((s) => `${s.name} ${s.status}`)).toEqual(['alpha library', 'beta library']);
    expect(fs.readFileSync(path.join(p, '.agents/skills/alpha/scripts/run.sh'), 'utf8')).toBe('echo hi\n');
    expect(fs.readFileSync(path.join(p, '.agents/skills/beta/SKILL.md'), 'utf8')).toBe(BETA);
    expect(fs.readFileSync(path.join(p, 'skills-lock.json'), 'utf8')).toBe(lock);
    const again = await api().installProject({ project: p });
    expect(again.skills.map((s) => s.status)).toEqual(['present', 'present']);
    expect(again.writes).toEqual([]);
    await api().undo({});
    expect(fs.readdirSync(p)).toEqual(['skills-lock.json']);
  });

  it('a clone laid out by the reference CLI (links in .claude/skills, .agents/skills not committed): the copies come back and the links resolve', async () => {
    const p = project(referenceLock(url));
    fs.mkdirSync(path.join(p, '.claude/skills'), { recursive: true });
    for (const s of ['alpha', 'beta']) fs.symlinkSync(`../../.agents/skills/${s}`, path.join(p, '.claude/skills', s));
    const out = await api().installProject({ project: p });
    expect(out.folders).toEqual(['.agents/skills', '.claude/skills']);
    expect(out.writes.filter((x) => x.kind === 'link')).toEqual([]);
    expect(fs.readFileSync(path.join(p, '.claude/skills/alpha/SKILL.md'), 'utf8')).toBe(ALPHA);
    expect(fs.readlinkSync(path.join(p, '.claude/skills/beta'))).toBe('../../.agents/skills/beta');
  });

  it('--agent places missing skills where those agents read (one copy, links for the rest)', async () => {
    const p = project(referenceLock(url));
    const out = await api().installProject({ project: p, agents: ['claude', 'gemini'] });
    expect(out.folders).toEqual(['.claude/skills', '.gemini/skills']);
    expect(fs.readlinkSync(path.join(p, '.gemini/skills/alpha'))).toBe('../../.claude/skills/alpha');
  });

  it('a content hash that differs from the lock refuses the install; nothing is written or added', async () => {
    const lock = JSON.parse(referenceLock(url));
    lock.skills = { gamma: { ...lock.skills.beta, skillPath: 'skills/gamma/SKILL.md', computedHash: 'f'.repeat(64) } };
    const p = project(JSON.stringify(lock, null, 2) + '\n');
    const before = snapshot(p);
    const e = await refused(api().installProject({ project: p }));
    expect(e.msg?.key).toBe('project.refused');
    expect(problems(e).map((m) => m.key)).toEqual(['project.hash-differs']);
    expect(problems(e)[0]!.params).toMatchObject({ skill: 'gamma', expected: 'f'.repeat(64) });
    expect(snapshot(p)).toEqual(before);
    expect(libraryNames(w)).not.toContain('gamma');
  });

  it('an unreachable source, a taken name, a lock missing or unreadable, a project inside the home: refused, nothing written', async () => {
    const port = await closedPort();
    const lock = JSON.parse(referenceLock(`git://127.0.0.1:${port}/gone.git`));
    lock.skills = { delta: lock.skills.beta };
    const p = project(JSON.stringify(lock, null, 2) + '\n');
    const e = await refused(api().installProject({ project: p }));
    expect(problems(e).map((m) => m.key)).toEqual(['project.unreachable']);
    expect(fs.readdirSync(p)).toEqual(['skills-lock.json']);

    const q = project(referenceLock(url));
    fs.mkdirSync(path.join(q, '.agents/skills/beta'), { recursive: true });
    fs.writeFileSync(path.join(q, '.agents/skills/beta/SKILL.md'), 'my own beta\n');
    const before = snapshot(q);
    const e2 = await refused(api().installProject({ project: q }));
    expect(problems(e2).map((m) => m.key)).toEqual(['project.taken']);
    expect(snapshot(q)).toEqual(before);

    expect((await refused(api().installProject({ project: project() }))).msg?.key).toBe('project.lock-missing');
    expect((await refused(api().installProject({ project: project('{"version":1,"skills":[') }))).msg?.key).toBe('project.lock-bad');
    const inHome = path.join(w.home, 'proj');
    fs.mkdirSync(inHome, { recursive: true });
    fs.writeFileSync(path.join(inHome, 'skills-lock.json'), referenceLock(url));
    expect((await refused(api().installProject({ project: inHome }))).msg?.key).toBe('project.inside-home');
    expect(fs.readdirSync(inHome)).toEqual(['skills-lock.json']);
  });
});
