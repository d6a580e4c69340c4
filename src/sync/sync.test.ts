import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryNames, makeWorld, runWorldCli, writeSkill, type World } from '../../test/support/library.js';
import { git } from '../../test/support/git-servers.js';
import { getSync } from './service.js';

// Two and three SkillDock homes on one machine syncing through a real bare repository (file://):
// restore on an empty home, edits both ways, merges, conflicts settled each way, delete against
// edit, assistants merged per field, approvals that never widen trust, state never sent.

const worlds: World[] = [];
let root: string;
let n = 0;

beforeAll(() => {
  root = makeWorld().root; // a scratch folder; its own service is closed with the others
});

afterAll(async () => {
  for (const w of worlds) await w.done();
  fs.rmSync(root, { recursive: true, force: true });
});

function bare(): string {
  const dir = path.join(root, `remote-${++n}.git`);
  git(root, 'init', '-q', '--bare', dir);
  git(dir, 'symbolic-ref', 'HEAD', 'refs/heads/main');
  return `file://${dir}`;
}

function home(): World {
  const w = makeWorld();
  worlds.push(w);
  return w;
}

const lib = (w: World, ...p: string[]) => path.join(w.home, 'library', ...p);
const read = (w: World, ...p: string[]) => fs.readFileSync(lib(w, ...p), 'utf8');
const sync = (w: World) => getSync(w.service.ctx).sync();
const NOTES = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';

async function addSkill(w: World, name: string, extra: Record<string, string> = { 'notes.txt': NOTES }): Promise<void> {
  const dir = writeSkill(path.join(w.src, name), name, extra);
  const r = await w.service.api.importPaths({ paths: [dir] });
  expect(r.results[0]!.status).toBe('imported');
}

/** A and B set up on one new remote, A first with `skills`. */
async function pair(skills: string[] = ['alpha']): Promise<{ a: World; b: World; url: string }> {
  const url = bare();
  const a = home();
  for (const s of skills) await addSkill(a, s);
  expect((await getSync(a.service.ctx).setup(url)).status).toBe('pushed');
  const b = home();
  await getSync(b.service.ctx).setup(url);
  return { a, b, url };
}

describe('sync through a file:// remote', () => {
  it('a second machine restores skills, provenance-free files, assistants and settings; the layout is readable', async () => {
    const url = bare();
    const a = home();
    await addSkill(a, 'alpha', { 'notes.txt': NOTES, 'scripts/run.sh': '#!/bin/sh\necho hi\n' });
    fs.chmodSync(lib(a, 'alpha', 'scripts', 'run.sh'), 0o755);
    await addSkill(a, 'beta');
    await a.service.api.createAssistant({ name: 'Reviewer', agent: 'claude', rules: 'Be kind.', skills: [{ name: 'beta' }] });
    await a.service.api.updateSettings({ theme: 'dark' });
    // state and ignored files never leave the machine
    fs.mkdirSync(path.join(a.home, 'skills-state', 'alpha'), { recursive: true });
    fs.writeFileSync(path.join(a.home, 'skills-state', 'alpha', 'token'), 'secret');
    fs.writeFileSync(lib(a, 'alpha', 'out.log'), 'local log');
    fs.writeFileSync(lib(a, 'alpha', '.skilldockignore'), '*.log\n');
    const r = await getSync(a.service.ctx).setup(url);
    expect(r.status).toBe('pushed');
    expect(r.message).toMatch(/added .*skill alpha.*skill beta/);
    const files = git(root, '--git-dir', url.slice(7), 'ls-tree', '-r', '--name-only', 'main').split('\n');
    expect(files).toEqual(
      expect.arrayContaining(['SKILLDOCK-SYNC.json', 'skills/alpha/SKILL.md', 'skills/alpha/scripts/run.sh', 'settings.json']),
    );
    expect(files.some((f) => f.startsWith('assistants/ast-'))).toBe(true);
    expect(files.filter((f) => /token|out\.log|skills-state|\.skilldockignore/.test(f))).toEqual([]);

    const b = home();
    const rb = await getSync(b.service.ctx).setup(url);
    expect(rb.status).toBe('merged');
    expect(libraryNames(b)).toEqual(['alpha', 'beta']);
    expect(read(b, 'alpha', 'notes.txt')).toBe(NOTES);
    expect(fs.statSync(lib(b, 'alpha', 'scripts', 'run.sh')).mode & 0o111).not.toBe(0);
    const asts = await b.service.api.listAssistants({});
    expect(asts.find((x) => x.name === 'Reviewer')?.skills.map((s) => s.name)).toEqual(['beta']);
    expect((await b.service.api.getSettings({})).theme).toBe('dark');
    expect(fs.existsSync(path.join(b.home, 'skills-state', 'alpha'))).toBe(false);
    // nothing more to do on either side
    expect((await sync(b)).status).toBe('up-to-date');
    expect((await sync(a)).status).toBe('up-to-date');
  }, 120_000);

  it('edits on A appear on B; non-overlapping edits to one file on both merge; adds on both sides are kept', async () => {
    const { a, b } = await pair();
    fs.writeFileSync(lib(a, 'alpha', 'notes.txt'), NOTES.replace('two', 'two (A)'));
    await addSkill(a, 'from-a');
    expect((await sync(a)).status).toBe('pushed');
    fs.writeFileSync(lib(b, 'alpha', 'notes.txt'), NOTES.replace('six', 'six (B)'));
    await addSkill(b, 'from-b');
    const rb = await sync(b);
    expect(rb.status).toBe('merged');
    expect(read(b, 'alpha', 'notes.txt')).toBe(NOTES.replace('two', 'two (A)').replace('six', 'six (B)'));
    expect(libraryNames(b)).toEqual(['alpha', 'from-a', 'from-b']);
    expect((await sync(a)).status).toBe('merged');
    expect(libraryNames(a)).toEqual(['alpha', 'from-a', 'from-b']);
    expect(read(a, 'alpha', 'notes.txt')).toBe(read(b, 'alpha', 'notes.txt'));
  }, 120_000);

  it('overlapping edits conflict (nothing changed, nothing pushed) and settle either way', async () => {
    const { a, b, url } = await pair();
    fs.writeFileSync(lib(a, 'alpha', 'notes.txt'), NOTES.replace('four', 'four (A)'));
    await sync(a);
    const remoteBefore = git(root, '--git-dir', url.slice(7), 'rev-parse', 'main');
    fs.writeFileSync(lib(b, 'alpha', 'notes.txt'), NOTES.replace('four', 'four (B)'));
    const r = await sync(b);
    expect(r.status).toBe('conflicts');
    expect(r.conflicts).toEqual([expect.objectContaining({ unit: 'skill:alpha', path: 'skills/alpha/notes.txt', kind: 'text' })]);
    expect(r.conflicts[0]!.text).toContain('<<<<<<<');
    expect(read(b, 'alpha', 'notes.txt')).toContain('four (B)');
    expect(git(root, '--git-dir', url.slice(7), 'rev-parse', 'main')).toBe(remoteBefore);
    const status = await getSync(b.service.ctx).status();
    expect(status.conflicts.map((c) => c.unit)).toEqual(['skill:alpha']);
    // the CLI settles: B takes A's version
    expect((await runWorldCli(b, 'sync', 'resolve', 'skill:alpha', '--take', 'theirs')).code).toBe(0);
    expect((await sync(b)).status).toBe('merged');
    expect(read(b, 'alpha', 'notes.txt')).toContain('four (A)');
    // and the other way: A edits again, B keeps its own
    fs.writeFileSync(lib(a, 'alpha', 'notes.txt'), NOTES.replace('four', 'four (A2)'));
    await sync(a);
    fs.writeFileSync(lib(b, 'alpha', 'notes.txt'), NOTES.replace('four', 'four (B2)'));
    expect((await sync(b)).status).toBe('conflicts');
    getSync(b.service.ctx).resolve('skill:alpha', 'mine');
    expect((await sync(b)).status).toBe('merged');
    expect((await sync(a)).status).toBe('merged');
    expect(read(a, 'alpha', 'notes.txt')).toContain('four (B2)');
  }, 120_000);

  it('a skill deleted on one side and changed on the other is a conflict, never a silent delete', async () => {
    const { a, b } = await pair(['alpha', 'gamma']);
    await a.service.api.deleteSkill({ name: 'gamma' });
    expect((await sync(a)).message).toMatch(/removed skill gamma/);
    fs.writeFileSync(lib(b, 'gamma', 'notes.txt'), 'changed on B\n');
    const r = await sync(b);
    expect(r.status).toBe('conflicts');
    expect(r.conflicts).toEqual([expect.objectContaining({ unit: 'skill:gamma', kind: 'delete-change' })]);
    expect(read(b, 'gamma', 'notes.txt')).toBe('changed on B\n');
    getSync(b.service.ctx).resolve('skill:gamma', 'mine');
    expect((await sync(b)).status).toBe('merged');
    expect((await sync(a)).status).toBe('merged');
    expect(read(a, 'gamma', 'notes.txt')).toBe('changed on B\n');
    // a delete of an unchanged skill on the other side goes through (to the trash there)
    await b.service.api.deleteSkill({ name: 'alpha' });
    await sync(b);
    expect((await sync(a)).applied?.removed).toEqual(['alpha']);
    expect(libraryNames(a)).toEqual(['gamma']);
    expect((await a.service.api.listTrash({})).items.some((t) => t.name === 'alpha')).toBe(true);
  }, 120_000);

  it('an assistant changed on both sides keeps both attached skills; a real field conflict is shown', async () => {
    const { a, b } = await pair(['alpha', 'beta', 'gamma']);
    await a.service.api.createAssistant({ name: 'Helper', agent: 'claude', skills: [{ name: 'alpha' }] });
    await sync(a);
    await sync(b);
    await a.service.api.attachSkills({ assistant: 'Helper', skills: [{ name: 'beta' }] });
    await b.service.api.attachSkills({ assistant: 'Helper', skills: [{ name: 'gamma' }] });
    await sync(a);
    expect((await sync(b)).status).toBe('merged');
    const h = (await b.service.api.listAssistants({})).find((x) => x.name === 'Helper')!;
    expect(h.skills.map((s) => s.name).sort()).toEqual(['alpha', 'beta', 'gamma']);
    await a.service.api.updateAssistant({ assistant: 'Helper', rules: 'A rules' });
    await b.service.api.updateAssistant({ assistant: 'Helper', rules: 'B rules' });
    await sync(a);
    const r = await sync(b);
    expect(r.status).toBe('conflicts');
    expect(r.conflicts[0]).toMatchObject({ kind: 'field', path: expect.stringMatching(/#rules$/) });
  }, 120_000);

  it('approvals never widen trust: taken only for identical scripts', async () => {
    const script = { 'notes.txt': NOTES, 'scripts/run.sh': '#!/bin/sh\necho same\n' };
    const url = bare();
    const a = home();
    await addSkill(a, 'tool', script);
    await addSkill(a, 'other', { 'scripts/run.sh': '#!/bin/sh\necho A\n' });
    await getSync(a.service.ctx).setup(url);
    const b = home();
    await getSync(b.service.ctx).setup(url);
    // B changes other's script before A's approval arrives
    fs.writeFileSync(lib(b, 'other', 'scripts', 'run.sh'), '#!/bin/sh\necho B\n');
    await a.service.api.approveSkill({ dir: lib(a, 'tool') });
    await a.service.api.approveSkill({ dir: lib(a, 'other') });
    await sync(a);
    const r = await sync(b);
    expect(r.status).toBe('merged');
    // "other" merged to B's script (only B changed it): A's approval of A's script is not taken
    expect(r.applied?.approvals).toEqual(['tool']);
    expect(r.applied?.notApplied).toEqual(['other']);
    const approved = (await b.service.api.listApprovals({})).map((x) => x.name);
    expect(approved).toEqual(['tool']);
    expect((await b.service.api.getSkillTrust({ dir: lib(b, 'other') })).status).not.toBe('approved');
  }, 120_000);
});
