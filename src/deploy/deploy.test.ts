import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, snapshot, writeSkill, type World } from '../../test/support/library.js';

// The deploy engine on real folders and real links in a temporary user home.

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
const claude = () => u('.claude', 'skills');

async function addSkills(...names: string[]) {
  await api().importPaths({ paths: names.map((n) => writeSkill(path.join(w.src, n), n)) });
}
const linkAt = (p: string) => (fs.lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() ? fs.readlinkSync(p) : null);
const cell = async (skill: string, agent: string) =>
  (await api().deployStatus({})).cells.find((c) => c.skill === skill && c.agent === agent)!;
const entry = async (p: string) => (await api().deployStatus({})).entries.find((e) => e.path === p);

describe('choosing folders', () => {
  it('all agents: one link per folder, no agent reads the skill twice', async () => {
    await addSkills('tool');
    const r = await api().deploySet({ skills: ['tool'], allAgents: true, mode: 'link' });
    const placed = r.steps.filter((s) => s.action === 'place').map((s) => path.relative(w.userHome, s.path));
    // the shared folder serves every agent that reads it; Claude Code reads only its own
    expect(placed.sort()).toEqual(['.agents/skills/tool', '.claude/skills/tool']);
    expect(linkAt(path.join(claude(), 'tool'))).toBe(lib('tool'));
    const s = await api().deployStatus({});
    for (const c of s.cells.filter((x) => x.skill === 'tool')) expect(c).toMatchObject({ on: true });
    expect(s.entries.filter((e) => e.state !== 'in-sync')).toEqual([]);
    // every agent reads it from exactly one of its folders
    // OpenCode reads both; it keeps one of two same-named skills (and both are the same link)
    for (const a of s.agents.filter((x) => x.id !== 'opencode')) {
      const reads = s.folders.filter((f) => f.agents.includes(a.id)).map((f) => f.path);
      expect(s.entries.filter((e) => e.name === 'tool' && reads.includes(e.folder))).toHaveLength(1);
    }
  });

  it('turning a skill on for Claude Code says it turns on for OpenCode too', async () => {
    await addSkills('tool');
    const r = await api().deploySet({ skills: ['tool'], agents: ['claude'], mode: 'link' });
    expect(r.alsoOn).toEqual({ tool: ['opencode'] });
    expect(await cell('tool', 'opencode')).toMatchObject({ on: true, wanted: null, via: ['claude'] });
    // and the generic agent's only folder is read by five others
    const g = await api().deploySet({ skills: ['tool'], agents: ['generic'], mode: 'link', dryRun: true });
    expect(g.alsoOn.tool).toEqual(expect.arrayContaining(['gemini', 'codex', 'qwen', 'copilot']));
  });

  it('OpenCode then Claude Code: OpenCode own copy goes, so it does not list the skill twice', async () => {
    await addSkills('tool');
    await api().deploySet({ skills: ['tool'], agents: ['opencode'], mode: 'link' });
    expect(linkAt(u('.config', 'opencode', 'skills', 'tool'))).toBe(lib('tool'));
    await api().deploySet({ skills: ['tool'], agents: ['claude'], mode: 'link' });
    expect(linkAt(u('.config', 'opencode', 'skills', 'tool'))).toBeNull();
    expect(linkAt(path.join(claude(), 'tool'))).toBe(lib('tool'));
    expect(await cell('tool', 'opencode')).toMatchObject({ on: true, wanted: 'link', state: 'in-sync' });
  });
});

describe('apply, off, undo', () => {
  it('off for one agent removes only its link; one undo puts it back; nothing else moves', async () => {
    await addSkills('tool', 'other');
    const each = ['claude', 'gemini', 'codex', 'opencode', 'qwen', 'copilot'];
    const on = await api().deploySet({ skills: ['tool', 'other'], agents: each, mode: 'link' });
    // without the generic agent each gets its own folder (OpenCode is served by Claude Code's)
    expect(
      on.steps
        .filter((s) => s.skill === 'tool')
        .map((s) => path.relative(w.userHome, s.path))
        .sort(),
    ).toEqual(['.claude/skills/tool', '.codex/skills/tool', '.copilot/skills/tool', '.gemini/skills/tool', '.qwen/skills/tool'].sort());
    const before = snapshot(w.userHome);
    const off = await api().deploySet({ skills: ['tool'], agents: ['gemini'], mode: null });
    expect(off.steps.map((s) => [s.action, path.relative(w.userHome, s.path)])).toEqual([['remove', '.gemini/skills/tool']]);
    expect(linkAt(u('.gemini', 'skills', 'tool'))).toBeNull();
    expect(linkAt(u('.qwen', 'skills', 'tool'))).toBe(lib('tool'));
    const undo = await api().undo({});
    expect(undo.undone.op).toBe('deploy');
    expect(snapshot(w.userHome)).toEqual(before);
    expect(await cell('tool', 'gemini')).toMatchObject({ wanted: 'link', on: true, state: 'in-sync' });
  });

  it('a copy records its digest; editing it in place is drift (edited) and a conflict, never overwritten', async () => {
    await addSkills('tool');
    await api().deploySet({ skills: ['tool'], agents: ['claude'], mode: 'copy' });
    const p = path.join(claude(), 'tool');
    expect(fs.lstatSync(p).isDirectory()).toBe(true);
    expect(await entry(p)).toMatchObject({ state: 'in-sync', managed: true, mode: 'copy' });
    fs.appendFileSync(path.join(p, 'SKILL.md'), '\nmy edit\n');
    expect(await entry(p)).toMatchObject({ state: 'drifted', reason: 'edited' });
    const rep = await api().deployRepair({});
    expect(rep.steps).toMatchObject([{ action: 'conflict', why: { key: 'deploy.edited-copy' } }]);
    expect(fs.readFileSync(path.join(p, 'SKILL.md'), 'utf8')).toContain('my edit');
    const diff = await api().deployDiff({ path: p });
    expect(diff.files.map((f) => f.file)).toEqual(['SKILL.md']);
    expect(diff.files[0]!.deployed).toContain('my edit');
    // restore the library's version: the edit goes to the trash
    await api().deployRepair({ restore: [p] });
    expect(fs.readFileSync(path.join(p, 'SKILL.md'), 'utf8')).not.toContain('my edit');
    expect(await entry(p)).toMatchObject({ state: 'in-sync' });
    await api().undo({});
    expect(fs.readFileSync(path.join(p, 'SKILL.md'), 'utf8')).toContain('my edit');
  });

  it('keeping an edit makes it the library version', async () => {
    await addSkills('tool');
    await api().deploySet({ skills: ['tool'], agents: ['claude'], mode: 'copy' });
    const p = path.join(claude(), 'tool');
    fs.appendFileSync(path.join(p, 'SKILL.md'), '\nkeep me\n');
    await api().deployAdoptEdit({ path: p });
    expect(fs.readFileSync(path.join(lib('tool'), 'SKILL.md'), 'utf8')).toContain('keep me');
    expect(await entry(p)).toMatchObject({ state: 'in-sync' });
  });
});
