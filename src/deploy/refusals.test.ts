import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, snapshot, writeSkill, type World } from '../../test/support/library.js';

// Every state an entry can be in and every refusal, on real folders and links.

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  for (const d of [path.join(w.userHome, '.claude', 'skills'), path.join(w.userHome, '.qwen', 'skills')]) {
    try {
      fs.chmodSync(d, 0o755);
    } catch {
      // not made by this test
    }
  }
  await w.done();
});

const api = () => w.service.api;
const lib = (n: string) => path.join(w.home, 'library', n);
const claude = (...p: string[]) => path.join(w.userHome, '.claude', 'skills', ...p);
const qwen = (...p: string[]) => path.join(w.userHome, '.qwen', 'skills', ...p);
async function addSkills(...names: string[]) {
  await api().importPaths({ paths: names.map((n) => writeSkill(path.join(w.src, n), n)) });
}
const entry = async (p: string) => (await api().deployStatus({})).entries.find((e) => e.path === p);

describe('states', () => {
  it('foreign, broken (dangling link, no SKILL.md), link elsewhere, missing, shadowed, duplicate', async () => {
    await addSkills('tool', 'mine');
    await api().deploySet({ skills: ['tool', 'mine'], agents: ['claude', 'codex'], mode: 'link' });
    writeSkill(claude('theirs'), 'theirs');
    fs.symlinkSync(path.join(w.root, 'nowhere'), claude('dangling'));
    fs.mkdirSync(claude('empty'));
    // drift: a managed link now points elsewhere, another managed link removed
    fs.unlinkSync(claude('tool'));
    fs.symlinkSync(path.join(w.src, 'tool'), claude('tool'));
    fs.unlinkSync(claude('mine'));
    // Codex reads ~/.codex/skills and ~/.agents/skills and lists both copies of a name
    writeSkill(path.join(w.userHome, '.agents', 'skills', 'tool'), 'tool');
    // Qwen reads ~/.qwen/skills then ~/.agents/skills: one name in both, one wins
    writeSkill(qwen('shared'), 'shared');
    writeSkill(path.join(w.userHome, '.agents', 'skills', 'shared'), 'shared');
    expect(await entry(claude('theirs'))).toMatchObject({ state: 'foreign', managed: false, agents: ['claude', 'opencode'] });
    expect(await entry(claude('dangling'))).toMatchObject({ state: 'broken', reason: 'dangling' });
    expect(await entry(claude('empty'))).toMatchObject({ state: 'broken', reason: 'no-skill-md' });
    expect(await entry(claude('tool'))).toMatchObject({ state: 'drifted', reason: 'link-elsewhere', managed: true });
    expect(await entry(claude('mine'))).toMatchObject({ state: 'missing', kind: 'none', managed: true });
    expect(await entry(path.join(w.userHome, '.agents', 'skills', 'tool'))).toMatchObject({ state: 'duplicate', reason: 'read-twice' });
    expect(await entry(path.join(w.userHome, '.agents', 'skills', 'shared'))).toMatchObject({ state: 'shadowed', other: qwen('shared') });
    // repair puts back what is ours and leaves the rest exactly as it is
    const theirs = snapshot(claude('theirs'));
    await api().deployRepair({});
    expect(fs.readlinkSync(claude('tool'))).toBe(lib('tool'));
    expect(fs.readlinkSync(claude('mine'))).toBe(lib('mine'));
    expect(snapshot(claude('theirs'))).toEqual(theirs);
    expect(fs.readlinkSync(claude('dangling'))).toBe(path.join(w.root, 'nowhere'));
    expect(fs.existsSync(claude('empty'))).toBe(true);
  });
});

describe('refusals', () => {
  it('a name taken by a foreign entry: not touched until the user names it; then it goes to the trash', async () => {
    await addSkills('tool');
    writeSkill(claude('tool'), 'tool', { 'notes.md': 'my own version' });
    const before = snapshot(claude('tool'));
    const r = await api().deploySet({ skills: ['tool'], agents: ['claude'], mode: 'link' });
    expect(r.steps).toMatchObject([
      { action: 'blocked', why: { key: 'deploy.foreign-entry', params: { path: claude('tool'), skill: 'tool' } } },
    ]);
    expect(snapshot(claude('tool'))).toEqual(before);
    await api().deploySet({ skills: ['tool'], agents: ['claude'], mode: 'link', take: [claude('tool')] });
    expect(fs.readlinkSync(claude('tool'))).toBe(lib('tool'));
    const kept = fs.readdirSync(path.join(w.home, 'trash', 'deployed'));
    expect(kept).toHaveLength(1);
    await api().undo({});
    expect(snapshot(claude('tool'))).toEqual(before);
  });

  it('an agent folder that is itself a link is never written through', async () => {
    await addSkills('tool');
    const real = path.join(w.root, 'dotfiles', 'claude-skills');
    fs.mkdirSync(real, { recursive: true });
    fs.mkdirSync(path.join(w.userHome, '.claude'));
    fs.symlinkSync(real, claude());
    const r = await api().deploySet({ skills: ['tool'], agents: ['claude'], mode: 'link' });
    expect(r.steps).toMatchObject([{ action: 'blocked', why: { key: 'deploy.folder-link', params: { folder: claude(), target: real } } }]);
    expect(fs.readdirSync(real)).toEqual([]);
    const s = await api().deployStatus({});
    expect(s.folders.find((f) => f.path === claude())?.problem?.key).toBe('deploy.folder-link');
  });

  it.skipIf(process.getuid?.() === 0)('a folder that is not writable: a clear refusal, the other agents still get it', async () => {
    await addSkills('tool');
    fs.mkdirSync(claude(), { recursive: true });
    fs.chmodSync(claude(), 0o555);
    const r = await api().deploySet({ skills: ['tool'], agents: ['claude', 'qwen'], mode: 'link' });
    expect(r.steps.find((s) => s.folder === claude())).toMatchObject({ action: 'blocked', why: { key: 'deploy.folder-not-writable' } });
    expect(fs.readlinkSync(qwen('tool'))).toBe(lib('tool'));
    expect(fs.readdirSync(claude())).toEqual([]);
  });

  it('a folder deleted while SkillDock is open: seen as missing, made again by repair', async () => {
    await addSkills('tool');
    await api().deploySet({ skills: ['tool'], agents: ['qwen'], mode: 'copy' });
    fs.rmSync(path.join(w.userHome, '.qwen'), { recursive: true });
    expect(await entry(qwen('tool'))).toMatchObject({ state: 'missing' });
    const r = await api().deployRepair({});
    expect(r.steps).toMatchObject([{ action: 'place', path: qwen('tool') }]);
    expect(fs.existsSync(qwen('tool', 'SKILL.md'))).toBe(true);
  });

  it('unknown agent and unknown skill are refused with their names', async () => {
    await addSkills('tool');
    await expect(api().deploySet({ skills: ['tool'], agents: ['nope'], mode: 'link' })).rejects.toMatchObject({ code: 'not-found' });
    await expect(api().deploySet({ skills: ['ghost'], agents: ['claude'], mode: 'link' })).rejects.toMatchObject({ code: 'not-found' });
    await expect(api().deploySet({ skills: ['tool'], agents: [], mode: 'link' })).rejects.toMatchObject({ code: 'bad-request' });
  });
});

describe('propagation', () => {
  it('deleting a deployed skill removes its links and copies in the same operation; undo brings them back', async () => {
    await addSkills('tool');
    await api().deploySet({ skills: ['tool'], agents: ['claude'], mode: 'link' });
    await api().deploySet({ skills: ['tool'], agents: ['qwen'], mode: 'copy' });
    const before = snapshot(w.userHome);
    expect(w.service.ctx.use('deploy', () => null)).toBeTruthy();
    const { getDeploy } = await import('./service.js');
    expect(getDeploy(w.service.ctx).losing('tool').sort()).toEqual(['claude', 'opencode', 'qwen']);
    await api().deleteSkill({ name: 'tool' });
    expect(fs.existsSync(claude('tool'))).toBe(false);
    expect(fs.lstatSync(claude('tool'), { throwIfNoEntry: false })).toBeUndefined(); // no dangling link
    expect(fs.existsSync(qwen('tool'))).toBe(false);
    const undo = await api().undo({});
    expect(undo.undone.op).toBe('delete');
    expect(snapshot(w.userHome)).toEqual(before);
    expect((await api().deployStatus({})).entries.filter((e) => e.state !== 'in-sync')).toEqual([]);
  });

  it('restore from the trash places the skill again; an update reaches copies at once', async () => {
    await addSkills('tool');
    await api().deploySet({ skills: ['tool'], agents: ['qwen'], mode: 'copy' });
    const del = await api().deleteSkill({ name: 'tool' });
    await api().restoreSkill({ id: del.trashId });
    expect(fs.existsSync(qwen('tool', 'SKILL.md'))).toBe(true);
    expect(await entry(qwen('tool'))).toMatchObject({ state: 'in-sync' });
    writeSkill(path.join(w.src, 'v2', 'tool'), 'tool', { 'new.txt': 'v2' });
    await api().importPaths({ paths: [path.join(w.src, 'v2', 'tool')], onConflict: 'replace' });
    expect(fs.readFileSync(qwen('tool', 'new.txt'), 'utf8')).toBe('v2');
    expect(await entry(qwen('tool'))).toMatchObject({ state: 'in-sync' });
  });
});
