import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, writeSkill, type World } from '../../test/support/library.js';
import { makeZip } from '../../test/support/zips.js';
import { makeRepo, skillMd } from '../../test/support/git-servers.js';

// Full provenance (issue 12): the library remembers where each skill came from in the user's words,
// the folder picked, the archive dropped (never SkillDock's upload copy), the agent folder adopted
// from, and when, in `<home>/origins.json`, never inside the skill's folder.

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const api = () => w.service.api;

describe('skill origins', () => {
  it('records the folder a skill was imported from and when, outside the skill folder', async () => {
    const dir = writeSkill(path.join(w.src, 'pdf'), 'pdf');
    const before = Date.now();
    const out = await api().importPaths({ paths: [dir] });
    const o = await api().skillOrigin({ name: 'pdf' });
    expect(o.imported).toMatchObject({ kind: 'folder', from: dir, dropped: false, mode: 'copy', journalId: out.journalId });
    expect(Date.parse(o.imported!.time)).toBeGreaterThanOrEqual(before - 1000);
    expect(o.source).toBeNull();
    expect(fs.readdirSync(path.join(w.home, 'library', 'pdf'))).toEqual(['SKILL.md']); // nothing written into the skill
    expect(fs.existsSync(path.join(w.home, 'origins.json'))).toBe(true);
  });

  it('names the archive and the folder inside it', async () => {
    const md = (n: string) => `---\nname: ${n}\ndescription: From an archive.\n---\nBody\n`;
    const zip = await makeZip(path.join(w.src, 'bundle.zip'), { 'one/SKILL.md': md('one'), 'two/SKILL.md': md('two') });
    await api().importPaths({ paths: [zip] });
    expect((await api().skillOrigin({ name: 'two' })).imported).toMatchObject({
      kind: 'archive',
      from: zip,
      member: 'two',
      dropped: false,
    });
    const single = await makeZip(path.join(w.src, 'solo.skill'), { 'SKILL.md': md('solo') });
    await api().importPaths({ paths: [single] });
    const solo = (await api().skillOrigin({ name: 'solo' })).imported!;
    expect(solo).toMatchObject({ kind: 'archive', from: single });
    expect(solo.member).toBeUndefined();
  });

  it('a browser drop keeps the dropped name, never the uploads path', async () => {
    const batch = path.join(w.home, 'uploads', 'b-1733290000000-0123456789abcdef');
    writeSkill(path.join(batch, 'My Skills', 'notes'), 'notes');
    await makeZip(path.join(batch, 'Report Tools.zip'), { 'report/SKILL.md': '---\nname: report\ndescription: Reports.\n---\nBody\n' });
    await api().importPaths({ paths: [path.join(batch, 'My Skills'), path.join(batch, 'Report Tools.zip')] });
    const notes = (await api().skillOrigin({ name: 'notes' })).imported!;
    expect(notes).toMatchObject({ kind: 'folder', from: 'My Skills/notes', dropped: true });
    const report = (await api().skillOrigin({ name: 'report' })).imported!;
    expect(report).toMatchObject({ kind: 'archive', from: 'Report Tools.zip', member: 'report', dropped: true });
    expect(fs.readFileSync(path.join(w.home, 'origins.json'), 'utf8')).not.toContain('uploads');
  });

  it('records adoption from an agent folder with its mode, and forgets an undone import', async () => {
    const original = writeSkill(path.join(w.userHome, '.claude', 'skills', 'linked'), 'linked');
    await api().adoptSkills({ items: [{ path: original, mode: 'link' }] });
    expect((await api().skillOrigin({ name: 'linked' })).imported).toMatchObject({ kind: 'adopted', from: original, mode: 'link' });

    const dir = writeSkill(path.join(w.src, 'gone'), 'gone');
    await api().importPaths({ paths: [dir] });
    expect((await api().skillOrigin({ name: 'gone' })).imported).not.toBeNull();
    await api().undo({});
    expect((await api().skillOrigin({ name: 'gone' })).imported).toBeNull();
  });

  it('a skill added from a source has its URL and commit, and no stale folder origin', async () => {
    writeSkill(path.join(w.src, 'alpha'), 'alpha');
    await api().importPaths({ paths: [path.join(w.src, 'alpha')] });
    const repo = makeRepo(path.join(w.root, 'git'), 'skills', { 'alpha/SKILL.md': skillMd('alpha', 'From upstream.') });
    const added = await api().addFromSource({ source: `file://${repo.bare}`, onConflict: 'replace' });
    const o = await api().skillOrigin({ name: 'alpha' });
    expect(o.imported).toBeNull(); // the checkout under SkillDock's home is not where it came from
    expect(o.source).toMatchObject({ commit: added.commit, path: 'alpha', source: { url: `file://${repo.bare}` } });
  });

  it('a skill SkillDock did not import has no import origin', async () => {
    expect(await api().skillOrigin({ name: 'never-here' })).toEqual({ name: 'never-here', imported: null, source: null });
  });
});
