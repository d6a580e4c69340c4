import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { libraryNames, makeWorld, snapshot, writeSkill, type World } from '../../test/support/library.js';
import { readJournal } from './journal.js';

// Bulk operations (issue 28): many names, globs matched by the engine and `all` in one operation,
// with one journal entry and one undo that brings every skill back, on real folders.

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const api = () => w.service.api;
const lib = () => path.join(w.home, 'library');
const ops = () => readJournal(w.service.ctx).map((e) => e.op);
/** The library's skill folders with every file's content hash. */
const library = () => snapshot(lib());

/** Import skills named `names` (each with a file of its own) in one import. */
async function seed(names: string[]): Promise<void> {
  const dirs = names.map((n, i) => writeSkill(path.join(w.src, `s${i}`, n), n, { 'notes/n.txt': `notes of ${n}` }));
  const r = await api().importPaths({ paths: dirs });
  expect(r.results.map((x) => x.status)).toEqual(names.map(() => 'imported'));
}

describe('bulk delete and restore', () => {
  it('a glob deletes every match in one journal entry; one undo brings all back, byte for byte', async () => {
    await seed(['beta-1', 'beta-2', 'beta-3', 'alpha']);
    const before = library();
    const journalBefore = readJournal(w.service.ctx).length;
    const r = await api().deleteSkills({ names: ['beta-*'] });
    expect(r.results.map((x) => x.name)).toEqual(['beta-1', 'beta-2', 'beta-3']);
    expect(libraryNames(w)).toEqual(['alpha']);
    // one entry naming the three, and three trash entries, each as a single delete makes it
    const entries = readJournal(w.service.ctx).slice(journalBefore);
    expect(entries.map((e) => [e.op, e.id])).toEqual([['delete', r.journalId]]);
    expect((entries[0]!.skills as Array<{ name: string }>).map((s) => s.name)).toEqual(['beta-1', 'beta-2', 'beta-3']);
    const trash = (await api().listTrash({})).items;
    expect(trash.map((t) => [t.name, t.reason]).sort()).toEqual([
      ['beta-1', 'deleted'],
      ['beta-2', 'deleted'],
      ['beta-3', 'deleted'],
    ]);
    expect(new Set(trash.map((t) => t.id))).toEqual(new Set(r.results.map((x) => x.trashId)));
    // History names it as one operation of three skills
    const hist = (await api().journal({})).entries.find((e) => e.id === r.journalId)!;
    expect(hist.what).toEqual({ key: 'journal.what.delete-many', params: { count: 3 } });
    expect(hist.undo).toEqual({ ok: true });

    const u = await api().undo({ id: r.journalId });
    expect(u.undone.id).toBe(r.journalId);
    expect(library()).toEqual(before);
    // the skills keep their digests through the round trip
    const digests = Object.fromEntries((await api().listLibrary({})).skills.map((s) => [s.name, s.digest]));
    expect(Object.keys(digests).sort()).toEqual(['alpha', 'beta-1', 'beta-2', 'beta-3']);
    await api().redo({ id: r.journalId });
    expect(libraryNames(w)).toEqual(['alpha']);
  }, 60_000);

  it('a bulk delete leaves the trash and journal changes a single delete leaves, skill by skill', async () => {
    await seed(['beta-1', 'beta-2']);
    const trashOf = (id: string) => {
      const snap = snapshot(path.join(w.home, 'trash', id));
      const meta = JSON.parse(fs.readFileSync(path.join(w.home, 'trash', id, 'meta.json'), 'utf8'));
      delete snap['meta.json'];
      return { snap, meta: { ...meta, id: undefined, time: undefined } };
    };
    const changesOf = (id: string, name: string) =>
      (readJournal(w.service.ctx).find((e) => e.id === id)!.changes ?? [])
        .filter((c) => JSON.stringify(c).includes(`/${name}`))
        .map((c) => JSON.stringify(c).replace(/trash\/[^/"]+/g, 'trash/ID'));
    const one = await api().deleteSkill({ name: 'beta-1' });
    const single = { trash: trashOf(one.trashId), changes: changesOf(one.journalId, 'beta-1') };
    expect(single.changes.length).toBeGreaterThan(0);
    expect(Object.keys(single.trash.snap).length).toBeGreaterThan(1);
    await api().undo({ id: one.journalId });
    const many = await api().deleteSkills({ names: ['beta-*'] });
    const bulkId = many.results.find((r) => r.name === 'beta-1')!.trashId;
    expect({ trash: trashOf(bulkId), changes: changesOf(many.journalId!, 'beta-1') }).toEqual(single);
  }, 60_000);

  it('--all deletes the whole library in one operation; restore by glob brings them back in one more', async () => {
    await seed(['one', 'two', 'three']);
    const before = library();
    const del = await api().deleteSkills({ all: true });
    expect(del.results.map((x) => x.name).sort()).toEqual(['one', 'three', 'two']);
    expect(libraryNames(w)).toEqual([]);
    const n = ops().length;
    const res = await api().restoreSkills({ names: ['t*'] });
    expect(res.results.map((x) => x.name).sort()).toEqual(['three', 'two']);
    expect(ops().slice(n)).toEqual(['restore']);
    const rest = await api().restoreSkills({ all: true });
    expect(rest.results.map((x) => x.name)).toEqual(['one']);
    expect(library()).toEqual(before);
    // one undo takes back the two-skill restore as a whole
    await api().undo({ id: res.journalId });
    expect(libraryNames(w)).toEqual(['one']);
    expect((await api().deleteSkills({ all: true })).results.map((x) => x.name)).toEqual(['one']);
    // an empty library: nothing to do, no entry
    const m = ops().length;
    expect(await api().deleteSkills({ all: true })).toEqual({ results: [] });
    expect(ops().length).toBe(m);
  }, 60_000);

  it('a glob that matches nothing is refused with a coded message, and nothing changes', async () => {
    await seed(['alpha', 'beta-1']);
    const before = library();
    const n = ops().length;
    const r = await w.service.call('deleteSkills', { names: ['alpha', 'gamma-*'] });
    expect(r.ok ? null : r.error).toMatchObject({
      code: 'not-found',
      msg: { key: 'select.no-match-library', params: { pattern: 'gamma-*' } },
    });
    const t = await w.service.call('restoreSkills', { names: ['gamma-*'] });
    expect(t.ok ? null : t.error).toMatchObject({ msg: { key: 'select.no-match-trash', params: { pattern: 'gamma-*' } } });
    // a plain name that is not there refuses the whole batch before anything moves
    const m = await w.service.call('deleteSkills', { names: ['alpha', 'missing'] });
    expect(m.ok ? null : m.error).toMatchObject({ code: 'not-found', msg: { key: 'library.not-found', params: { name: 'missing' } } });
    expect(library()).toEqual(before);
    expect(ops().length).toBe(n);
  }, 60_000);

  it('a name holding glob and shell characters is matched literally, never as a pattern', async () => {
    await seed(['beta-*', 'beta-1', 'beta-2', 'a$(x);[1]']);
    const r = await api().deleteSkills({ names: ['beta-*', 'a$(x);[1]'] });
    expect(r.results.map((x) => x.name)).toEqual(['beta-*', 'a$(x);[1]']);
    expect(libraryNames(w)).toEqual(['beta-1', 'beta-2']);
    // and restored literally too
    const back = await api().restoreSkills({ names: ['beta-*'] });
    expect(back.results.map((x) => x.name)).toEqual(['beta-*']);
    expect(libraryNames(w)).toEqual(['beta-*', 'beta-1', 'beta-2']);
  }, 60_000);
});

describe('bulk export', () => {
  it("exports a glob's skills to an agent's folder in one entry; one undo removes every copy", async () => {
    await seed(['beta-1', 'beta-2', 'alpha']);
    const claude = path.join(w.userHome, '.claude', 'skills');
    const r = await api().exportSkills({ names: ['beta-*'], agent: 'claude', mode: 'copy' });
    expect(r.results.map((x) => [x.name, x.status])).toEqual([
      ['beta-1', 'exported'],
      ['beta-2', 'exported'],
    ]);
    expect(fs.readdirSync(claude).sort()).toEqual(['beta-1', 'beta-2']);
    expect(snapshot(path.join(claude, 'beta-1'))).toEqual(snapshot(path.join(lib(), 'beta-1')));
    const entry = readJournal(w.service.ctx).at(-1)!;
    expect([entry.op, entry.id, entry.agent]).toEqual(['export', r.journalId, 'claude']);
    const hist = (await api().journal({})).entries.find((e) => e.id === r.journalId)!;
    expect(hist.what).toEqual({ key: 'journal.what.export-many', params: { count: 2, agent: 'Claude Code' } });
    // again with --all: the two already there are reported, only alpha is new
    const again = await api().exportSkills({ all: true, agent: 'claude', mode: 'copy' });
    expect(again.results.map((x) => [x.name, x.status])).toEqual([
      ['alpha', 'exported'],
      ['beta-1', 'already-present'],
      ['beta-2', 'already-present'],
    ]);
    await api().undo({ id: again.journalId });
    await api().undo({ id: r.journalId });
    expect(fs.existsSync(path.join(w.userHome, '.claude'))).toBe(false);
  }, 60_000);
});
