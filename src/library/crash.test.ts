import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, worldEnv, writeSkill, type World } from '../../test/support/library.js';
import { poll } from '../../test/support/wait.js';

// A crash in the middle of an operation (the real CLI, killed with SIGKILL from here) must leave
// something the next command can put right: the operation is rolled back from its write-ahead log,
// `undo` never reverts the earlier, unrelated operation instead, and the trash holds only whole
// entries. Every wait is bounded.

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/skilldock.js');

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const env = () => worldEnv(w);

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: w.src, env: env(), encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const lib = () => path.join(w.home, 'library');
const entries = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

/** Start `skilldock args`, kill it with SIGKILL once `ready()` holds (polled, at most 30 s). */
async function killMidway(args: string[], ready: () => boolean): Promise<void> {
  const child = spawn(process.execPath, [bin, ...args], { cwd: w.src, env: env(), stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let finished = false;
  void exited.then(() => (finished = true));
  await poll(() => finished || ready(), { timeoutMs: 30_000, intervalMs: 2 });
  const killedMidway = !finished && ready();
  child.kill('SIGKILL');
  await exited;
  if (!killedMidway) throw new Error('the operation finished (or never got going) before it could be killed midway');
}

function manySkills(dir: string, n: number, version: string): void {
  for (let i = 0; i < n; i++) {
    const name = `s${String(i).padStart(4, '0')}`;
    writeSkill(path.join(dir, name), name, { 'v.txt': version, 'more/notes.md': `${name} ${version}\n`.repeat(20) });
  }
}

/** Every library skill is a whole folder: its SKILL.md and both files, all of one version. */
function versionsInLibrary(): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of entries(lib())) {
    const dir = path.join(lib(), name);
    expect(fs.existsSync(path.join(dir, 'SKILL.md')), `${name}/SKILL.md`).toBe(true);
    const v = fs.readFileSync(path.join(dir, 'v.txt'), 'utf8');
    expect(fs.readFileSync(path.join(dir, 'more', 'notes.md'), 'utf8')).toBe(`${name} ${v}\n`.repeat(20));
    out.set(name, v);
  }
  return out;
}

describe('kill -9 in the middle of an operation', () => {
  it.each([5, 300, 700])(
    'an import of 1,000 skills killed after %i: doctor reports it, undo rolls it back, the earlier import is untouched',
    async (at) => {
      writeSkill(path.join(w.src, 'earlier'), 'earlier', { 'v.txt': 'e', 'more/notes.md': 'earlier e\n'.repeat(20) });
      expect(cli('import', 'earlier').code).toBe(0);
      manySkills(path.join(w.src, 'batch'), 1000, '1');

      await killMidway(['import', 'batch'], () => entries(lib()).length > at);
      const placed = entries(lib()).length;
      expect(placed).toBeGreaterThan(at);
      expect(placed).toBeLessThan(1001);

      // doctor says what was interrupted, and exits 1 until it is repaired
      const report = cli('doctor', '--json');
      expect(report.code).toBe(1);
      const r = JSON.parse(report.out) as { interrupted: { op: string; changes: number } | null };
      expect(r.interrupted?.op).toBe('import');
      expect(r.interrupted!.changes).toBeGreaterThanOrEqual(placed - 1);

      // undo takes back the interrupted import, not the earlier one
      const undo = cli('undo');
      expect(undo.code).toBe(0);
      expect(undo.err).toMatch(/an interrupted import .* was found and rolled back: \d+ change\(s\) undone/);
      expect(entries(lib())).toEqual(['earlier']);
      expect(versionsInLibrary().get('earlier')).toBe('e');
      expect(JSON.parse(cli('doctor', '--json').out)).toMatchObject({ interrupted: null, incompleteTrash: [] });
      // the next undo is the earlier import's
      const second = cli('undo', '--json');
      expect(second.code).toBe(0);
      expect(JSON.parse(second.out).undone.op).toBe('import');
      expect(entries(lib())).toEqual([]);
    },
    120_000,
  );

  it.each([2, 150])(
    'an import with --on-conflict replace killed after %i replaced: after doctor --repair every skill is wholly the old version and the trash is whole',
    async (at) => {
      manySkills(path.join(w.src, 'v1'), 400, '1');
      manySkills(path.join(w.src, 'v2'), 400, '2');
      expect(cli('import', 'v1').code).toBe(0);
      const trash = path.join(w.home, 'trash');

      await killMidway(['import', 'v2', '--on-conflict', 'replace'], () => entries(trash).length > at);
      // Killed midway: some skills are new already, and their old versions sit in the trash.
      const midway = versionsInLibrary();
      expect([...midway.values()].filter((v) => v === '2').length).toBeGreaterThan(0);

      const repair = cli('doctor', '--repair', '--json');
      expect(repair.code, repair.out + repair.err).toBe(0);
      expect(JSON.parse(repair.out)).toMatchObject({ interrupted: { op: 'import' }, repaired: true, incompleteTrash: [] });
      const after = versionsInLibrary();
      expect(after.size).toBe(400);
      expect([...after.values()].every((v) => v === '1')).toBe(true);
      // nothing left half in the trash: no entry, no folder being built
      expect(entries(trash)).toEqual([]);
      expect(JSON.parse(cli('trash', '--json').out).items).toEqual([]);
      expect(fs.existsSync(path.join(w.home, 'pending-operation.jsonl'))).toBe(false);
      // and undo reverts the first import (the interrupted one left nothing to undo)
      expect(JSON.parse(cli('undo', '--json').out).undone.op).toBe('import');
      expect(entries(lib())).toEqual([]);
    },
    120_000,
  );

  it('a delete killed between its steps never leaves a trash entry without its skill', async () => {
    manySkills(path.join(w.src, 'few'), 3, '1');
    expect(cli('import', 'few').code).toBe(0);
    // A trash entry being built is hidden until whole; one left by a crash is reported, not listed.
    const trash = path.join(w.home, 'trash');
    fs.mkdirSync(path.join(trash, '.building-x'), { recursive: true });
    fs.writeFileSync(path.join(trash, '.building-x', 'meta.json'), '{}');
    expect(JSON.parse(cli('trash', '--json').out).items).toEqual([]);
    const report = JSON.parse(cli('doctor', '--json').out) as { incompleteTrash: string[] };
    expect(report.incompleteTrash).toEqual([path.join(trash, '.building-x')]);
    expect(cli('delete', 's0001').code).toBe(0);
    expect(JSON.parse(cli('trash', '--json').out).items.map((t: { name: string }) => t.name)).toEqual(['s0001']);
  });
});
