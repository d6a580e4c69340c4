import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { libraryNames, makeWorld, runWorldCli, writeSkill, type World } from '../../test/support/library.js';
import { bundleChild, pendingLines, pendingPath, runChild } from '../../test/support/crash-kit.js';
import { SkillDockService } from '../service.js';

// Issue 32, breaks 4, 5 and 7: a real child process running the engine is killed (SIGKILL, by the
// write-ahead path's test hook) in the journal window and in the middle of an undo, and a damaged
// journal is read. The cases used 1,000 skills; 40 go through the same code path (one
// pending file, one journal entry, one change per skill), so they prove the same thing faster.

const N = 40;
let script: string;
let w: World;

beforeAll(async () => {
  script = await bundleChild();
}, 60_000);
afterAll(() => fs.rmSync(path.dirname(script), { recursive: true, force: true }));
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

function batch(n: number): string {
  const dir = path.join(w.src, 'batch');
  for (let i = 0; i < n; i++)
    writeSkill(path.join(dir, `s${String(i).padStart(4, '0')}`), `s${String(i).padStart(4, '0')}`, { 'v.txt': '1' });
  return dir;
}

/** A fresh engine on the same home: what the next command after the crash sees. */
async function next<T>(fn: (s: SkillDockService) => Promise<T>): Promise<T> {
  const s = new SkillDockService({ paths: { home: w.home, userHome: w.userHome, resourcesDir: w.service.ctx.paths.resourcesDir } });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

describe('kill -9 in the journal window (break 4)', () => {
  it(`an import of ${N} killed after its journal entry, before the pending file went: repair keeps it, and undo works`, async () => {
    writeSkill(path.join(w.src, 'earlier'), 'earlier');
    await w.service.api.importPaths({ paths: [path.join(w.src, 'earlier')] });
    const run = await runChild(script, w, 'importPaths', { paths: [batch(N)] }, 'committed');
    expect(run.signal).toBe('SIGKILL');
    expect(fs.existsSync(pendingPath(w))).toBe(true);
    expect(libraryNames(w)).toHaveLength(N + 1);

    const report = await next((s) => s.api.doctor({}));
    expect(report.interrupted).toMatchObject({ op: 'import', committed: true });
    const repaired = await next((s) => s.api.doctor({ repair: true }));
    expect(repaired.rolledBack).toMatchObject({ op: 'import', outcome: 'committed', undone: 0 });
    // every skill the journal records as imported is still there, and nothing is pending
    expect(libraryNames(w)).toHaveLength(N + 1);
    expect(fs.existsSync(pendingPath(w))).toBe(false);
    expect((await next((s) => s.api.doctor({}))).interrupted).toBeNull();
    // undo reverts the import the journal records, then the earlier one
    const undo = await next((s) => s.api.undo({}));
    expect(undo.undone.op).toBe('import');
    expect(libraryNames(w)).toEqual(['earlier']);
    await next((s) => s.api.undo({}));
    expect(libraryNames(w)).toEqual([]);
  }, 60_000);
});

describe('kill -9 during undo (break 5)', () => {
  it.each([3, N - 11])(
    `undoing an import of ${N} killed at its step %i: doctor sees the undo, repair finishes it, undo goes on`,
    async (at) => {
      writeSkill(path.join(w.src, 'earlier'), 'earlier');
      await w.service.api.importPaths({ paths: [path.join(w.src, 'earlier')] });
      await w.service.api.importPaths({ paths: [batch(N)] });
      const run = await runChild(script, w, 'undo', {}, at);
      expect(run.signal).toBe('SIGKILL');
      const left = libraryNames(w).length;
      expect(left).toBeGreaterThan(1);
      expect(left).toBeLessThanOrEqual(N + 1);
      expect(pendingLines(w)).toBeGreaterThan(1);

      const report = await next((s) => s.api.doctor({}));
      expect(report.interrupted?.op).toBe('undo');
      const repaired = await next((s) => s.api.doctor({ repair: true }));
      expect(repaired.rolledBack).toMatchObject({ op: 'undo', outcome: 'finished', failed: [] });
      expect(libraryNames(w)).toEqual(['earlier']);
      const history = (await next((s) => s.api.journal({}))).entries;
      expect(history[0]).toMatchObject({ op: 'undo', undoes: history[1]!.id });
      expect(history[1]!.op).toBe('import');
      // the next undo is the earlier import's
      expect((await next((s) => s.api.undo({}))).undone.summary).toContain('earlier');
      expect(libraryNames(w)).toEqual([]);
    },
    60_000,
  );
});

describe('a damaged journal (break 7)', () => {
  it('history warns (exit 1), undo stops at the damaged line, doctor --repair keeps the damaged copy and recovers the rest', async () => {
    for (const n of ['a', 'b', 'c']) {
      writeSkill(path.join(w.src, n), n);
      await w.service.api.importPaths({ paths: [path.join(w.src, n)] });
    }
    const file = path.join(w.home, 'journal.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[0] = lines[0]!.slice(0, 40);
    fs.writeFileSync(file, lines.join('\n'));

    const history = await runWorldCli(w, 'history');
    expect(history.code).toBe(1);
    expect(history.err).toContain('The journal has lines that could not be read (1)');
    expect(history.out.split('\n').filter(Boolean)).toHaveLength(4); // three entries, then how to undo or redo one
    expect(history.out).toContain('A journal entry could not be read (line 1, 40 bytes)');
    const doctor = await runWorldCli(w, 'doctor', '--json');
    expect(doctor.code).toBe(1);
    expect(JSON.parse(doctor.out).journalDamage).toMatchObject({ lines: [1], keptAt: null, msg: { key: 'journal.damaged' } });

    // c and b undo; a's entry is unreadable, so undo stops there instead of guessing
    await w.service.api.undo({});
    await w.service.api.undo({});
    expect(libraryNames(w)).toEqual(['a']);
    await expect(w.service.api.undo({})).rejects.toMatchObject({
      code: 'conflict',
      msg: { key: 'journal.damaged-stop', params: { line: 1 } },
    });
    expect(libraryNames(w)).toEqual(['a']);

    const repair = await runWorldCli(w, 'doctor', '--repair', '--json');
    const keptAt = JSON.parse(repair.out).journalDamage.keptAt as string;
    expect(fs.readFileSync(keptAt, 'utf8').split('\n')[0]).toBe(lines[0]);
    expect(repair.code).toBe(0);
    // the journal is whole again: every line reads, the damaged one says where its copy is
    const after = await runWorldCli(w, 'history', '--json');
    expect(after.code).toBe(0);
    const entries = JSON.parse(after.out).entries as Array<{ op: string; msg?: { key: string } }>;
    expect(entries.map((e) => e.op)).toEqual(['undo', 'undo', 'import', 'import', 'damaged']);
    expect(entries[4]!.msg?.key).toBe('journal.damaged-line');
    expect(after.err).toContain(`the damaged journal is kept at ${keptAt}`);
    await expect(w.service.api.undo({})).rejects.toMatchObject({ msg: { key: 'journal.damaged-stop' } });
    expect((await runWorldCli(w, 'doctor')).code).toBe(0);
  });

  it('a torn last line cannot swallow the next entry', async () => {
    writeSkill(path.join(w.src, 'a'), 'a');
    await w.service.api.importPaths({ paths: [path.join(w.src, 'a')] });
    fs.appendFileSync(path.join(w.home, 'journal.jsonl'), '{"op":"import","summ');
    writeSkill(path.join(w.src, 'b'), 'b');
    await w.service.api.importPaths({ paths: [path.join(w.src, 'b')] });
    const entries = (await w.service.api.journal({})).entries;
    expect(entries.map((e) => e.op)).toEqual(['import', 'damaged', 'import']);
    await w.service.api.undo({});
    expect(libraryNames(w)).toEqual(['a']);
  });
});
