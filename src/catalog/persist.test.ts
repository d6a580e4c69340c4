import { isDeepStrictEqual } from 'node:util';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Catalog } from '../contract/index.js';
import { encodeIndex, parseIndex } from './persist.js';
import { statRows } from './stat-rows.js';
import { catalogFor, countingAnalyze, sandbox, writeSkill, type Sandbox } from '../../test/support/catalog.js';
import { sleep } from '../../test/support/wait.js';

// The persistent catalog index against real files: used when valid, rebuilt when in doubt, and in
// every case the listing equals a scan that never saw an index.

let sb: Sandbox;
const env = { ...process.env };
beforeEach(() => {
  sb = sandbox();
  // Files made by the test are seconds old at most: a short racy margin keeps them trusted.
  process.env.SKILLDOCK_INDEX_RACY_MS = '30';
  delete process.env.SKILLDOCK_INDEX_RESOLUTION_NS;
});
afterEach(async () => {
  process.env = { ...env };
  await sb.cleanup();
});

const lib = () => path.join(sb.paths.home, 'library');
const indexDir = () => path.join(sb.paths.home, 'cache', 'catalog');

function makeLibrary(): void {
  for (const n of ['alpha', 'beta', 'gamma', 'delta']) writeSkill(path.join(lib(), n));
  const s = path.join(lib(), 'gamma', 'scripts');
  fs.mkdirSync(s);
  fs.writeFileSync(path.join(s, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o644 });
  fs.mkdirSync(path.join(lib(), 'not-a-skill', 'inner'), { recursive: true });
  writeSkill(path.join(lib(), 'group', 'nested-one'));
}

/** What a listing says, without the per-service generation. */
function view(c: Catalog): unknown {
  return { entries: c.entries, rootDiagnostics: c.rootDiagnostics, roots: c.roots };
}

/** A scan by a service that neither reads nor writes the index. */
async function plainScan(): Promise<unknown> {
  const svc = catalogFor(sb, { index: false });
  return view(await svc.list());
}

/** A fresh service (a cold process as far as the catalog knows) over the index: listing and reads. */
async function indexedScan(): Promise<{ listing: unknown; reads: string[] }> {
  const spy = countingAnalyze();
  const svc = catalogFor(sb, { analyze: spy.analyze, index: true });
  return { listing: view(await svc.list()), reads: spy.calls.map((d) => path.basename(d)) };
}

function indexFile(): string {
  const files = fs.readdirSync(indexDir()).filter((f) => f.endsWith('.idx'));
  const lib = files.filter((f) => {
    const body = parseIndex(fs.readFileSync(path.join(indexDir(), f)));
    return body?.root === path.join(sb.paths.home, 'library');
  });
  expect(lib).toHaveLength(1);
  return path.join(indexDir(), lib[0]);
}

async function primed(): Promise<void> {
  makeLibrary();
  await sleep(60); // older than the racy margin
  const first = await indexedScan();
  expect(first.reads.sort()).toEqual(['alpha', 'beta', 'delta', 'gamma']);
  await sleep(60);
}

describe('persistent catalog index', () => {
  it('a cold service with a valid index reads no skill; after one change it reads that one', async () => {
    await primed();
    const warm = await indexedScan();
    expect(warm.reads).toEqual([]);
    expect(warm.listing).toEqual(await plainScan());

    writeSkill(path.join(lib(), 'beta'), { description: 'Beta now says something else entirely. Use when asked.' });
    await sleep(60);
    const after = await indexedScan();
    expect(after.reads).toEqual(['beta']);
    expect(after.listing).toEqual(await plainScan());
    expect(JSON.stringify(after.listing)).toContain('Beta now says');
    // A small library's index took the re-read skill back: the next cold start reads nothing.
    await sleep(60);
    const next = await indexedScan();
    expect(next.reads).toEqual([]);
    expect(next.listing).toEqual(after.listing);
  });

  it('a service started from the index re-reads only what changed when refreshed later', async () => {
    await primed();
    const spy = countingAnalyze();
    const svc = catalogFor(sb, { analyze: spy.analyze, index: true });
    await svc.list();
    expect(spy.calls).toEqual([]);
    // Records from the index carry stat rows, no signature: a refresh checks them by their rows.
    expect((await svc.refresh()).changed).toEqual([]);
    expect(spy.calls).toEqual([]);
    fs.chmodSync(path.join(lib(), 'gamma', 'scripts', 'run.sh'), 0o755);
    writeSkill(path.join(lib(), 'beta'), { description: 'Beta changed while the service ran. Use when asked.' });
    const change = await svc.refresh();
    // gamma is read again (its mode moved); only beta's entry differs.
    expect(change.changed.map((id) => id.split('/').pop())).toEqual(['beta']);
    expect(spy.calls.map((d) => path.basename(d)).sort()).toEqual(['beta', 'gamma']);
    expect(view(await svc.list())).toEqual(await plainScan());
  });

  it('the rows kept are those of a full stat walk, taken while the scan reads (no second walk)', async () => {
    makeLibrary();
    const rich = writeSkill(path.join(lib(), 'rich'));
    fs.mkdirSync(path.join(rich, 'references', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(rich, 'references', 'a.md'), '# A\n');
    fs.writeFileSync(path.join(rich, 'references', 'deep', 'b.md'), '# B\n');
    fs.symlinkSync('references/a.md', path.join(rich, 'link.md'));
    fs.mkdirSync(path.join(rich, '.git'));
    fs.writeFileSync(path.join(rich, '.git', 'HEAD'), 'ref: x\n');
    await sleep(60);
    await indexedScan();
    const body = parseIndex(fs.readFileSync(indexFile()))!;
    const pairs = (rels: string[], nums: ArrayLike<number>) =>
      rels.map((r, i) => JSON.stringify([r, Array.from(nums).slice(i * 6, i * 6 + 6)])).sort();
    for (const [name, , [rels, nums]] of body.records) {
      const walked = statRows(path.join(lib(), name), 0, name === 'not-a-skill' || name === 'group' ? 1 : Infinity)!;
      expect(pairs(rels, nums), name).toEqual(pairs(walked.rels, walked.nums));
    }
    expect(body.records.find((r) => r[0] === 'rich')![2][0].sort()).toEqual(
      ['@', 'SKILL.md', 'link.md', 'references', 'references/a.md', 'references/deep', 'references/deep/b.md'].sort(),
    );
    // A file added two folders down moves only that folder's mtime: seen, and only rich is read.
    await sleep(60);
    fs.writeFileSync(path.join(rich, 'references', 'deep', 'c.md'), '# C\n');
    await sleep(60);
    const r = await indexedScan();
    expect(r.reads).toEqual(['rich']);
    expect(r.listing).toEqual(await plainScan());
  });

  it('a truncated index is rebuilt from disk', async () => {
    await primed();
    const file = indexFile();
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2));
    const r = await indexedScan();
    expect(r.reads).toHaveLength(4);
    expect(r.listing).toEqual(await plainScan());
    // and rewritten whole: the next cold start trusts it again
    expect(parseIndex(fs.readFileSync(indexFile()))).not.toBeNull();
    expect((await indexedScan()).reads).toEqual([]);
  });

  it('an index whose data never reached the disk (zeros, or zeros after the header) is rebuilt', async () => {
    // The save does not fsync: after a crash the renamed file may hold zeros where its data was.
    await primed();
    const file = indexFile();
    const raw = fs.readFileSync(file);
    const headerEnd = raw.indexOf(10) + 1;
    for (const from of [0, headerEnd]) {
      fs.writeFileSync(file, Buffer.concat([raw.subarray(0, from), Buffer.alloc(raw.length - from)]));
      const r = await indexedScan();
      expect(r.reads).toHaveLength(4);
      expect(r.listing).toEqual(await plainScan());
    }
    expect((await indexedScan()).reads).toEqual([]);
  });

  it('a flipped byte fails the checksum and nothing of it is trusted', async () => {
    await primed();
    const file = indexFile();
    const raw = fs.readFileSync(file);
    // Flip a byte inside a description, where the JSON still parses: only the checksum can tell.
    const at = raw.indexOf('Does alpha things');
    expect(at).toBeGreaterThan(0);
    raw[at] ^= 0x20;
    fs.writeFileSync(file, raw);
    const r = await indexedScan();
    expect(r.reads).toHaveLength(4);
    expect(r.listing).toEqual(await plainScan());
    expect(JSON.stringify(r.listing)).not.toContain('does alpha things');
  });

  it('a flipped byte among the stat numbers fails the checksum too', async () => {
    await primed();
    const file = indexFile();
    const raw = fs.readFileSync(file);
    raw[raw.length - 3] ^= 0x01; // inside the last row's mode or ctime: a stat that would differ
    fs.writeFileSync(file, raw);
    expect(parseIndex(raw)).toBeNull();
    const r = await indexedScan();
    expect(r.reads).toHaveLength(4);
    expect(r.listing).toEqual(await plainScan());
  });

  it('an index from another engine or rule table is not trusted', async () => {
    await primed();
    const file = indexFile();
    const body = parseIndex(fs.readFileSync(file))!;
    // Another version, with its entries altered: a valid file that must still not be believed.
    const forged = JSON.parse(JSON.stringify(body).replaceAll('Does alpha things', 'Forged alpha text')) as typeof body;
    forged.key = `9.9.9|other|${body.key.split('|')[2]}`;
    fs.writeFileSync(file, encodeIndex(forged));
    expect(parseIndex(fs.readFileSync(file))).not.toBeNull();
    const r = await indexedScan();
    expect(r.reads).toHaveLength(4);
    expect(r.listing).toEqual(await plainScan());
    expect(JSON.stringify(r.listing)).not.toContain('Forged');
  });

  it('racy: a file changed within the same timestamp tick as the index write is read again', async () => {
    // A filesystem with 1 s timestamps (ext3, HFS+): stats alone cannot tell this edit apart.
    process.env.SKILLDOCK_INDEX_RESOLUTION_NS = String(1_000_000_000);
    process.env.SKILLDOCK_INDEX_RACY_MS = '0';
    makeLibrary();
    const file = path.join(lib(), 'alpha', 'SKILL.md');
    const text = fs.readFileSync(file, 'utf8');
    const edited = text.replace('Does alpha things', 'Does alpha THINGS');
    expect(edited.length).toBe(text.length);
    // Start at the beginning of a second so the scan and the edit share it. On a loaded machine the
    // scan can run past the second (or the rows can differ): then the racy case was not produced,
    // and the setup is tried again, a bounded number of times.
    let produced = false;
    for (let attempt = 0; attempt < 6 && !produced; attempt++) {
      for (let i = 0; i < 30 && Date.now() % 1000 > 100; i++) await sleep(40);
      fs.writeFileSync(file, text); // fresh timestamps in this second
      // A new index each attempt: one that failed keeps its old rows (a single re-read skill does not rewrite it).
      fs.rmSync(indexDir(), { recursive: true, force: true });
      await indexedScan();
      fs.writeFileSync(file, edited);
      const sameTick = Math.floor(fs.statSync(file).mtimeMs / 1000) === Math.floor(fs.statSync(indexFile()).mtimeMs / 1000);
      // The stored rows match the edited file: only the racy rule can catch it.
      const body = parseIndex(fs.readFileSync(indexFile()))!;
      const [, , [rels, nums]] = body.records.find((r) => r[0] === 'alpha')!;
      produced = sameTick && isDeepStrictEqual(statRows(path.join(lib(), 'alpha'), 0, Infinity), { rels, nums, at: 0 });
    }
    expect(produced, 'an edit in the same timestamp tick as the index write, with the same stat rows').toBe(true);
    const r = await indexedScan();
    expect(r.reads).toContain('alpha');
    expect(r.listing).toEqual(await plainScan());
    expect(JSON.stringify(r.listing)).toContain('Does alpha THINGS');
  });

  it('a mode-only change (chmod +x) is seen', async () => {
    await primed();
    fs.chmodSync(path.join(lib(), 'gamma', 'scripts', 'run.sh'), 0o755);
    const r = await indexedScan();
    expect(r.reads).toEqual(['gamma']);
    expect(r.listing).toEqual(await plainScan());
  });

  it('a skill folder replaced by a link to a copy is seen as linked', async () => {
    await primed();
    const elsewhere = path.join(sb.base, 'elsewhere', 'delta');
    fs.mkdirSync(path.dirname(elsewhere), { recursive: true });
    fs.cpSync(path.join(lib(), 'delta'), elsewhere, { recursive: true, preserveTimestamps: true });
    fs.rmSync(path.join(lib(), 'delta'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(lib(), 'delta'));
    await sleep(60);
    const r = await indexedScan();
    expect(r.reads).toEqual(['delta']);
    expect(r.listing).toEqual(await plainScan());
    expect(JSON.stringify(r.listing)).toContain(elsewhere);
  });

  it('a new skill and a nested one below a plain folder show up', async () => {
    await primed();
    writeSkill(path.join(lib(), 'epsilon'));
    writeSkill(path.join(lib(), 'not-a-skill', 'inner'));
    await sleep(60);
    const r = await indexedScan();
    expect(r.reads.sort()).toEqual(['epsilon']);
    expect(r.listing).toEqual(await plainScan());
    expect(JSON.stringify(r.listing)).toContain('inner');
  });

  it('two processes writing the index at once leave a valid one', async () => {
    const cli = fileURLToPath(new URL('../../bin/skilldock.js', import.meta.url));
    const root = path.join(sb.base, 'many');
    for (let i = 0; i < 60; i++) writeSkill(path.join(root, `s${String(i).padStart(2, '0')}`));
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const p = spawn(process.execPath, [cli, 'list', '--root', root, '--json'], {
          env: { ...process.env, SKILLDOCK_HOME: sb.paths.home, SKILLDOCK_USER_HOME: sb.paths.userHome, HOME: sb.paths.userHome },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        p.stdout.on('data', (d) => (out += d));
        const timer = setTimeout(() => p.kill(), 30_000);
        p.on('close', (code) => {
          clearTimeout(timer);
          if (code === 0) resolve(out);
          else reject(new Error(`exit ${code}`));
        });
      });
    const dir = indexDir();
    for (let round = 0; round < 3; round++) {
      fs.rmSync(dir, { recursive: true, force: true });
      const [a, b] = await Promise.all([run(), run()]);
      const entries = (s: string) => (JSON.parse(s) as Catalog).entries;
      expect(entries(a)).toEqual(entries(b));
      const files = fs.readdirSync(dir);
      expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
      const bodies = files.map((f) => parseIndex(fs.readFileSync(path.join(dir, f))));
      expect(bodies.every((x) => x !== null)).toBe(true);
      const mine = bodies.find((x) => x!.root === root)!;
      expect(mine.records).toHaveLength(60);
      // a third process over that index lists the same
      expect(entries(await run())).toEqual(entries(a));
    }
  }, 60_000);
});
