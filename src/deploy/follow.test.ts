import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, snapshot, writeSkill, type World } from '../../test/support/library.js';
import { runJournaled } from '../library/recover.js';
import { followLibrary } from '../library/followers.js';

// Deployments follow the library through renames, and deploys are redone by id like any operation
// (issue 26 items 4 and 1), on real folders and real links in a temporary user home.

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const api = () => w.service.api;
const lib = (n: string) => path.join(w.home, 'library', n);
const u = (...p: string[]) => path.join(w.userHome, ...p);
const linkAt = (p: string) => (fs.lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() ? fs.readlinkSync(p) : null);
const desired = () => JSON.parse(fs.readFileSync(path.join(w.home, 'deployments.json'), 'utf8')).scopes.user.desired;
const history = async () => (await api().journal({ limit: 50 })).entries;

async function addSkills(...names: string[]) {
  await api().importPaths({ paths: names.map((n) => writeSkill(path.join(w.src, n), n)) });
}

/** No link in the user's home points at something missing. */
function noDangling(): void {
  const bad: string[] = [];
  const walk = (d: string, depth: number) => {
    for (const n of fs.readdirSync(d)) {
      const p = path.join(d, n);
      const st = fs.lstatSync(p);
      if (st.isSymbolicLink() && !fs.existsSync(p)) bad.push(p);
      else if (st.isDirectory() && depth < 4) walk(p, depth + 1);
    }
  };
  walk(w.userHome, 0);
  expect(bad).toEqual([]);
}

describe('a skill restored under another name', () => {
  it('takes its deployments to the new name in the same operation; undo takes them back to the old name', async () => {
    await addSkills('tool', 'other');
    await api().deploySet({ skills: ['tool'], agents: ['claude'], mode: 'link' });
    await api().deploySet({ skills: ['tool'], agents: ['codex'], mode: 'copy' });
    await api().deploySet({ skills: ['other'], agents: ['claude'], mode: 'link' });
    const del = await api().deleteSkill({ name: 'tool' });
    expect(linkAt(u('.claude', 'skills', 'tool'))).toBeNull();
    noDangling();

    const restored = await api().restoreSkill({ id: del.trashId, as: 'kit' });
    expect(linkAt(u('.claude', 'skills', 'kit'))).toBe(lib('kit'));
    expect(fs.readFileSync(u('.codex', 'skills', 'kit', 'SKILL.md'), 'utf8')).toMatch(/^name: kit$/m);
    expect(fs.existsSync(u('.claude', 'skills', 'tool'))).toBe(false);
    expect(fs.existsSync(u('.codex', 'skills', 'tool'))).toBe(false);
    expect(desired()).toEqual({ kit: { claude: 'link', codex: 'copy' }, other: { claude: 'link' } });
    const s = await api().deployStatus({});
    expect(s.entries.filter((e) => e.state !== 'in-sync')).toEqual([]);
    // one operation: the restore's own journal entry holds the deployments' changes
    const entry = (await history()).find((e) => e.id === restored.journalId)!;
    expect(entry.op).toBe('restore');
    expect(entry.changes!.some((c) => c.kind === 'created' && c.path === u('.claude', 'skills', 'kit'))).toBe(true);

    await api().undo({ id: restored.journalId });
    expect(fs.existsSync(u('.claude', 'skills', 'kit'))).toBe(false);
    expect(fs.existsSync(u('.codex', 'skills', 'kit'))).toBe(false);
    expect(desired()).toEqual({ tool: { claude: 'link', codex: 'copy' }, other: { claude: 'link' } });
    noDangling();

    // back under its old name, the old name's deployments come back with it
    // the undo put the skill back in its trash entry: restored under its old name, the old name's
    // deployments come back with it
    await api().restoreSkill({ id: del.trashId });
    expect(linkAt(u('.claude', 'skills', 'tool'))).toBe(lib('tool'));
    expect(linkAt(u('.claude', 'skills', 'other'))).toBe(lib('other'));
    noDangling();
  });

  it('leaves the old name choices alone when another skill took that name in the meantime', async () => {
    await addSkills('tool');
    await api().deploySet({ skills: ['tool'], agents: ['claude'], mode: 'link' });
    const del = await api().deleteSkill({ name: 'tool' });
    await addSkills('tool');
    await api().restoreSkill({ id: del.trashId, as: 'kit' });
    expect(desired()).toEqual({ tool: { claude: 'link' } });
    expect(fs.existsSync(u('.claude', 'skills', 'kit'))).toBe(false);
  });
});

describe('a skill renamed in the library while deployed', () => {
  // The library renames only by restoring under another name today; a rename of a skill in place
  // tells its followers the same way (src/library/followers.ts): this drives that hook as such an
  // operation would, under the library lock, and checks what lands in the agents' folders.
  async function rename(from: string, to: string): Promise<string> {
    const ctx = w.service.ctx;
    return runJournaled(ctx, 'restore', (wal) => {
      const change = { kind: 'moved' as const, from: lib(from), to: lib(to) };
      wal.will(change);
      fs.renameSync(lib(from), lib(to));
      const changes = [change, ...followLibrary(ctx, wal, { op: 'rename', names: [to], renamed: { [from]: to } })];
      return wal.commit({ op: 'restore', summary: `${from} renamed ${to}`, changes, skills: [{ name: to }] }).id;
    });
  }

  it('moves its links and copies to the new name in the same entry; no link dangles; undo brings the old names back', async () => {
    await addSkills('tool');
    await api().deploySet({ skills: ['tool'], agents: ['claude'], mode: 'link' });
    await api().deploySet({ skills: ['tool'], agents: ['codex'], mode: 'copy' });
    const before = snapshot(w.userHome);
    const id = await rename('tool', 'kit');
    expect(linkAt(u('.claude', 'skills', 'kit'))).toBe(lib('kit'));
    expect(fs.existsSync(u('.codex', 'skills', 'kit', 'SKILL.md'))).toBe(true);
    expect(fs.lstatSync(u('.claude', 'skills', 'tool'), { throwIfNoEntry: false })).toBeUndefined();
    expect(fs.lstatSync(u('.codex', 'skills', 'tool'), { throwIfNoEntry: false })).toBeUndefined();
    expect(desired()).toEqual({ kit: { claude: 'link', codex: 'copy' } });
    expect((await api().deployStatus({})).entries.filter((e) => e.state !== 'in-sync')).toEqual([]);
    noDangling();

    await api().undo({ id });
    expect(snapshot(w.userHome)).toEqual(before);
    expect(desired()).toEqual({ tool: { claude: 'link', codex: 'copy' } });
    noDangling();
  });

  it('an edited copy stays where it is, a conflict under the old name, never lost', async () => {
    await addSkills('tool');
    await api().deploySet({ skills: ['tool'], agents: ['codex'], mode: 'copy' });
    fs.appendFileSync(u('.codex', 'skills', 'tool', 'SKILL.md'), '\nmy edit\n');
    await rename('tool', 'kit');
    expect(fs.readFileSync(u('.codex', 'skills', 'tool', 'SKILL.md'), 'utf8')).toContain('my edit');
    expect(fs.existsSync(u('.codex', 'skills', 'kit', 'SKILL.md'))).toBe(true);
  });
});

describe('redo of a deploy', () => {
  it('by id puts back the links, the copies byte for byte and the record; History offers it', async () => {
    await addSkills('tool', 'other');
    const first = await api().deploySet({ skills: ['other'], agents: ['claude'], mode: 'link' });
    const r = await api().deploySet({ skills: ['tool'], agents: ['claude', 'codex'], mode: 'copy' });
    const copy = u('.codex', 'skills', 'tool');
    fs.writeFileSync(path.join(lib('tool'), 'notes.bin'), Buffer.from([0, 1, 2, 255]));
    const done = snapshot(w.userHome);
    const record = desired();
    await api().undo({ id: r.journalId! });
    expect(fs.existsSync(copy)).toBe(false);
    expect(desired()).toEqual({ other: { claude: 'link' } });
    let row = (await history()).find((e) => e.id === r.journalId)!;
    expect(row.redo).toEqual({ ok: true });
    await api().redo({ id: r.journalId! });
    expect(snapshot(w.userHome)).toEqual(done);
    expect(desired()).toEqual(record);
    expect((await api().deployStatus({})).entries.filter((e) => e.state !== 'in-sync')).toEqual([]);
    // undo again, and the older deploy can still be undone on its own (records are per key)
    await api().undo({ id: r.journalId! });
    await api().undo({ id: first.journalId! });
    expect(desired()).toEqual({});
    row = (await history()).find((e) => e.id === first.journalId)!;
    expect(row.redo).toEqual({ ok: true });
    noDangling();
  });
});
