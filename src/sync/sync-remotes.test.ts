import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryNames, makeWorld, snapshot, writeSkill, type World } from '../../test/support/library.js';
import { git, startGitDaemon, startHttpGit, type Served } from '../../test/support/git-servers.js';
import { SkillDockError } from '../errors.js';
import { getSync } from './service.js';

// Sync through real servers on 127.0.0.1 (git daemon with push, git http-backend with basic auth
// answered by a credential helper) and the bad input a remote can bring: unreachable, access
// denied, someone else's repository, a hostile tree, a rewritten history, two machines at once.

const worlds: World[] = [];
let root: string;
let served: string;
let daemon: Served;
let web: Served;
let n = 0;
const AUTH = 'syncer:s3cret';

beforeAll(async () => {
  root = makeWorld().root;
  served = path.join(root, 'served');
  fs.mkdirSync(served, { recursive: true });
  daemon = await startGitDaemon(served, { push: true });
  web = await startHttpGit(served, { auth: AUTH });
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await web?.stop();
  for (const w of worlds) await w.done();
  fs.rmSync(root, { recursive: true, force: true });
});

/** A new empty bare repository under the served folder; its name. */
function bare(): string {
  const name = `r${++n}.git`;
  git(served, 'init', '-q', '--bare', name);
  git(path.join(served, name), 'symbolic-ref', 'HEAD', 'refs/heads/main');
  return name;
}

function home(): World {
  const w = makeWorld();
  worlds.push(w);
  return w;
}

async function addSkill(w: World, name: string, notes = 'one\ntwo\n'): Promise<void> {
  const r = await w.service.api.importPaths({ paths: [writeSkill(path.join(w.src, name), name, { 'notes.txt': notes })] });
  expect(r.results[0]!.status).toBe('imported');
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(SkillDockError);
    return (err as SkillDockError).msg?.key ?? '';
  }
  throw new Error('expected a refusal');
}

/** Write a commit straight into a served repository (any tree, even one git itself would not make). */
function plant(repo: string, entries: Array<{ mode: string; name: string; text: string }>, parent?: string): string {
  const dir = path.join(served, repo);
  const mk = (list: typeof entries, prefix: string): string => {
    const here = new Map<string, typeof entries>();
    const lines: string[] = [];
    for (const e of list) {
      const rel = e.name.slice(prefix.length);
      const slash = rel.indexOf('/');
      if (slash < 0) {
        const oid = execIn(dir, ['hash-object', '-w', '--stdin'], e.text);
        lines.push(`${e.mode} blob ${oid}\t${rel}`);
      } else {
        const sub = rel.slice(0, slash);
        here.set(sub, [...(here.get(sub) ?? []), e]);
      }
    }
    for (const [sub, list2] of here) lines.push(`040000 tree ${mk(list2, `${prefix}${sub}/`)}\t${sub}`);
    return execIn(dir, ['mktree'], lines.join('\n') + '\n');
  };
  const tree = mk(entries, '');
  const commit = execIn(
    dir,
    ['-c', 'user.name=x', '-c', 'user.email=x@x', 'commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', 'planted'],
    '',
  );
  git(dir, 'update-ref', 'refs/heads/main', commit);
  return commit;
}

function execIn(cwd: string, args: string[], input: string): string {
  return execFileSync('git', args, { cwd, input, encoding: 'utf8' }).trim();
}

const MARK = { mode: '100644', name: 'SKILLDOCK-SYNC.json', text: '{"format":"skilldock-sync","version":1}\n' };

describe('sync through real servers on loopback', () => {
  it('git daemon: A pushes, B restores, B edits, A takes it', async () => {
    const url = `${daemon.base}/${bare()}`;
    const a = home();
    await addSkill(a, 'alpha');
    expect((await getSync(a.service.ctx).setup(url)).status).toBe('pushed');
    const b = home();
    await getSync(b.service.ctx).setup(url);
    expect(libraryNames(b)).toEqual(['alpha']);
    fs.writeFileSync(path.join(b.home, 'library', 'alpha', 'notes.txt'), 'one\ntwo (B)\n');
    expect((await getSync(b.service.ctx).sync()).status).toBe('pushed');
    expect((await getSync(a.service.ctx).sync()).status).toBe('merged');
    expect(fs.readFileSync(path.join(a.home, 'library', 'alpha', 'notes.txt'), 'utf8')).toBe('one\ntwo (B)\n');
  }, 120_000);

  it('http-backend with basic auth: the credential helper answers; without it access is denied and nothing is set up', async () => {
    const url = `${web.base}/${bare()}`;
    const a = home();
    await addSkill(a, 'alpha');
    expect(await refusal(getSync(a.service.ctx).setup(url))).toBe('sources.auth');
    expect(fs.existsSync(path.join(a.home, 'sync'))).toBe(false);
    const cfg = path.join(root, 'gitconfig-auth');
    const [user, pass] = AUTH.split(':');
    fs.writeFileSync(cfg, `[credential]\n\thelper = "!f() { echo username=${user}; echo password=${pass}; }; f"\n`);
    const was = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = cfg;
    try {
      expect((await getSync(a.service.ctx).setup(url)).status).toBe('pushed');
      const b = home();
      await getSync(b.service.ctx).setup(url);
      expect(libraryNames(b)).toEqual(['alpha']);
    } finally {
      if (was === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = was;
    }
  }, 120_000);

  it('an unreachable remote is a clear refusal and sets nothing up', async () => {
    const a = home();
    await addSkill(a, 'alpha');
    const closed = `git://127.0.0.1:9/${bare()}`; // discard port: nothing listens
    expect(await refusal(getSync(a.service.ctx).setup(closed))).toBe('sources.unreachable');
    expect(fs.existsSync(path.join(a.home, 'sync'))).toBe(false);
    expect(await refusal(getSync(a.service.ctx).sync())).toBe('sync.not-set-up');
  }, 60_000);

  it("someone else's repository is refused, and so is a SkillDock one with another branch history", async () => {
    const other = bare();
    plant(other, [{ mode: '100644', name: 'README.md', text: 'my project\n' }]);
    const a = home();
    await addSkill(a, 'alpha');
    const before = snapshot(path.join(a.home, 'library'));
    expect(await refusal(getSync(a.service.ctx).setup(`${daemon.base}/${other}`))).toBe('sync.not-skilldock');
    expect(snapshot(path.join(a.home, 'library'))).toEqual(before);
    // a repository whose only branch is not `main` is someone else's too
    const master = bare();
    git(path.join(served, master), 'update-ref', 'refs/heads/master', plant(master, [MARK]));
    git(path.join(served, master), 'update-ref', '-d', 'refs/heads/main');
    expect(await refusal(getSync(a.service.ctx).setup(`${daemon.base}/${master}`))).toBe('sync.not-skilldock');
    // a rewritten history: refused, nothing pushed; --adopt merges both as they are
    const url = `${daemon.base}/${bare()}`;
    await getSync(a.service.ctx).setup(url);
    const repo = url.split('/').pop()!;
    const rewritten = plant(repo, [
      MARK,
      { mode: '100644', name: 'skills/beta/SKILL.md', text: '---\nname: beta\ndescription: Does beta.\n---\n' },
    ]);
    fs.writeFileSync(path.join(a.home, 'library', 'alpha', 'notes.txt'), 'changed\n');
    expect(await refusal(getSync(a.service.ctx).sync())).toBe('sync.unrelated');
    expect(git(path.join(served, repo), 'rev-parse', 'main')).toBe(rewritten);
    const r = await getSync(a.service.ctx).sync({ adopt: true });
    expect(r.status).toBe('merged');
    expect(libraryNames(a)).toEqual(['alpha', 'beta']);
    expect(fs.readFileSync(path.join(a.home, 'library', 'alpha', 'notes.txt'), 'utf8')).toBe('changed\n');
  }, 120_000);

  it('a hostile tree is refused whole before anything of it is written', async () => {
    const ok = { mode: '100644', name: 'skills/fine/SKILL.md', text: '---\nname: fine\ndescription: Fine.\n---\n' };
    const cases: Array<[string, { mode: string; name: string; text: string }]> = [
      ['link', { mode: '120000', name: 'skills/evil/SKILL.md', text: '/etc/passwd' }],
      ['path', { mode: '100644', name: 'skills/../x', text: 'x' }],
      ['path', { mode: '100644', name: 'skills/evil/.git/config', text: '[core]\n\tfsmonitor = touch /tmp/pwned\n' }],
      ['path', { mode: '100644', name: 'skills/../../x/SKILL.md', text: 'x' }],
      ['layout', { mode: '100644', name: 'elsewhere.sh', text: 'rm -rf ~\n' }],
      ['size', { mode: '100644', name: 'skills/big/blob.bin', text: 'x'.repeat(10 * 1024 * 1024 + 1) }],
    ];
    for (const [reason, bad] of cases) {
      const name = bare();
      plant(name, [MARK, ok, bad]);
      const a = home();
      await addSkill(a, 'alpha');
      const before = snapshot(a.home, (rel) => rel.startsWith('sync') || rel.startsWith('staging'));
      let msg: unknown;
      try {
        await getSync(a.service.ctx).setup(`file://${path.join(served, name)}`);
      } catch (err) {
        msg = (err as SkillDockError).msg;
      }
      expect(msg, bad.name).toMatchObject({ key: 'sync.hostile', params: { reason } });
      expect(snapshot(a.home, (rel) => rel.startsWith('sync') || rel.startsWith('staging'))).toEqual(before);
      expect(libraryNames(a)).toEqual(['alpha']);
    }
  }, 180_000);

  it('two machines syncing at once both land; one machine syncing twice at once waits its turn', async () => {
    const url = `${daemon.base}/${bare()}`;
    const a = home();
    await addSkill(a, 'alpha');
    await getSync(a.service.ctx).setup(url);
    const b = home();
    await getSync(b.service.ctx).setup(url);
    const c = home();
    await getSync(c.service.ctx).setup(url);
    await addSkill(a, 'from-a');
    await addSkill(b, 'from-b');
    await addSkill(c, 'from-c');
    const rs = await Promise.all([a, b, c].map((w) => getSync(w.service.ctx).sync()));
    expect(rs.map((r) => r.status).sort()).toEqual(expect.arrayContaining(['pushed']));
    for (const w of [a, b, c]) await getSync(w.service.ctx).sync();
    for (const w of [a, b, c]) expect(libraryNames(w)).toEqual(['alpha', 'from-a', 'from-b', 'from-c']);
    // the same home twice at once: the lock makes them take turns, the second finds nothing to do
    fs.writeFileSync(path.join(a.home, 'library', 'alpha', 'notes.txt'), 'again\n');
    const twice = await Promise.all([getSync(a.service.ctx).sync(), getSync(a.service.ctx).sync()]);
    expect(twice.map((r) => r.status).sort()).toEqual(['pushed', 'up-to-date']);
  }, 180_000);
});
