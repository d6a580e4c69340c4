import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { libraryNames, makeWorld, runWorldCli, snapshot, type World } from '../../test/support/library.js';
import {
  git,
  makeRepo,
  skillMd,
  startGitDaemon,
  startHangingFront,
  startHttpGit,
  type Served,
  type TestRepo,
} from '../../test/support/git-servers.js';
import { SOURCE_LIMITS } from './limits.js';
import { DOWNLOAD_LIMITS } from './download.js';
import type { MessageRef } from '../contract/index.js';

// A git source is held to the limits of an archive source (25 MiB, 1,000 files), checked before
// anything reaches the library or the base store, with the limit that was hit named; the download
// itself stays small (a blob-size filter where the server allows it, a stopped fetch where it does
// not). And undo of an add takes back the base copies that add made, not those others share.

let w: World;
let daemon: Served;
let web: Served;
let root: string;
let huge: TestRepo;
let edge: TestRepo;
const MB = 1024 * 1024;

const files = (n: number, prefix: string, body: (i: number) => string) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}.txt`, body(i)]));

beforeAll(async () => {
  w = makeWorld();
  root = path.join(w.root, 'git');
  // one more file than allowed
  makeRepo(root, 'many', { 'skills/many/SKILL.md': skillMd('many'), ...files(SOURCE_LIMITS.maxFiles, 'docs/f', (i) => `${i}\n`) });
  // exactly the limit
  edge = makeRepo(root, 'edge', {
    'skills/edge/SKILL.md': skillMd('edge'),
    ...files(SOURCE_LIMITS.maxFiles - 1, 'docs/f', (i) => `${i}\n`),
  });
  // 30 files of 1 MB (each small, all together too big; they compress to almost nothing)
  makeRepo(root, 'wide', { 'skills/wide/SKILL.md': skillMd('wide'), ...files(30, 'data/d', (i) => `${i}`.padEnd(MB, 'x')) });
  huge = makeRepo(root, 'huge', { 'skills/huge/SKILL.md': skillMd('huge') });
  // random bytes do not compress: store them as they are, here and when served (faster on both ends)
  git(huge.work, 'config', 'core.compression', '0');
  git(huge.bare, 'config', 'core.compression', '0');
  fs.writeFileSync(path.join(huge.work, 'big.bin'), randomBytes(40 * MB));
  git(huge.work, 'add', '-A');
  git(huge.work, 'commit', '-q', '-m', 'big');
  git(huge.work, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
  makeRepo(root, 'small', { 'skills/alpha/SKILL.md': skillMd('alpha'), 'skills/beta/SKILL.md': skillMd('beta') });
  daemon = await startGitDaemon(path.join(root, 'served'));
  web = await startHttpGit(path.join(root, 'served'));
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  await web?.stop();
  await w?.done();
});

const lib = () => path.join(w.home, 'library');
const bases = () => {
  const d = path.join(w.home, 'sources', 'base');
  return fs.existsSync(d) ? fs.readdirSync(d).sort() : [];
};
const staging = () => {
  const st = path.join(w.home, 'staging', 'sources');
  return fs.existsSync(st) ? fs.readdirSync(st) : [];
};

beforeEach(async () => {
  for (const n of libraryNames(w)) await w.service.api.deleteSkill({ name: n });
});

/** The add is refused with `key` (params checked), and nothing is left in the library, base store or staging. */
async function refusedWith(source: string, key: string, params: Record<string, unknown>): Promise<{ msg: MessageRef; message: string }> {
  const before = { lib: fs.existsSync(lib()) ? snapshot(lib()) : {}, bases: bases() };
  const err = (await w.service.api.addFromSource({ source }).then(
    () => undefined,
    (e: unknown) => e,
  )) as { msg: MessageRef; message: string } | undefined;
  expect(err?.msg).toEqual({ key, params: { source, ...params } });
  expect(fs.existsSync(lib()) ? snapshot(lib()) : {}).toEqual(before.lib);
  expect(bases()).toEqual(before.bases);
  expect(staging()).toEqual([]);
  return err!;
}

describe('limits on git sources', () => {
  it('shares one definition with archive sources', () => {
    expect(DOWNLOAD_LIMITS.maxUnpackedBytes).toBe(SOURCE_LIMITS.maxBytes);
    expect(DOWNLOAD_LIMITS.maxFiles).toBe(SOURCE_LIMITS.maxFiles);
    expect(SOURCE_LIMITS).toEqual({ maxBytes: 25 * MB, maxFiles: 1000 });
  });

  it('refuses a repository with more files than allowed, saying how many', async () => {
    const e = await refusedWith(`${daemon.base}/many.git`, 'sources.limit.too-many-files', { files: 1001, max: 1000 });
    expect(e.message).toBe(`${daemon.base}/many.git has 1001 files; SkillDock reads sources of at most 1000 files.`);
    // the CLI says it and fails (it used to exit 0 with no warning)
    const cli = await runWorldCli(w, 'add', `${daemon.base}/many.git`);
    expect(cli.code).toBe(1);
    expect(cli.err).toContain('has 1001 files; SkillDock reads sources of at most 1000 files.');
  });

  it('refuses a repository whose files are too big together, though each is small', async () => {
    await refusedWith(`${web.base}/wide.git`, 'sources.limit.too-big', { mb: 30, max: 25 });
  });

  it('leaves a too-big file on the server when it allows a blob filter, and names the file', async () => {
    git(huge.bare, 'config', 'uploadpack.allowFilter', 'true');
    const front = await startHangingFront(web);
    try {
      await refusedWith(`${front.base}/huge.git`, 'sources.limit.file-too-big', { path: 'big.bin', max: 25 });
      expect(front.sent).toBeLessThan(1 * MB); // the 40 MB blob never came
    } finally {
      await front.stop();
    }
  });

  it('stops the download once more than the limit arrived when the server ignores the filter', async () => {
    git(huge.bare, 'config', 'uploadpack.allowFilter', 'false');
    // 20 MB/s, a fast link: the whole 40 MB takes two seconds, and the fetch is stopped on the way
    // (had it finished, the refusal would name the file instead)
    const front = await startHangingFront(web, { rate: 20 * MB });
    try {
      await refusedWith(`${front.base}/huge.git`, 'sources.limit.download-too-big', { max: 25 });
    } finally {
      await front.stop();
    }
  });

  it('adds a repository at exactly the limit; check names the limit once upstream passes it', async () => {
    const url = `${daemon.base}/edge.git`;
    const r = await w.service.api.addFromSource({ source: url });
    expect(r.summary?.results.map((x) => x.status)).toEqual(['imported']);
    edge.commit({ 'docs/one-more.txt': 'x' });
    const c = await w.service.api.checkSources({ names: ['edge'] });
    expect(c.results[0]).toMatchObject({ status: 'unreachable' });
    expect(c.results[0]!.msg!.params!.detail).toEqual({
      key: 'sources.limit.too-many-files',
      params: { source: url, files: 1001, max: 1000 },
    });
    expect(staging()).toEqual([]);
  });
});

describe('the base store on undo', () => {
  it('undo of an add removes the base copies that add made, and keeps one an earlier add shares', async () => {
    const start = bases();
    const url = `${daemon.base}/small.git`;
    await w.service.api.addFromSource({ source: url });
    const mine = bases().filter((b) => !start.includes(b));
    expect(mine).toHaveLength(2); // alpha and beta
    // alpha deleted (to the trash, restorable) and added again: its base copy is the first add's
    await w.service.api.deleteSkill({ name: 'alpha' });
    const again = await w.service.api.addFromSource({ source: url });
    expect(again.summary?.results.map((x) => [x.name, x.status])).toEqual([
      ['alpha', 'imported'],
      ['beta', 'already-present'],
    ]);
    await w.service.api.undo({}); // the second add: alpha's base is shared with the first, it stays
    expect(bases()).toEqual([...start, ...mine].sort());
    expect(libraryNames(w)).toEqual(['beta']);
    await w.service.api.undo({}); // the delete: alpha is back, its base with it
    expect(libraryNames(w)).toEqual(['alpha', 'beta']);
    await w.service.api.undo({}); // the first add: the copies it alone made are gone
    expect(bases()).toEqual(start);
    expect(libraryNames(w)).toEqual([]);
  });
});
