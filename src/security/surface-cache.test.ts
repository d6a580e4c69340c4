import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getInventory, inventoryOf, loadSkillSource } from './surface.js';
import { SurfaceCache, folderStamp } from './surface-cache.js';
import { tmpDir, writeSkill } from '../../test/support/security.js';
import { waitFor } from '../../test/support/wait.js';

// The launch-time cache of skill surfaces: reused only while the catalog digest holds and nothing in
// the folder moved (a stat walk when unwatched; folder watches when the catalog is watched).

let dir: string;
let skill: string;
let caches: SurfaceCache<string>[] = [];
beforeEach(() => {
  dir = tmpDir();
  skill = writeSkill(dir, 'tool', '# Tool\n\n```bash\npython scripts/run.py\n```\n', {
    'scripts/run.py': 'print(1)\n',
    'assets/data.txt': 'abc\n',
  });
});
afterEach(() => {
  for (const c of caches) c.clear();
  caches = [];
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A cache with no "recently touched" window (tests cannot age a ctime), counting real reads. */
function counted(watched = false) {
  const cache = new SurfaceCache<string>(100, 0);
  caches.push(cache);
  const get = (digest = 'd1') =>
    cache.get(skill, digest, watched, (beforeList) => inventoryOf(loadSkillSource(skill, { beforeList })).digest);
  return { cache, get, reads: () => cache.reads };
}

/** File events reach the cache asynchronously. */
const FILE_EVENT = { timeoutMs: 3000, intervalMs: 5, what: 'a file event' };

describe('SurfaceCache, unwatched folder (stat walk)', () => {
  it('reuses the surface while the folder is unchanged', () => {
    const c = counted();
    const first = c.get();
    expect(c.get()).toBe(first);
    expect(c.get()).toBe(first);
    expect(c.reads()).toBe(1);
    expect(c.cache.stampChecks).toBe(2);
  });

  it('re-reads when the catalog digest changes', () => {
    const c = counted();
    c.get('d1');
    c.get('d2');
    expect(c.reads()).toBe(2);
  });

  it('re-reads after a same-size edit whose mtime was put back (ctime moved)', () => {
    const c = counted();
    const before = c.get();
    const file = path.join(skill, 'scripts', 'run.py');
    const { atime, mtime } = fs.statSync(file);
    fs.writeFileSync(file, 'print(2)\n');
    fs.utimesSync(file, atime, mtime);
    const after = c.get();
    expect(c.reads()).toBe(2);
    expect(after).not.toBe(before);
  });

  it('re-reads after chmod +x, a new file, a removed file, a renamed folder swapped in', () => {
    const c = counted();
    c.get();
    fs.chmodSync(path.join(skill, 'assets', 'data.txt'), 0o755);
    c.get();
    fs.writeFileSync(path.join(skill, 'assets', 'new.sh'), 'echo\n');
    c.get();
    fs.rmSync(path.join(skill, 'assets', 'new.sh'));
    c.get();
    const other = writeSkill(dir, 'other', '# Tool\n\n```bash\npython scripts/run.py\n```\n', {
      'scripts/run.py': 'print(1)\n',
      'assets/data.txt': 'abc\n',
    });
    fs.renameSync(skill, path.join(dir, 'old'));
    fs.renameSync(other, skill);
    c.get();
    expect(c.reads()).toBe(5);
  });

  it('does not keep what it read from a folder touched in the last moments', () => {
    const cache = new SurfaceCache<number>(); // default window
    let reads = 0;
    cache.get(skill, 'd1', false, () => ++reads);
    cache.get(skill, 'd1', false, () => ++reads);
    expect(reads).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('stamps without reading contents and gives up on a missing folder', () => {
    const a = folderStamp(skill)!;
    expect(a.names).toContain('fscripts/run.py');
    expect(folderStamp(path.join(dir, 'missing'))).toBeNull();
  });
});

describe('SurfaceCache, watched folder (catalog digest + folder watches)', () => {
  it('reuses the surface without touching the disk', () => {
    const c = counted(true);
    const first = c.get();
    expect(c.get()).toBe(first);
    expect(c.get()).toBe(first);
    expect(c.reads()).toBe(1);
    expect(c.cache.stampChecks).toBe(0); // not even a stat walk
    expect(c.cache.holds(skill)).toBe(true);
  });

  it('keeps it even for a folder written a moment ago (no 2 s window: the watch started before the read)', () => {
    const cache = new SurfaceCache<number>(); // default window
    caches.push(cache as unknown as SurfaceCache<string>);
    let reads = 0;
    const read = (beforeList?: (abs: string) => void) => {
      loadSkillSource(skill, { beforeList });
      return ++reads;
    };
    cache.get(skill, 'd1', true, read);
    cache.get(skill, 'd1', true, read);
    expect(reads).toBe(1);
  });

  it('re-reads when the catalog digest changes', () => {
    const c = counted(true);
    c.get('d1');
    c.get('d2');
    expect(c.reads()).toBe(2);
  });

  it('re-reads after what the catalog digest ignores: chmod +x alone, an edit with its mtime put back', async () => {
    const c = counted(true);
    const before = c.get();
    const data = path.join(skill, 'assets', 'data.txt');
    const t = fs.statSync(data);
    fs.chmodSync(data, 0o755);
    fs.utimesSync(data, t.atime, t.mtime);
    await waitFor(() => !c.cache.holds(skill), FILE_EVENT);
    const afterChmod = c.get();
    expect(c.reads()).toBe(2);
    expect(afterChmod).not.toBe(before);
    expect(getInventory(skill).digest).toBe(afterChmod);

    const script = path.join(skill, 'scripts', 'run.py');
    const s = fs.statSync(script);
    fs.writeFileSync(script, 'print(3)\n'); // same size
    fs.utimesSync(script, s.atime, s.mtime);
    await waitFor(() => !c.cache.holds(skill), FILE_EVENT);
    expect(c.get()).not.toBe(afterChmod);
    expect(c.reads()).toBe(3);
  });

  it('re-reads after a file is added in a subfolder, or the folder is swapped for another', async () => {
    const c = counted(true);
    c.get();
    fs.writeFileSync(path.join(skill, 'assets', 'new.sh'), '#!/bin/sh\necho\n');
    await waitFor(() => !c.cache.holds(skill), FILE_EVENT);
    c.get();
    expect(c.reads()).toBe(2);
    const other = writeSkill(dir, 'other', '# Other\n', {});
    fs.renameSync(skill, path.join(dir, 'old'));
    fs.renameSync(other, skill);
    await waitFor(() => !c.cache.holds(skill), FILE_EVENT);
    c.get();
    expect(c.reads()).toBe(3);
  });

  it('an unwatched lookup of a value kept under watch proves it by a stat walk first', () => {
    const c = counted(true);
    c.get();
    const unwatched = () => c.cache.get(skill, 'd1', false, () => 'fresh');
    expect(unwatched()).toBe('fresh'); // no stamp was kept under watch: read again
    expect(c.reads()).toBe(2);
  });
});
