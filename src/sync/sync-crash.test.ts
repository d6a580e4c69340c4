import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryNames, makeWorld, writeSkill, type World } from '../../test/support/library.js';
import { git } from '../../test/support/git-servers.js';
import { bundleChild, runChild } from '../../test/support/crash-kit.js';
import { getSync } from './service.js';

// A sync killed (SIGKILL) at every step of the write-ahead path while it brings another machine's
// changes into the library, then a consistent library: each skill whole in its old or its new
// version, never half; the next sync finishes the job. And two processes syncing one home at once.

const worlds: World[] = [];
let root: string;
let child: string;
let n = 0;

beforeAll(async () => {
  root = makeWorld().root;
  child = await bundleChild();
}, 120_000);

afterAll(async () => {
  for (const w of worlds) await w.done();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(path.dirname(child), { recursive: true, force: true });
});

function home(): World {
  const w = makeWorld();
  worlds.push(w);
  return w;
}

function bare(): string {
  const dir = path.join(root, `crash-${++n}.git`);
  git(root, 'init', '-q', '--bare', dir);
  git(dir, 'symbolic-ref', 'HEAD', 'refs/heads/main');
  return `file://${dir}`;
}

const OLD = 'old\n';
const NEW = 'new\n';
const notes = (w: World, name: string) => fs.readFileSync(path.join(w.home, 'library', name, 'notes.txt'), 'utf8');

async function addSkill(w: World, name: string): Promise<void> {
  await w.service.api.importPaths({ paths: [writeSkill(path.join(w.src, name), name, { 'notes.txt': OLD })] });
}

/** A with alpha, beta, gamma set up; B restored from it; then A changes alpha, deletes gamma, adds delta. */
async function scene(): Promise<{ a: World; b: World }> {
  const url = bare();
  const a = home();
  for (const s of ['alpha', 'beta', 'gamma']) await addSkill(a, s);
  await getSync(a.service.ctx).setup(url);
  const b = home();
  await getSync(b.service.ctx).setup(url);
  await b.service.close(); // B runs in children from here on
  fs.writeFileSync(path.join(a.home, 'library', 'alpha', 'notes.txt'), NEW);
  await a.service.api.deleteSkill({ name: 'gamma' });
  await addSkill(a, 'delta');
  fs.writeFileSync(path.join(a.home, 'library', 'delta', 'notes.txt'), NEW);
  expect((await getSync(a.service.ctx).sync()).status).toBe('pushed');
  return { a, b };
}

describe('sync and crashes', () => {
  it('killed at every step of bringing changes in: each skill old or new, never half; the next sync completes', async () => {
    let finished = false;
    for (let step = 1; step <= 60 && !finished; step++) {
      // the next sync runs straight after the crash (odd steps) or after doctor settled it (even)
      const direct = step % 2 === 1;
      const { b } = await scene();
      const run = await runChild(child, b, 'syncRun', {}, step);
      finished = run.signal !== 'SIGKILL';
      if (finished) expect(run.code, run.err).toBe(0);
      if (direct) {
        const next = await runChild(child, b, 'syncRun', {});
        expect(next.code, `step ${step}: ${next.out} ${next.err}`).toBe(0);
      }
      // whatever the step, once the interrupted operation is settled (the library's write-ahead log,
      // which the next operation under the library lock runs first), every skill is whole, in one
      // version or the other
      if (!direct) {
        const settled = await runChild(child, b, 'doctor', { repair: true });
        expect(settled.code, settled.err).toBe(0);
      }
      for (const s of libraryNames(b)) {
        expect(['alpha', 'beta', 'gamma', 'delta'], `step ${step}`).toContain(s);
        expect([OLD, NEW], `step ${step}: ${s}`).toContain(notes(b, s));
        expect(fs.existsSync(path.join(b.home, 'library', s, 'SKILL.md')), `step ${step}: ${s}`).toBe(true);
      }
      expect(libraryNames(b), `step ${step}`).toEqual(expect.arrayContaining(['alpha', 'beta']));
      // the next sync (a fresh process) settles the interrupted operation and lands where A is
      const again = await runChild(child, b, 'syncRun', {});
      expect(again.code, again.err).toBe(0);
      expect(libraryNames(b), `step ${step}`).toEqual(['alpha', 'beta', 'delta']);
      expect(
        ['alpha', 'beta', 'delta'].map((s) => notes(b, s)),
        `step ${step}`,
      ).toEqual([NEW, OLD, NEW]);
      expect(fs.existsSync(path.join(b.home, 'pending-operation.jsonl'))).toBe(false);
    }
    expect(finished).toBe(true);
  }, 600_000);

  it('two processes syncing one home at once: both succeed, one after the other', async () => {
    const { b } = await scene();
    const [x, y] = await Promise.all([runChild(child, b, 'syncRun', {}), runChild(child, b, 'syncRun', {})]);
    expect([x.code, y.code], x.err + y.err).toEqual([0, 0]);
    const statuses = [x, y].map((r) => (JSON.parse(r.out) as { status: string }).status).sort();
    expect(statuses).toEqual(['merged', 'up-to-date']);
    expect(libraryNames(b)).toEqual(['alpha', 'beta', 'delta']);
  }, 120_000);
});
