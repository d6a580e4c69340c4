import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { libraryNames, makeWorld, runWorldCli, snapshot, type World } from '../../test/support/library.js';
import { git, makeRepo, skillMd, startGitDaemon, startHttpGit, type Served, type TestRepo } from '../../test/support/git-servers.js';
import { SkillDockError } from '../errors.js';

// A source may only hand over what lies inside its own checkout. A skill folder, a SKILL.md or a
// plugin manifest that links out is skipped and said; a path from a lock file, an assistant file or
// a provenance record that climbs out (`../..`) or leads out through a link is refused. The repos
// are real, served by `git daemon` on loopback; the "outside" is a folder next to them holding a
// SKILL.md and a secret.

let w: World;
let daemon: Served;
let web: Served;
let root: string;
let outside: string;
let linky: TestRepo;
let good: TestRepo;

/** Commit a symlink (the target as written) into the repo and push it. */
function commitLink(repo: TestRepo, rel: string, target: string): void {
  const p = path.join(repo.work, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.rmSync(p, { recursive: true, force: true });
  fs.symlinkSync(target, p);
  git(repo.work, 'add', '-A');
  git(repo.work, 'commit', '-q', '-m', `link ${rel}`);
  git(repo.work, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
}

const lib = (...p: string[]) => path.join(w.home, 'library', ...p);
/** Every file under the library holding the secret's text. */
function secretsInHome(): string[] {
  const out: string[] = [];
  for (const [rel, digest] of Object.entries(snapshot(w.home))) if (rel.endsWith('secret.txt')) out.push(`${rel} ${digest}`);
  return out;
}

beforeAll(async () => {
  w = makeWorld();
  root = path.join(w.root, 'git');
  outside = path.join(w.root, 'outside');
  fs.mkdirSync(path.join(outside, 'secretdir'), { recursive: true });
  fs.writeFileSync(path.join(outside, 'secretdir', 'SKILL.md'), skillMd('evil'));
  fs.writeFileSync(path.join(outside, 'secretdir', 'secret.txt'), 'the secret\n');
  fs.writeFileSync(path.join(outside, 'SKILL.md'), skillMd('evil2'));
  fs.mkdirSync(path.join(outside, 'plugin', '.claude-plugin'), { recursive: true });
  fs.writeFileSync(path.join(outside, 'marketplace.json'), JSON.stringify({ name: 'm', plugins: [{ name: 'p', source: './plugins/p' }] }));
  linky = makeRepo(root, 'linky', {
    'skills/fine/SKILL.md': skillMd('fine'),
    // reached only through the manifest: found only if the manifest that links out is read
    'plugins/p/skills/delta/SKILL.md': skillMd('delta'),
    'skills/evil2/notes.txt': 'x\n',
  });
  commitLink(linky, 'skills/evil', path.join(outside, 'secretdir'));
  commitLink(linky, 'skills/evil2/SKILL.md', path.join(outside, 'SKILL.md'));
  commitLink(linky, '.claude-plugin/marketplace.json', path.join(outside, 'marketplace.json'));
  good = makeRepo(root, 'good', { 'skills/vs/SKILL.md': skillMd('vs'), 'skills/vs/notes.txt': 'one\n' });
  makeRepo(root, 'twins', {
    'skills/cc/SKILL.md': skillMd('cc'),
    'skills/cc/skill.md': skillMd('cc', 'The other one.'),
  });
  makeRepo(root, 'readmes', {
    'skills/rr/SKILL.md': skillMd('rr'),
    'skills/rr/README.md': 'one',
    'skills/rr/Readme.md': 'two',
  });
  daemon = await startGitDaemon(path.join(root, 'served'));
  web = await startHttpGit(path.join(root, 'served'));
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await web?.stop();
  await w?.done();
});

beforeEach(async () => {
  for (const n of libraryNames(w)) await w.service.api.deleteSkill({ name: n });
});

async function refusal(p: Promise<unknown>): Promise<SkillDockError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SkillDockError);
  return err as SkillDockError;
}

describe('links out of a checkout', () => {
  it('a skill folder, a SKILL.md and a plugin manifest that link out are skipped and named; the rest is added', async () => {
    const url = `${daemon.base}/linky.git`;
    const r = await w.service.api.addFromSource({ source: url });
    expect(r.found.map((f) => f.path)).toEqual(['skills/fine']);
    expect(r.skipped?.map((s) => s.path)).toEqual(['.claude-plugin/marketplace.json', 'skills/evil', 'skills/evil2/SKILL.md']);
    expect(r.skipped?.[1]?.msg).toEqual({ key: 'sources.link-out-skipped', params: { source: url, path: 'skills/evil' } });
    expect(libraryNames(w)).toEqual(['fine']);
    expect(secretsInHome()).toEqual([]);
    // The command line says it too.
    const cli = await runWorldCli(w, 'add', url, '--list');
    expect(cli.out).toContain(`skipped  skills/evil in ${url} was skipped: it leads outside the repository through a link.`);
  });

  it('a sub-path that is itself a link out: refused with the reason, nothing added', async () => {
    const url = `${web.base}/linky.git/-/tree/main/skills/evil`;
    const err = await refusal(w.service.api.addFromSource({ source: url }));
    expect(err.msg).toEqual({ key: 'sources.links-out', params: { source: url, path: ['skills/evil'] } });
    expect(libraryNames(w)).toEqual([]);
    // and a sub-path that climbs out is refused before anything is fetched
    const climb = await refusal(w.service.api.addFromSource({ source: `${web.base}/good.git/-/tree/main/skills/a%2F..%2F..%2F..` }));
    expect(climb.msg?.params?.reason).toEqual({ key: 'sources.reason.path' });
    expect(secretsInHome()).toEqual([]);
  });
});

describe('paths from a lock file, an assistant file or a provenance record stay inside the checkout', () => {
  it('a lock entry whose skillPath climbs out: adopt keeps the skill local-only; check and update take nothing', async () => {
    const installed = path.join(w.userHome, '.claude', 'skills', 'vs');
    fs.mkdirSync(installed, { recursive: true });
    fs.writeFileSync(path.join(installed, 'SKILL.md'), skillMd('vs'));
    fs.mkdirSync(path.join(w.userHome, '.agents'), { recursive: true });
    const climb = '../'.repeat(12) + path.join(outside, 'secretdir', 'SKILL.md').slice(1);
    fs.writeFileSync(
      path.join(w.userHome, '.agents', '.skill-lock.json'),
      JSON.stringify({
        version: 3,
        skills: { vs: { source: 'x/y', sourceType: 'git', sourceUrl: `${daemon.base}/good.git`, skillPath: climb } },
      }),
    );
    const adopt = await runWorldCli(w, 'adopt', 'vs', '--mode', 'copy');
    expect(adopt.code, adopt.out + adopt.err).toBe(0);
    expect(adopt.out).toContain(
      `vs stays local-only (not checked or updated from a source): its entry in ${path.join(w.userHome, '.agents', '.skill-lock.json')} was refused.`,
    );
    expect(adopt.out).toContain('SkillDock follows a skill path only inside the repository.');
    expect((await w.service.api.listProvenance({})).skills.vs).toBeUndefined();
    const check = await runWorldCli(w, 'check', 'vs');
    expect(check.out).not.toContain('secret.txt');
    expect(check.code).not.toBe(0);
    const update = await runWorldCli(w, 'update', 'vs', '--take', 'upstream');
    expect(update.code).not.toBe(0);
    expect(fs.readdirSync(lib('vs'))).toEqual(['SKILL.md']);
    expect(secretsInHome()).toEqual([]);
    fs.rmSync(path.join(w.userHome, '.agents'), { recursive: true });
    fs.rmSync(installed, { recursive: true });
  });

  it('a provenance record edited to climb out, or a folder that upstream turned into a link out: check and update refuse', async () => {
    await w.service.api.addFromSource({ source: `${daemon.base}/good.git` });
    const file = path.join(w.home, 'sources', 'provenance.json');
    const saved = fs.readFileSync(file, 'utf8');
    const rec = JSON.parse(saved);
    rec.skills.vs.path = path.posix.join('..', '..', '..', '..', '..', '..', '..', '..', '..', '..', outside.slice(1), 'secretdir');
    rec.skills.vs.commit = '1'.repeat(40); // "upstream moved": check fetches and compares
    fs.writeFileSync(file, JSON.stringify(rec));
    const c = await w.service.api.checkSources({ names: ['vs'] });
    expect(c.results[0]).toMatchObject({ status: 'unreachable', msg: { params: { detail: { key: 'sources.path-outside' } } } });
    const u = await w.service.api.updateSkills({ names: ['vs'], take: 'upstream' });
    expect(u.results[0]?.status).not.toBe('updated');
    expect(secretsInHome()).toEqual([]);
    fs.writeFileSync(file, saved);

    // Upstream replaces the skill's folder by a link out: the next check and update refuse it.
    commitLink(good, 'skills/vs', path.join(outside, 'secretdir'));
    const c2 = await w.service.api.checkSources({ names: ['vs'] });
    expect(c2.results[0]).toMatchObject({ status: 'unreachable', msg: { params: { detail: { key: 'sources.path-outside' } } } });
    const u2 = await w.service.api.updateSkills({ names: ['vs'], take: 'upstream' });
    expect(u2.results[0]?.status).not.toBe('updated');
    expect(fs.readdirSync(lib('vs')).sort()).toEqual(['SKILL.md', 'notes.txt']);
    expect(secretsInHome()).toEqual([]);
    good.rewrite({ 'skills/vs/SKILL.md': skillMd('vs'), 'skills/vs/notes.txt': 'one\n' });
  });

  it('an assistant file whose path climbs out: that skill fails, nothing is fetched', async () => {
    const r = await w.service.api.importAssistant({
      data: {
        skilldock: 'assistant',
        version: 1,
        name: 'Climber',
        agent: 'claude',
        rules: '',
        skills: [{ name: 'vs', source: { url: `${daemon.base}/good.git`, path: '../../../outside/secretdir', commit: '2'.repeat(40) } }],
      },
    });
    expect(r.skills).toEqual([
      expect.objectContaining({ name: 'vs', status: 'failed', msg: expect.objectContaining({ key: 'sources.path-outside' }) }),
    ]);
    expect(libraryNames(w)).toEqual([]);
  });
});

describe('names that differ only in case, from git as from a zip', () => {
  it('SKILL.md with skill.md, README.md with Readme.md: refused with the pair named, nothing added', async () => {
    for (const [repo, entry, other] of [
      ['twins', 'skill.md', 'SKILL.md'],
      ['readmes', 'Readme.md', 'README.md'],
    ] as const) {
      const url = `${daemon.base}/${repo}.git`;
      const err = await refusal(w.service.api.addFromSource({ source: url }));
      expect(err.msg).toEqual({
        key: 'sources.layout-refused',
        params: { source: url, why: { key: 'archive.case-twin', params: expect.objectContaining({}) } },
      });
      const why = (err.msg?.params as unknown as { why: { params: Record<string, string> } }).why.params;
      expect([why.entry, why.other].sort()).toEqual([entry, other].sort());
      expect(libraryNames(w)).toEqual([]);
    }
  });
});
