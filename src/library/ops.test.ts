import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, snapshot, writeSkill, type World } from '../../test/support/library.js';
import { makeZip } from '../../test/support/zips.js';
import { appendJournal, readJournal, registerUndoHandler } from './journal.js';

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const api = () => w.service.api;
const lib = () => path.join(w.home, 'library');
/**
 * The whole world except the journal (which records the undo too), the scratch folders (lock,
 * staging) and the import origins (bookkeeping like the journal: an undone import's record is
 * ignored by its journal id, see origins.test.ts).
 */
const world = () =>
  snapshot(
    w.root,
    (rel) => ['home/journal.jsonl', 'home/locks', 'home/staging'].includes(rel) || rel.startsWith('home/origins.json') || keptByUndo(rel),
  );

/** What an undo keeps so that redo (or restore) can bring it back: its trash entries and `undone/`. */
function keptByUndo(rel: string): boolean {
  if (rel === 'home/undone' || rel.startsWith('home/undone/')) return true;
  const m = /^home\/trash\/([^/]+)/.exec(rel);
  if (m) {
    const meta = path.join(w.home, 'trash', m[1], 'meta.json');
    return fs.existsSync(meta) && JSON.parse(fs.readFileSync(meta, 'utf8')).reason === 'undone';
  }
  // the trash folder itself, once only undone entries are in it
  return rel === 'home/trash' && fs.readdirSync(path.join(w.home, 'trash')).every((id) => keptByUndo(`home/trash/${id}`));
}

async function expectUndoRestores(before: Record<string, string>, op: string) {
  const r = await api().undo({});
  expect(r.undone.op).toBe(op);
  expect(world()).toEqual(before);
}

describe('delete and restore', () => {
  it('delete moves the skill to the trash; restore brings it back exactly', async () => {
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'tool'), 'tool', { 'x/y.txt': 'y' })] });
    const original = snapshot(path.join(lib(), 'tool'));
    const del = await api().deleteSkill({ name: 'tool' });
    expect(del).toMatchObject({ name: 'tool', mode: 'copy' });
    expect(fs.existsSync(path.join(lib(), 'tool'))).toBe(false);
    expect((await api().listTrash({})).items.map((t) => [t.id, t.reason])).toEqual([[del.trashId, 'deleted']]);
    const res = await api().restoreSkill({ id: del.trashId });
    expect(res.name).toBe('tool');
    expect(snapshot(path.join(lib(), 'tool'))).toEqual(original);
    expect((await api().listTrash({})).items).toEqual([]);
    expect(fs.readdirSync(path.join(w.home, 'trash'))).toEqual([]);
  });

  it('deleting a linked skill removes only the link, never its target', async () => {
    const original = writeSkill(path.join(w.userHome, '.claude', 'skills', 'linked'), 'linked', { 'data.txt': 'precious' });
    const before = snapshot(original);
    const adopt = await api().adoptSkills({ items: [{ path: original, mode: 'link' }] });
    expect(adopt.results[0]).toMatchObject({ status: 'imported', linkTarget: original });
    expect(fs.readlinkSync(path.join(lib(), 'linked'))).toBe(original);
    const del = await api().deleteSkill({ name: 'linked' });
    expect(del.mode).toBe('link');
    expect(snapshot(original)).toEqual(before);
    expect(fs.existsSync(path.join(lib(), 'linked'))).toBe(false);
    // the trash holds the link itself
    const inTrash = path.join(w.home, 'trash', del.trashId, 'skill');
    expect(fs.lstatSync(inTrash).isSymbolicLink()).toBe(true);
    await api().restoreSkill({ id: del.trashId });
    expect(fs.readlinkSync(path.join(lib(), 'linked'))).toBe(original);
    expect(snapshot(original)).toEqual(before);
  });

  it('restore while the name is taken again: refused with the choices, or restored under another name (folder and name:), undoable', async () => {
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'tool'), 'tool', { 'x/y.txt': 'y' })] });
    const del = await api().deleteSkill({ name: 'tool' });
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'tool2', 'tool'), 'tool', { 'other.txt': 'new one' })] });
    const current = snapshot(path.join(lib(), 'tool'));
    const taken = await w.service.call('restoreSkill', { id: del.trashId });
    expect(taken.ok ? null : taken.error).toMatchObject({
      code: 'conflict',
      msg: { key: 'library.restore-taken', params: { name: 'tool' } },
    });
    const before = world();
    const res = await api().restoreSkill({ id: del.trashId, as: 'tool-old' });
    expect(res).toMatchObject({ name: 'tool-old', dir: path.join(lib(), 'tool-old') });
    expect(fs.readFileSync(path.join(lib(), 'tool-old', 'x', 'y.txt'), 'utf8')).toBe('y');
    expect(fs.readFileSync(path.join(lib(), 'tool-old', 'SKILL.md'), 'utf8')).toMatch(/^name: tool-old$/m);
    expect(snapshot(path.join(lib(), 'tool'))).toEqual(current);
    const lint = await api().lintPaths({ paths: [path.join(lib(), 'tool-old')] });
    expect(lint.skills[0]!.diagnostics.filter((d) => d.code === 'name-dir-mismatch')).toEqual([]);
    expect((await api().listTrash({})).items).toEqual([]);
    // Undo puts it back in the trash, whole, under its own name.
    await expectUndoRestores(before, 'restore');
    expect((await api().listTrash({})).items.map((t) => t.name)).toEqual(['tool']);
    // Another name that is taken, or not a folder name, is refused; nothing moves.
    await expect(api().restoreSkill({ id: del.trashId, as: 'tool' })).rejects.toThrow(/is in the library again/);
    await expect(api().restoreSkill({ id: del.trashId, as: '../x' })).rejects.toThrow(/not a library skill name/);
    expect(world()).toEqual(before);
  });

  it('refuses names that are not a library entry', async () => {
    await expect(api().deleteSkill({ name: '../user' })).rejects.toThrow(/not a library skill name/);
    await expect(api().deleteSkill({ name: 'missing' })).rejects.toThrow(/No skill named/);
  });
});

describe('adopt', () => {
  it('lists skills in agents user roots with their library status', async () => {
    writeSkill(path.join(w.userHome, '.claude', 'skills', 'one'), 'one');
    writeSkill(path.join(w.userHome, '.agents', 'skills', 'two'), 'two');
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'two'), 'two', { 'other.txt': 'different' })] });
    const all = (await api().listAdoptable({})).skills;
    const byName = Object.fromEntries(all.map((s) => [s.name, s]));
    expect(byName.one).toMatchObject({ inLibrary: 'no', root: path.join(w.userHome, '.claude', 'skills') });
    expect(byName.one.agents).toContain('claude');
    expect(byName.two).toMatchObject({ inLibrary: 'different' });
    expect(byName.two.agents).toEqual(expect.arrayContaining(['gemini', 'codex', 'generic']));
    const claudeOnly = (await api().listAdoptable({ agent: 'claude' })).skills.map((s) => s.name);
    expect(claudeOnly).toEqual(['one']);
  });

  it('adopts by copy (the original stays) and by link; refuses paths outside user roots', async () => {
    const a = writeSkill(path.join(w.userHome, '.claude', 'skills', 'copied'), 'copied');
    const b = writeSkill(path.join(w.userHome, '.claude', 'skills', 'linked'), 'linked');
    const out = await api().adoptSkills({
      items: [
        { path: a, mode: 'copy' },
        { path: b, mode: 'link' },
      ],
    });
    expect(out.results.map((r) => r.status)).toEqual(['imported', 'imported']);
    expect(fs.lstatSync(path.join(lib(), 'copied')).isDirectory()).toBe(true);
    expect(fs.existsSync(a)).toBe(true);
    expect(fs.lstatSync(path.join(lib(), 'linked')).isSymbolicLink()).toBe(true);
    expect(readJournal(w.service.ctx).at(-1)?.op).toBe('adopt');
    const listed = (await api().listAdoptable({ agent: 'claude' })).skills;
    expect(listed.map((s) => [s.name, s.inLibrary])).toEqual([
      ['copied', 'same'],
      ['linked', 'linked'],
    ]);
    // adopting the same link again is idempotent
    expect((await api().adoptSkills({ items: [{ path: b, mode: 'link' }] })).results[0].status).toBe('already-present');
    await expect(api().adoptSkills({ items: [{ path: writeSkill(path.join(w.src, 'x'), 'x'), mode: 'copy' }] })).rejects.toThrow(
      /user skills folder/,
    );
  });
});

describe('export', () => {
  it('exports by copy and by link into an agent user root, and never replaces a real folder', async () => {
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'tool'), 'tool', { 'a.txt': 'a' })] });
    const copy = await api().exportSkill({ name: 'tool', agent: 'claude', mode: 'copy' });
    expect(copy).toMatchObject({ path: path.join(w.userHome, '.claude', 'skills', 'tool'), status: 'exported' });
    expect(snapshot(copy.path)).toEqual(snapshot(path.join(lib(), 'tool')));
    expect((await api().exportSkill({ name: 'tool', agent: 'claude', mode: 'copy' })).status).toBe('already-present');
    fs.writeFileSync(path.join(copy.path, 'a.txt'), 'user edited');
    await expect(api().exportSkill({ name: 'tool', agent: 'claude', mode: 'copy' })).rejects.toThrow(/never replaces a real folder/);
    await expect(api().exportSkill({ name: 'tool', agent: 'claude', mode: 'link' })).rejects.toThrow(/never replaces a real folder/);
    expect(fs.readFileSync(path.join(copy.path, 'a.txt'), 'utf8')).toBe('user edited');

    const link = await api().exportSkill({ name: 'tool', agent: 'gemini', mode: 'link' });
    expect(link.path).toBe(path.join(w.userHome, '.gemini', 'skills', 'tool'));
    expect(fs.readlinkSync(link.path)).toBe(path.join(lib(), 'tool'));
    expect((await api().exportSkill({ name: 'tool', agent: 'gemini', mode: 'link' })).status).toBe('already-present');
    const other = await api().exportSkill({ name: 'tool', agent: 'gemini', mode: 'link', root: '~/.agents/skills' });
    expect(other.path).toBe(path.join(w.userHome, '.agents', 'skills', 'tool'));
    await expect(api().exportSkill({ name: 'tool', agent: 'gemini', mode: 'link', root: '/tmp' })).rejects.toThrow(/not one of/);
    await expect(api().exportSkill({ name: 'tool', agent: 'nobody', mode: 'link' })).rejects.toThrow(/Unknown agent/);
  });
});

describe('undo', () => {
  it('undo of import, replace, keep-both, delete, restore, adopt (copy and link) and export restores the exact prior tree', async () => {
    const v1 = writeSkill(path.join(w.src, 'v1', 'tool'), 'tool', { 'v.txt': '1' });
    const v2 = writeSkill(path.join(w.src, 'v2', 'tool'), 'tool', { 'v.txt': '2' });

    let before = world();
    await api().importPaths({ paths: [v1] });
    await expectUndoRestores(before, 'import');
    expect(fs.existsSync(lib())).toBe(false); // even the library folder it created is gone

    await api().importPaths({ paths: [v1] });
    before = world();
    await api().importPaths({ paths: [v2], onConflict: 'replace' });
    await expectUndoRestores(before, 'replace');
    expect(fs.readFileSync(path.join(lib(), 'tool', 'v.txt'), 'utf8')).toBe('1');

    before = world();
    await api().importPaths({ paths: [v2], onConflict: 'keep-both' });
    expect(fs.existsSync(path.join(lib(), 'tool-2'))).toBe(true);
    await expectUndoRestores(before, 'keep-both');

    before = world();
    const del = await api().deleteSkill({ name: 'tool' });
    await expectUndoRestores(before, 'delete');

    await api().deleteSkill({ name: 'tool' });
    before = world();
    await api().restoreSkill({ id: (await api().listTrash({})).items[0].id });
    await expectUndoRestores(before, 'restore');
    void del;

    const orig = writeSkill(path.join(w.userHome, '.claude', 'skills', 'mine'), 'mine', { 'm.txt': 'm' });
    before = world();
    await api().adoptSkills({ items: [{ path: orig, mode: 'copy' }] });
    await expectUndoRestores(before, 'adopt');
    await api().adoptSkills({ items: [{ path: orig, mode: 'link' }] });
    await expectUndoRestores(before, 'adopt');

    await api().importPaths({ paths: [v2] });
    before = world();
    await api().exportSkill({ name: 'tool', agent: 'qwen', mode: 'copy' });
    await expectUndoRestores(before, 'export');
    expect(fs.existsSync(path.join(w.userHome, '.qwen'))).toBe(false); // folders it created are gone too
    await api().exportSkill({ name: 'tool', agent: 'qwen', mode: 'link' });
    await expectUndoRestores(before, 'export');

    // an archive import too
    const zip = await makeZip(path.join(w.src, 'z.zip'), { 'zipped/SKILL.md': '---\nname: zipped\ndescription: z\n---\n' });
    before = world();
    await api().importPaths({ paths: [zip] });
    await expectUndoRestores(before, 'import');

    // repeated undo walks back through history: the import of v2, then the second delete of v1
    expect((await api().undo({})).undone.op).toBe('import');
    expect(fs.existsSync(path.join(lib(), 'tool'))).toBe(false);
    expect((await api().undo({})).undone.op).toBe('delete');
    expect(fs.readFileSync(path.join(lib(), 'tool', 'v.txt'), 'utf8')).toBe('1');
    // what the undos took out of the library is in the trash, restorable
    expect((await api().listTrash({})).items.every((t) => t.reason === 'undone')).toBe(true);
  });

  it('refuses to undo over later edits and leaves everything as it is', async () => {
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'tool'), 'tool')] });
    fs.writeFileSync(path.join(lib(), 'tool', 'notes.md'), 'my edits');
    const before = world();
    await expect(api().undo({})).rejects.toThrow(/modified after this operation/);
    expect(world()).toEqual(before);
  });

  it('keeps foreign journal entries, refuses ops it cannot revert, and runs registered handlers', async () => {
    appendJournal(w.service.ctx, { op: 'approve-script', summary: 'approved run.sh', skill: 'pdf', sha: 'abc' });
    const entries = (await api().journal({})).entries;
    expect(entries[0]).toMatchObject({ op: 'approve-script', skill: 'pdf', sha: 'abc' });
    await expect(api().undo({})).rejects.toThrow(/cannot be undone automatically/);
    let reverted = '';
    registerUndoHandler(w.service.ctx, 'approve-script', (e) => {
      reverted = String(e.sha);
      return { message: 'approval withdrawn' };
    });
    const r = await api().undo({});
    expect(r.message).toBe('approval withdrawn');
    expect(reverted).toBe('abc');
    await expect(api().undo({})).rejects.toThrow(/Nothing to undo/);
  });

  it('refuses a journal entry that would touch paths outside SkillDock and the agents folders', async () => {
    const victim = writeSkill(path.join(w.src, 'victim'), 'victim');
    const { treeDigest } = await import('./tree.js');
    appendJournal(w.service.ctx, { op: 'import', changes: [{ kind: 'created', path: victim, digest: treeDigest(victim) }] });
    await expect(api().undo({})).rejects.toThrow(/outside SkillDock/);
    expect(fs.existsSync(victim)).toBe(true);
  });
});
