import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, type World } from '../../test/support/library.js';
import { git, makeRepo, skillMd, startGitDaemon, type Served, type TestRepo } from '../../test/support/git-servers.js';
import { logGitCommands } from '../../test/support/git-log.js';
import { diffListings, parseRawDiff } from './git-index.js';

// How a git catalog's refresh talks to git, against a real git daemon on loopback: the fetch goes
// into a ref of the mirror, so the server sends only what changed; the diff comes from the tree
// listing kept at the last refresh, not from another git process. The git processes are seen
// through SKILLDOCK_GIT: a shell script that logs its arguments and runs the real git.

let w: World;
let daemon: Served;
let repo: TestRepo;
let gitLog: ReturnType<typeof logGitCommands>;
const commands = () => gitLog.commands();

const api = () => w.service.api;
const mirror = () => path.join(w.home, 'catalogs', 'col', 'repo');

/** Objects in the pack files of the mirror that are not in `before`. */
function newPackObjects(before: Set<string>): number {
  const dir = path.join(mirror(), '.git', 'objects', 'pack');
  let n = 0;
  for (const f of fs.readdirSync(dir)) {
    if (!f.endsWith('.idx') || before.has(f)) continue;
    n += execFileSync('git', ['show-index'], { input: fs.readFileSync(path.join(dir, f)) })
      .toString()
      .split('\n')
      .filter(Boolean).length;
  }
  return n;
}
const packs = () => new Set(fs.readdirSync(path.join(mirror(), '.git', 'objects', 'pack')));

async function refresh() {
  const [r] = (await api().refreshCatalogs({ ids: ['col'], force: true })).results;
  return r!;
}

beforeAll(async () => {
  w = makeWorld();
  const root = path.join(w.root, 'git');
  const files: Record<string, string> = { 'README.md': 'many skills' };
  for (let i = 0; i < 40; i++) files[`skills/s${i}/SKILL.md`] = skillMd(`s${i}`, `Skill number ${i}.`);
  repo = makeRepo(root, 'col', files);
  daemon = await startGitDaemon(path.join(root, 'served'));
  gitLog = logGitCommands(w.root);
  for (const c of (await api().listCatalogs({})).catalogs) await api().setCatalogEnabled({ id: c.id, enabled: false });
  await api().addCatalog({ url: `${daemon.base}/col.git`, id: 'col' });
}, 60_000);

afterAll(async () => {
  gitLog?.restore();
  await daemon?.stop();
  await w?.done();
});

describe('git catalog refresh', () => {
  it('fetches only what changed, and diffs the kept listing instead of asking diff-tree', async () => {
    expect(await refresh()).toMatchObject({ status: 'refreshed', skills: 40, added: 40 });
    commands();
    const before = packs();
    const commit = repo.commit({ 'skills/s7/SKILL.md': skillMd('s7', 'Now about gantt charts.') });
    expect(await refresh()).toMatchObject({ status: 'refreshed', skills: 40, changed: 1, added: 0, removed: 0 });
    expect(commands()).toEqual(['fetch', 'ls-tree', 'checkout']);
    // One commit, its tree, the skills folder's tree, s7's tree and its SKILL.md: not the 40 others.
    expect(newPackObjects(before)).toBeLessThan(10);
    expect(git(mirror(), 'rev-parse', 'refs/skilldock/fetched').trim()).toBe(commit);
    expect((await api().searchSkills({ query: 'gantt' })).results.map((r) => r.name)).toEqual(['s7']);
  }, 60_000);

  it('without the kept listing (or with one of another commit) the diff comes from diff-tree, as right', async () => {
    const listing = path.join(mirror(), '.git', 'skilldock-listing');
    fs.rmSync(listing);
    repo.commit({ 'skills/s8/SKILL.md': null, 'skills/s41/SKILL.md': skillMd('s41', 'A new one.') });
    expect(await refresh()).toMatchObject({ status: 'refreshed', skills: 40, added: 1, removed: 1 });
    expect(commands()).toContain('diff-tree');
    fs.writeFileSync(listing, `${'0'.repeat(40)}\n`);
    repo.commit({ 'skills/s9/SKILL.md': skillMd('s9', 'Changed.') });
    expect(await refresh()).toMatchObject({ status: 'refreshed', skills: 40, changed: 1, added: 0, removed: 0 });
    expect(commands()).toContain('diff-tree');
  }, 60_000);
});

describe('the diff of two tree listings', () => {
  it('is what diff-tree says: added, removed, changed, a link made, a mode changed', () => {
    const work = path.join(w.root, 'listing');
    fs.mkdirSync(work);
    const g = (...a: string[]) => git(work, ...a);
    g('init', '-q');
    fs.mkdirSync(path.join(work, 'a'));
    fs.writeFileSync(path.join(work, 'a', 'SKILL.md'), 'one');
    fs.writeFileSync(path.join(work, 'a', 'run.sh'), 'echo');
    fs.writeFileSync(path.join(work, 'gone.md'), 'x');
    fs.writeFileSync(path.join(work, 'was-file'), 'x');
    g('add', '-A');
    g('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', '1');
    const one = g('rev-parse', 'HEAD').trim();
    fs.writeFileSync(path.join(work, 'a', 'SKILL.md'), 'two');
    fs.chmodSync(path.join(work, 'a', 'run.sh'), 0o755);
    fs.rmSync(path.join(work, 'gone.md'));
    fs.rmSync(path.join(work, 'was-file'));
    fs.symlinkSync('a', path.join(work, 'was-file'));
    fs.mkdirSync(path.join(work, 'b'));
    fs.writeFileSync(path.join(work, 'b', 'SKILL.md'), 'new');
    g('add', '-A');
    g('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', '2');
    const two = g('rev-parse', 'HEAD').trim();
    const list = (c: string) => g('ls-tree', '-r', '-l', '-z', '--full-tree', c);
    const ours = diffListings(list(one), list(two));
    const theirs = parseRawDiff(g('diff-tree', '-r', '--raw', '--no-renames', '-z', one, two));
    const key = (c: { path: string; status: string; oldMode: string; newMode: string }) =>
      `${c.path} ${c.status} ${c.oldMode} ${c.newMode}`;
    expect(ours.map(key).sort()).toEqual(theirs.map(key).sort());
    expect(ours.length).toBe(5);
  });
});
