import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, snapshot, writeSkill, type World } from '../../test/support/library.js';
import { makeZip } from '../../test/support/zips.js';
import { readJournal } from './journal.js';

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const lib = () => path.join(w.home, 'library');
const api = () => w.service.api;

describe('import', () => {
  it('imports one skill folder as a copy, with its files, and journals it', async () => {
    const dir = writeSkill(path.join(w.src, 'pdf'), 'pdf', { 'scripts/run.sh': 'echo hi\n', 'references/a.md': '# A\n' });
    fs.chmodSync(path.join(dir, 'scripts/run.sh'), 0o755);
    const out = await api().importPaths({ paths: [dir] });
    expect(out.results).toHaveLength(1);
    expect(out.results[0]).toMatchObject({ name: 'pdf', status: 'imported', libraryName: 'pdf', dir: path.join(lib(), 'pdf') });
    expect(snapshot(path.join(lib(), 'pdf'))).toEqual(snapshot(dir));
    expect(fs.lstatSync(path.join(lib(), 'pdf')).isSymbolicLink()).toBe(false);
    expect(out.journalId).toBeTruthy();
    expect(readJournal(w.service.ctx).map((e) => e.op)).toEqual(['import']);
    expect(w.events).toContainEqual({ type: 'library-changed', names: ['pdf'], op: 'import' });
    // staging is gone afterwards
    expect(fs.readdirSync(path.join(w.home, 'staging'))).toEqual([]);
  });

  it('imports a parent folder of many skills with one result each and progress events', async () => {
    for (const n of ['alpha', 'beta', 'gamma']) writeSkill(path.join(w.src, 'many', n), n, { 'notes.txt': n.repeat(100) });
    fs.mkdirSync(path.join(w.src, 'many', 'not-a-skill'));
    const out = await api().importPaths({ paths: [path.join(w.src, 'many')], importId: 'batch-1' });
    expect(out.results.map((r) => [r.name, r.status])).toEqual([
      ['alpha', 'imported'],
      ['beta', 'imported'],
      ['gamma', 'imported'],
    ]);
    expect(fs.readdirSync(lib()).sort()).toEqual(['alpha', 'beta', 'gamma']);
    const progress = w.events.filter((e) => e.type === 'import-progress');
    expect(progress.length).toBeGreaterThanOrEqual(4);
    expect(progress.every((e) => e.type === 'import-progress' && e.importId === 'batch-1' && e.skillsTotal === 3)).toBe(true);
    const last = progress.at(-1)!;
    expect(last).toMatchObject({ skillsDone: 3, skillsTotal: 3 });
    if (last.type === 'import-progress') expect(last.bytesDone).toBe(last.bytesTotal);
    expect(readJournal(w.service.ctx)).toHaveLength(1); // one operation, one entry
  });

  it('imports .zip and .skill archives: skill at the root, in one top folder, and many skills', async () => {
    const md = (n: string) => `---\nname: ${n}\ndescription: From an archive.\n---\nBody\n`;
    const atRoot = await makeZip(path.join(w.src, 'root-skill.skill'), { 'SKILL.md': md('root-skill'), 'scripts/x.py': 'print(1)\n' });
    const topFolder = await makeZip(path.join(w.src, 'top.zip'), {
      'top-skill/': '',
      'top-skill/SKILL.md': md('top-skill'),
      '__MACOSX/top-skill/._SKILL.md': 'junk',
    });
    const many = await makeZip(path.join(w.src, 'many.zip'), {
      'one/SKILL.md': md('one'),
      'two/SKILL.md': md('two'),
      'two/assets/a.txt': 'a',
    });
    const out = await api().importPaths({ paths: [atRoot, topFolder, many] });
    expect(out.results.map((r) => [r.source.replace(w.src, ''), r.name, r.status])).toEqual([
      ['/root-skill.skill', 'root-skill', 'imported'],
      ['/top.zip!/top-skill', 'top-skill', 'imported'],
      ['/many.zip!/one', 'one', 'imported'],
      ['/many.zip!/two', 'two', 'imported'],
    ]);
    expect(snapshot(lib())).toMatchObject({
      'root-skill/SKILL.md': expect.stringMatching(/^file:/),
      'root-skill/scripts/x.py': expect.stringMatching(/^file:/),
      'top-skill/SKILL.md': expect.stringMatching(/^file:/),
      'two/assets/a.txt': expect.stringMatching(/^file:/),
    });
    expect(Object.keys(snapshot(lib())).some((k) => k.includes('MACOSX'))).toBe(false);
  });

  it('a folder whose SKILL.md names another skill is imported under that name and says so (from the folder, to the name)', async () => {
    const dir = writeSkill(path.join(w.src, 'my-folder'), 'real-name');
    const out = await api().importPaths({ paths: [dir] });
    const r = out.results[0]!;
    expect(r).toMatchObject({
      status: 'imported',
      name: 'real-name',
      libraryName: 'real-name',
      renamed: { from: 'my-folder', to: 'real-name' },
    });
    expect(r.notices).toEqual([{ key: 'import.renamed', params: { from: 'my-folder', to: 'real-name' } }]);
    // The folder/name mismatch was the source's; the library copy is named right and has no finding.
    expect(r.diagnostics.map((d) => d.code)).not.toContain('name-dir-mismatch');
    const listed = (await api().listLibrary({})).skills.find((s) => s.name === 'real-name')!;
    expect(listed.diagnostics).toEqual([]);
    expect(r.diagnostics).toEqual(listed.diagnostics);
    // A folder named like its skill, and a skill at an archive's root (the file name is no folder name), say nothing.
    const same = await api().importPaths({ paths: [writeSkill(path.join(w.src, 'same'), 'same')] });
    expect(same.results[0]!.renamed).toBeUndefined();
    expect(same.results[0]!.notices).toBeUndefined();
    const zip = await makeZip(path.join(w.src, 'bundle-v2.zip'), { 'SKILL.md': '---\nname: zipped-one\ndescription: d\n---\n' });
    expect((await api().importPaths({ paths: [zip] })).results[0]!.renamed).toBeUndefined();
    // Re-importing the renamed folder still says why its name is not the folder's.
    const again = await api().importPaths({ paths: [dir] });
    expect(again.results[0]).toMatchObject({ status: 'already-present', renamed: { from: 'my-folder', to: 'real-name' } });
  });

  it('re-importing identical content is "already in library" and copies nothing', async () => {
    const dir = writeSkill(path.join(w.src, 'same'), 'same', { 'a.txt': 'x' });
    await api().importPaths({ paths: [dir] });
    const before = snapshot(w.home);
    const mtime = fs.statSync(path.join(lib(), 'same', 'SKILL.md')).mtimeMs;
    const again = await api().importPaths({ paths: [dir] });
    expect(again.results[0]).toMatchObject({ status: 'already-present', message: 'already in library' });
    expect(again.journalId).toBeUndefined();
    expect(snapshot(w.home)).toEqual(before);
    expect(fs.statSync(path.join(lib(), 'same', 'SKILL.md')).mtimeMs).toBe(mtime);
    expect(readJournal(w.service.ctx)).toHaveLength(1);
  });

  it('reports a conflict without a choice and writes nothing', async () => {
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'v1', 'tool'), 'tool', { 'v.txt': '1' })] });
    const before = snapshot(w.home);
    const out = await api().importPaths({ paths: [writeSkill(path.join(w.src, 'v2', 'tool'), 'tool', { 'v.txt': '2' })] });
    expect(out.conflicts).toBe(1);
    expect(out.results[0]).toMatchObject({ status: 'conflict', name: 'tool', existingDigest: expect.any(String) });
    expect(out.results[0].digest).not.toBe(out.results[0].existingDigest);
    expect(snapshot(w.home)).toEqual(before);
  });

  it('replace sends the old version to the trash, restorable', async () => {
    const v1 = writeSkill(path.join(w.src, 'v1', 'tool'), 'tool', { 'v.txt': '1' });
    const v2 = writeSkill(path.join(w.src, 'v2', 'tool'), 'tool', { 'v.txt': '2' });
    await api().importPaths({ paths: [v1] });
    const out = await api().importPaths({ paths: [v2], onConflict: 'replace' });
    expect(out.results[0]).toMatchObject({ status: 'replaced', trashId: expect.any(String) });
    expect(fs.readFileSync(path.join(lib(), 'tool', 'v.txt'), 'utf8')).toBe('2');
    const trash = (await api().listTrash({})).items;
    expect(trash).toEqual([expect.objectContaining({ id: out.results[0].trashId, name: 'tool', reason: 'replaced', mode: 'copy' })]);
    expect(snapshot(path.join(w.home, 'trash', trash[0].id, 'skill'))).toEqual(snapshot(v1));
    expect(readJournal(w.service.ctx).map((e) => e.op)).toEqual(['import', 'replace']);
    // restoring needs the name free: refused while v2 holds it
    await expect(api().restoreSkill({ id: trash[0].id })).rejects.toThrow(/in the library again/);
    await api().deleteSkill({ name: 'tool' });
    await api().restoreSkill({ id: trash[0].id });
    expect(fs.readFileSync(path.join(lib(), 'tool', 'v.txt'), 'utf8')).toBe('1');
  });

  it('keep-both gives a free name and updates the folder and the name: line together', async () => {
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'a', 'tool'), 'tool', { 'v.txt': '1' })] });
    fs.mkdirSync(path.join(lib(), 'tool-2')); // taken already: the next free one is -3
    writeSkill(path.join(lib(), 'tool-2'), 'tool-2');
    const v2 = path.join(w.src, 'b', 'tool');
    fs.mkdirSync(v2, { recursive: true });
    const original = '---\r\nname: "tool"   # the tool\r\ndescription: Second tool.\r\n---\r\nname: tool stays in the body\r\n';
    fs.writeFileSync(path.join(v2, 'SKILL.md'), original);
    const out = await api().importPaths({ paths: [v2], resolutions: { tool: 'keep-both' } });
    expect(out.results[0]).toMatchObject({ status: 'kept-both', name: 'tool', libraryName: 'tool-3', dir: path.join(lib(), 'tool-3') });
    expect(fs.readFileSync(path.join(lib(), 'tool-3', 'SKILL.md'), 'utf8')).toBe(original.replace('"tool"', '"tool-3"'));
    expect(fs.readFileSync(path.join(v2, 'SKILL.md'), 'utf8')).toBe(original); // the source is untouched
    expect(fs.readFileSync(path.join(lib(), 'tool', 'v.txt'), 'utf8')).toBe('1');
    const listed = (await api().listLibrary({})).skills.find((s) => s.dirName === 'tool-3');
    expect(listed).toMatchObject({ name: 'tool-3', mode: 'copy' });
  });

  it('skip leaves the library as it was', async () => {
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'a', 'tool'), 'tool', { 'v.txt': '1' })] });
    const before = snapshot(w.home);
    const out = await api().importPaths({
      paths: [writeSkill(path.join(w.src, 'b', 'tool'), 'tool', { 'v.txt': '2' })],
      onConflict: 'skip',
    });
    expect(out.results[0].status).toBe('skipped');
    expect(snapshot(w.home)).toEqual(before);
  });

  it('refuses a skill without a name (with its diagnostics) but imports one with other lint findings', async () => {
    const nameless = writeSkill(path.join(w.src, 'set', 'nameless'), null);
    const messy = writeSkill(path.join(w.src, 'set', 'messy'), 'Messy_Name', {}, '');
    const out = await api().importPaths({ paths: [path.join(w.src, 'set')] });
    const byDir = Object.fromEntries(out.results.map((r) => [path.basename(r.source), r]));
    expect(byDir.nameless).toMatchObject({ status: 'refused', name: null });
    expect(byDir.nameless.message).toMatch(/name cannot be determined/);
    expect(byDir.nameless.diagnostics.length).toBeGreaterThan(0);
    expect(byDir.messy).toMatchObject({ status: 'imported', name: 'Messy_Name' });
    expect(byDir.messy.diagnostics.length).toBeGreaterThan(0);
    expect(fs.readdirSync(lib())).toEqual(['Messy_Name']);
    void nameless;
    void messy;
  });

  it('refuses a name that would escape the library and a link pointing outside the skill', async () => {
    const evil = path.join(w.src, 'evil');
    fs.mkdirSync(evil);
    fs.writeFileSync(path.join(evil, 'SKILL.md'), '---\nname: ../../escape\ndescription: x\n---\n');
    const leaky = writeSkill(path.join(w.src, 'leaky'), 'leaky');
    fs.writeFileSync(path.join(w.root, 'secret.txt'), 'secret');
    fs.symlinkSync(path.join(w.root, 'secret.txt'), path.join(leaky, 'secret'));
    const out = await api().importPaths({ paths: [evil, leaky] });
    expect(out.results.map((r) => r.status)).toEqual(['refused', 'refused']);
    expect(out.results[1].message).toMatch(/outside the skill/);
    expect(fs.existsSync(path.join(w.home, 'escape'))).toBe(false);
    expect(fs.existsSync(path.join(w.root, 'escape'))).toBe(false);
    // Nothing went in: not even the library folder was made, and there is nothing to undo.
    expect(fs.existsSync(lib())).toBe(false);
    expect(out.journalId).toBeUndefined();
  });

  it('reports a missing path and a folder without skills as refused results', async () => {
    fs.mkdirSync(path.join(w.src, 'empty'));
    const out = await api().importPaths({ paths: [path.join(w.src, 'nope'), path.join(w.src, 'empty')] });
    expect(out.refused).toBe(2);
    expect(out.results[0].message).toMatch(/does not exist/);
    expect(out.results[1].message).toMatch(/no SKILL.md/);
  });

  it('a disk error on one skill leaves it as it was and the rest of the batch goes on', async () => {
    await api().importPaths({ paths: [writeSkill(path.join(w.src, 'a', 'tool'), 'tool', { 'v.txt': '1' })] });
    fs.writeFileSync(path.join(w.home, 'trash'), 'not a folder'); // replace cannot move the old version away
    writeSkill(path.join(w.src, 'b', 'tool'), 'tool', { 'v.txt': '2' });
    writeSkill(path.join(w.src, 'b', 'other'), 'other');
    const out = await api().importPaths({ paths: [path.join(w.src, 'b')], onConflict: 'replace' });
    expect(out.results.map((r) => [r.name, r.status])).toEqual([
      ['other', 'imported'],
      ['tool', 'refused'],
    ]);
    expect(out.results[1].message).toMatch(/import failed/);
    expect(fs.readFileSync(path.join(lib(), 'tool', 'v.txt'), 'utf8')).toBe('1');
    expect(
      readJournal(w.service.ctx)
        .at(-1)
        ?.changes?.map((c) => c.kind),
    ).toEqual(['created']);
  });

  it('keeps links that stay inside the skill as links', async () => {
    const dir = writeSkill(path.join(w.src, 'linky'), 'linky', { 'references/a.md': '# A\n' });
    fs.symlinkSync('references/a.md', path.join(dir, 'alias.md'));
    fs.symlinkSync('references/missing.md', path.join(dir, 'dangling.md'));
    const out = await api().importPaths({ paths: [dir] });
    expect(out.results[0].status).toBe('imported');
    expect(fs.readlinkSync(path.join(lib(), 'linky', 'alias.md'))).toBe('references/a.md');
    expect(snapshot(path.join(lib(), 'linky'))).toEqual(snapshot(dir));
    expect((await api().importPaths({ paths: [dir] })).results[0].status).toBe('already-present');
  });
});
