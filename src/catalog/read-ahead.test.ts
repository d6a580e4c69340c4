import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDir, walkFromPlain, walkSkill, type WalkResult } from '../skills/walk.js';
import { ReadAhead, type ReadChild } from './read-ahead.js';
import { listRoot } from './scan.js';
import { rowSink, statRows } from './stat-rows.js';
import { writeSkill } from '../../test/support/catalog.js';
import { sleep } from '../../test/support/wait.js';

// The reading thread of a first scan (read-ahead.ts, read-worker.ts) against real folders: what it
// sends for a child is exactly what the calling thread would have read itself, what it leaves
// (links, folders that are no skill) is read there, a reader that fails or stalls loses nothing,
// and a `list --json` of the built CLI is byte for byte the same with and without it.

const repo = path.resolve(__dirname, '..', '..');
// Built by the test run's global setup (test/global-setup.ts), next to dist/cli.mjs.
const script = path.join(repo, 'dist', 'read-worker.cjs');
let base: string;
let root: string;

/** Every shape a child of a root can have, `copies` times over (plus a few one-offs). */
function makeRoot(dir: string, copies: number): void {
  fs.mkdirSync(dir, { recursive: true });
  for (let k = 0; k < copies; k++) {
    const plain = writeSkill(path.join(dir, `plain-${k}`), { body: `# Plain ${k}\n\nSee [the guide](references/guide.md).\n` });
    fs.mkdirSync(path.join(plain, 'references'));
    fs.writeFileSync(path.join(plain, 'references', 'guide.md'), `# Guide ${k}\n\nÜber naïve café, 日本語のテキスト ${k}.\n`);
    fs.mkdirSync(path.join(plain, 'scripts'));
    fs.writeFileSync(path.join(plain, 'scripts', 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    fs.mkdirSync(path.join(plain, '.git'));
    fs.writeFileSync(path.join(plain, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeSkill(path.join(dir, `lower-${k}`), { file: 'skill.md' });
    writeSkill(path.join(dir, `inner-${k}`));
    writeSkill(path.join(dir, `inner-${k}`, 'sub', 'deeper'));
    fs.mkdirSync(path.join(dir, `nothing-${k}`, 'empty'), { recursive: true });
    writeSkill(path.join(dir, `group-${k}`, 'member'));
    fs.symlinkSync(plain, path.join(dir, `link-${k}`));
  }
  // One-offs: a SKILL.md through a link, texts and assets above the whole-read size, an empty
  // skill file, a dangling link, a plain file, a multi-byte body.
  const linked = path.join(dir, 'linked-file');
  fs.mkdirSync(linked);
  fs.writeFileSync(path.join(base, 'outside.md'), '---\nname: linked-file\ndescription: Through a link. Use when asked.\n---\nBody.\n');
  fs.symlinkSync(path.join(base, 'outside.md'), path.join(linked, 'SKILL.md'));
  const big = writeSkill(path.join(dir, 'big'), { body: `# Big\n\n${'A long line of words for the body.\n'.repeat(40_000)}` });
  fs.mkdirSync(path.join(big, 'assets'));
  fs.writeFileSync(path.join(big, 'assets', 'blob.bin'), Buffer.alloc(3 << 20, 7));
  fs.writeFileSync(path.join(big, 'assets', 'notes.md'), `# Notes\n\n${'note '.repeat(300_000)}\n`);
  fs.mkdirSync(path.join(dir, 'empty-file'));
  fs.writeFileSync(path.join(dir, 'empty-file', 'SKILL.md'), '');
  writeSkill(path.join(dir, 'unicode'), { description: 'Résumé des données, 中文说明. Use when asked.', body: '# 見出し\n\n本文 ✓\n' });
  fs.symlinkSync(path.join(dir, 'missing'), path.join(dir, 'dangling'));
  fs.writeFileSync(path.join(dir, 'README.md'), '# not a skill\n');
}

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-read-ahead-')));
  root = path.join(base, 'skills');
  makeRoot(root, 40);
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/** What the calling thread reads of a child (evaluateChild's calls for a plain folder holding a skill file). */
function readHere(dir: string) {
  const rows = statRows(dir, 0, 0, 0)!;
  const listing = listDir(dir)!;
  const walked = walkSkill(dir, { hash: true, readSkillFile: true, readMarkdown: true, listing, onStat: rowSink(rows, 0) });
  return { rels: rows.rels, nums: rows.nums, walked };
}

describe('read ahead', () => {
  it('sends for each plain skill folder what this thread would read, and leaves the rest to it', async () => {
    expect(fs.existsSync(script), `${script} is built by the test run`).toBe(true);
    const listing = await listRoot(root);
    const names = listing.names;
    const kinds = names.map((n) => listing.kinds.get(n));
    const seen: Array<{ name: string; pre?: { read: ReadChild['read']; nums: Float64Array; walked: WalkResult } }> = [];
    const out = await new ReadAhead(script).map({ task: 'catalog', rootPath: root, names, kinds, resolutionMs: 0 }, async (i, pre) => {
      // Reading here is made slow, so the reader (which takes tens of ms to start) gets its share.
      if (!pre) await sleep(3);
      // The texts' bytes are valid during this call only (their buffer goes back to the reader).
      seen.push({
        name: names[i]!,
        ...(pre ? { pre: { read: pre.read, nums: pre.nums, walked: walkFromPlain(pre.read.walk, pre.text) } } : {}),
      });
      return names[i];
    });
    expect(out).toEqual(names); // every child, once, in order
    expect(seen.map((s) => s.name).sort()).toEqual([...names].sort());
    const read = seen.filter((s) => s.pre);
    expect(read.length).toBeGreaterThan(20);
    for (const { name, pre } of read) {
      // Only plain folders holding a skill file: links, non-skills and nested groups are read here.
      expect(name).toMatch(/^(plain|lower|inner)-\d+$|^(big|empty-file|unicode|linked-file)$/);
      const here = readHere(path.join(root, name));
      const { rels, at } = pre!.read;
      expect({ rels, nums: Array.from(pre!.nums.subarray(at, at + rels.length * 6)) }).toEqual({ rels: here.rels, nums: here.nums });
      expect(pre!.walked).toEqual(here.walked);
    }
    // The one-offs take the paths a scan rarely takes (large files, a linked skill file, no text, multi-byte text).
    const byName = new Map(read.map((s) => [s.name, s.pre!]));
    for (const name of ['big', 'unicode', 'linked-file', 'empty-file']) {
      if (!byName.has(name)) continue; // this thread happened to read it: compared by the CLI test below
      const walked = byName.get(name)!.walked;
      if (name === 'big') expect(walked.skillFiles.get('SKILL.md')!.length).toBeGreaterThan(1 << 20);
      if (name === 'unicode') expect(walked.skillFiles.get('SKILL.md')).toContain('本文 ✓');
    }
  });

  it('for lint, sends each skill folder as lint walks it here: texts, no hashes, no stat rows', async () => {
    const listing = await listRoot(root);
    const names = listing.names;
    const kinds = names.map((n) => listing.kinds.get(n));
    const seen: Array<{ name: string; walked: WalkResult }> = [];
    await new ReadAhead(script).map({ task: 'lint', rootPath: root, names, kinds, resolutionMs: 0 }, async (i, pre) => {
      if (!pre) await sleep(3);
      if (pre) seen.push({ name: names[i]!, walked: walkFromPlain(pre.read.walk, pre.text) });
      return i;
    });
    expect(seen.length).toBeGreaterThan(20);
    for (const { name, walked } of seen) {
      const dir = path.join(root, name);
      expect(walked).toEqual(walkSkill(dir, { readSkillFile: true, readMarkdown: true, listing: listDir(dir)! }));
      expect(walked.hashes.size).toBe(0);
    }
  });

  it('a reader that fails to start, or takes a chunk and never sends it, loses no child', async () => {
    const names = Array.from({ length: 300 }, (_, i) => `c${i}`);
    const kinds = names.map(() => 'dir' as const);
    const job = { task: 'catalog' as const, rootPath: root, names, kinds, resolutionMs: 0 };
    const failing = path.join(base, 'failing-reader.cjs');
    fs.writeFileSync(failing, "throw new Error('reader broken on purpose');\n");
    const a = await new ReadAhead(failing).map(job, async (i, pre) => (pre ? 'pre' : names[i]));
    expect(a).toEqual(names);
    // Takes the first chunk, then blocks forever without sending: the scan reads it after the stall bound.
    const stalling = path.join(base, 'stalling-reader.cjs');
    fs.writeFileSync(
      stalling,
      "const { workerData } = require('node:worker_threads');\nconst c = new Int32Array(workerData.counter);\nAtomics.add(c, 0, 32);\nAtomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5000);\n",
    );
    const t0 = Date.now();
    const b = await new ReadAhead(stalling, 300).map(job, async (i, pre) => {
      await sleep(1);
      return pre ? 'pre' : names[i];
    });
    expect(b).toEqual(names);
    expect(Date.now() - t0).toBeLessThan(20_000);
  });
});

describe('list --json and lint --json of the built CLI, with and without the reader', () => {
  it('is byte for byte the same, first-ever and from the index it wrote', () => {
    const big = path.join(base, 'many');
    makeRoot(big, 250); // enough children that the reader starts and reads its share
    const run = (home: string, env: Record<string, string>, args = ['list', '--root', big, '--json']) => {
      fs.mkdirSync(path.join(home, 'user'), { recursive: true });
      const r = spawnSync(process.execPath, [path.join(repo, 'bin', 'skilldock.js'), ...args], {
        env: {
          ...process.env,
          HOME: path.join(home, 'user'),
          SKILLDOCK_HOME: path.join(home, 'sd'),
          SKILLDOCK_TRACE_READ_AHEAD: '1',
          ...env,
        },
        encoding: 'utf8',
        maxBuffer: 1 << 28,
        timeout: 120_000,
      });
      expect(r.status, r.stderr).toBe(args[0] === 'lint' ? 1 : 0); // lint: findings (nested skills) exit 1
      return { out: r.stdout.replaceAll(home, '<home>'), err: r.stderr };
    };
    const withReader = run(path.join(base, 'home-a'), {});
    const without = run(path.join(base, 'home-b'), { SKILLDOCK_READ_AHEAD: '0' });
    const m = /read ahead: (\d+) of (\d+) children read by the reader thread/.exec(withReader.err);
    expect(m, withReader.err).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThan(0);
    expect(without.err).not.toContain('read ahead');
    expect(withReader.out).toBe(without.out);
    expect(JSON.parse(withReader.out).entries.length).toBeGreaterThan(1000);
    // The index each wrote answers the next start with the same listing.
    expect(run(path.join(base, 'home-a'), {}).out).toBe(without.out);
    expect(run(path.join(base, 'home-b'), {}).out).toBe(without.out);
    // lint of the same folder too.
    const lint = ['lint', big, '--json'];
    const lintWith = run(path.join(base, 'home-a'), {}, lint);
    expect(lintWith.err).toMatch(/read ahead: [1-9]\d* of \d+ children read by the reader thread/);
    expect(lintWith.out).toBe(run(path.join(base, 'home-b'), { SKILLDOCK_READ_AHEAD: '0' }, lint).out);
  });
});
