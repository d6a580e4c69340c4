import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, writeSkill, type World } from '../../test/support/library.js';
import { bundleChild, pendingLines, pendingPath, runChild, seeded as random, view } from '../../test/support/crash-kit.js';
import { makeRepo, skillMd, startHttpGit, type Served } from '../../test/support/git-servers.js';
import { SkillDockService } from '../service.js';

// Property-style crash test (issue 32): for every operation that changes disk, a child process
// running the engine is killed (SIGKILL, by the write-ahead path's test hook) at random steps, the
// next engine runs `doctor --repair`, and what is on disk, the journal and undo are checked against
// a model: the operation's view is wholly as before it or wholly as after it (never half), nothing
// is pending, doctor finds nothing more, an operation left "after" is in the journal and undo takes
// it back to "before". "After" is learnt from a run killed right after its journal entry (the
// journal window itself). Random points are drawn from a seed (printed) and bounded in count
// (CRASH_POINTS, default 1 per operation besides that window) and in time (random points stop 15 s in).

const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
const POINTS = Number(process.env.CRASH_POINTS ?? 1);
const BUDGET_MS = 15_000;

let script: string;
let web: Served;
let gitRoot: string;
let repoN = 0;
const started = Date.now();
const gitWorld = makeWorld();

beforeAll(async () => {
  script = await bundleChild();
  gitRoot = path.join(gitWorld.root, 'git');
  fs.mkdirSync(path.join(gitRoot, 'served'), { recursive: true });
  web = await startHttpGit(path.join(gitRoot, 'served'));
}, 60_000);
afterAll(async () => {
  await web?.stop();
  await gitWorld.done();
  fs.rmSync(path.dirname(script), { recursive: true, force: true });
});

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const lib = (w: World, ...p: string[]) => path.join(w.home, 'library', ...p);

/** Skills s0..s(n-1) with a file each, of version `v`, imported. */
async function imported(w: World, n: number, v = '1', dir = 'v1'): Promise<void> {
  for (let i = 0; i < n; i++) writeSkill(path.join(w.src, dir, `s${i}`), `s${i}`, { 'v.txt': v, 'more/notes.md': `s${i} ${v}\n` });
  await w.service.api.importPaths({ paths: [path.join(w.src, dir)] });
}

interface Case {
  /** The op name its journal entry gets. */
  op: string;
  method: string;
  input: unknown;
  /** What the model compares (the library, plus what else the operation writes). */
  view(w: World, s: SkillDockService): Promise<unknown>;
}

const libraryView = async (w: World) => view(w, lib(w));

const cases: Record<string, (w: World) => Promise<Case>> = {
  async import(w) {
    await imported(w, 1, 'e', 'earlier');
    for (let i = 0; i < 4; i++) writeSkill(path.join(w.src, 'batch', `b${i}`), `b${i}`, { 'x.txt': String(i) });
    return { op: 'import', method: 'importPaths', input: { paths: [path.join(w.src, 'batch')] }, view: libraryView };
  },
  async replace(w) {
    await imported(w, 3);
    for (let i = 0; i < 3; i++) writeSkill(path.join(w.src, 'v2', `s${i}`), `s${i}`, { 'v.txt': '2' });
    return { op: 'replace', method: 'importPaths', input: { paths: [path.join(w.src, 'v2')], onConflict: 'replace' }, view: libraryView };
  },
  async 'keep-both'(w) {
    await imported(w, 2);
    for (let i = 0; i < 2; i++) writeSkill(path.join(w.src, 'v2', `s${i}`), `s${i}`, { 'v.txt': '2' });
    return {
      op: 'keep-both',
      method: 'importPaths',
      input: { paths: [path.join(w.src, 'v2')], onConflict: 'keep-both' },
      view: libraryView,
    };
  },
  async adopt(w) {
    await imported(w, 1);
    const there = writeSkill(path.join(w.userHome, '.claude', 'skills', 'mine'), 'mine', { 'data.txt': 'precious' });
    return { op: 'adopt', method: 'adoptSkills', input: { items: [{ path: there, mode: 'copy' }] }, view: libraryView };
  },
  async delete(w) {
    await imported(w, 3);
    return { op: 'delete', method: 'deleteSkill', input: { name: 's1' }, view: libraryView };
  },
  async restore(w) {
    await imported(w, 2);
    const { trashId } = await w.service.api.deleteSkill({ name: 's1' });
    return { op: 'restore', method: 'restoreSkill', input: { id: trashId }, view: libraryView };
  },
  async 'restore as (rename)'(w) {
    await imported(w, 2);
    const { trashId } = await w.service.api.deleteSkill({ name: 's1' });
    return { op: 'restore', method: 'restoreSkill', input: { id: trashId, as: 'renamed' }, view: libraryView };
  },
  async export(w) {
    await imported(w, 1);
    const root = path.join(w.userHome, '.claude', 'skills');
    return {
      op: 'export',
      method: 'exportSkill',
      input: { name: 's0', agent: 'claude', mode: 'copy' },
      view: async () => ({ lib: view(w, lib(w)), root: view(w, root) }),
    };
  },
  async undo(w) {
    await imported(w, 1, 'e', 'earlier');
    await imported(w, 4);
    return { op: 'undo', method: 'undo', input: {}, view: libraryView };
  },
  async 'edit save'(w) {
    await imported(w, 1);
    const old = fs.readFileSync(lib(w, 's0', 'SKILL.md'), 'utf8');
    const input = { skill: 's0', path: 'SKILL.md', content: old + '\nMore.\n', expectedHash: sha(old) };
    return { op: 'edit', method: 'saveSkillFile', input, view: libraryView };
  },
  async 'edit new file'(w) {
    await imported(w, 1);
    return {
      op: 'edit',
      method: 'saveSkillFile',
      input: { skill: 's0', path: 'a/b/new.md', content: 'new\n', expectedHash: null },
      view: libraryView,
    };
  },
  async 'edit rename'(w) {
    await imported(w, 1);
    return { op: 'edit', method: 'renameSkillPath', input: { skill: 's0', from: 'more', to: 'deeper/more' }, view: libraryView };
  },
  async 'edit delete'(w) {
    await imported(w, 1);
    return { op: 'edit', method: 'deleteSkillPath', input: { skill: 's0', path: 'more/notes.md' }, view: libraryView };
  },
  async 'edit new folder'(w) {
    await imported(w, 1);
    return { op: 'edit', method: 'createSkillFolder', input: { skill: 's0', path: 'x/y' }, view: libraryView };
  },
  async create(w) {
    await imported(w, 1);
    return { op: 'create', method: 'createSkill', input: { name: 'fresh' }, view: libraryView };
  },
  async approve(w) {
    writeSkill(path.join(w.src, 'tool'), 'tool', { 'scripts/run.sh': '#!/bin/sh\necho hi\n' });
    await w.service.api.importPaths({ paths: [path.join(w.src, 'tool')] });
    return { op: 'scripts-approve', method: 'approveSkill', input: { name: 'tool' }, view: approvalsView };
  },
  async revoke(w) {
    writeSkill(path.join(w.src, 'tool'), 'tool', { 'scripts/run.sh': '#!/bin/sh\necho hi\n' });
    await w.service.api.importPaths({ paths: [path.join(w.src, 'tool')] });
    await w.service.api.approveSkill({ name: 'tool' });
    return { op: 'scripts-revoke', method: 'revokeApproval', input: { name: 'tool' }, view: approvalsView };
  },
  async update() {
    throw new Error('set up in its own test');
  },
};

async function approvalsView(_w: World, s: SkillDockService) {
  return (await s.api.listApprovals({})).map((a) => `${a.name}@${a.digest}`);
}

/** Three skills added from a git source, then changed upstream: `update --all` swaps all three (the 300 go through the same swap, one trash entry and one rename each). */
async function updateCase(w: World): Promise<Case> {
  const name = `r${++repoN}`;
  const files: Record<string, string> = {};
  for (let i = 0; i < 3; i++) Object.assign(files, { [`skills/u${i}/SKILL.md`]: skillMd(`u${i}`), [`skills/u${i}/notes.txt`]: 'one\n' });
  const repo = makeRepo(gitRoot, name, files);
  await w.service.api.addFromSource({ source: `${web.base}/${name}.git` });
  const next: Record<string, string> = {};
  for (let i = 0; i < 3; i++) Object.assign(next, { [`skills/u${i}/notes.txt`]: 'two\n', [`skills/u${i}/new.md`]: 'new\n' });
  repo.commit(next);
  return { op: 'update', method: 'updateSkills', input: { all: true }, view: libraryView };
}

/** A fresh engine on the world's home: what the next command after the crash sees. */
async function nextEngine<T>(w: World, fn: (s: SkillDockService) => Promise<T>): Promise<T> {
  const s = new SkillDockService({ paths: { home: w.home, userHome: w.userHome, resourcesDir: w.service.ctx.paths.resourcesDir } });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

const lastId = (entries: Array<{ id: string; op: string }>) => entries.find((e) => e.op !== 'recovered')?.id;

/** One world: set up, run the operation in a child killed at `at`, repair, check against the model. */
async function crashOnce(
  setup: (w: World) => Promise<Case>,
  at: number | 'committed',
  model: { after?: unknown },
): Promise<{ steps: number; state: 'before' | 'after' }> {
  const w = makeWorld();
  try {
    const c = await setup(w);
    const before = await c.view(w, w.service);
    const idBefore = lastId((await w.service.api.journal({})).entries);
    const run = await runChild(script, w, c.method, c.input, at);
    const steps = pendingLines(w); // the head and every announced change
    if (at === 'committed') expect(run.signal, run.err).toBe('SIGKILL');
    // One engine after the crash, as the next command would be: repair, then look.
    const state = await nextEngine(w, async (s): Promise<'before' | 'after'> => {
      const repair = await s.api.doctor({ repair: true });
      expect(repair.rolledBack?.failed ?? [], JSON.stringify(repair)).toEqual([]);
      expect(repair.incompleteTrash).toEqual([]);
      expect(fs.existsSync(pendingPath(w))).toBe(false);
      expect((await s.api.doctor({})).interrupted).toBeNull();
      const now = await c.view(w, s);
      const entries = (await s.api.journal({})).entries;
      if (JSON.stringify(now) === JSON.stringify(before)) {
        expect(lastId(entries)).toBe(idBefore); // nothing of it in the journal
        if (idBefore) await s.api.undo({}); // and undo still works
        return 'before';
      }
      model.after ??= now;
      expect(now).toEqual(model.after);
      expect(entries.find((e) => e.op !== 'recovered')?.op).toBe(c.op);
      // and undo takes it back, wholly (an undo is not undone: the next undo goes further back)
      await s.api.undo({});
      if (c.op !== 'undo') expect(await c.view(w, s)).toEqual(before);
      return 'after';
    });
    return { steps, state };
  } finally {
    await w.done();
  }
}

async function property(name: string, setup: (w: World) => Promise<Case>, fixed: number[] = []): Promise<void> {
  const rnd = random(SEED + name.length * 7919 + name.charCodeAt(0));
  const model: { after?: unknown } = {};
  // The journal window: killed right after its entry; this also says how many steps it has.
  const probe = await crashOnce(setup, 'committed', model);
  expect(probe.state).toBe('after');
  const steps = probe.steps; // head + announced changes = announced + 1 = the pre-commit step
  for (const at of fixed) await crashOnce(setup, at, model);
  for (let i = 0; i < POINTS && Date.now() - started < BUDGET_MS; i++) {
    const at = 1 + Math.floor(rnd() * steps);
    await crashOnce(setup, at, model);
  }
}

describe(`kill -9 at random points of every operation that changes disk (seed ${SEED})`, () => {
  for (const name of Object.keys(cases).filter((n) => n !== 'update')) {
    it(name, () => property(name, cases[name]!), 60_000);
  }
  // Break 6 was found killing `update --all` just after its first trash entry and well into the
  // swap: steps 6 and 12 land just after the first skill's trash entry and midway through the second.
  it('update (break 6: the swap goes through the write-ahead log)', () => property('update', updateCase, [6, 12]), 90_000);
});
