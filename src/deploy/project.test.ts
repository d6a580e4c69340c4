import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, snapshot, type World } from '../../test/support/library.js';
import { makeRepo, startGitDaemon, type Served } from '../../test/support/git-servers.js';
import { SkillDockError } from '../errors.js';
import type { MessageRef } from '../contract/index.js';
import { ALPHA, BETA, referenceLock } from '../../test/support/reference-lock.js';

// Project scope on real folders: the plan names every write, apply makes exactly those (the copy
// once, relative links for the other agents' folders), the lock file is the reference `skills`
// CLI's, byte for byte, and install restores a project from a lock (either tool's) at the locked
// hashes. Sources are real git repositories served by `git daemon` on 127.0.0.1.

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
  });
  daemon = await startGitDaemon(path.join(w.root, 'git', 'served'));
  url = `${daemon.base}/repo.git`;
  await w.service.api.addFromSource({ source: url });
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await w?.done();
});

/** A new empty project folder. */
function project(): string {
  const p = path.join(w.root, 'projects', `p${++n}`);
  fs.mkdirSync(p, { recursive: true });
  return p;
}

async function refusedWith(p: Promise<unknown>): Promise<SkillDockError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SkillDockError);
  return err as SkillDockError;
}

const problemKeys = (e: SkillDockError) => ((e.msg?.params?.problems ?? []) as MessageRef[]).map((m) => m.key);
const api = () => w.service.api;

describe('project deploy: plan and apply', () => {
  beforeEach(async () => {
    await api().approveSkill({ name: 'alpha' });
  });

  it('the plan names every write; apply writes exactly those; the lock is the reference CLI’s, byte for byte', async () => {
    const p = project();
    const plan = await api().planProjectDeploy({ project: p, skills: ['alpha', 'beta'], agents: ['claude', 'codex'] });
    expect(fs.readdirSync(p)).toEqual([]); // the plan wrote nothing
    expect(plan.folders.map((f) => f.folder)).toEqual(['.claude/skills', '.codex/skills']);
    expect(plan.twice).toEqual([]); // no agent reads a skill from two of these folders
    expect(plan.writes.map((x) => `${x.kind} ${x.path}${x.target ? ` -> ${x.target}` : ''}`)).toEqual([
      'dir .claude',
      'dir .claude/skills',
      'dir .codex',
      'dir .codex/skills',
      'file .claude/skills/alpha/SKILL.md',
      'file .claude/skills/alpha/scripts/run.sh',
      'link .codex/skills/alpha -> ../../.claude/skills/alpha',
      'file .claude/skills/beta/SKILL.md',
      'link .codex/skills/beta -> ../../.claude/skills/beta',
      'lock skills-lock.json',
    ]);
    // Other agents that read .claude/skills get them too: said in plain words.
    expect(plan.notes).toContainEqual({
      key: 'project.also-read',
      params: { folder: '.claude/skills', agents: ['OpenCode', 'GitHub Copilot'] },
    });
    expect(plan.lock.content).toBe(referenceLock(url));

    const out = await api().applyProjectDeploy({ project: p, skills: ['alpha', 'beta'], agents: ['claude', 'codex'], digest: plan.digest });
    expect(out.written).toBe(plan.writes.length);
    const onDisk = Object.keys(snapshot(p)).sort();
    const planned = plan.writes.map((x) => x.path);
    // every entry on disk was in the plan (folders of the copies are the files' parents)
    for (const rel of onDisk) expect(planned.some((x) => x === rel || x.startsWith(`${rel}/`))).toBe(true);
    for (const rel of planned) expect(onDisk).toContain(rel);
    expect(fs.readFileSync(path.join(p, 'skills-lock.json'), 'utf8')).toBe(referenceLock(url));
    expect(fs.readlinkSync(path.join(p, '.codex/skills/alpha'))).toBe('../../.claude/skills/alpha');
    expect(fs.readFileSync(path.join(p, '.codex/skills/alpha/scripts/run.sh'), 'utf8')).toBe('echo hi\n');
    expect(fs.statSync(path.join(p, 'skills-lock.json')).mode & 0o777).toBe(0o644 & ~process.umask());

    // Again: nothing to write. Undo takes the whole apply back.
    const again = await api().planProjectDeploy({ project: p, skills: ['alpha', 'beta'], agents: ['claude', 'codex'] });
    expect(again.writes).toEqual([]);
    expect(again.skills.map((s) => s.status)).toEqual(['present', 'present']);
    await api().undo({});
    expect(fs.readdirSync(p)).toEqual([]);
  });

  it('an existing lock keeps its other entries byte for byte, and undo puts the old file back', async () => {
    const p = project();
    const other = `{\n  "version": 1,\n  "skills": {\n    "zeta": {\n      "source": "owner/zeta",\n      "sourceType": "github",\n      "computedHash": "abc"\n    }\n  }\n}\n`;
    fs.writeFileSync(path.join(p, 'skills-lock.json'), other);
    const plan = await api().planProjectDeploy({ project: p, skills: ['beta'], agents: ['codex'] });
    // Codex also reads .agents/skills, but so do five other agents: its own folder reaches no one else.
    expect(plan.folders.map((f) => f.folder)).toEqual(['.codex/skills']);
    expect(plan.lock.action).toBe('update');
    await api().applyProjectDeploy({ project: p, skills: ['beta'], agents: ['codex'] });
    const lock = JSON.parse(fs.readFileSync(path.join(p, 'skills-lock.json'), 'utf8'));
    expect(Object.keys(lock.skills)).toEqual(['beta', 'zeta']);
    expect(lock.skills.zeta).toEqual({ source: 'owner/zeta', sourceType: 'github', computedHash: 'abc' });
    await api().undo({});
    expect(fs.readFileSync(path.join(p, 'skills-lock.json'), 'utf8')).toBe(other);
    expect(fs.statSync(path.join(p, 'skills-lock.json')).mode & 0o777).toBe(0o644 & ~process.umask());
    expect(fs.readdirSync(p)).toEqual(['skills-lock.json']);
  });

  it('redo by id puts a project deploy back byte for byte, the old lock kept for the next undo', async () => {
    const p = project();
    fs.writeFileSync(path.join(p, 'skills-lock.json'), '{\n  "version": 1,\n  "skills": {}\n}\n', { mode: 0o600 });
    const before = snapshot(p);
    const out = await api().applyProjectDeploy({ project: p, skills: ['alpha', 'beta'], agents: ['claude', 'codex'] });
    const done = snapshot(p);
    await api().undo({ id: out.journalId! });
    expect(snapshot(p)).toEqual(before);
    const row = (await api().journal({ limit: 20 })).entries.find((e) => e.id === out.journalId)!;
    expect(row.redo).toEqual({ ok: true });
    await api().redo({ id: out.journalId! });
    expect(snapshot(p)).toEqual(done);
    expect(fs.readFileSync(path.join(p, '.claude/skills/alpha/scripts/run.sh'), 'utf8')).toBe('echo hi\n');
    await api().undo({ id: out.journalId! });
    expect(snapshot(p)).toEqual(before);
  });

  it('a local skill is placed but not locked, and the plan says why', async () => {
    const local = path.join(w.root, 'local-skill', 'solo');
    fs.mkdirSync(local, { recursive: true });
    fs.writeFileSync(path.join(local, 'SKILL.md'), '---\nname: solo\ndescription: Solo things.\n---\n\nSolo.\n');
    await api().importPaths({ paths: [local] });
    const p = project();
    const plan = await api().planProjectDeploy({ project: p, skills: ['solo'], agents: ['claude'] });
    expect(plan.notes).toContainEqual({ key: 'project.not-locked', params: { skill: 'solo' } });
    expect(plan.lock.action).toBe('unchanged');
    await api().applyProjectDeploy({ project: p, skills: ['solo'], agents: ['claude'] });
    expect(fs.existsSync(path.join(p, '.claude/skills/solo/SKILL.md'))).toBe(true);
    expect(fs.existsSync(path.join(p, 'skills-lock.json'))).toBe(false);
  });
});

describe('project deploy: refusals leave the project as it was', () => {
  it("a project inside SkillDock's home, or holding it; the user's home folder itself", async () => {
    const inside = path.join(w.home, 'somewhere');
    fs.mkdirSync(inside, { recursive: true });
    const e1 = await refusedWith(api().planProjectDeploy({ project: inside, skills: ['beta'], agents: ['claude'] }));
    expect(e1.msg?.key).toBe('project.inside-home');
    const e2 = await refusedWith(api().applyProjectDeploy({ project: w.root, skills: ['beta'], agents: ['claude'] }));
    expect(e2.msg?.key).toBe('project.contains-home');
    expect(fs.readdirSync(inside)).toEqual([]);
    expect(fs.existsSync(path.join(w.root, '.claude'))).toBe(false);
    const e3 = await refusedWith(api().applyProjectDeploy({ project: w.userHome, skills: ['beta'], agents: ['claude'] }));
    expect(e3.msg?.key).toBe('project.user-home');
    expect(fs.existsSync(path.join(w.userHome, '.claude'))).toBe(false);
  });

  it('a name taken by other content, a skills folder that is a link, scripts not approved, a lock it cannot read', async () => {
    await api().approveSkill({ name: 'alpha' });
    const p = project();
    fs.mkdirSync(path.join(p, '.claude/skills/beta'), { recursive: true });
    fs.writeFileSync(path.join(p, '.claude/skills/beta/SKILL.md'), 'mine\n');
    const elsewhere = path.join(w.root, 'elsewhere');
    fs.mkdirSync(elsewhere, { recursive: true });
    fs.symlinkSync(elsewhere, path.join(p, '.codex'));
    fs.writeFileSync(path.join(p, 'skills-lock.json'), '{ not json');
    const before = snapshot(p);
    const plan = await api().planProjectDeploy({ project: p, skills: ['beta'], agents: ['claude', 'codex'] });
    expect(plan.problems.map((m) => m.key).sort()).toEqual(['project.folder-link', 'project.lock-bad', 'project.taken']);
    const e = await refusedWith(api().applyProjectDeploy({ project: p, skills: ['beta'], agents: ['claude', 'codex'] }));
    expect(e.msg?.key).toBe('project.refused');
    expect(problemKeys(e).sort()).toEqual(['project.folder-link', 'project.lock-bad', 'project.taken']);
    expect(snapshot(p)).toEqual(before);
    expect(fs.readdirSync(elsewhere)).toEqual([]);

    await api().revokeApproval({ name: 'alpha' });
    const q = project();
    const e2 = await refusedWith(api().applyProjectDeploy({ project: q, skills: ['alpha'], agents: ['claude'] }));
    expect(problemKeys(e2)).toEqual(['project.needs-approval']);
    expect(fs.readdirSync(q)).toEqual([]);
  });

  it('an unknown agent or skill; a plan the disk no longer matches', async () => {
    const p = project();
    expect((await refusedWith(api().planProjectDeploy({ project: p, skills: ['beta'], agents: ['nobody'] }))).msg?.key).toBe(
      'project.unknown-agent',
    );
    expect((await refusedWith(api().planProjectDeploy({ project: p, skills: ['nope'], agents: ['claude'] }))).msg?.key).toBe(
      'project.unknown-skill',
    );
    const plan = await api().planProjectDeploy({ project: p, skills: ['beta'], agents: ['claude'] });
    fs.mkdirSync(path.join(p, '.claude'));
    const e = await refusedWith(api().applyProjectDeploy({ project: p, skills: ['beta'], agents: ['claude'], digest: plan.digest }));
    expect(e.msg?.key).toBe('project.plan-changed');
    expect(fs.readdirSync(path.join(p, '.claude'))).toEqual([]);
  });
});
