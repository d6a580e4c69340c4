import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, runWorldCli, writeSkill, type World } from '../../test/support/library.js';
import { makeRepo, skillMd, startGitDaemon, type Served, type TestRepo } from '../../test/support/git-servers.js';

// Export an assistant on one machine (home) and import it on a second, empty one: skills from
// sources come back at exactly the exported commit; local-only skills are reported.

let a: World;
let b: World;
let daemon: Served;
let repo: TestRepo;
let first: string;

beforeAll(async () => {
  a = makeWorld();
  b = makeWorld();
  const root = path.join(a.root, 'git');
  repo = makeRepo(root, 'team', {
    'skills/review/SKILL.md': skillMd('review', 'Version one.'),
    'skills/lint-fix/SKILL.md': skillMd('lint-fix'),
  });
  first = repo.commit({}, 'tip');
  daemon = await startGitDaemon(path.join(root, 'served'));
}, 30_000);

afterAll(async () => {
  await daemon?.stop();
  await a?.done();
  await b?.done();
});

describe('assistant export and import', () => {
  it('round-trips through one file onto an empty home, at the exported commit', async () => {
    const url = `${daemon.base}/team.git`;
    await a.service.api.addFromSource({ source: url });
    writeSkill(path.join(a.src, 'mine'), 'my-local');
    await a.service.api.importPaths({ paths: [path.join(a.src, 'mine')] });
    await a.service.api.createAssistant({
      name: 'Reviewer',
      agent: 'claude',
      rules: 'Be kind.',
      skills: ['review', 'lint-fix', 'my-local'],
    });
    // upstream moves on after the export: the import must still get the exported commit
    const out = path.join(a.root, 'reviewer.json');
    const ex = await runWorldCli(a, 'assistant', 'export', 'Reviewer', '--out', out);
    expect(ex.code).toBe(0);
    const data = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(data).toMatchObject({ skilldock: 'assistant', version: 1, name: 'Reviewer', agent: 'claude', rules: 'Be kind.' });
    expect(data.skills).toEqual([
      { name: 'review', source: { url, path: 'skills/review', commit: first } },
      { name: 'lint-fix', source: { url, path: 'skills/lint-fix', commit: first } },
      { name: 'my-local', localOnly: true },
    ]);
    repo.commit({ 'skills/review/SKILL.md': skillMd('review', 'Version two.') });

    const im = await runWorldCli(b, 'assistant', 'import', out, '--json');
    expect(im.code).toBe(1); // my-local is missing on b
    const r = JSON.parse(im.out);
    expect(r.skills.map((s: { name: string; status: string }) => [s.name, s.status]).sort()).toEqual([
      ['lint-fix', 'added'],
      ['my-local', 'missing'],
      ['review', 'added'],
    ]);
    expect(fs.readFileSync(path.join(b.home, 'library', 'review', 'SKILL.md'), 'utf8')).toContain('Version one.');
    const prov = (await b.service.api.listProvenance({})).skills;
    expect(prov.review).toMatchObject({ commit: first, source: { url } });
    const view = await b.service.api.getAssistant({ assistant: 'Reviewer' });
    expect(view.skills.map((s) => s.name).sort()).toEqual(['lint-fix', 'review']);
    expect(view.rules).toBe('Be kind.');
    // and the imported skill can be checked against its source: an update exists now
    expect((await b.service.api.checkSources({ names: ['review'] })).results[0]).toMatchObject({ status: 'update-available' });
  });

  // Issue 23 item 9: a taken name offered only Close, after the file's skills had been added.
  it('refuses a taken name before adding any skill, and imports under another name to keep both', async () => {
    const out = path.join(a.root, 'reviewer-again.json');
    await a.service.api.exportAssistant({ assistant: 'Reviewer', out });
    // Without lint-fix, an import that went ahead would add it again.
    await b.service.api.deleteSkill({ name: 'lint-fix' });
    const libBefore = fs.readdirSync(path.join(b.home, 'library')).sort();
    const refused = await b.service.call('importAssistant', { file: out });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'conflict', msg: { key: 'assistants.name-taken', params: { name: 'Reviewer' } } },
    });
    expect(fs.readdirSync(path.join(b.home, 'library')).sort()).toEqual(libBefore);
    const kept = await b.service.api.importAssistant({ file: out, name: 'Reviewer copy' });
    expect(kept.name).toBe('Reviewer copy');
    expect(
      (await b.service.api.listAssistants({}))
        .filter((x) => x.name.startsWith('Reviewer'))
        .map((x) => x.name)
        .sort(),
    ).toEqual(['Reviewer', 'Reviewer copy']);
  });

  it('does not create an assistant whose every skill failed unless asked to, and says so by its code', async () => {
    const file = path.join(b.root, 'all-fail.json');
    const gone = `${daemon.base}/no-such-repo.git`;
    fs.writeFileSync(
      file,
      JSON.stringify({
        skilldock: 'assistant',
        version: 1,
        name: 'Hollow',
        agent: 'claude',
        rules: 'Be brief.',
        skills: [
          { name: 'a', source: { url: gone, path: 'skills/a', commit: first } },
          { name: 'b', source: { url: gone, path: 'skills/b', commit: first } },
        ],
      }),
    );
    const names = async () => (await b.service.api.listAssistants({})).map((x) => x.name);
    const api = await b.service.api.importAssistant({ file });
    expect(api).toMatchObject({ assistantId: null, refused: { key: 'sources.share.no-skills', params: { name: 'Hollow', count: 2 } } });
    expect(api.skills.map((s) => s.status)).toEqual(['failed', 'failed']);
    expect(await names()).not.toContain('Hollow');
    const cli = await runWorldCli(b, 'assistant', 'import', file);
    expect(cli.code).toBe(1);
    expect(cli.out).not.toContain('Created assistant');
    expect(cli.err).toContain('was not created: none of the skills it lists (2) could be added');
    expect(cli.err).toContain('--allow-empty');
    expect(await names()).not.toContain('Hollow');
    // Asked for: created, without skills.
    const forced = await runWorldCli(b, 'assistant', 'import', file, '--allow-empty', '--json');
    const r = JSON.parse(forced.out);
    expect(r.refused).toBeUndefined();
    expect(r.assistantId).toEqual(expect.any(String));
    expect((await b.service.api.getAssistant({ assistant: 'Hollow' })).skills).toEqual([]);
  });

  it('refuses a file that is not an assistant file, creating nothing', async () => {
    const bad = path.join(b.root, 'bad.json');
    fs.writeFileSync(
      bad,
      JSON.stringify({
        skilldock: 'assistant',
        version: 1,
        name: 'X',
        agent: 'claude',
        rules: '',
        skills: [{ name: 'y', source: { url: 'u', path: '', commit: 'not-a-sha' } }],
      }),
    );
    await expect(b.service.api.importAssistant({ file: bad })).rejects.toMatchObject({ msg: { key: 'sources.share.bad-file' } });
    fs.writeFileSync(bad, '{not json');
    await expect(b.service.api.importAssistant({ file: bad })).rejects.toMatchObject({
      msg: { key: 'sources.share.bad-file', params: { reason: 'json' } },
    });
    expect((await b.service.api.listAssistants({})).some((x) => x.name === 'X')).toBe(false);
  });
});
