import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHarness, type CliHarness } from './cli-harness.js';
import { makeRepo, skillMd, startGitDaemon, type Served } from './support/git-servers.js';

// The bulk commands of the built CLI (issue 28): many names, globs the engine matches (passed
// quoted, as a shell user would, so the shell never expands them), and --all, each call one
// journal entry that one `undo` takes back whole.

let h: CliHarness;
let daemon: Served;
beforeAll(async () => {
  h = await cliHarness('sd-cli-bulk-');
  const repo = makeRepo(path.join(h.base, 'git'), 'tools', {
    'skills/beta-1/SKILL.md': skillMd('beta-1'),
    'skills/beta-2/SKILL.md': skillMd('beta-2'),
    'skills/alpha/SKILL.md': skillMd('alpha'),
  });
  expect(repo.bare).toBeTruthy();
  daemon = await startGitDaemon(path.join(h.base, 'git', 'served'));
}, 120_000);
afterAll(async () => {
  await daemon?.stop();
  h?.done();
});

const lib = () => path.join(h.base, 'sdhome', 'library');
const libNames = () => (fs.existsSync(lib()) ? fs.readdirSync(lib()).sort() : []);
const json = (args: string[]) => {
  const r = h.run([...args, '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
};
const history = () => (json(['history']) as unknown as { entries: Array<{ op: string; id: string }> }).entries;

/** A skill folder written straight into a source folder, imported by the CLI. */
function importSkill(name: string): void {
  const dir = path.join(h.base, 'src', name.replace(/[^a-z0-9-]/gi, '_'));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), skillMd(name));
  const r = h.run(['import', dir]);
  expect(r.code, r.stderr).toBe(0);
}

describe('bulk commands of the built CLI', () => {
  it("add from git, pin 'beta-*' and --all, export a glob, delete --all: each one entry, one undo", () => {
    let r = h.run(['add', `${daemon.base}/tools.git`]);
    expect(r.code, r.stderr).toBe(0);
    expect(libNames()).toEqual(['alpha', 'beta-1', 'beta-2']);

    const pinned = json(['pin', 'beta-*']) as { results: Array<{ name: string; pinned: string }>; journalId: string };
    expect(pinned.results.map((x) => x.name)).toEqual(['beta-1', 'beta-2']);
    expect(history()[0]).toMatchObject({ op: 'pin', id: pinned.journalId });
    const prov = () => JSON.parse(fs.readFileSync(path.join(h.base, 'sdhome', 'sources', 'provenance.json'), 'utf8')).skills;
    expect(
      Object.entries(prov())
        .filter(([, p]) => (p as { pinned?: string }).pinned)
        .map(([n]) => n),
    ).toEqual(['beta-1', 'beta-2']);
    r = h.run(['undo']);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.values(prov()).some((p) => (p as { pinned?: string }).pinned)).toBe(false);
    const all = json(['pin', '--all']) as { results: unknown[] };
    expect(all.results).toHaveLength(3);
    expect(json(['pin', '--all', '--off'])).toMatchObject({ results: [{ pinned: null }, { pinned: null }, { pinned: null }] });

    const exported = json(['export', 'beta-*', '--agent', 'claude', '--mode', 'link']) as { results: Array<{ name: string }> };
    expect(exported.results.map((x) => x.name)).toEqual(['beta-1', 'beta-2']);
    expect(fs.readdirSync(path.join(h.base, 'home', '.claude', 'skills')).sort()).toEqual(['beta-1', 'beta-2']);
    expect(history()[0]!.op).toBe('export');

    const before = history().length;
    const del = json(['delete', '--all']) as { deleted: Array<{ name: string }>; journalId: string };
    expect(del.deleted.map((d) => d.name)).toEqual(['alpha', 'beta-1', 'beta-2']);
    expect(libNames()).toEqual([]);
    expect(history().length).toBe(before + 1);
    r = h.run(['undo', del.journalId]);
    expect(r.code, r.stderr).toBe(0);
    expect(libNames()).toEqual(['alpha', 'beta-1', 'beta-2']);
    // the exported links lead to the skills again
    expect(fs.existsSync(path.join(h.base, 'home', '.claude', 'skills', 'beta-1', 'SKILL.md'))).toBe(true);
  }, 180_000);

  it('a glob matching nothing exits 1 with a clear message and changes nothing; a name with shell characters is literal', () => {
    const before = libNames();
    const n = history().length;
    let r = h.run(['delete', 'zeta-*']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No library skill matches "zeta-*"; nothing was changed.');
    r = h.run(['restore', 'zeta-*']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Nothing in the trash matches "zeta-*"');
    r = h.run(['approve', 'zeta-*']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No skill matches "zeta-*"');
    expect(libNames()).toEqual(before);
    expect(history().length).toBe(n);

    // `beta-*` and `a$(x);[1]` as real names: each taken as itself, the glob never widens it
    importSkill('beta-*');
    importSkill('a$(x);[1]');
    const del = json(['delete', 'beta-*', 'a$(x);[1]']) as { deleted: Array<{ name: string }> };
    expect(del.deleted.map((d) => d.name)).toEqual(['beta-*', 'a$(x);[1]']);
    expect(libNames()).toEqual(['alpha', 'beta-1', 'beta-2']);
    const back = json(['restore', 'a$(x);[1]', 'beta-*']) as { results: Array<{ name: string }> };
    expect(back.results.map((x) => x.name).sort()).toEqual(['a$(x);[1]', 'beta-*']);
    expect(history()[0]!.op).toBe('restore');

    // names and --all together, or neither: usage (exit 2)
    expect(h.run(['delete', 'alpha', '--all']).code).toBe(2);
    expect(h.run(['delete']).code).toBe(2);
  }, 180_000);

  it('approve a glob and --all in one entry each; assistant attach takes a glob', () => {
    const a = json(['approve', 'beta-[0-9]']) as { results: Array<{ name: string }>; journalId: string };
    // skills without scripts need no approval, but approving them is still one entry
    expect(a.results.map((t) => t.name)).toEqual(['beta-1', 'beta-2']);
    expect(history()[0]).toMatchObject({ op: 'scripts-approve', id: a.journalId });
    const r = h.run(['undo', a.journalId]);
    expect(r.code, r.stderr).toBe(0);
    expect(json(['approve', '--list'])).toEqual([]);

    expect(h.run(['assistant', 'create', '--name', 'helper', '--agent', 'claude']).code).toBe(0);
    const view = json(['assistant', 'attach', 'helper', 'beta-[0-9]']) as { skills: Array<{ name: string }> };
    expect(view.skills.map((s) => s.name).sort()).toEqual(['beta-1', 'beta-2']);
    const none = h.run(['assistant', 'attach', 'helper', 'zeta-*']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No skill matches "zeta-*"');
  }, 180_000);
});
