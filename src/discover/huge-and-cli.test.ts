import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, runWorldCli, type World } from '../../test/support/library.js';
import { git, makeRepo, skillMd, startGitDaemon, type Served, type TestRepo } from '../../test/support/git-servers.js';

// A catalog of 5,000 skills over git daemon, and the CLI's `catalog` and `search` commands.

let w: World;
let daemon: Served;
let big: TestRepo;
const N = 5000;
const TOPICS = ['pdf', 'chart', 'deploy', 'review', 'translate', 'invoice', 'diagram', 'schema'];

beforeAll(async () => {
  w = makeWorld();
  const root = path.join(w.root, 'git');
  big = makeRepo(root, 'big', { 'README.md': 'many skills' });
  // Written straight to the work tree and committed once (5,000 commits would take minutes).
  for (let i = 0; i < N; i++) {
    const name = `s${String(i).padStart(4, '0')}-${TOPICS[i % TOPICS.length]}`;
    const dir = path.join(big.work, 'skills', name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), skillMd(name, `Helps with ${TOPICS[i % TOPICS.length]} work number ${i}.`));
  }
  git(big.work, 'add', '-A');
  git(big.work, 'commit', '-q', '-m', 'many');
  git(big.work, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
  daemon = await startGitDaemon(path.join(root, 'served'));
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  await w?.done();
}, 120_000);

describe('a huge catalog', () => {
  it('indexes 5,000 skills, searches them, and refreshes one change without analysing the rest', async () => {
    for (const id of ['anthropics-skills', 'claude-plugins-official']) await runWorldCli(w, 'catalog', 'disable', id);
    const add = await runWorldCli(w, 'catalog', 'add', `${daemon.base}/big.git`, '--id', 'big');
    expect(add.code).toBe(0);
    const t0 = Date.now();
    const r = await runWorldCli(w, 'catalog', 'refresh', 'big', '--json');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).results[0]).toMatchObject({ status: 'refreshed', skills: N, added: N });
    const full = Date.now() - t0;
    const s = await runWorldCli(w, 'search', 'schema', 'work', '4999', '--json');
    const hits = JSON.parse(s.out) as { results: { name: string }[]; total: number };
    expect(hits.results[0]!.name).toBe('s4999-schema');
    expect(hits.total).toBeGreaterThan(100);

    big.commit({ 'skills/s0001-chart/SKILL.md': skillMd('s0001-chart', 'Now about gantt timelines.') });
    const t1 = Date.now();
    const again = await runWorldCli(w, 'catalog', 'refresh', 'big', '--force', '--json');
    const one = Date.now() - t1;
    expect(JSON.parse(again.out).results[0]).toMatchObject({ status: 'refreshed', skills: N, changed: 1, added: 0, removed: 0 });
    expect(one).toBeLessThan(full);
    const text = await runWorldCli(w, 'search', 'gantt');
    expect(text.out).toContain('s0001-chart');
  }, 300_000);

  it('the CLI lists catalogs, says what failed, and refuses bad usage', async () => {
    const list = await runWorldCli(w, 'catalog', 'list');
    expect(list.out).toMatch(/on\s+big\s+git/);
    expect(list.out).toMatch(/off anthropics-skills/);
    await runWorldCli(w, 'catalog', 'add', 'git://127.0.0.1:9/none.git', '--id', 'none');
    const bad = await runWorldCli(w, 'catalog', 'refresh', 'none');
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('none could not be refreshed');
    expect((await runWorldCli(w, 'catalog', 'frobnicate')).code).toBe(2);
    expect((await runWorldCli(w, 'search', 'x', '--max-risk', 'extreme')).code).toBe(2);
    const rm = await runWorldCli(w, 'catalog', 'remove', 'none');
    expect(rm.code).toBe(0);
  });
});
