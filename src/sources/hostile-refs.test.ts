import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { libraryNames, makeWorld, runWorldCli, snapshot, type World } from '../../test/support/library.js';
import { makeRepo, skillMd, startGitDaemon, startHttpGit, type Served } from '../../test/support/git-servers.js';
import { SkillDockError } from '../errors.js';
import { parseSource } from './parse.js';
import { GitError, lsRemote, shallowCheckout } from './git.js';

// A ref that begins with `-` is an option to git (`--upload-pack=<program>` runs a program,
// `--negotiate-only` changes what fetch does). Every way a ref can arrive is refused before git
// runs, and git itself gets every URL and ref after `--end-of-options`. `--negotiate-only` and
// `-main` pass the character check: only the leading-dash rule refuses them.

const DASHED = ['--negotiate-only', '-main'];

let w: World;
let web: Served;
let daemon: Served;
let root: string;
/** Marker a smuggled `--upload-pack` would create. */
let marker: string;

beforeAll(async () => {
  w = makeWorld();
  root = path.join(w.root, 'git');
  makeRepo(root, 'good', { 'skills/vs/SKILL.md': skillMd('vs'), 'skills/vs/notes.txt': 'one\n' });
  marker = path.join(w.root, 'ran');
  web = await startHttpGit(path.join(root, 'served'));
  daemon = await startGitDaemon(path.join(root, 'served'));
}, 60_000);

afterAll(async () => {
  await web?.stop();
  await daemon?.stop();
  await w?.done();
});

afterEach(() => {
  expect(fs.existsSync(marker), 'a program named in a ref ran').toBe(false);
});

function refusedRef(fn: () => unknown, ref: string): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, `ref ${ref}`).toBeInstanceOf(SkillDockError);
  expect((err as SkillDockError).msg).toMatchObject({ key: 'sources.bad-ref', params: { ref } });
}

describe('a ref that begins with "-" is refused wherever it comes from', () => {
  it('--ref, and tree URLs of GitHub, GitLab and any host (also percent-encoded)', () => {
    for (const ref of DASHED) {
      refusedRef(() => parseSource('acme/skills', { ref }), ref);
      refusedRef(() => parseSource(`https://github.com/acme/skills/tree/${ref}/skills`), ref);
      refusedRef(() => parseSource(`https://gitlab.com/group/sub/repo/-/tree/${ref}/skills`), ref);
      refusedRef(() => parseSource(`http://127.0.0.1:9/git/good.git/-/tree/${ref}/skills`), ref);
      refusedRef(() => parseSource(`https://github.com/acme/skills/blob/${encodeURIComponent(ref).replace(/-/g, '%2D')}/SKILL.md`), ref);
    }
    // A plain ref in a tree URL still reads.
    expect(parseSource('http://127.0.0.1:9/git/good.git/-/tree/main/skills')).toMatchObject({ ref: 'main', subpath: 'skills' });
  });

  it('shorthand with #ref or @ref is not a form SkillDock reads: refused, never taken as a ref', () => {
    for (const given of ['acme/skills#--negotiate-only', 'acme/skills@--negotiate-only', 'acme/skills#-main']) {
      let err: unknown;
      try {
        parseSource(given);
      } catch (e) {
        err = e;
      }
      expect((err as SkillDockError).msg?.key, given).toBe('sources.bad-source');
    }
  });

  it('`add <tree URL with --negotiate-only> --list` over HTTP: refused before git runs, the library untouched', async () => {
    const before = snapshot(w.home);
    for (const ref of [...DASHED, `--upload-pack=touch ${marker}`]) {
      const url = `${web.base}/good.git/-/tree/${encodeURIComponent(ref)}/skills`;
      const r = await runWorldCli(w, 'add', url, '--list');
      expect(r.code, r.out + r.err).not.toBe(0);
      expect(r.err).toMatch(/is not a valid branch, tag or commit name/);
    }
    expect(snapshot(w.home)).toEqual(before);
    expect(fs.existsSync(path.join(w.home, 'staging', 'sources')) ? fs.readdirSync(path.join(w.home, 'staging', 'sources')) : []).toEqual(
      [],
    );
  });

  it('lock files (~/.agents/.skill-lock.json and a project skills-lock.json): the ref or tree URL is refused, the skill stays local-only', async () => {
    const installed = path.join(w.userHome, '.claude', 'skills', 'vs');
    fs.mkdirSync(installed, { recursive: true });
    fs.writeFileSync(path.join(installed, 'SKILL.md'), skillMd('vs'));
    fs.mkdirSync(path.join(w.userHome, '.agents'), { recursive: true });
    fs.writeFileSync(
      path.join(w.userHome, '.agents', '.skill-lock.json'),
      JSON.stringify({
        version: 3,
        skills: {
          vs: {
            source: 'x/y',
            sourceType: 'git',
            sourceUrl: `${web.base}/good.git/-/tree/--negotiate-only/skills`,
            skillPath: 'skills/vs/SKILL.md',
          },
        },
      }),
    );
    const proj = path.join(w.root, 'proj');
    const inProject = path.join(proj, '.claude', 'skills', 'pv');
    fs.mkdirSync(inProject, { recursive: true });
    fs.writeFileSync(path.join(inProject, 'SKILL.md'), skillMd('pv'));
    fs.writeFileSync(
      path.join(proj, 'skills-lock.json'),
      JSON.stringify({
        version: 1,
        skills: {
          pv: {
            source: 'x/y',
            sourceType: 'git',
            sourceUrl: `${daemon.base}/good.git`,
            ref: '--negotiate-only',
            skillPath: 'skills/vs/SKILL.md',
          },
        },
      }),
    );
    const adopted = await w.service.api.adoptSkills({ items: [{ path: installed, mode: 'copy' }] });
    const imported = await w.service.api.importPaths({ paths: [inProject] });
    // Said beside the result: which lock entry was refused, and why.
    for (const [s, skill, lock] of [
      [adopted, 'vs', path.join(w.userHome, '.agents', '.skill-lock.json')],
      [imported, 'pv', path.join(proj, 'skills-lock.json')],
    ] as const) {
      expect(s.results[0]?.notices).toEqual([
        { key: 'sources.lock-refused', params: { skill, lock, reason: expect.objectContaining({ key: 'sources.bad-ref' }) } },
      ]);
    }
    expect(libraryNames(w)).toEqual(expect.arrayContaining(['vs', 'pv']));
    const prov = (await w.service.api.listProvenance({})).skills;
    expect(prov.vs).toBeUndefined();
    expect(prov.pv).toBeUndefined();
    const check = await runWorldCli(w, 'check', 'vs');
    expect(check.code).not.toBe(0);
    expect(check.err + check.out).toMatch(/was not added from a source/);
    for (const n of ['vs', 'pv']) await w.service.api.deleteSkill({ name: n });
  });

  it('an assistant file: that skill fails with the ref named, nothing is fetched', async () => {
    const commit = '0'.repeat(40);
    const r = await w.service.api.importAssistant({
      data: {
        skilldock: 'assistant',
        version: 1,
        name: 'Dashed',
        agent: 'claude',
        rules: '',
        skills: [{ name: 'vs', source: { url: `${daemon.base}/good.git`, ref: '--negotiate-only', path: 'skills/vs', commit } }],
      },
    });
    expect(r.skills).toEqual([
      expect.objectContaining({ name: 'vs', status: 'failed', msg: expect.objectContaining({ key: 'sources.bad-ref' }) }),
    ]);
    expect(libraryNames(w)).not.toContain('vs');
  });

  it('a provenance record edited on disk (ref, pin, URL): check reports it and update fetches nothing', async () => {
    await w.service.api.addFromSource({ source: `${daemon.base}/good.git` });
    const file = path.join(w.home, 'sources', 'provenance.json');
    const good = JSON.parse(fs.readFileSync(file, 'utf8'));
    const edits: Array<[string, (rec: Record<string, unknown> & { source: Record<string, unknown> }) => void, string]> = [
      ['ref', (rec) => (rec.source.ref = '--negotiate-only'), 'sources.bad-ref'],
      ['pin', (rec) => (rec.pinned = '-main'), 'sources.bad-ref'],
      ['url', (rec) => (rec.source.url = `--upload-pack=touch ${marker}`), 'sources.bad-source'],
    ];
    for (const [what, edit, key] of edits) {
      const bad = structuredClone(good);
      edit(bad.skills.vs);
      fs.writeFileSync(file, JSON.stringify(bad));
      const c = await w.service.api.checkSources({ names: ['vs'] });
      expect(c.results[0], what).toMatchObject({
        status: 'unreachable',
        msg: { key: 'sources.check.unreachable', params: { detail: { key } } },
      });
      const u = await w.service.api.updateSkills({ names: ['vs'], take: 'upstream' });
      expect(u.results[0]?.status, what).toBe('unreachable');
    }
    fs.writeFileSync(file, JSON.stringify(good));
    await w.service.api.deleteSkill({ name: 'vs' });
  });
});

describe('git itself', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_NOSYSTEM']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  async function gitRefuses(url: string): Promise<string> {
    const err = await lsRemote(url).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, url).toBeInstanceOf(GitError);
    return (err as GitError).stderr;
  }

  it('a URL or ref that begins with "-" is never an option to git (--end-of-options)', async () => {
    // ls-remote takes it for a repository's name (git then refuses the "strange pathname"), not for
    // --upload-pack (which would list the current folder's remote instead).
    expect(await gitRefuses(`--upload-pack=touch ${marker}`)).toMatch(/strange pathname '--upload-pack=touch /);
    // fetch: a ref that reached it would name the program run as the remote's upload-pack.
    const dir = path.join(w.root, 'fetch-target');
    const err = await shallowCheckout(`file://${path.join(root, 'served', 'good.git')}`, dir, `--upload-pack=touch ${marker}`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GitError);
    expect(fs.existsSync(marker)).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the ext:: transport is off, whatever the user's git config allows", async () => {
    const cfg = path.join(w.root, 'gitconfig-ext');
    fs.writeFileSync(cfg, '[protocol "ext"]\n\tallow = always\n');
    process.env.GIT_CONFIG_GLOBAL = cfg;
    process.env.GIT_CONFIG_NOSYSTEM = '1';
    expect(await gitRefuses(`ext::sh -c touch% ${marker}`)).toMatch(/transport 'ext' not allowed/);
  });

  it('file:// only when the source the user gave is local: an https source rewritten to a local path is refused', async () => {
    const cfg = path.join(w.root, 'gitconfig-insteadof');
    fs.writeFileSync(cfg, `[url "file://${path.join(root, 'served')}/"]\n\tinsteadOf = https://example.invalid/\n`);
    process.env.GIT_CONFIG_GLOBAL = cfg;
    process.env.GIT_CONFIG_NOSYSTEM = '1';
    expect(await gitRefuses('https://example.invalid/good.git')).toMatch(/transport 'file' not allowed/);
    // The user's own local repository still reads.
    expect((await lsRemote(`file://${path.join(root, 'served', 'good.git')}`)).get('HEAD')).toMatch(/^[0-9a-f]{40}$/);
  });
});
