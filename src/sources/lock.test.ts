import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, type World } from '../../test/support/library.js';
import { git, makeRepo, skillMd, type TestRepo } from '../../test/support/git-servers.js';
import { gitTreeId, lockContentHash } from './lock.js';

// Skills installed by the reference `skills` CLI are adopted or imported with the source its lock
// files record, then checked and updated here. The repository is served over file://.

let w: World;
let repo: TestRepo;

/** Lay out a folder: path → text (a leading `+x ` makes the file executable). */
function lay(dir: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    const exec = text.startsWith('+x ');
    fs.writeFileSync(p, exec ? text.slice(3) : text, { mode: exec ? 0o755 : 0o644 });
  }
  return dir;
}

beforeAll(() => {
  w = makeWorld();
  repo = makeRepo(path.join(w.root, 'git'), 'pack', {
    'skills/alpha/SKILL.md': skillMd('alpha'),
    'skills/alpha/notes.txt': 'one\ntwo\nthree\n',
    'skills/beta/SKILL.md': skillMd('beta'),
  });
});

afterAll(async () => {
  await w?.done();
});

const lib = (n = '') => path.join(w.home, 'library', n);
const upstreamFiles = (skill: string) => {
  const out: Record<string, string> = {};
  const base = path.join(repo.work, 'skills', skill);
  for (const f of fs.readdirSync(base)) out[f] = fs.readFileSync(path.join(base, f), 'utf8');
  return out;
};

beforeEach(async () => {
  if (fs.existsSync(lib()))
    for (const n of fs.readdirSync(lib()).filter((x) => !x.startsWith('.'))) await w.service.api.deleteSkill({ name: n });
});

describe("the reference skills CLI's hashes", () => {
  it('computedHash and the git tree id match what skills 1.7.4 and git wrote for the same folder', () => {
    // Observed: `skills add file://…/up.git -a claude-code -s '*' -y` in a project wrote this
    // computedHash for exactly these three files; `git rev-parse HEAD:skills/alpha` gave the tree id.
    const dir = lay(path.join(w.root, 'observed'), {
      'SKILL.md': '---\nname: alpha\ndescription: Alpha does alpha things. Use when alpha.\n---\n\nUse it well.\n',
      'notes.txt': 'one\ntwo\n',
      'scripts/run.sh': '+x #!/bin/sh\necho hi\n',
    });
    expect(lockContentHash(dir)).toBe('c4c4b3ae2493ee9f2f08d28046a1af4550bcea9ff0bcaf4a65651c0a1294a128');
    expect(gitTreeId(dir)).toBe('5076f1f227876a0762161d82051ae70a8ec9ee44');
    // and the tree id agrees with git on the served repository
    expect(gitTreeId(path.join(repo.work, 'skills', 'alpha'))).toBe(git(repo.work, 'rev-parse', 'HEAD:skills/alpha'));
  });
});

describe('adopting what the skills CLI installed', () => {
  it("a project's skills-lock.json: import records the source; check, then update with a local edit merged", async () => {
    const proj = path.join(w.root, 'proj1');
    const installed = lay(path.join(proj, '.claude', 'skills', 'alpha'), upstreamFiles('alpha'));
    fs.writeFileSync(
      path.join(proj, 'skills-lock.json'),
      JSON.stringify({
        version: 1,
        skills: {
          alpha: {
            source: `file://${repo.bare}`,
            sourceUrl: `file://${repo.bare}`,
            sourceType: 'git',
            skillPath: 'skills/alpha/SKILL.md',
            computedHash: lockContentHash(installed),
          },
        },
      }),
    );
    const lockBefore = fs.readFileSync(path.join(proj, 'skills-lock.json'), 'utf8');
    await w.service.api.importPaths({ paths: [installed] });
    const prov = (await w.service.api.listProvenance({})).skills.alpha;
    expect(prov).toMatchObject({
      source: { kind: 'git', url: `file://${repo.bare}` },
      path: 'skills/alpha',
      commit: '',
      via: path.join(proj, 'skills-lock.json'),
    });
    expect(prov?.upstreamDigest).not.toBe('empty');
    expect((await w.service.api.checkSources({ names: ['alpha'] })).results[0]?.status).toBe('up-to-date');

    // upstream changes notes.txt, the user changes SKILL.md: the update keeps both
    repo.commit({ 'skills/alpha/notes.txt': 'one\ntwo\nthree\nfour\n' });
    fs.appendFileSync(lib('alpha/SKILL.md'), '\nMy own line.\n');
    const c = (await w.service.api.checkSources({ names: ['alpha'] })).results[0];
    expect(c).toMatchObject({ status: 'update-available', changed: ['notes.txt'], localChanges: true });
    const u = await w.service.api.updateSkills({ names: ['alpha'] });
    expect(u.results[0]?.status).toBe('updated');
    expect(fs.readFileSync(lib('alpha/notes.txt'), 'utf8')).toBe('one\ntwo\nthree\nfour\n');
    expect(fs.readFileSync(lib('alpha/SKILL.md'), 'utf8')).toContain('My own line.');
    // the lock and the project stay as they were (read only)
    expect(fs.readFileSync(path.join(proj, 'skills-lock.json'), 'utf8')).toBe(lockBefore);
    expect(fs.readFileSync(path.join(installed, 'notes.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    repo.commit({ 'skills/alpha/notes.txt': 'one\ntwo\nthree\n' });
  });

  it('edited after the skills CLI installed it: no base, so the edited file is a conflict, never overwritten', async () => {
    const proj = path.join(w.root, 'proj2');
    const installed = lay(path.join(proj, '.agents', 'skills', 'alpha'), upstreamFiles('alpha'));
    const hash = lockContentHash(installed);
    fs.appendFileSync(path.join(installed, 'SKILL.md'), '\nEdited before SkillDock saw it.\n');
    fs.writeFileSync(
      path.join(proj, 'skills-lock.json'),
      JSON.stringify({
        version: 1,
        skills: { alpha: { source: `file://${repo.bare}`, sourceType: 'git', skillPath: 'skills/alpha/SKILL.md', computedHash: hash } },
      }),
    );
    await w.service.api.importPaths({ paths: [installed] });
    expect((await w.service.api.listProvenance({})).skills.alpha?.upstreamDigest).toBe('empty');
    const c = (await w.service.api.checkSources({ names: ['alpha'] })).results[0];
    expect(c).toMatchObject({ status: 'update-available', changed: ['SKILL.md'], added: [] });
    const u = await w.service.api.updateSkills({ names: ['alpha'] });
    expect(u.results[0]?.status).toBe('conflict');
    expect(fs.readFileSync(lib('alpha/SKILL.md'), 'utf8')).toContain('Edited before SkillDock saw it.');
    await w.service.api.updateSkills({ names: ['alpha'], take: 'mine' });
    expect(fs.readFileSync(lib('alpha/SKILL.md'), 'utf8')).toContain('Edited before SkillDock saw it.');
    // after the update the record has a real base and commit: upstream has not moved since
    expect((await w.service.api.listProvenance({})).skills.alpha).toMatchObject({ commit: git(repo.work, 'rev-parse', 'HEAD') });
    expect((await w.service.api.checkSources({ names: ['alpha'] })).results[0]?.status).toBe('up-to-date');
  });

  it("the user's ~/.agents/.skill-lock.json (v3, git tree id): adopt records the source", async () => {
    const installed = lay(path.join(w.userHome, '.claude', 'skills', 'beta'), upstreamFiles('beta'));
    fs.mkdirSync(path.join(w.userHome, '.agents'), { recursive: true });
    fs.writeFileSync(
      path.join(w.userHome, '.agents', '.skill-lock.json'),
      JSON.stringify({
        version: 3,
        skills: {
          beta: {
            source: 'acme/pack',
            sourceType: 'git',
            sourceUrl: `file://${repo.bare}`,
            skillPath: 'skills/beta/SKILL.md',
            skillFolderHash: git(repo.work, 'rev-parse', 'HEAD:skills/beta'),
            installedAt: '2026-11-01T00:00:00.000Z',
            updatedAt: '2026-11-01T00:00:00.000Z',
          },
          // sources SkillDock cannot fetch are left local-only
          other: { source: 'docs.example.com', sourceType: 'well-known', sourceUrl: 'https://docs.example.com', skillFolderHash: '' },
        },
      }),
    );
    lay(path.join(w.userHome, '.claude', 'skills', 'other'), { 'SKILL.md': skillMd('other') });
    await w.service.api.adoptSkills({
      items: [
        { path: installed, mode: 'copy' },
        { path: path.join(w.userHome, '.claude', 'skills', 'other'), mode: 'copy' },
      ],
    });
    const prov = (await w.service.api.listProvenance({})).skills;
    expect(prov.beta).toMatchObject({ path: 'skills/beta', via: path.join(w.userHome, '.agents', '.skill-lock.json') });
    expect(prov.beta?.upstreamDigest).not.toBe('empty');
    expect(prov.other).toBeUndefined();
    expect((await w.service.api.checkSources({ names: ['beta'] })).results[0]?.status).toBe('up-to-date');
  });

  it('a damaged lock file records nothing and does not stop the import', async () => {
    const proj = path.join(w.root, 'proj3');
    const installed = lay(path.join(proj, '.claude', 'skills', 'beta'), upstreamFiles('beta'));
    fs.writeFileSync(path.join(proj, 'skills-lock.json'), '{"version": 1, "skills": {"beta": ');
    const before = (await w.service.api.listProvenance({})).skills.beta;
    const s = await w.service.api.importPaths({ paths: [installed] });
    expect(s.results[0]?.status).toBe('imported');
    expect((await w.service.api.listProvenance({})).skills.beta).toEqual(before);
  });
});
