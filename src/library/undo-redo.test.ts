import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorInfo, HistoryEntry } from '../contract/index.js';
import { formatMessage } from '../contract/messages-text.js';
import { makeWorld, snapshot, writeSkill, type World } from '../../test/support/library.js';

// Undo and redo by operation id (issue 23): every operation kind undone and redone on real
// library folders, undo out of order allowed when nothing later touched the same files and
// refused (naming the later operation) when something did, and nothing an undo takes away lost.

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const api = () => w.service.api;
const lib = (...p: string[]) => path.join(w.home, 'library', ...p);
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** Everything but bookkeeping (journal, lock, origins) and what undo keeps for redo (trash, undone/). */
const world = () =>
  snapshot(
    w.root,
    (rel) =>
      ['home/journal.jsonl', 'home/locks', 'home/staging', 'home/trash', 'home/undone', 'home/edits', 'home/cache'].includes(rel) ||
      rel.startsWith('home/origins.json') ||
      rel.startsWith('home/approvals'),
  );

async function refusal(method: 'undo' | 'redo', input: { id?: string }): Promise<ErrorInfo> {
  const r = await w.service.call(method, input);
  if (r.ok) throw new Error(`${method} was expected to be refused`);
  return r.error;
}

async function history(): Promise<HistoryEntry[]> {
  return (await api().journal({})).entries;
}

/** Do `op`, then undo it by id and redo it by id, twice: each time the world is as it was. */
async function roundTrip(op: () => Promise<string | undefined>, check?: () => void): Promise<string> {
  const before = world();
  const id = await op();
  if (!id) throw new Error('the operation made no journal entry');
  const after = world();
  for (let round = 0; round < 2; round++) {
    const u = await api().undo({ id });
    expect(u.undone.id).toBe(id);
    expect(world()).toEqual(before);
    const r = await api().redo({ id });
    expect(r.redone.id).toBe(id);
    expect(world()).toEqual(after);
    check?.();
  }
  return id;
}

describe('undo and redo of every operation kind, by id', () => {
  it('import, replace, keep-both, adopt (copy and link), delete, restore, export (copy and link), create', async () => {
    const v1 = writeSkill(path.join(w.src, 'v1', 'tool'), 'tool', { 'v.txt': '1' });
    const v2 = writeSkill(path.join(w.src, 'v2', 'tool'), 'tool', { 'v.txt': '2' });
    await roundTrip(async () => (await api().importPaths({ paths: [v1] })).journalId);
    await roundTrip(async () => (await api().importPaths({ paths: [v2], onConflict: 'replace' })).journalId);
    await roundTrip(async () => (await api().importPaths({ paths: [v1], onConflict: 'keep-both' })).journalId);
    const mine = writeSkill(path.join(w.userHome, '.claude', 'skills', 'mine'), 'mine', { 'm.txt': 'm' });
    await roundTrip(async () => (await api().adoptSkills({ items: [{ path: mine, mode: 'copy' }] })).journalId);
    await api().deleteSkill({ name: 'mine' });
    await roundTrip(
      async () => (await api().adoptSkills({ items: [{ path: mine, mode: 'link' }] })).journalId,
      () => expect(fs.readFileSync(path.join(mine, 'm.txt'), 'utf8')).toBe('m'), // the link's target untouched
    );
    await roundTrip(async () => (await api().deleteSkill({ name: 'tool' })).journalId);
    const trashId = (await api().listTrash({})).items.find((t) => t.name === 'tool' && t.reason === 'deleted')!.id;
    await roundTrip(async () => (await api().restoreSkill({ id: trashId })).journalId);
    await roundTrip(async () => (await api().exportSkill({ name: 'tool', agent: 'qwen', mode: 'copy' })).journalId);
    await roundTrip(async () => (await api().exportSkill({ name: 'tool', agent: 'claude', mode: 'link' })).journalId);
    await roundTrip(async () => (await api().createSkill({ name: 'fresh', template: 'scripts' })).journalId);
  });

  it('edits: a save (old and new text, exec bit kept), a new file, a rename, a deleted file, a new folder', async () => {
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'ed'), 'ed', { 'run.sh': '#!/bin/sh\necho 1\n' })] });
    fs.chmodSync(lib('ed', 'run.sh'), 0o755);
    const text = fs.readFileSync(lib('ed', 'SKILL.md'), 'utf8');
    await roundTrip(
      async () =>
        (await api().saveSkillFile({ skill: 'ed', path: 'SKILL.md', content: text + '\nmore\n', expectedHash: sha(text) })).journalId,
    );
    const script = '#!/bin/sh\necho 1\n';
    await roundTrip(
      async () => (await api().saveSkillFile({ skill: 'ed', path: 'run.sh', content: 'echo 2\n', expectedHash: sha(script) })).journalId,
      () => expect(fs.statSync(lib('ed', 'run.sh')).mode & 0o111).not.toBe(0),
    );
    await roundTrip(
      async () => (await api().saveSkillFile({ skill: 'ed', path: 'refs/new.md', content: 'new', expectedHash: null })).journalId,
    );
    await roundTrip(async () => (await api().renameSkillPath({ skill: 'ed', from: 'run.sh', to: 'go.sh' })).journalId);
    await roundTrip(async () => (await api().deleteSkillPath({ skill: 'ed', path: 'go.sh' })).journalId);
    await roundTrip(async () => (await api().createSkillFolder({ skill: 'ed', path: 'assets' })).journalId);
  });

  it('a binary file a save replaced or created comes back byte for byte on undo and on redo', async () => {
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'bin'), 'bin')] });
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x81]);
    fs.writeFileSync(lib('bin', 'blob.bin'), bytes);
    const id = (
      await api().saveSkillFile({
        skill: 'bin',
        path: 'blob.bin',
        content: 'text now',
        expectedHash: createHash('sha256').update(bytes).digest('hex'),
      })
    ).journalId!;
    await api().undo({ id });
    expect(fs.readFileSync(lib('bin', 'blob.bin'))).toEqual(bytes);
    await api().redo({ id });
    expect(fs.readFileSync(lib('bin', 'blob.bin'), 'utf8')).toBe('text now');
  });

  it('script approval and revocation', async () => {
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'sheets'), 'sheets', { 'scripts/run.sh': '#!/bin/sh\necho hi\n' })] });
    const status = async () => (await api().getSkillTrust({ name: 'sheets' })).status;
    await api().approveSkill({ name: 'sheets' });
    const approve = (await history()).find((e) => e.op === 'scripts-approve')!;
    await api().revokeApproval({ name: 'sheets' });
    const revoke = (await history()).find((e) => e.op === 'scripts-revoke')!;
    await api().undo({ id: revoke.id });
    expect(await status()).toBe('approved');
    await api().redo({ id: revoke.id });
    expect(await status()).toBe('unapproved');
    await api().undo({ id: revoke.id });
    // the approval is in effect again, so it can be undone and redone
    await api().undo({ id: approve.id });
    expect(await status()).toBe('unapproved');
    await api().redo({ id: approve.id });
    expect(await status()).toBe('approved');
  });
});

describe('undo of an operation that is not the newest', () => {
  it('is allowed when no later operation touched the same files; the skill goes to the trash and redo brings it back', async () => {
    const a = (await api().importPaths({ paths: [writeSkill(path.join(w.src, 'alpha'), 'alpha', { 'a.txt': 'a' })] })).journalId!;
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'beta'), 'beta')] });
    const beta = snapshot(lib('beta'));
    const r = await api().undo({ id: a });
    expect(r.what).toEqual({ key: 'journal.what.import-one', params: { name: 'alpha' } });
    expect(fs.existsSync(lib('alpha'))).toBe(false);
    expect(snapshot(lib('beta'))).toEqual(beta); // the newer import is untouched
    const trash = (await api().listTrash({})).items;
    expect(trash.map((t) => [t.name, t.reason])).toEqual([['alpha', 'undone']]);
    expect(fs.readFileSync(path.join(w.home, 'trash', trash[0].id, 'skill', 'a.txt'), 'utf8')).toBe('a');
    await api().redo({ id: a });
    expect(fs.readFileSync(lib('alpha', 'a.txt'), 'utf8')).toBe('a');
    expect((await api().listTrash({})).items).toEqual([]);
  });

  it('is refused, naming the later operation, when a later one touched the same files; nothing changes', async () => {
    const imp = (await api().importPaths({ paths: [writeSkill(path.join(w.src, 'pdf'), 'pdf')] })).journalId!;
    const text = fs.readFileSync(lib('pdf', 'SKILL.md'), 'utf8');
    const save = (await api().saveSkillFile({ skill: 'pdf', path: 'SKILL.md', content: text + 'x\n', expectedHash: sha(text) })).journalId!;
    const before = world();
    const e = await refusal('undo', { id: imp });
    expect(e.code).toBe('conflict');
    expect(e.msg).toEqual({
      key: 'journal.undo-blocked',
      params: {
        what: { key: 'journal.what.import-one', params: { name: 'pdf' } },
        later: { key: 'journal.what.edit-file', params: { path: 'SKILL.md', name: 'pdf' } },
        laterId: save,
      },
    });
    expect(e.message).toBe(
      `Cannot undo the import of pdf: a later operation, the edit of SKILL.md in pdf (${save}), changed the same files. Undo that first. Nothing was changed.`,
    );
    expect(world()).toEqual(before);
    // History says the same before anyone presses the button
    const row = (await history()).find((x) => x.id === imp)!;
    expect(row.undo).toEqual({ ok: false, reason: e.msg });
    // once the save is undone, the import can be
    await api().undo({ id: save });
    await api().undo({ id: imp });
    expect(fs.existsSync(lib('pdf'))).toBe(false);
  });

  it('an operation already undone says so (an Undo on a stale toast); the newest operation is left alone', async () => {
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'tool'), 'tool')] });
    const del = await api().deleteSkill({ name: 'tool' });
    const restore = (await api().restoreSkill({ id: del.trashId })).journalId;
    const exp = (await api().exportSkill({ name: 'tool', agent: 'qwen', mode: 'copy' })).journalId!;
    await api().undo({ id: exp }); // from History
    const before = world();
    const e = await refusal('undo', { id: exp }); // the export's toast
    expect(e.msg).toEqual({
      key: 'journal.already-undone',
      params: { what: { key: 'journal.what.export-one', params: { name: 'tool', agent: 'Qwen Code' } } },
    });
    expect(world()).toEqual(before);
    expect((await history()).find((x) => x.id === restore)!.state).toBe('done');
  });

  it('redo is refused when a new operation took the same place, or when an operation it builds on is undone', async () => {
    const first = (await api().importPaths({ paths: [writeSkill(path.join(w.src, 'a', 'tool'), 'tool', { 'v.txt': '1' })] })).journalId!;
    await api().undo({ id: first });
    const second = (await api().importPaths({ paths: [writeSkill(path.join(w.src, 'b', 'tool'), 'tool', { 'v.txt': '2' })] })).journalId!;
    let e = await refusal('redo', { id: first });
    expect(e.msg?.key).toBe('journal.redo-blocked');
    expect(e.msg?.params?.laterId).toBe(second);
    expect(fs.readFileSync(lib('tool', 'v.txt'), 'utf8')).toBe('2');

    const text = fs.readFileSync(lib('tool', 'SKILL.md'), 'utf8');
    const save = (await api().saveSkillFile({ skill: 'tool', path: 'SKILL.md', content: text + 'y\n', expectedHash: sha(text) }))
      .journalId!;
    await api().undo({ id: save });
    await api().undo({ id: second });
    e = await refusal('redo', { id: save });
    expect(e.msg?.key).toBe('journal.redo-needs');
    expect(e.msg?.params?.laterId).toBe(second);
    await api().redo({ id: second });
    await api().redo({ id: save });
    expect(fs.readFileSync(lib('tool', 'SKILL.md'), 'utf8')).toBe(text + 'y\n');
  });

  it('undo and redo with no id act on the newest; unknown ids and records are refused with their reason', async () => {
    await expect(api().redo({})).rejects.toThrow(/Nothing to redo/);
    const a = (await api().importPaths({ paths: [writeSkill(path.join(w.src, 'a'), 'a')] })).journalId!;
    const b = (await api().importPaths({ paths: [writeSkill(path.join(w.src, 'b'), 'b')] })).journalId!;
    expect((await api().undo({})).undone.id).toBe(b);
    expect((await api().undo({})).undone.id).toBe(a);
    expect((await api().redo({})).redone.id).toBe(a);
    expect((await refusal('undo', { id: 'nope' })).msg?.key).toBe('journal.unknown-operation');
    const record = (await history()).find((x) => x.op === 'redo')!;
    expect(record.of).toBe(a);
    expect((await refusal('undo', { id: record.id })).msg?.key).toBe('journal.not-an-operation');
    expect((await refusal('redo', { id: a })).msg?.key).toBe('journal.not-undone');
  });
});

describe('History names what each entry touched', () => {
  it('skills, the agent of an export and its folder, the approval; every sentence in English from the codes', async () => {
    await api().importPaths({
      paths: ['one', 'two', 'three', 'four', 'five'].map((n) => writeSkill(path.join(w.src, n), n)),
    });
    await api().exportSkill({ name: 'one', agent: 'claude', mode: 'link' });
    await api().approveSkill({ name: 'two' });
    const [approve, exp, imp] = await history();
    expect(imp.what).toEqual({ key: 'journal.what.import-many', params: { count: 5 } });
    expect(formatMessage(imp.what!)).toBe('import of 5 skills');
    expect(imp.touched?.skills.sort()).toEqual(['five', 'four', 'one', 'three', 'two']);
    expect(formatMessage(exp.what!)).toBe('export of one to Claude Code');
    expect(exp.touched).toEqual({ skills: ['one'], agent: 'Claude Code', paths: [path.join(w.userHome, '.claude', 'skills', 'one')] });
    expect(formatMessage(approve.what!)).toBe('approval of the scripts of two');
    expect(approve.touched?.skills).toEqual(['two']);
    expect([exp.undo?.ok, approve.undo?.ok]).toEqual([true, true]);
    // the export links to one of the imported skills: the import waits for it
    expect(imp.undo).toMatchObject({ ok: false, reason: { key: 'journal.undo-blocked', params: { laterId: exp.id } } });
    expect(imp.redo).toMatchObject({ ok: false, reason: { key: 'journal.not-undone' } });
    await api().undo({ id: exp.id });
    const [undoRec, , exp2] = await history();
    expect(undoRec).toMatchObject({ op: 'undo', of: exp.id, what: exp.what });
    expect(exp2).toMatchObject({ state: 'undone', redo: { ok: true } });
  });
});
