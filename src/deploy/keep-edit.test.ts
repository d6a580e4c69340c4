import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, snapshot, writeSkill, type World } from '../../test/support/library.js';

// Keeping the edit of a deployed copy goes through the 3-way merge of src/sources: the library's
// own edits since the copy was placed are kept too, a conflict is shown with its three versions
// and settled per file, and it is one journal entry (issue 26, item 3).

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const api = () => w.service.api;
const libFile = (...p: string[]) => path.join(w.home, 'library', 'tool', ...p);
const copy = (...p: string[]) => path.join(w.userHome, '.claude', 'skills', 'tool', ...p);
const other = (...p: string[]) => path.join(w.userHome, '.codex', 'skills', 'tool', ...p);
const BODY = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
const entries = async () => (await api().journal({ limit: 100 })).entries.length;

/** `tool` with eight body lines, deployed as a copy to Claude Code and to Codex. */
async function deployed(): Promise<void> {
  writeSkill(path.join(w.src, 'tool'), 'tool', { 'notes.md': 'notes\n' });
  fs.appendFileSync(path.join(w.src, 'tool', 'SKILL.md'), BODY.join('\n') + '\n');
  await api().importPaths({ paths: [path.join(w.src, 'tool')] });
  await api().deploySet({ skills: ['tool'], agents: ['claude', 'codex'], mode: 'copy' });
}

const edit = (file: string, from: string, to: string) => fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(from, to));

describe('keeping the edit of a copy', () => {
  it('merges it with the library edits made since, in one journal entry; every copy gets the result; one undo', async () => {
    await deployed();
    edit(copy('SKILL.md'), 'two\n', 'two (edited in the copy)\n');
    edit(libFile('SKILL.md'), 'seven\n', 'seven (edited in the library)\n');
    const beforeLib = snapshot(path.join(w.home, 'library'));
    const beforeUser = snapshot(w.userHome);
    const n = await entries();
    const r = await api().deployAdoptEdit({ path: copy() });
    expect(r).toMatchObject({ skill: 'tool', conflicts: 0 });
    expect(r.journalId).toBeTruthy();
    expect(await entries()).toBe(n + 1);
    const lib = fs.readFileSync(libFile('SKILL.md'), 'utf8');
    expect(lib).toContain('two (edited in the copy)');
    expect(lib).toContain('seven (edited in the library)');
    for (const f of [copy('SKILL.md'), other('SKILL.md')]) expect(fs.readFileSync(f, 'utf8')).toBe(lib);
    expect((await api().deployStatus({})).entries.filter((e) => e.state !== 'in-sync')).toEqual([]);
    // the library's old version is in the trash, the copy's edit lives on in the library
    expect((await api().listTrash({})).items.map((t) => [t.name, t.reason])).toContainEqual(['tool', 'replaced']);

    await api().undo({ id: r.journalId! });
    expect(snapshot(path.join(w.home, 'library'))).toEqual(beforeLib);
    expect(snapshot(w.userHome)).toEqual(beforeUser);
  });

  it('stops at a conflict with the three versions, changing nothing; settled per file, it goes on', async () => {
    await deployed();
    edit(copy('SKILL.md'), 'four\n', 'four as the copy has it\n');
    edit(libFile('SKILL.md'), 'four\n', 'four as the library has it\n');
    const beforeLib = snapshot(path.join(w.home, 'library'));
    const beforeUser = snapshot(w.userHome);
    const n = await entries();
    const r = await api().deployAdoptEdit({ path: copy() });
    expect(r.journalId).toBeUndefined();
    expect(r.conflicts).toBe(1);
    const f = r.files.find((x) => x.action === 'conflict')!;
    expect(f).toMatchObject({ path: 'SKILL.md', conflict: 'both-changed' });
    expect(f.base).toContain('four\n');
    expect(f.mine).toContain('four as the library has it');
    expect(f.upstream).toContain('four as the copy has it');
    expect(f.merged).toMatch(
      /<<<<<<< mine[\s\S]*four as the library has it[\s\S]*=======[\s\S]*four as the copy has it[\s\S]*>>>>>>> upstream/,
    );
    expect(snapshot(path.join(w.home, 'library'))).toEqual(beforeLib);
    expect(snapshot(w.userHome)).toEqual(beforeUser);
    expect(await entries()).toBe(n);

    const done = await api().deployAdoptEdit({ path: copy(), resolutions: { 'SKILL.md': 'upstream' } });
    expect(done.journalId).toBeTruthy();
    expect(fs.readFileSync(libFile('SKILL.md'), 'utf8')).toContain('four as the copy has it');
    expect(fs.readFileSync(other('SKILL.md'), 'utf8')).toContain('four as the copy has it');
  });
});
