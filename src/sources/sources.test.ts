import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { libraryNames, makeWorld, runWorldCli, snapshot, type World } from '../../test/support/library.js';
import { makeRepo, skillMd, startGitDaemon, startHttpGit, type Served, type TestRepo } from '../../test/support/git-servers.js';
import { SkillDockError } from '../errors.js';

// Add and check against real git servers on loopback (git daemon, git http-backend, file://).

let w: World;
let daemon: Served;
let web: Served;
let locked: Served;
let multi: TestRepo;
let root: string;

beforeAll(async () => {
  w = makeWorld();
  root = path.join(w.root, 'git');
  multi = makeRepo(root, 'multi', {
    'README.md': 'skills',
    'skills/alpha/SKILL.md': skillMd('alpha'),
    'skills/alpha/notes.txt': 'one\ntwo\nthree\n',
    'skills/beta/SKILL.md': skillMd('beta'),
    '.claude/skills/gamma/SKILL.md': skillMd('gamma'),
    'docs/not-a-skill.md': 'no',
  });
  makeRepo(root, 'market', {
    '.claude-plugin/marketplace.json': JSON.stringify({ name: 'm', plugins: [{ name: 'p', source: './plugins/p' }] }),
    'plugins/p/.claude-plugin/plugin.json': JSON.stringify({ name: 'p' }),
    'plugins/p/skills/delta/SKILL.md': skillMd('delta'),
  });
  makeRepo(root, 'empty', { 'README.md': 'nothing here' });
  makeRepo(root, 'escape', { 'skills/sneaky/SKILL.md': skillMd('sneaky') });
  const esc = path.join(root, 'work', 'escape');
  fs.symlinkSync('/etc/passwd', path.join(esc, 'skills', 'sneaky', 'passwd'));
  const { git } = await import('../../test/support/git-servers.js');
  git(esc, 'add', '-A');
  git(esc, 'commit', '-q', '-m', 'link out');
  git(esc, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
  daemon = await startGitDaemon(path.join(root, 'served'));
  web = await startHttpGit(path.join(root, 'served'));
  locked = await startHttpGit(path.join(root, 'served'), { auth: 'u:secret' });
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await web?.stop();
  await locked?.stop();
  await w?.done();
});

const lib = () => path.join(w.home, 'library');
const libNames = () => libraryNames(w);

async function clearLibrary(): Promise<void> {
  for (const n of libNames()) await w.service.api.deleteSkill({ name: n });
}

async function expectRefused(p: Promise<unknown>, key: string, source: string): Promise<void> {
  const before = fs.existsSync(lib()) ? snapshot(lib()) : {};
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SkillDockError);
  expect((err as SkillDockError).msg?.key).toBe(key);
  expect((err as SkillDockError).msg?.params?.source).toBe(source);
  expect(fs.existsSync(lib()) ? snapshot(lib()) : {}).toEqual(before);
  // nothing left in staging
  const st = path.join(w.home, 'staging', 'sources');
  expect(fs.existsSync(st) ? fs.readdirSync(st) : []).toEqual([]);
}

describe('add from a source', () => {
  beforeEach(clearLibrary);

  it('adds every skill of a multi-skill repo over git://, with provenance and a stored base', async () => {
    const url = `${daemon.base}/multi.git`;
    const r = await w.service.api.addFromSource({ source: url });
    expect(r.found.map((f) => f.path)).toEqual(['.claude/skills/gamma', 'skills/alpha', 'skills/beta']);
    expect(r.summary?.results.map((x) => [x.libraryName, x.status])).toEqual([
      ['gamma', 'imported'],
      ['alpha', 'imported'],
      ['beta', 'imported'],
    ]);
    expect(r.summary?.results[1]?.source).toBe(`${url} skills/alpha`);
    expect(libNames()).toEqual(['alpha', 'beta', 'gamma']);
    const prov = (await w.service.api.listProvenance({})).skills;
    const head = fs.readFileSync(path.join(multi.bare, 'refs', 'heads', 'main'), 'utf8').trim();
    expect(prov.alpha).toMatchObject({ source: { given: url, url, kind: 'git', subpath: '' }, commit: head, path: 'skills/alpha' });
    expect(fs.readFileSync(path.join(w.home, 'sources', 'base', prov.alpha!.upstreamDigest, 'notes.txt'), 'utf8')).toBe(
      'one\ntwo\nthree\n',
    );
    // one journal entry: undo takes all three out
    await w.service.api.undo({});
    expect(libNames()).toEqual([]);
  });

  it('adds chosen skills over smart HTTP (git http-backend) and file://, --skill and --ref', async () => {
    const r = await w.service.api.addFromSource({ source: `${web.base}/multi.git`, skills: ['beta'] });
    expect(r.summary?.results.map((x) => x.libraryName)).toEqual(['beta']);
    const r2 = await w.service.api.addFromSource({ source: `file://${multi.bare}`, ref: 'main', skills: ['alpha'] });
    expect(r2.source.ref).toBe('main');
    expect(libNames()).toEqual(['alpha', 'beta']);
    await expectRefused(
      w.service.api.addFromSource({ source: `${web.base}/multi.git`, skills: ['nope'] }),
      'sources.skill-not-in-source',
      `${web.base}/multi.git`,
    );
  });

  it('a local repository path and a path inside it; preview installs nothing', async () => {
    const prev = await w.service.api.addFromSource({ source: multi.work, preview: true });
    expect(prev.summary).toBeUndefined();
    expect(prev.found.find((f) => f.name === 'alpha')).toMatchObject({
      errors: 0,
      path: 'skills/alpha',
      security: { high: 0, medium: 0, low: 0, executable: false },
    });
    expect(libNames()).toEqual([]);
    const r = await w.service.api.addFromSource({ source: `file://${multi.bare}/`, ref: 'main' });
    expect(r.found.length).toBe(3);
  });

  it('finds skills listed by a plugin marketplace', async () => {
    const r = await w.service.api.addFromSource({ source: `${daemon.base}/market.git` });
    expect(r.found.map((f) => [f.path, f.name])).toEqual([['plugins/p/skills/delta', 'delta']]);
    expect(libNames()).toEqual(['delta']);
  });

  it('CLI add prints what it installed and add --list lists only', async () => {
    let c = await runWorldCli(w, 'add', `${daemon.base}/multi.git`, '--list');
    expect(c.code).toBe(0);
    expect(c.out).toMatch(/3 skills found[\s\S]*alpha[\s\S]*skills\/alpha/);
    expect(libNames()).toEqual([]);
    c = await runWorldCli(w, 'add', `${daemon.base}/multi.git`, '--skill', 'alpha', '--json');
    expect(c.code).toBe(0);
    expect(JSON.parse(c.out).summary.results[0]).toMatchObject({ libraryName: 'alpha', status: 'imported' });
    c = await runWorldCli(w, 'add', `${daemon.base}/multi.git`, '--skill', 'alpha');
    expect(c.code).toBe(0);
    expect(c.out).toMatch(/already in library/);
  });

  it('refuses bad sources with a keyed message naming the source, library unchanged', async () => {
    const closed = `git://127.0.0.1:1/multi.git`;
    await expectRefused(w.service.api.addFromSource({ source: closed }), 'sources.unreachable', closed);
    const auth = `${locked.base}/multi.git`;
    await expectRefused(w.service.api.addFromSource({ source: auth }), 'sources.auth', auth);
    const ref = `${daemon.base}/multi.git`;
    await expectRefused(w.service.api.addFromSource({ source: ref, ref: 'no-such-branch' }), 'sources.ref-missing', ref);
    const empty = `${web.base}/empty.git`;
    await expectRefused(w.service.api.addFromSource({ source: empty }), 'sources.no-skills', empty);
    const missingRepo = `file://${root}/served/absent.git`;
    await expectRefused(w.service.api.addFromSource({ source: missingRepo }), 'sources.not-repo', missingRepo);
    await expectRefused(
      w.service.api.addFromSource({ source: `${daemon.base}/multi.git/docs` }),
      'sources.not-repo',
      `${daemon.base}/multi.git/docs`,
    );
  });

  // Issue 23 item 11: a plain folder got only git's last line ("make sure you have the correct
  // access rights"). It is named as a folder, with the import to use instead.
  it('refuses a plain folder as a source, saying it is a folder and naming the import', async () => {
    const plain = path.join(root, 'plain-folder');
    fs.mkdirSync(path.join(plain, 'tidy'), { recursive: true });
    fs.writeFileSync(path.join(plain, 'tidy', 'SKILL.md'), '---\nname: tidy\ndescription: Tidies. Use when asked.\n---\n\nTidy.\n');
    for (const given of [plain, `file://${plain}`]) {
      const r = await w.service.call('addFromSource', { source: given, preview: true });
      expect(r).toMatchObject({
        ok: false,
        error: { code: 'bad-request', msg: { key: 'sources.local-folder', params: { source: given, path: plain } } },
      });
      if (!r.ok) expect(r.error.message).toContain(`(skilldock import ${plain})`);
    }
    expect(libNames()).toEqual([]);
  });

  it('a skill whose link points outside the checkout is refused; nothing is installed', async () => {
    const r = await w.service.api.addFromSource({ source: `${daemon.base}/escape.git` });
    expect(r.summary?.results[0]).toMatchObject({ status: 'refused' });
    expect(r.summary?.results[0]?.message).toMatch(/passwd/);
    expect(libNames()).toEqual([]);
    expect((await w.service.api.listProvenance({})).skills.sneaky).toBeUndefined();
  });
});

describe('check', () => {
  let repo: TestRepo;
  beforeEach(async () => {
    await clearLibrary();
  });

  it('up to date, update available with files, changed locally, removed, moved, unreachable; exit 1 on updates', async () => {
    repo = makeRepo(root, `up${Date.now()}`, {
      'skills/one/SKILL.md': skillMd('one'),
      'skills/one/a.txt': 'a\n',
      'skills/two/SKILL.md': skillMd('two'),
      'skills/three/SKILL.md': skillMd('three'),
      'skills/four/SKILL.md': skillMd('four'),
    });
    const url = `${web.base}/${repo.name}.git`;
    await w.service.api.addFromSource({ source: url });
    let c = await w.service.api.checkSources({});
    expect(c.results.map((x) => [x.skill, x.status])).toEqual([
      ['four', 'up-to-date'],
      ['one', 'up-to-date'],
      ['three', 'up-to-date'],
      ['two', 'up-to-date'],
    ]);
    expect(c.updates).toBe(0);
    fs.appendFileSync(path.join(lib(), 'two', 'SKILL.md'), '\nmy note\n');
    const to = repo.commit({
      'skills/one/a.txt': 'A\n',
      'skills/one/b.txt': 'b\n',
      'skills/three': null,
      'skills/four': null,
      'skills/renamed-four/SKILL.md': skillMd('four'),
    });
    c = await w.service.api.checkSources({});
    const by = Object.fromEntries(c.results.map((x) => [x.skill, x]));
    expect(by.one).toMatchObject({ status: 'update-available', toCommit: to, added: ['b.txt'], changed: ['a.txt'], removed: [] });
    expect(by.one!.msg.params).toMatchObject({ skill: 'one', source: url, added: 1, changed: 1, removed: 0 });
    expect(by.two).toMatchObject({ status: 'changed-locally', localChanges: true });
    expect(by.three).toMatchObject({ status: 'upstream-removed', msg: { key: 'sources.check.removed' } });
    expect(by.four).toMatchObject({
      status: 'upstream-removed',
      msg: { key: 'sources.check.moved', params: { to: 'skills/renamed-four' } },
    });
    expect(c.updates).toBe(1);
    const cli = await runWorldCli(w, 'check', 'one');
    expect(cli.code).toBe(1);
    expect(cli.out).toMatch(
      /UPDATE\s+one: update available from .* \(\w{7} → \w{7}: 1 added, 1 changed, 0 removed\)[\s\S]*\+ b\.txt[\s\S]*~ a\.txt/,
    );
    expect((await runWorldCli(w, 'check', 'two')).code).toBe(0);
  });

  it('a force-pushed upstream is an update against the stored base; an unreachable source names each skill', async () => {
    repo = makeRepo(root, `fp${Date.now()}`, { 'skills/five/SKILL.md': skillMd('five') });
    const server = await startGitDaemon(path.join(root, 'served'));
    const url = `${server.base}/${repo.name}.git`;
    await w.service.api.addFromSource({ source: url });
    repo.rewrite({ 'skills/five/SKILL.md': skillMd('five', 'Rewritten history.') });
    let c = await w.service.api.checkSources({ names: ['five'] });
    expect(c.results[0]).toMatchObject({ status: 'update-available', changed: ['SKILL.md'] });
    await server.stop();
    c = await w.service.api.checkSources({ names: ['five'] });
    expect(c.results[0]).toMatchObject({ skill: 'five', source: url, status: 'unreachable' });
    expect(c.results[0]!.message).toMatch(/five: could not check git:\/\/127\.0\.0\.1/);
    await expect(w.service.api.checkSources({ names: ['not-from-source'] })).rejects.toMatchObject({
      msg: { key: 'sources.no-provenance' },
    });
  });
});
